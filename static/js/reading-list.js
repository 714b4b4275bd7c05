// The reading list: papers saved in this browser (localStorage), on every page.
//
// * Every `.save-button` (paper pages, list pages, search results) toggles its paper in the
//   list; clicks are handled by delegation on document, so buttons added later (search
//   results) work too, and a MutationObserver brings new buttons in sync (aria-pressed and
//   the label "Save"/"Saved").
// * The header shows how many papers are saved.
// * On /reading-list/ the saved papers are listed as list pages list them (the page's
//   <template>, filled by static/js/paper-item.js, with data from reading-list/data/<n>.json,
//   fetched only for the papers needed), exported as BibTeX (each paper's own
//   papers/<slug>/<slug>.bib; an error names those that cannot be fetched), shared as a
//   link (?papers=slug1,slug2) and imported from such a link after the reader confirms.
// Nothing leaves the browser; no server is involved.
(function () {
  "use strict";
  var base = document.body.getAttribute("data-base") || "/";
  var KEY = "papershelf-reading-list:" + base; // one list per catalog, even on a shared host
  var SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  var MAX_ITEMS = 5000;
  var MAX_IMPORT = 500;

  /* ------------------------------------------------------------------ storage */

  var memory = null; // used when localStorage is unavailable (private mode, blocked storage)

  function clean(value) {
    var seen = {};
    var out = [];
    if (!Array.isArray(value)) return out;
    value.forEach(function (entry) {
      if (!entry || typeof entry.s !== "string" || !SLUG.test(entry.s) || entry.s.length > 80 || seen[entry.s]) return;
      seen[entry.s] = true;
      out.push({ s: entry.s, t: typeof entry.t === "string" ? entry.t.slice(0, 500) : "" });
    });
    return out.slice(0, MAX_ITEMS);
  }

  function load() {
    if (memory) return memory.slice();
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

  function syncButton(button, saved) {
    var slug = button.getAttribute("data-slug");
    if (saved === undefined) saved = indexOf(load(), slug) >= 0;
    var label = saved ? "Saved" : "Save";
    var title = button.getAttribute("data-title") || slug;
    if (button.textContent !== label) button.textContent = label;
    button.setAttribute("aria-pressed", saved ? "true" : "false");
    button.setAttribute("aria-label", label + ": " + title);
    button.title = saved ? "Remove from your reading list" : "Add to your reading list";
    if (button.hidden) button.hidden = false;
  }

  function syncAll() {
    var items = load();
    var saved = {};
    items.forEach(function (entry) { saved[entry.s] = true; });
    Array.prototype.forEach.call(document.querySelectorAll(".save-button[data-slug]"), function (button) {
      syncButton(button, !!saved[button.getAttribute("data-slug")]);
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

  function toggle(slug, title) {
    var items = load();
    var at = indexOf(items, slug);
    if (at >= 0) items.splice(at, 1); else items.push({ s: slug, t: title || "" });
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
  });

  // Buttons added after load (search results, the rest of a long list) get the current state.
  if (window.MutationObserver) {
    new MutationObserver(function (mutations) {
      var items = null;
      mutations.forEach(function (mutation) {
        Array.prototype.forEach.call(mutation.addedNodes, function (node) {
          if (node.nodeType !== 1) return;
          var buttons = node.matches && node.matches(".save-button[data-slug]") ? [node]
            : node.querySelectorAll ? node.querySelectorAll(".save-button[data-slug]") : [];
          if (!buttons.length) return;
          if (!items) { items = {}; load().forEach(function (e) { items[e.s] = true; }); }
          Array.prototype.forEach.call(buttons, function (b) { syncButton(b, !!items[b.getAttribute("data-slug")]); });
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  // Another tab changed the list.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY) { syncAll(); if (page) page.render(); }
  });

  var page = null;
  syncAll();

  /* ------------------------------------------------------- the list's page */

  var app = document.getElementById("reading-list");
  if (!app) return;

  var shardCount = Math.max(1, parseInt(app.getAttribute("data-shards"), 10) || 1);
  var shardCache = {};

  function shardOf(slug) { // pages.shard_of in Python
    var h = 0;
    for (var i = 0; i < slug.length; i++) h = (Math.imul(h, 31) + slug.charCodeAt(i)) >>> 0;
    return h % shardCount;
  }

  function fetchShard(n) {
    if (!shardCache[n]) {
      shardCache[n] = fetch(app.getAttribute("data-url-data").replace("{n}", String(n))).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      });
    }
    return shardCache[n];
  }

  // A record as this page's build writes it (pages.reading_list_shards, render.py):
  // {t: title, a: author names, u: their slugs, v: [venue id, name, full name, year],
  // g: [[tag id, name]], p?: presentation, x?: provisional}. A data file cached from an
  // older build may hold another shape: such a record is treated as missing, not used.
  function wellFormed(r) {
    return !!r && typeof r.t === "string" && Array.isArray(r.a) && Array.isArray(r.u) &&
      r.a.length === r.u.length && Array.isArray(r.v) && r.v.length === 4 && Array.isArray(r.g) &&
      r.g.every(Array.isArray);
  }

  // {slug: record or null} for the given slugs, and whether some could not be loaded.
  function records(slugs) {
    var wanted = {};
    slugs.forEach(function (s) { wanted[shardOf(s)] = true; });
    var numbers = Object.keys(wanted);
    return Promise.all(numbers.map(function (n) {
      return fetchShard(n).catch(function () { return null; });
    })).then(function (shards) {
      var found = {};
      var failed = shards.some(function (s) { return s === null; });
      var merged = {};
      shards.forEach(function (s) { if (s) Object.keys(s).forEach(function (k) { merged[k] = s[k]; }); });
      slugs.forEach(function (s) {
        var r = Object.prototype.hasOwnProperty.call(merged, s) ? merged[s] : null;
        if (r !== null && !wellFormed(r)) { r = null; failed = true; }
        found[s] = r;
      });
      return { records: found, failed: failed };
    });
  }

  var $ = function (id) { return document.getElementById(id); };
  var listNode = $("rl-items");
  var status = $("rl-status");
  var toolbar = $("rl-toolbar");
  var empty = $("rl-empty");
  var bibBox = $("rl-bibtex-box");
  var bibText = $("rl-bibtex");
  var shareBox = $("rl-share-box");
  var shareInput = $("rl-share-url");
  var undo = null; // the list before the last removal, for "Undo"

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function say(text, undoable) {
    status.textContent = text;
    if (undoable) {
      var button = el("button", "button-link undo-button", "Undo");
      button.type = "button";
      button.addEventListener("click", function () {
        if (!undo) return;
        store(undo);
        undo = null;
        status.textContent = "";
        render().then(function () { say("Restored."); });
      });
      status.appendChild(document.createTextNode(" "));
      status.appendChild(button);
    }
  }

  // A saved paper is a list item as list pages have it (static/js/paper-item.js fills the
  // page's <template>, whose button here is "Remove"). Records: see reading_list_record in
  // generator/outputs/render.py.
  function paperItem(entry, record) {
    var title = (record && record.t) || entry.t || entry.s;
    var item = window.PapershelfItem.make(record ? {
      slug: entry.s,
      title: title,
      authors: record.a.map(function (name, i) { return { name: name, slug: record.u[i] }; }),
      venue: { id: record.v[0], name: record.v[1], full: record.v[2], year: record.v[3] },
      presentation: record.p || null,
      provisional: !!record.x,
      tags: record.g.map(function (t) { return { id: t[0], name: t[1] }; }),
    } : {
      slug: entry.s, title: title, authors: [], venue: null, tags: [],
      unknown: "Details unavailable (not in this catalog any more, or offline).",
    });
    item.classList.add("reading-list-item");
    var remove = item.querySelector(".remove-button");
    remove.setAttribute("aria-label", "Remove: " + title);
    remove.addEventListener("click", function () {
      var items = load();
      var at = indexOf(items, entry.s);
      if (at < 0) return;
      undo = items.slice();
      items.splice(at, 1);
      store(items);
      render().then(function () {
        var next = listNode.querySelectorAll(".remove-button")[Math.min(at, items.length - 1)];
        if (next) next.focus(); else (toolbar.hidden ? empty : toolbar).querySelector("a, button").focus();
        say("Removed “" + title + "”.", true);
      });
    });
    return item;
  }

  var current = { items: [], records: {} };

  function render() {
    var items = load();
    var slugs = items.map(function (e) { return e.s; });
    return records(slugs).then(function (result) {
      current = { items: items, records: result.records };
      var fragment = document.createDocumentFragment();
      items.forEach(function (entry) { fragment.appendChild(paperItem(entry, result.records[entry.s])); });
      listNode.textContent = "";
      listNode.appendChild(fragment);
      empty.hidden = items.length > 0;
      toolbar.hidden = items.length === 0;
      bibBox.hidden = items.length === 0;
      if (!items.length) { shareBox.hidden = true; }
      bibText.value = "";
      if (bibBox.open) fillBibtex();
      if (result.failed) say("Some details could not be loaded (offline?); titles are shown as saved.");
      else if (!status.querySelector("button")) {
        say(items.length ? items.length + (items.length === 1 ? " paper" : " papers") + " saved." : "");
      }
    }).catch(function (error) {
      say("Error: the reading list could not be shown (" + (error && error.message || error) + "). Reload the page.");
    });
  }
  page = { render: render };

  /* ------------------------------------------------------------------ BibTeX */

  // The BibTeX is the site's own: each paper's papers/<slug>/<slug>.bib, written by the
  // build for every paper (the same entry as the paper page's "Cite"). A file that cannot
  // be fetched (offline, or a paper no longer in the catalog) is named in an error; the
  // export holds the others.

  function titleOf(entry) {
    var record = current.records[entry.s];
    return (record && record.t) || entry.t || entry.s;
  }

  // The text of one paper's file, or null.
  function siteBibtex(slug) {
    return fetch(window.PapershelfItem.url("bib", { slug: slug })).then(function (r) {
      if (!r.ok) return null;
      return r.text().then(function (text) { return /^\s*@\w+\s*\{/.test(text) ? text.trim() + "\n" : null; });
    }).catch(function () { return null; });
  }

  // {text, count, missing: [titles of the papers whose file could not be fetched]}
  function allBibtex() {
    var items = current.items;
    var texts = new Array(items.length);
    var next = 0;
    function worker() {
      if (next >= items.length) return Promise.resolve();
      var i = next++;
      return siteBibtex(items[i].s).then(function (text) { texts[i] = text; return worker(); });
    }
    var workers = [];
    for (var w = 0; w < Math.min(6, items.length); w++) workers.push(worker());
    return Promise.all(workers).then(function () {
      var found = texts.filter(function (t) { return t !== null; });
      return {
        text: found.join("\n"),
        count: found.length,
        missing: items.filter(function (entry, i) { return texts[i] === null; }).map(titleOf),
      };
    });
  }

  function bibtexError(result) {
    var n = result.missing.length;
    if (!n) return "";
    var names = result.missing.slice(0, 5).map(function (t) { return "“" + t + "”"; }).join(", ") +
      (n > 5 ? " and " + (n - 5) + " more" : "");
    return "Error: the BibTeX of " + (n === 1 ? "1 paper" : n + " papers") + " could not be fetched (offline, " +
      "or no longer in this catalog): " + names + "." +
      (result.count ? " " + (n === 1 ? "It is" : "They are") + " missing from the BibTeX." : "");
  }

  function fillBibtex() {
    return allBibtex().then(function (result) {
      bibText.value = result.text;
      if (result.missing.length) say(bibtexError(result));
      return result;
    });
  }

  function copy(text, input) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return fallbackCopy(input); });
    }
    return Promise.resolve(fallbackCopy(input));
  }
  function fallbackCopy(input) {
    if (!input) return false;
    input.focus();
    input.select();
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }

  $("rl-export").addEventListener("click", function () {
    say("Preparing BibTeX…");
    fillBibtex().then(function (result) {
      if (!result.count) return; // nothing to download: fillBibtex said why
      var blob = new Blob([result.text], { type: "application/x-bibtex;charset=utf-8" });
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = "reading-list.bib";
      document.body.appendChild(a);
      a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      say("Downloaded reading-list.bib (" + result.count + (result.count === 1 ? " entry)." : " entries).") +
        (result.missing.length ? " " + bibtexError(result) : ""));
    });
  });

  $("rl-copy-bibtex").addEventListener("click", function () {
    fillBibtex().then(function (result) {
      if (!result.count) return; // nothing to copy: fillBibtex said why
      bibBox.open = true;
      return copy(result.text, bibText).then(function (ok) {
        say((ok ? "BibTeX copied to the clipboard." : "Select the BibTeX below and copy it.") +
          (result.missing.length ? " " + bibtexError(result) : ""));
      });
    });
  });

  bibBox.addEventListener("toggle", function () { if (bibBox.open && !bibText.value) fillBibtex(); });

  $("rl-share").addEventListener("click", function () {
    var slugs = load().map(function (e) { return e.s; });
    var url = location.origin + location.pathname + "?papers=" + slugs.join(","); // this page
    shareInput.value = url;
    shareBox.hidden = false;
    copy(url, shareInput).then(function (ok) {
      say(ok ? "Share link copied to the clipboard." : "Copy the share link below.");
    });
  });

  $("rl-clear").addEventListener("click", function () {
    var items = load();
    if (!items.length) return;
    undo = items;
    store([]);
    render().then(function () {
      say("Cleared " + items.length + (items.length === 1 ? " paper." : " papers."), true);
      status.querySelector("button").focus();
    });
  });

  /* ------------------------------------------------------------------ import */

  function sharedSlugs() {
    var raw = new URLSearchParams(location.search).get("papers");
    if (raw === null) return null;
    var seen = {};
    return raw.split(/[\s,]+/).filter(function (s) {
      s = s.trim().toLowerCase();
      if (!SLUG.test(s) || s.length > 80 || seen[s]) return false;
      seen[s] = true;
      return true;
    }).map(function (s) { return s.toLowerCase(); }).slice(0, MAX_IMPORT);
  }

  function dropParam() {
    var url = new URL(location.href);
    url.searchParams.delete("papers");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }

  function offerImport(slugs) {
    var panel = $("rl-import");
    var summary = $("rl-import-summary");
    var list = $("rl-import-items");
    records(slugs).then(function (result) {
      var known = slugs.filter(function (s) { return result.records[s]; });
      var unknown = slugs.length - known.length;
      var mine = {};
      load().forEach(function (e) { mine[e.s] = true; });
      var fresh = known.filter(function (s) { return !mine[s]; });
      list.textContent = "";
      known.forEach(function (s) {
        var li = el("li", mine[s] ? "already" : "");
        var a = el("a", "", result.records[s].t);
        a.href = window.PapershelfItem.url("paper", { slug: s });
        li.appendChild(a);
        if (mine[s]) li.appendChild(el("span", "count", " (already saved)"));
        list.appendChild(li);
      });
      if (!known.length) {
        summary.textContent = "The link names no paper of this catalog" +
          (result.failed ? " (or the catalog could not be loaded)." : ".");
      } else {
        summary.textContent = "Someone shared a list of " + known.length + (known.length === 1 ? " paper" : " papers") +
          (fresh.length < known.length ? " (" + (known.length - fresh.length) + " already in your list)" : "") +
          ". Add " + (known.length === 1 ? "it" : "them") + " to your reading list?" +
          (unknown ? " " + unknown + (unknown === 1 ? " entry was" : " entries were") + " not found and will be skipped." : "");
      }
      $("rl-import-add").hidden = !fresh.length;
      $("rl-import-replace").hidden = !known.length;
      $("rl-import-cancel").textContent = known.length ? "Cancel" : "Close";
      panel.hidden = false;
      panel.querySelector("h2").setAttribute("tabindex", "-1");
      panel.querySelector("h2").focus();

      function finish(message) {
        panel.hidden = true;
        dropParam();
        say(message);
        render();
      }
      $("rl-import-add").onclick = function () {
        var items = load();
        fresh.forEach(function (s) { items.push({ s: s, t: result.records[s].t }); });
        store(items);
        finish("Added " + fresh.length + (fresh.length === 1 ? " paper" : " papers") + " to your reading list.");
      };
      $("rl-import-replace").onclick = function () {
        undo = load();
        store(known.map(function (s) { return { s: s, t: result.records[s].t }; }));
        finish("Your reading list now holds the " + known.length + " shared " + (known.length === 1 ? "paper." : "papers."));
      };
      $("rl-import-cancel").onclick = function () { finish("Nothing imported."); };
    });
  }

  app.hidden = false;
  render();
  var shared = sharedSlugs();
  if (shared !== null) offerImport(shared);
})();
