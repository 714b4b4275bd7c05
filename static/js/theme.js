// Applies the reader's saved theme before first paint (loaded in <head>, no inline script).
(function () {
  try {
    var saved = localStorage.getItem("papershelf-theme");
    if (saved === "light" || saved === "dark") document.documentElement.setAttribute("data-theme", saved);
  } catch (e) { /* storage unavailable: follow the system setting */ }
})();
