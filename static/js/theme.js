// Applies the reader's saved theme before the first paint (loaded in <head>; no inline script).
// Without a saved choice the page follows prefers-color-scheme (see site.css).
(function () {
  "use strict";
  try {
    var saved = localStorage.getItem("papershelf-theme");
    if (saved === "light" || saved === "dark") document.documentElement.setAttribute("data-theme", saved);
  } catch (e) { /* storage unavailable: follow the system setting */ }
})();
