// The reading list's page, /reading-list/ (static/js/reading-list.js keeps the list and
// the Save buttons on every page, and loads this file on this page only):
// * the saved papers are listed as list pages list them (the page's <template>, filled by
//   static/js/paper-item.js, with data from reading-list/data/<n>.json, fetched only for
//   the papers needed), each with the reader's note (saved as they type), exported as
//   BibTeX (the entry each paper's page shows, plus an `annote` field holding the note; an
//   error names the papers that cannot be fetched) and shared as a link
//   (?papers=slug1,slug2; never with the notes);
// * a shared link opens the page in a read-only view of the shared papers: each opens its
//   page, the list exports as BibTeX, and the reader's own list changes only when they ask
//   ("Save all to my list", "Replace my list" after a confirmation, or one paper's "Save").
(function () {
  "use strict";
  var list = window.PapershelfReadingList;
  var app = document.getElementById("reading-list");
  if (!app || !list) return;
  var SLUG = list.SLUG, MAX_NOTE = list.MAX_NOTE;
  var load = list.load, store = list.store, indexOf = list.indexOf, bySlug = list.bySlug;
  var MAX_IMPORT = 500;
  var NOTE_DELAY = 400; // ms after the last keystroke before a note is stored

  var shardCount = Math.max(1, parseInt(app.getAttribute("data-shards"), 10) || 1);
  var shardCache = {};
  // The names of the venues and tags the records name by id (render.reading_list_names).
  var names = { v: {}, g: {} };
  try { names = JSON.parse(document.getElementById("rl-names").textContent) || names; } catch (e) { /* none */ }

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
  // {t: title, a: author names, u: where each links ("<bucket>/<slug>", their page below
  // authors/; an http(s) URL, their own page; "" for none), v: venue id, g: tag ids,
  // p?: presentation, x?: provisional, f?: PDF, k?: track}. A data file cached from an older build may
  // hold another shape: such a record is treated as missing, not used.
  function wellFormed(r) {
    return !!r && typeof r.t === "string" && Array.isArray(r.a) && Array.isArray(r.u) &&
      r.a.length === r.u.length && typeof r.v === "string" && Array.isArray(r.g) &&
      r.g.every(function (g) { return typeof g === "string"; });
  }

  // An author's link from a record's `u` (null: a name without one).
  function authorHref(u) {
    if (!u) return null;
    return /^https?:\/\//.test(u) ? u : window.PapershelfItem.url("author", { path: u });
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
  var heading = $("rl-list-heading");
  var toolbar = $("rl-toolbar");
  var empty = $("rl-empty");
  var bibBox = $("rl-bibtex-box");
  var bibText = $("rl-bibtex");
  var shareBox = $("rl-share-box");
  var shareInput = $("rl-share-url");
  var panel = $("rl-import");
  var confirmBox = $("rl-replace-confirm");
  var undo = null; // the list before the last removal or replacement, for "Undo"

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

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
        render("Restored.");
      });
      status.appendChild(document.createTextNode(" "));
      status.appendChild(button);
    }
  }

  // The papers on show: the reader's own list, or (`shared`) the papers of a shared link.
  var current = { shared: false, items: [], records: {} };

  // The slugs of a shared link (?papers=a,b,c), or null on the reader's own list.
  function sharedSlugs() {
    var raw = new URLSearchParams(location.search).get("papers");
    if (raw === null) return null;
    var seen = {};
    return raw.split(/[\s,]+/).map(function (s) { return s.trim().toLowerCase(); }).filter(function (s) {
      if (!SLUG.test(s) || s.length > 80 || seen[s]) return false;
      seen[s] = true;
      return true;
    }).slice(0, MAX_IMPORT);
  }

  /* ------------------------------------------------------------------- items */

  // A paper is a list item as list pages have it (static/js/paper-item.js fills the page's
  // <template>). Records: see reading_list_record in generator/outputs/render.py.
  function paperItem(entry, record) {
    // a track's paper (k): its badge and proceedings, "ACL 2022 Findings" (pages.reading_list_names)
    var venue = record ? (typeof record.k === "string" && names.v[record.v + "/" + record.k]) ||
      names.v[record.v] || [record.v, "", 0] : null;
    var item = window.PapershelfItem.make(record ? {
      slug: entry.s,
      title: titleOf(entry, record),
      authors: record.a.map(function (name, i) { return { name: name, href: authorHref(record.u[i]) }; }),
      venue: { id: record.v, name: venue[0], full: venue[1], year: venue[2] },
      presentation: record.p || null,
      provisional: !!record.x,
      pdf: record.f || null,
      tags: record.g.map(function (id) { return { id: id, name: names.g[id] || id }; }),
    } : {
      slug: entry.s, title: titleOf(entry, record), authors: [], venue: null, tags: [],
      unknown: "Details unavailable (not in this catalog any more, or offline).",
    });
    item.classList.add("reading-list-item");
    return item;
  }

  function titleOf(entry, record) {
    if (record === undefined) record = current.records[entry.s];
    return (record && record.t) || entry.t || entry.s;
  }

  // A saved paper: the template's button removes it (with "Undo"), and the note follows.
  function savedItem(entry, record) {
    var item = paperItem(entry, record);
    var title = titleOf(entry, record);
    var remove = item.querySelector(".remove-button");
    remove.setAttribute("aria-label", "Remove: " + title);
    remove.addEventListener("click", function () {
      flushNotes();
      var items = load();
      var at = indexOf(items, entry.s);
      if (at < 0) return;
      undo = items.slice();
      items.splice(at, 1);
      store(items);
      render("Removed “" + title + "”.", true).then(function () {
        var next = listNode.querySelectorAll(".remove-button")[Math.min(at, items.length - 1)];
        if (next) next.focus(); else status.querySelector("button").focus();
      });
    });
    item.appendChild(noteEditor(entry, title));
    return item;
  }

  // A paper of a shared list: a list page's item, whose Save button adds it to the reader's list.
  function sharedItem(entry, record) {
    var item = paperItem(entry, record);
    var remove = item.querySelector(".remove-button");
    var save = el("button", "save-button", "Save");
    save.type = "button";
    save.setAttribute("data-slug", entry.s);
    save.setAttribute("data-title", titleOf(entry, record));
    save.setAttribute("aria-pressed", "false");
    remove.parentNode.replaceChild(save, remove);
    return item;
  }

  /* ------------------------------------------------------------------- notes */

  // Typed notes wait NOTE_DELAY ms before they are stored; any change of the list (and
  // leaving the page) stores them first. A note is the entry's `n`: it goes with the paper.
  var pendingNotes = {}; // slug -> {text, state, timer}
  var stale = false; // another tab changed the list while a note was being typed

  function queueNote(slug, text, state) {
    var pending = pendingNotes[slug];
    if (pending) clearTimeout(pending.timer);
    pendingNotes[slug] = { text: text, state: state, timer: setTimeout(function () { saveNote(slug); }, NOTE_DELAY) };
  }

  function saveNote(slug) {
    var pending = pendingNotes[slug];
    if (!pending) return;
    clearTimeout(pending.timer);
    delete pendingNotes[slug];
    var items = load();
    var at = indexOf(items, slug);
    if (at < 0) return; // removed meanwhile (in another tab)
    if (pending.text.trim()) items[at].n = pending.text.slice(0, MAX_NOTE); else delete items[at].n;
    store(items);
    pending.state.textContent = !list.kept() ? "Not saved: this browser keeps no data for this site" : "Saved";
  }

  function flushNotes() { Object.keys(pendingNotes).forEach(saveNote); }

  function typingNote() {
    var active = document.activeElement;
    return !!active && active.classList.contains("rl-note-text");
  }

  function noteEditor(entry, title) {
    var box = el("div", "rl-note");
    var id = "rl-note-" + entry.s;
    var add = el("button", "button-link rl-note-add", "Add note");
    add.type = "button";
    add.appendChild(el("span", "visually-hidden", " on “" + title + "”"));
    var field = el("div", "rl-note-field");
    var head = el("div", "rl-note-head");
    var label = el("label", "rl-note-label", "Note");
    label.htmlFor = id;
    label.appendChild(el("span", "visually-hidden", " on “" + title + "”"));
    var state = el("span", "rl-note-state");
    var area = el("textarea", "rl-note-text");
    area.id = id;
    area.rows = 2;
    area.maxLength = MAX_NOTE;
    area.value = entry.n || "";
    area.setAttribute("aria-describedby", "rl-note-hint");
    head.appendChild(label);
    head.appendChild(state);
    field.appendChild(head);
    field.appendChild(area);
    add.hidden = !!entry.n;
    field.hidden = !entry.n;
    add.addEventListener("click", function () {
      add.hidden = true;
      field.hidden = false;
      area.focus();
    });
    area.addEventListener("input", function () {
      state.textContent = "";
      queueNote(entry.s, area.value, state);
    });
    area.addEventListener("blur", function () {
      saveNote(entry.s);
      if (stale) { stale = false; render(); }
    });
    box.appendChild(add);
    box.appendChild(field);
    return box;
  }

  window.addEventListener("pagehide", flushNotes);
  document.addEventListener("visibilitychange", function () { if (document.hidden) flushNotes(); });

  /* ------------------------------------------------------------------ render */

  // Shows what the URL asks for (the own list, or a shared one); `message` then goes in the
  // status line (with "Undo" when `undoable`), else the list's size.
  function render(message, undoable) {
    flushNotes();
    var slugs = sharedSlugs();
    var shared = slugs !== null;
    if (!shared) slugs = load().map(function (e) { return e.s; });
    return records(slugs).then(function (result) {
      var items = shared ? slugs.filter(function (s) { return result.records[s]; }).map(function (s) {
        return { s: s, t: result.records[s].t };
      }) : load().filter(function (e) { return Object.prototype.hasOwnProperty.call(result.records, e.s); });
      if (current.shared !== shared) shareBox.hidden = true;
      current = { shared: shared, items: items, records: result.records, asked: slugs.length, failed: result.failed };
      var fragment = document.createDocumentFragment();
      items.forEach(function (entry) {
        fragment.appendChild((shared ? sharedItem : savedItem)(entry, result.records[entry.s]));
      });
      listNode.textContent = "";
      listNode.appendChild(fragment);
      heading.textContent = shared ? "Papers in the shared list" : "Saved papers";
      heading.hidden = items.length === 0;
      empty.hidden = shared || items.length > 0;
      toolbar.hidden = items.length === 0;
      $("rl-clear").hidden = shared;
      bibBox.hidden = items.length === 0;
      if (!items.length) shareBox.hidden = true;
      bibText.value = "";
      if (bibBox.open) fillBibtex();
      panel.hidden = !shared;
      if (shared) updateShared(); else confirmBox.hidden = true;
      if (message) say(message, undoable);
      else if (result.failed) say("Some details could not be loaded (offline?); titles are shown as saved.");
      else say(shared ? "" : items.length ? plural(items.length, "paper", "papers") + " saved." : "");
    }).catch(function (error) {
      say("Error: the reading list could not be shown (" + (error && error.message || error) + "). Reload the page.");
    });
  }

  list.onChange({
    // The list changed (a Save button here, another tab): the own list is shown again,
    // unless a note is being typed (then once it is left); a shared list only updates its counts.
    changed: function () {
      if (current.shared) updateShared();
      else if (typingNote()) stale = true;
      else render();
    },
  });

  window.addEventListener("popstate", function () { render(); });

  /* ------------------------------------------------------------ shared lists */

  function updateShared() {
    var known = current.items;
    var mine = load();
    var saved = bySlug(mine);
    var fresh = known.filter(function (e) { return !saved[e.s]; });
    var summary = $("rl-import-summary");
    var skipped = $("rl-import-skipped");
    var left = current.asked - known.length;
    if (!known.length) {
      summary.textContent = "The link names no paper of this catalog" +
        (current.failed ? " (or the catalog could not be loaded)." : ".") + " Your own reading list is unchanged.";
    } else {
      var already = known.length - fresh.length;
      summary.textContent = "Someone shared " + plural(known.length, "paper", "papers") + " with you" +
        (!already ? "" : fresh.length ? " (" + already + " of them " + (already === 1 ? "is" : "are") + " in your list already)"
          : known.length === 1 ? " (it is in your list already)" : " (all of them are in your list already)") +
        ": open " + (known.length === 1 ? "it" : "them") + " below, export the BibTeX, or save " +
        (known.length === 1 ? "it" : "them") + ". " + (mine.length ? "Your own reading list (" + plural(mine.length, "paper", "papers") +
          ") changes only if you save or replace." : "Your own reading list is empty.");
    }
    skipped.hidden = !left;
    skipped.textContent = left ? plural(left, "entry", "entries") + " of the link " + (left === 1 ? "is" : "are") +
      " not in this catalog" + (current.failed ? " or could not be loaded" : "") + ", and left out." : "";
    $("rl-import-add").hidden = !fresh.length;
    var same = mine.length === known.length && known.every(function (e, i) { return mine[i].s === e.s; });
    $("rl-import-replace").hidden = !mine.length || !known.length || same;
    if ($("rl-import-replace").hidden) confirmBox.hidden = true;
    else if (!confirmBox.hidden) askReplace();
  }

  // Leaves the shared list for the reader's own (a new history entry: Back shows the shared
  // list again), says `message` and puts the focus on the list.
  function showOwn(message, undoable) {
    var url = new URL(location.href);
    url.searchParams.delete("papers");
    history.pushState(null, "", url.pathname + url.search + url.hash);
    return render(message, undoable).then(function () { (heading.hidden ? $("rl-empty").querySelector("a") : heading).focus(); });
  }

  $("rl-import-add").addEventListener("click", function () {
    flushNotes();
    var items = load();
    var saved = bySlug(items);
    var fresh = current.items.filter(function (e) { return !saved[e.s]; });
    items = items.concat(fresh.map(function (e) { return { s: e.s, t: e.t }; }));
    store(items);
    showOwn("Added " + plural(fresh.length, "paper", "papers") + " to your reading list, which now holds " + items.length + ".");
  });

  function askReplace() {
    var mine = load();
    var shared = bySlug(current.items);
    var notesLost = mine.filter(function (e) { return e.n && !shared[e.s]; }).length;
    $("rl-replace-question").textContent = "Replace the " + plural(mine.length, "paper", "papers") +
      " of your reading list with the " + plural(current.items.length, "shared one", "shared ones") + "?" +
      (notesLost ? " Your " + (notesLost === 1 ? "note on a paper that is" : "notes on " + notesLost + " papers that are") +
        " not in the shared list will be lost too." : "") +
      " You can undo it right after.";
    confirmBox.hidden = false;
  }

  $("rl-import-replace").addEventListener("click", function () {
    askReplace();
    $("rl-replace-question").focus();
  });

  $("rl-replace-no").addEventListener("click", function () {
    confirmBox.hidden = true;
    $("rl-import-replace").focus();
  });

  $("rl-replace-yes").addEventListener("click", function () {
    flushNotes();
    var mine = load();
    var kept = bySlug(mine); // notes on papers of both lists stay
    undo = mine;
    store(current.items.map(function (e) { return kept[e.s] && kept[e.s].n ? { s: e.s, t: e.t, n: kept[e.s].n } : { s: e.s, t: e.t }; }));
    showOwn("Your reading list now holds the " + plural(current.items.length, "shared paper", "shared papers") + ".", true);
  });

  /* ------------------------------------------------------------------ BibTeX */

  // The BibTeX is the site's own: the entry of each paper's page (its "Cite" section, read
  // from the page: the site writes no file per paper), with the reader's note
  // as an `annote` field (the field for annotations: bibliography styles leave it out, unlike
  // `note`; Zotero and JabRef read it). A file that cannot be fetched (offline, or a paper
  // no longer in the catalog) is named in an error; the export holds the others.

  // The BibTeX entry of one paper's page (its venue's id from its record), or null.
  var parser = window.DOMParser ? new DOMParser() : null;
  function siteBibtex(slug) {
    var record = current.records[slug];
    if (!parser || !record) return Promise.resolve(null);
    return fetch(window.PapershelfItem.url("paper", { venue: record.v, slug: slug })).then(function (r) {
      if (!r.ok) return null;
      return r.text().then(function (html) {
        var block = parser.parseFromString(html, "text/html").getElementById("cite-bibtex");
        var text = block ? block.textContent : "";
        return /^\s*@\w+\s*\{/.test(text) ? text.trim() + "\n" : null;
      });
    }).catch(function () { return null; });
  }

  var BIB_ESCAPES = {
    "\\": "\\textbackslash{}", "{": "\\textbraceleft{}", "}": "\\textbraceright{}", "&": "\\&", "%": "\\%",
    "$": "\\$", "#": "\\#", "_": "\\_", "^": "\\textasciicircum{}", "~": "\\textasciitilde{}",
    "<": "\\textless{}", ">": "\\textgreater{}",
  };

  // A note as a BibTeX value: LaTeX's special characters escaped (braces as commands, so
  // the value's braces always balance), spaces tidied, one blank line between paragraphs.
  function bibtexText(note) {
    return note.replace(/\r\n?/g, "\n").split("\n").map(function (line) {
      return line.replace(/[ \t\f\v\u00a0]+/g, " ").trim();
    }).join("\n").replace(/\n{3,}/g, "\n\n").trim().replace(/[\\{}&%$#_^~<>]/g, function (c) { return BIB_ESCAPES[c]; });
  }

  // The entry (one @type{key, ... }) with an `annote` field before its closing brace.
  function withNote(entry, note) {
    var body = entry.replace(/\s*\}\s*$/, "").replace(/,\s*$/, "");
    return body + ",\n  annote = {" + bibtexText(note) + "}\n}\n";
  }

  // {text, count, missing: [titles of the papers whose file could not be fetched]}
  function allBibtex() {
    flushNotes();
    var items = current.items;
    var notes = current.shared ? {} : bySlug(load());
    var texts = new Array(items.length);
    var next = 0;
    function worker() {
      if (next >= items.length) return Promise.resolve();
      var i = next++;
      return siteBibtex(items[i].s).then(function (text) {
        var saved = notes[items[i].s];
        texts[i] = text !== null && saved && saved.n && saved.n.trim() ? withNote(text, saved.n) : text;
        return worker();
      });
    }
    var workers = [];
    for (var w = 0; w < Math.min(6, items.length); w++) workers.push(worker());
    return Promise.all(workers).then(function () {
      var found = texts.filter(function (t) { return t !== null; });
      return {
        text: found.join("\n"),
        count: found.length,
        missing: items.filter(function (entry, i) { return texts[i] === null; }).map(function (e) { return titleOf(e); }),
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
      var name = current.shared ? "shared-reading-list.bib" : "reading-list.bib";
      var blob = new Blob([result.text], { type: "application/x-bibtex;charset=utf-8" });
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.appendChild(a);
      a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      say("Downloaded " + name + " (" + plural(result.count, "entry", "entries") + ")." +
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

  // The papers on show, never their notes.
  $("rl-share").addEventListener("click", function () {
    var slugs = current.items.map(function (e) { return e.s; });
    var url = location.origin + location.pathname + "?papers=" + slugs.join(","); // this page
    shareInput.value = url;
    shareBox.hidden = false;
    copy(url, shareInput).then(function (ok) {
      say(ok ? "Share link copied to the clipboard." : "Copy the share link below.");
    });
  });

  $("rl-clear").addEventListener("click", function () {
    flushNotes();
    var items = load();
    if (!items.length) return;
    undo = items;
    store([]);
    render("Cleared " + plural(items.length, "paper.", "papers."), true).then(function () {
      status.querySelector("button").focus();
    });
  });

  app.hidden = false;
  render();
})();
