// Search page: the box, the filters, the results. Queries run in a Web Worker
// (search-worker.js + search-engine.js), which fetches the index files each query needs;
// if workers are unavailable the same engine runs on the page. Query and filters live in
// the URL (?q=&venue=&tag=&year=&sort=year&exact=1). A result is whole from the index's
// records (title, authors, venue, badges, PDF): no paper page is fetched. A query that names
// a person shows their card first; a word read with a typo says so, with the way back.
// Results are the site's list items: static/js/paper-item.js fills the page's <template>.
(function () {
  "use strict";
  var body = document.body;
  var base = body.getAttribute("data-base") || "/";
  var form = document.getElementById("search-form");
  var input = document.getElementById("search-input");
  var results = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var live = document.getElementById("search-live");
  var empty = document.getElementById("search-empty");
  var filterBox = document.getElementById("search-filters");
  var filterFold = document.getElementById("search-filters-box");
  var filterCount = document.getElementById("search-filters-count");
  var help = document.getElementById("search-help");
  var submit = document.getElementById("search-submit");
  var more = document.getElementById("search-more");
  var clearButton = document.getElementById("search-clear-filters");
  var peopleBox = document.getElementById("search-people");
  var notice = document.getElementById("search-notice");
  var sortSelect = document.getElementById("search-sort");
  var sortBox = document.getElementById("search-sort-box");
  if (!form || !input || !results) return;

  // The page is written for readers without script: the box is disabled and the help, which
  // promises results as you type, is hidden. Script can search, so both come to life.
  input.disabled = false;
  if (submit) submit.disabled = false;
  if (help) { help.hidden = false; input.setAttribute("aria-describedby", help.id); }

  var PAGE = 10;
  var PHONE = "(max-width: 40rem)"; // as in site.css: there the filters start folded
  var FOCUS_KEY = "papershelf-search-focus"; // when a search form elsewhere was submitted (site.js)
  var FILTERS = ["venue", "tag", "year"];
  var state = { q: "", venue: "", tag: "", year: "", sort: "", exact: "" };
  var wantTags = false; // the tag filter was reached: every paper's tags are loaded for its counts
  var limit = PAGE;
  var names = { venue: {}, venueFull: {}, venueYear: {}, tag: {} };
  var selects = {};

  // obj[key] if obj has it itself: a filter value from the URL such as "constructor" or
  // "__proto__" must not read what every object inherits.
  function own(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined; }
  var backend = null;
  var stage = "loading";
  var nextId = 1, sentId = 0, inFlight = false, dirty = false;
  var lastResults = null;
  var announceTimer = null;
  var titleSuffix = document.title.indexOf(" · ") >= 0 ? document.title.slice(document.title.indexOf(" · ")) : "";

  results.setAttribute("data-state", "loading");

  /* ------------------------------------------------------------ URL state */

  function readURL() {
    var params = new URL(window.location.href).searchParams;
    state.q = params.get("q") || "";
    FILTERS.forEach(function (f) { state[f] = params.get(f) || ""; });
    state.sort = params.get("sort") === "year" ? "year" : "";
    state.exact = params.get("exact") === "1" ? "1" : "";
  }

  function stateURL() {
    var url = new URL(window.location.href);
    ["q"].concat(FILTERS, ["sort", "exact"]).forEach(function (key) {
      if (state[key]) url.searchParams.set(key, state[key]); else url.searchParams.delete(key);
    });
    return url;
  }

  function writeURL(push) {
    var url = stateURL();
    if (url.href === window.location.href) return;
    if (push) history.pushState(null, "", url); else history.replaceState(null, "", url);
  }

  function applyState() {
    if (input.value !== state.q) input.value = state.q;
    FILTERS.forEach(function (f) { if (selects[f]) selects[f].value = state[f]; });
    if (sortSelect && sortSelect.value !== state.sort) sortSelect.value = state.sort;
    if (filterCount) {
      var active = FILTERS.filter(function (f) { return !!state[f]; }).length;
      setText(filterCount, active ? " (" + active + " active)" : "");
    }
    document.title = (state.q ? "Search: " + state.q : "Search") + titleSuffix;
  }

  /* ------------------------------------------------------------ backend */

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = function () { reject(new Error(src + " did not load")); };
      document.head.appendChild(script);
    });
  }

  // The same engine on the page, for browsers (or file:// pages) without workers.
  function pageBackend() {
    var service = null, queue = [];
    var api = {
      send: function (message) {
        if (service) setTimeout(function () { service.handle(message); }, 0); else queue.push(message);
      },
    };
    loadScript(base + "static/vendor/lunr.min.js")
      .then(function () { return loadScript(base + "static/js/search-engine.js"); })
      .then(function () {
        service = new window.PapershelfSearch.Service(function (m) { setTimeout(function () { receive(m); }, 0); }, window.PapershelfSearch.fetchJSON);
        queue.forEach(function (m) { service.handle(m); });
        queue = [];
      })
      .catch(function (error) { receive({ type: "state", state: "error", message: error.message }); });
    return api;
  }

  function workerBackend() {
    var worker = new Worker(base + "static/js/search-worker.js");
    var answered = false, fallback = null, sent = [];
    worker.onmessage = function (event) { answered = true; receive(event.data); };
    worker.onerror = function (event) {
      if (answered || fallback) return;
      if (event && event.preventDefault) event.preventDefault();
      worker.terminate();
      fallback = pageBackend();
      sent.forEach(function (m) { fallback.send(m); });
    };
    return {
      send: function (message) {
        if (fallback) return fallback.send(message);
        if (!answered) sent.push(message);
        worker.postMessage(message);
      },
    };
  }

  function startBackend() {
    try {
      backend = typeof Worker === "function" ? workerBackend() : pageBackend();
    } catch (e) {
      backend = pageBackend();
    }
    backend.send({ type: "init", base: base });
  }

  // At most one query in flight: keystrokes made meanwhile are merged into the next one,
  // so results follow typing as fast as the engine answers, without a fixed delay.
  function search() {
    if (inFlight) { dirty = true; return; }
    dirty = false;
    inFlight = true;
    sentId = nextId++;
    backend.send({
      type: "query", id: sentId, q: state.q, limit: limit, sort: state.sort, exact: !!state.exact, tags: wantTags,
      filters: { venue: state.venue, tag: state.tag, year: state.year },
    });
  }

  function receive(message) {
    if (message.type === "meta") return buildFilters(message.meta);
    if (message.type === "state") {
      if (message.state === "error" && message.id && message.id === sentId) inFlight = false;
      return setStage(message);
    }
    if (message.type === "results") {
      if (message.id !== sentId) return;
      inFlight = false;
      stage = message.stage; // an answer after an error: the error is over
      render(message);
      if (dirty) search();
    }
  }

  function setStage(message) {
    stage = message.state;
    if (stage === "error") {
      // One clear state: no results (they could be incomplete), the reason, the way out.
      lastResults = null;
      rendered = new Map();
      results.textContent = "";
      results.removeAttribute("data-total");
      results.setAttribute("data-state", "error");
      if (more) more.hidden = true;
      showPeople([]);
      showNotice(null);
      status.textContent = "The search index could not be loaded (" + message.message + "). " +
        "You can still browse by tag, venue or author.";
      empty.hidden = false;
      setEmptyWords(false); // not "no papers match": the ways to browse only
      inFlight = false;
      if (dirty) search();
      return;
    }
    if (!hasInput()) results.setAttribute("data-state", stage);
    if (!lastResults && !hasInput()) showIdle();
    else if (lastResults) status.textContent = countText(lastResults);
  }

  /* ------------------------------------------------------------ filters */

  function buildFilters(meta) {
    meta.venues.forEach(function (v) {
      names.venue[v.id] = v.name;
      names.venueFull[v.id] = v.full || v.name;
      names.venueYear[v.id] = v.year;
    });
    meta.tags.forEach(function (t) { names.tag[t.id] = t.name; });
    if (!filterBox) return;
    var years = [];
    meta.venues.forEach(function (v) { if (years.indexOf(v.year) < 0) years.push(v.year); });
    years.sort(function (a, b) { return b - a; });
    var specs = [
      { key: "venue", label: "Venue", any: "Any venue", options: meta.venues.map(function (v) { return [v.id, v.name]; }) },
      { key: "tag", label: "Tag", any: "Any tag", options: meta.tags.map(function (t) { return [t.id, t.name]; }) },
      { key: "year", label: "Year", any: "Any year", options: years.map(function (y) { return [String(y), String(y)]; }) },
    ];
    filterBox.textContent = "";
    specs.forEach(function (spec) {
      var wrap = el("div", "search-filter");
      var id = "search-filter-" + spec.key;
      var label = el("label", "", spec.label);
      label.htmlFor = id;
      var select = document.createElement("select");
      select.id = id;
      select.name = spec.key;
      var any = el("option", "", spec.any);
      any.value = "";
      select.appendChild(any);
      spec.options.forEach(function (o) {
        var option = el("option", "", o[1]);
        option.value = o[0];
        option.setAttribute("data-name", o[1]);
        select.appendChild(option);
      });
      // A value in the URL that this catalog does not have stays selectable (and matches nothing).
      if (state[spec.key] && !spec.options.some(function (o) { return o[0] === state[spec.key]; })) {
        var unknown = el("option", "", state[spec.key]);
        unknown.value = state[spec.key];
        unknown.setAttribute("data-name", state[spec.key]);
        select.appendChild(unknown);
      }
      select.value = state[spec.key];
      if (spec.key === "tag") {
        // Every paper's tags load when the tag filter is reached, not before (its counts).
        var reach = function () { if (!wantTags) { wantTags = true; search(); } };
        select.addEventListener("focus", reach);
        select.addEventListener("pointerdown", reach);
      }
      select.addEventListener("change", function () {
        state[spec.key] = select.value;
        limit = PAGE;
        writeURL(true);
        settled = true;
        applyState();
        search();
      });
      selects[spec.key] = select;
      wrap.appendChild(label);
      wrap.appendChild(select);
      filterBox.appendChild(wrap);
    });
    // Folded on phones, so the results come first; the summary counts the active filters.
    // (A theme's own search.html without the fold shows the filters as they are.)
    if (filterFold) {
      if (filterFold.hidden) filterFold.open = !(window.matchMedia && window.matchMedia(PHONE).matches);
      filterFold.hidden = false;
    } else {
      filterBox.hidden = false;
    }
  }

  function updateFacets(facets) {
    FILTERS.forEach(function (key) {
      var select = selects[key];
      if (!select) return;
      Array.prototype.forEach.call(select.options, function (option) {
        if (!option.value) return;
        if (!facets[key]) { setText(option, option.getAttribute("data-name")); return; } // not loaded yet
        var n = own(facets[key], option.value) || 0;
        setText(option, option.getAttribute("data-name") + " (" + n + ")");
      });
    });
  }

  function hasFilters() { return FILTERS.some(function (f) { return !!state[f]; }); }
  function hasInput() { return !!state.q.trim() || hasFilters(); }

  /* ------------------------------------------------------------ rendering */

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A result is a list item as list pages have it (static/js/paper-item.js fills the
  // page's <template>), with the search's highlights; the person the query named is marked.
  function renderHit(hit) {
    var item = window.PapershelfItem.make({
      slug: hit.slug,
      title: hit.title,
      titleMarks: hit.titleMarks,
      authors: hit.authors.map(function (a) {
        return { name: a.name, marks: a.marks, href: a.path ? window.PapershelfItem.url("author", { path: a.path }) : null };
      }),
      venue: { // a track's paper: the track's badge and proceedings ("ACL 2022 Findings")
        id: hit.venue, name: hit.track ? hit.track.name : own(names.venue, hit.venue) || hit.venue,
        full: hit.track ? hit.track.full : own(names.venueFull, hit.venue),
        year: own(names.venueYear, hit.venue) || hit.year,
      },
      presentation: hit.presentation,
      provisional: hit.provisional,
      pdf: hit.pdf,
      tags: hit.tags.map(function (tag) { return { id: tag, name: own(names.tag, tag) || tag }; }),
    });
    item.classList.add("search-result");
    item.setAttribute("data-venue", hit.venue);
    item.querySelector(".paper-item-title > a").classList.add("search-result-link");
    addSessions(item, hit.sessions);
    return item;
  }

  // Issue 34: a result names the sessions that discussed its paper (their notes are searched
  // with the paper), as the paper's page lists them (partials/paper_sessions.html).
  // Every one still to come (by the visitor's clock, as sessions.js decides): "To be discussed".
  function addSessions(item, sessions) {
    if (!sessions.length) return;
    var now = Date.now();
    var ahead = sessions.every(function (s) { return now < Date.parse(s[2]); });
    var line = el("p", "search-sessions", ahead ? "To be discussed: " : "Discussed: ");
    sessions.forEach(function (s, i) {
      if (i) line.appendChild(document.createTextNode(", "));
      var link = el("a", null, s[1]);
      link.href = base + s[0].replace(/^\//, "");
      line.appendChild(link);
    });
    var meta = item.querySelector(".paper-item-meta");
    if (meta) meta.after(line); else item.appendChild(line);
  }

  // People the query names: a card each (their page, papers, years, main venues), above the papers.
  function showPeople(persons) {
    if (!peopleBox) return;
    peopleBox.textContent = "";
    peopleBox.hidden = !persons.length;
    persons.forEach(function (p) {
      var card = el("section", "person-card");
      var h = el("h2", "person-card-name");
      var a = el("a", "", p.name);
      a.href = window.PapershelfItem.url("author", { path: p.path });
      h.appendChild(a);
      card.appendChild(h);
      var years = p.first === p.last ? String(p.first) : p.first + "\u2013" + p.last;
      var facts = [p.count.toLocaleString("en") + (p.count === 1 ? " paper" : " papers"), years];
      if (p.venues) facts.push(p.venues);
      card.appendChild(el("p", "person-card-facts stats", facts.join(" \u00b7 ")));
      peopleBox.appendChild(card);
    });
  }

  // "Showing results for transformer · search instead for transfromer" when a word was read with a typo.
  function showNotice(r) {
    if (!notice) return;
    notice.textContent = "";
    if (!r || !r.corrections || !r.corrections.length || !r.total) { notice.hidden = true; return; }
    var fixed = r.q;
    r.corrections.forEach(function (c) {
      fixed = fixed.split(/(\s+)/).map(function (part) {
        var bare = part.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\p{L}\p{N}]/gu, "");
        return bare === c[0] ? part.replace(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/u, c[1]) : part;
      }).join("");
    });
    notice.appendChild(document.createTextNode("Showing results for "));
    notice.appendChild(el("strong", "", fixed.trim()));
    notice.appendChild(document.createTextNode(" \u00b7 "));
    var url = stateURL();
    url.searchParams.set("exact", "1");
    var back = el("a", "search-exact", "search instead for " + r.q.trim());
    back.href = url.pathname + url.search;
    back.addEventListener("click", function (event) {
      event.preventDefault();
      state.exact = "1";
      writeURL(true);
      settled = true;
      search();
    });
    notice.appendChild(back);
    notice.hidden = false;
  }

  function quoted(q) { return "\u201c" + q.trim() + "\u201d"; }

  function countText(r) {
    var n = r.total, noun = n === 1 ? "paper" : "papers";
    var scope = [];
    if (r.filters.venue) scope.push(own(names.venue, r.filters.venue) || r.filters.venue);
    if (r.filters.tag) scope.push(own(names.tag, r.filters.tag) || r.filters.tag);
    if (r.filters.year) scope.push(r.filters.year);
    var where = scope.length ? " in " + scope.join(", ") : "";
    var text;
    if (r.error) return "The search failed (" + r.error + "). Try other words, or browse by tag, venue or author.";
    if (r.browsing) text = n + " " + noun + where + ".";
    else if (r.partial) text = "No paper matches every word of " + quoted(r.q) + "; " + n + " " + noun + where + " match some of them.";
    else text = n + " " + noun + " " + (n === 1 ? "matches " : "match ") + quoted(r.q) + where + ".";
    return text;
  }

  function focusedIndex() {
    var links = resultLinks();
    return links.indexOf(document.activeElement);
  }

  function setText(node, text) { if (node.textContent !== text) node.textContent = text; }
  function setAttr(node, name, value) { if (node.getAttribute(name) !== value) node.setAttribute(name, value); }

  // "venue=x&tag=y": which filters the shown results were computed with, so a reader (or a
  // test) can tell fresh results from the previous ones while a filter change is in flight.
  function filterKey(filters) {
    return FILTERS.filter(function (f) { return filters && filters[f]; })
      .map(function (f) { return f + "=" + filters[f]; }).join("&");
  }

  // Result items are kept while they show the same thing, so typing a longer word that
  // leaves the results alone costs no layout.
  var rendered = new Map();

  function render(r) {
    var keep = focusedIndex(), active = keep >= 0 ? document.activeElement : null;
    lastResults = r;
    if (!r.q.trim() && !hasFilters()) {
      showIdle(); setAttr(results, "data-query", r.q); setAttr(results, "data-filters", ""); return;
    }
    showPeople(r.persons || []);
    showNotice(r);
    setAttr(results, "data-sort", r.sort || "");
    var next = new Map(), nodes = r.hits.map(function (hit) {
      var key = JSON.stringify(hit), old = rendered.get(hit.slug);
      var node = old && old.key === key ? old.node : renderHit(hit);
      next.set(hit.slug, { key: key, node: node });
      return node;
    });
    rendered = next;
    var same = nodes.length === results.children.length && nodes.every(function (n, i) { return results.children[i] === n; });
    if (!same) results.replaceChildren.apply(results, nodes);
    setAttr(results, "data-query", r.q);
    setAttr(results, "data-filters", filterKey(r.filters));
    setAttr(results, "data-state", r.stage);
    setAttr(results, "data-total", String(r.total));
    setText(status, countText(r));
    updateFacets(r.facets);
    empty.hidden = r.total > 0;
    setEmptyWords(true);
    if (clearButton) clearButton.hidden = !hasFilters();
    more.hidden = r.hits.length >= r.total;
    if (keep >= 0 && !same) {
      // The same paper keeps the focus if it is still listed, else the same position.
      var links = resultLinks();
      if (active && results.contains(active)) active.focus();
      else if (links.length) links[Math.min(keep, links.length - 1)].focus();
    }
    announce(r.total ? countText(r) : "No papers match " + quoted(r.q) + ".");
    if (!same) {
      results.dispatchEvent(new CustomEvent("papershelf:results", { bubbles: true }));
      // Zotero's Connector looks for items again when a page fires this.
      document.dispatchEvent(new Event("ZoteroItemUpdated", { bubbles: true, cancelable: true }));
    }
  }

  function setEmptyWords(shown) {
    var words = document.getElementById("search-empty-words");
    if (words) words.hidden = !shown;
  }

  function showIdle() {
    lastResults = null;
    rendered = new Map();
    results.textContent = "";
    results.removeAttribute("data-total");
    showPeople([]);
    showNotice(null);
    empty.hidden = true;
    if (more) more.hidden = true;
    if (stage === "error") return;
    status.textContent = stage === "loading" ? "Loading the search index\u2026" : "";
    results.setAttribute("data-state", stage);
  }

  // Screen readers hear the count once typing pauses, not at every keystroke.
  function announce(text) {
    clearTimeout(announceTimer);
    announceTimer = setTimeout(function () { if (live) live.textContent = text; }, 700);
  }

  /* ------------------------------------------------------------ keyboard */

  function resultLinks() {
    return Array.prototype.slice.call(results.querySelectorAll(".search-result-link"));
  }

  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") {
      var links = resultLinks();
      if (links.length) { event.preventDefault(); links[0].focus(); }
    }
  });

  results.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var links = resultLinks();
    var i = links.indexOf(document.activeElement);
    if (event.key === "Escape") { event.preventDefault(); input.focus(); return; }
    if (i < 0) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      if (i + 1 < links.length) links[i + 1].focus();
      else if (!more.hidden) more.focus();
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      if (i > 0) links[i - 1].focus(); else input.focus();
    } else if (event.key === "Home") {
      event.preventDefault();
      links[0].focus();
    } else if (event.key === "End") {
      event.preventDefault();
      links[links.length - 1].focus();
    }
  });

  /* ------------------------------------------------------------ events */

  // History: the first keystroke after a settled search (opened from a link, submitted
  // with Enter, filtered, or reached with back/forward) starts a new history entry; the
  // keystrokes after it update that entry. So Back returns to the previous search.
  var settled = true;

  input.addEventListener("input", function () {
    state.q = input.value;
    state.exact = "";
    limit = PAGE;
    writeURL(settled);
    settled = false;
    applyState();
    if (!hasInput()) showIdle();
    search();
  });

  // After a search is submitted the focus stays in the box (the button gives it back), to
  // change the words.
  function focusBox() {
    if (document.activeElement === input) return;
    input.focus();
    var end = input.value.length;
    try { input.setSelectionRange(end, end); } catch (e) { /* no caret to place */ }
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    focusBox();
    state.q = input.value;
    writeURL(settled);
    settled = true;
    applyState();
    search();
  });

  if (more) {
    more.addEventListener("click", function () {
      var before = resultLinks().length;
      limit += PAGE;
      var wanted = before;
      var once = new MutationObserver(function () {
        var links = resultLinks();
        if (links.length > wanted) { once.disconnect(); links[wanted].focus(); }
      });
      once.observe(results, { childList: true });
      search();
    });
  }

  if (clearButton) {
    clearButton.addEventListener("click", function () {
      FILTERS.forEach(function (f) { state[f] = ""; });
      writeURL(true);
      settled = true;
      applyState();
      search();
      input.focus();
    });
  }

  if (sortSelect) {
    if (sortBox) sortBox.hidden = false;
    sortSelect.addEventListener("change", function () {
      state.sort = sortSelect.value === "year" ? "year" : "";
      limit = PAGE;
      writeURL(true);
      settled = true;
      search();
    });
  }

  window.addEventListener("popstate", function () {
    readURL();
    settled = true;
    limit = PAGE;
    applyState();
    if (!hasInput()) showIdle();
    search();
  });

  readURL();
  applyState();
  showIdle();
  startBackend();
  search();
  // Reached by submitting a search form on another page: the words are in this box now, and
  // so is the focus, as if the search had been made here.
  try {
    var submitted = Number(sessionStorage.getItem(FOCUS_KEY));
    sessionStorage.removeItem(FOCUS_KEY);
    if (submitted && Date.now() - submitted < 60000) focusBox();
  } catch (e) { /* no storage: the focus stays where the browser put it */ }
})();
