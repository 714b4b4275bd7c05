// The reading list: papers saved in this browser (localStorage), on every page.
//
// * Every `.save-button` (paper pages, list pages, search results) toggles its paper in the
//   list; clicks are handled by delegation on document, so buttons added later (search
//   results) work too, and a MutationObserver brings new buttons in sync (aria-pressed and
//   the label "Save"/"Saved").
// * The header shows how many papers are saved.
// * The list's own page, /reading-list/, is static/js/reading-list-page.js, which this file
//   loads there (only there) and which uses window.PapershelfReadingList (below).
//
// Storage (one key per catalog): a JSON array of {s: slug, t: title as saved, n?: note}.
// `n` came with the notes; lists saved before them ({s, t}) read as lists without notes.
// Nothing leaves the browser; no server is involved.
(function () {
  "use strict";
  var base = document.body.getAttribute("data-base") || "/";
  var KEY = "papershelf-reading-list:" + base; // one list per catalog, even on a shared host
  var SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  var MAX_ITEMS = 5000;
  var MAX_NOTE = 10000; // characters of one note

  /* ------------------------------------------------------------------ storage */

  var memory = null; // used when localStorage is unavailable (private mode, blocked storage)

  function clean(value) {
    var seen = {};
    var out = [];
    if (!Array.isArray(value)) return out;
    value.forEach(function (entry) {
      if (!entry || typeof entry.s !== "string" || !SLUG.test(entry.s) || entry.s.length > 80 || seen[entry.s]) return;
      seen[entry.s] = true;
      var kept = { s: entry.s, t: typeof entry.t === "string" ? entry.t.slice(0, 500) : "" };
      if (typeof entry.n === "string" && entry.n.trim()) kept.n = entry.n.slice(0, MAX_NOTE);
      out.push(kept);
    });
    return out.slice(0, MAX_ITEMS);
  }

  function load() {
    if (memory) return memory.map(function (e) { return Object.assign({}, e); });
    try { return clean(JSON.parse(localStorage.getItem(KEY) || "[]")); } catch (e) { return []; }
  }

  function store(items) {
    items = clean(items);
    try { localStorage.setItem(KEY, JSON.stringify(items)); memory = null; } catch (e) { memory = items; }
    syncAll();
    return items;
  }

  function indexOf(items, slug) {
    for (var i = 0; i < items.length; i++) if (items[i].s === slug) return i;
    return -1;
  }

  /* ------------------------------------------------------------ save buttons */

  // A list page's items (rendered by the build: no data-slug) carry no Save button (without
  // JavaScript it could do nothing, and a list repeats it for every paper): each gets one
  // here, after its PDF link, for the paper its title links to (the last segment of the
  // link's path is the paper's slug). In an item whose parts static/js/list.js took out of
  // the Tab order, the button is out of it too.
  function addSaveButton(item) {
    if (item.querySelector(".save-button")) return;
    var link = item.querySelector(":scope > h3 a[href]");
    if (!link) return;
    var path = link.getAttribute("href").replace(/[?#].*$/, "").replace(/\/+$/, "");
    var slug = path.slice(path.lastIndexOf("/") + 1);
    if (!SLUG.test(slug)) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "save-button";
    button.setAttribute("data-slug", slug);
    button.setAttribute("data-title", link.textContent.replace(/\s+/g, " ").trim());
    button.setAttribute("aria-pressed", "false");
    button.textContent = "Save";
    if (item.querySelector('[tabindex="-1"]')) button.tabIndex = -1;
    var after = item.querySelector(".pdf-link, .find-link");
    if (after && after.parentNode === item) item.insertBefore(button, after.nextSibling);
    else item.appendChild(button);
  }

  function addSaveButtons(root) {
    var items = root.matches && root.matches(".paper-item:not([data-slug])") ? [root]
      : root.querySelectorAll ? root.querySelectorAll(".paper-item:not([data-slug])") : [];
    Array.prototype.forEach.call(items, function (item) { if (!item.closest("template")) addSaveButton(item); });
  }

  // The header's count of saved papers, in the navigation's link to the reading list.
  var navLink = document.querySelector('.site-nav a[href$="reading-list/"]');
  if (navLink && !navLink.querySelector("[data-reading-list-count]")) {
    var count = document.createElement("span");
    count.className = "reading-list-count";
    count.setAttribute("data-reading-list-count", "");
    count.hidden = true;
    navLink.appendChild(document.createTextNode(" "));
    navLink.appendChild(count);
  }
  // A paper page's own button is made here, at the end of its actions (without JavaScript
  // there is no reading list, and a page written for each of a catalog's papers is smaller
  // without it): it is the page's paper, the last segment of its canonical URL, with the
  // title of its citation_title (each name is said once on a page).
  (function () {
    var actions = document.querySelector(".paper-header .paper-actions");
    var canonical = document.querySelector('link[rel="canonical"]');
    var title = document.querySelector('meta[name="citation_title"]');
    if (!actions || !canonical) return;
    var path = new URL(canonical.getAttribute("href"), location.href).pathname.replace(/\/+$/, "");
    var slug = path.slice(path.lastIndexOf("/") + 1);
    if (!SLUG.test(slug)) return;
    var button = actions.querySelector(".save-button"); // (a theme's own paper.html may have one)
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "save-button";
      button.hidden = true;
      button.setAttribute("aria-pressed", "false");
      button.textContent = "Save";
      actions.appendChild(button);
    }
    button.setAttribute("data-slug", slug);
    button.setAttribute("data-title", title ? title.getAttribute("content") : slug);
  })();
  addSaveButtons(document);

  function syncButton(button, entry) {
    var slug = button.getAttribute("data-slug");
    if (entry === undefined) { var items = load(); entry = items[indexOf(items, slug)] || null; }
    var saved = !!entry;
    var label = saved ? "Saved" : "Save";
    var title = button.getAttribute("data-title") || slug;
    if (button.textContent !== label) button.textContent = label;
    button.setAttribute("aria-pressed", saved ? "true" : "false");
    button.setAttribute("aria-label", label + ": " + title);
    button.title = !saved ? "Add to your reading list"
      : entry.n ? "Remove from your reading list, with your note" : "Remove from your reading list";
    if (button.hidden) button.hidden = false;
  }

  function bySlug(items) {
    var found = {};
    items.forEach(function (entry) { found[entry.s] = entry; });
    return found;
  }

  function syncAll() {
    var items = load();
    var saved = bySlug(items);
    Array.prototype.forEach.call(document.querySelectorAll(".save-button[data-slug]"), function (button) {
      syncButton(button, saved[button.getAttribute("data-slug")] || null);
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-reading-list-count]"), function (node) {
      node.textContent = items.length ? String(items.length) : "";
      node.hidden = !items.length;
      var link = node.parentNode;
      if (link && link.tagName === "A") {
        link.setAttribute("aria-label", "Reading list" + (items.length ? ", " + items.length + " saved" : ""));
      }
    });
  }

  // Papers un-saved on this page: saving one again brings its note back.
  var unsaved = {};

  function toggle(slug, title) {
    var items = load();
    var at = indexOf(items, slug);
    if (at >= 0) {
      unsaved[slug] = items[at];
      items.splice(at, 1);
    } else {
      var before = unsaved[slug];
      items.push(before && before.n ? { s: slug, t: title || before.t, n: before.n } : { s: slug, t: title || "" });
    }
    store(items);
    return at < 0;
  }

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest(".save-button[data-slug]") : null;
    if (!button) return;
    var slug = button.getAttribute("data-slug");
    if (!SLUG.test(slug)) return;
    event.preventDefault();
    toggle(slug, button.getAttribute("data-title"));
    if (page) page.changed();
  });

  // Buttons added after load (search results, the rest of a long list) get the current state.
  if (window.MutationObserver) {
    new MutationObserver(function (mutations) {
      var items = null;
      mutations.forEach(function (mutation) {
        Array.prototype.forEach.call(mutation.addedNodes, function (node) {
          if (node.nodeType !== 1) return;
          addSaveButtons(node);
          var buttons = node.matches && node.matches(".save-button[data-slug]") ? [node]
            : node.querySelectorAll ? node.querySelectorAll(".save-button[data-slug]") : [];
          if (!buttons.length) return;
          if (!items) items = bySlug(load());
          Array.prototype.forEach.call(buttons, function (b) { syncButton(b, items[b.getAttribute("data-slug")] || null); });
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  // Another tab changed the list.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY) { syncAll(); if (page) page.changed(); }
  });

  var page = null; // the list's page, told when the list changes (reading-list-page.js)
  syncAll();

  window.PapershelfReadingList = {
    SLUG: SLUG, MAX_NOTE: MAX_NOTE,
    load: load, store: store, indexOf: indexOf, bySlug: bySlug,
    kept: function () { return !memory; }, // false: this browser keeps no data for this site
    onChange: function (listener) { page = listener; },
  };

  // The list's own page loads its code (a catalog's own reading_list.html too, as long as it
  // keeps #reading-list).
  if (document.getElementById("reading-list")) {
    var script = document.createElement("script");
    script.src = base + "static/js/reading-list-page.js";
    document.body.appendChild(script);
  }
})();
