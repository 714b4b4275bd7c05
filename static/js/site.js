// Site-wide behaviour: "/" focuses the search box; the light/dark theme toggle.
(function () {
  "use strict";
  var KEY = "papershelf-theme";

  // "/" goes to the page's own search box (the search page's, the home page's, the 404
  // page's) if it has one, else to the header's; a list's "Find in these papers" is a search
  // within the list, not the page's own box.
  function searchBox() {
    return document.querySelector("main form[role=search]:not(.list-find) input[name=q]:not([disabled])") ||
      document.getElementById("header-q");
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
    var box = searchBox();
    if (box) { event.preventDefault(); box.focus(); box.select(); }
  });

  // A search form submitted here opens the search page, whose box then takes the focus, as
  // if the search had been made there (search.js reads this). The search page's own form
  // does not navigate (its submit is handled, so defaultPrevented).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form || !form.matches || !form.matches("form[role=search]")) return;
    try { sessionStorage.setItem("papershelf-search-focus", String(Date.now())); } catch (e) { /* the focus is not carried over */ }
  });

  // The header's quick search, on every page but the search page (whose own box it is): a
  // form to the search page (`data-search`), made here since without JavaScript there is no
  // search (and the form was ~250 bytes of each of a catalog's pages).
  var tools = document.querySelector(".header-tools");
  if (!tools) return;
  var action = tools.getAttribute("data-search");
  if (action) {
    var form = document.createElement("form");
    form.className = "header-search";
    form.setAttribute("role", "search");
    form.setAttribute("aria-label", "Quick search");
    form.setAttribute("action", action);
    form.innerHTML = '<input id="header-q" name="q" type="search" placeholder="Search papers (press /)" ' +
      'aria-label="Search papers" autocomplete="off"><button>Search</button>';
    tools.appendChild(form);
  }

  // The theme toggle: a button pressed when the dark theme is on. The choice is remembered;
  // until the reader makes one, the page follows the system's prefers-color-scheme.
  // The button is made here (without JavaScript it could do nothing): the header's tools
  // hold it, after the quick search.
  var button = document.createElement("button");
  button.type = "button";
  button.className = "theme-toggle";
  button.id = "theme-toggle";
  button.innerHTML = '<span class="theme-toggle-icon" aria-hidden="true"></span><span class="theme-toggle-label">Dark theme</span>';
  tools.appendChild(button);
  var root = document.documentElement;
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function current() {
    var set = root.getAttribute("data-theme");
    if (set === "light" || set === "dark") return set;
    return media && media.matches ? "dark" : "light";
  }
  function sync() { button.setAttribute("aria-pressed", current() === "dark" ? "true" : "false"); }

  button.addEventListener("click", function () {
    var next = current() === "dark" ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem(KEY, next); } catch (e) { /* not remembered, still applied */ }
    sync();
  });
  if (media) {
    var onChange = function () { sync(); };
    if (media.addEventListener) media.addEventListener("change", onChange);
    else if (media.addListener) media.addListener(onChange);
  }
  // Another tab changed the theme.
  window.addEventListener("storage", function (event) {
    if (event.key !== KEY) return;
    if (event.newValue === "light" || event.newValue === "dark") root.setAttribute("data-theme", event.newValue);
    else root.removeAttribute("data-theme");
    sync();
  });
  sync();
})();
