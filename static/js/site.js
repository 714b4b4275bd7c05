// Site-wide behaviour: "/" focuses the search box; the theme toggle.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
    var box = document.getElementById("search-input") || document.getElementById("header-q");
    if (box) { event.preventDefault(); box.focus(); box.select(); }
  });

  var nav = document.querySelector(".header-inner");
  if (!nav) return;
  var button = document.createElement("button");
  button.type = "button";
  button.className = "theme-toggle";
  function current() {
    var set = document.documentElement.getAttribute("data-theme");
    if (set) return set;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function label() {
    var next = current() === "dark" ? "light" : "dark";
    button.textContent = next === "dark" ? "Dark theme" : "Light theme";
    button.setAttribute("aria-label", "Switch to " + next + " theme");
  }
  button.addEventListener("click", function () {
    var next = current() === "dark" ? "light" : "dark";
    document.documentElement.setAttribute("data-theme", next);
    try { localStorage.setItem("papershelf-theme", next); } catch (e) { /* not remembered */ }
    label();
  });
  label();
  nav.appendChild(button);
})();
