// Paper list pages (venue, tag, author, all papers): sort by title or venue, filter by tag.
//
// The server renders the list by title, PAGE_SIZE papers per page, with links to the other
// pages: that works without JavaScript. This script shows the sort and filter controls and,
// when the reader changes them, works on the *whole* list: a list of one page has every
// paper in the DOM already; a longer one fetches its other pages once (same markup, so
// titles keep their MathML) and shows the matching papers a page at a time ("Show more").
// The controls' state lives in the URL (?sort=venue&tag=robotics), so it can be shared and
// survives reloads. Sorting uses the ranks the build put on each item (data-title-rank,
// data-venue-rank), so the browser's order is exactly the server's.
(function () {
  "use strict";
  var section = document.querySelector(".paper-listing[data-list-url]");
  if (!section || !window.fetch || !window.DOMParser) return;
  var controls = section.querySelector(".list-controls");
  var list = section.querySelector("#paper-list");
  if (!controls || !list) return;

  var sortSelect = controls.querySelector("#list-sort");
  var tagSelect = controls.querySelector("#list-tag");
  var status = controls.querySelector("#list-status");
  var more = section.querySelector(".list-more");
  var moreButton = section.querySelector("#list-more");
  var nav = section.querySelector(".pagination");
  var range = section.querySelector(".list-range");
  var rangeText = range ? range.textContent : "";

  var listUrl = section.getAttribute("data-list-url");
  var pageCount = Math.max(1, parseInt(section.getAttribute("data-list-pages"), 10) || 1);
  var pageNumber = Math.max(1, parseInt(section.getAttribute("data-list-page"), 10) || 1);
  var total = parseInt(section.getAttribute("data-list-total"), 10) || list.children.length;
  var original = Array.prototype.slice.call(list.children); // this page, by title
  var pageSize = Math.max(original.length, 1);
  var all = pageCount === 1 ? original.slice() : null; // every item of the list, once loaded
  var loading = null;
  var shown = pageSize;

  function state() {
    return { sort: sortSelect ? sortSelect.value : "title", tag: tagSelect ? tagSelect.value : "" };
  }

  function isDefault(s) { return s.sort === "title" && !s.tag; }

  function hasOption(select, value) {
    return !!select && Array.prototype.some.call(select.options, function (o) { return o.value === value; });
  }

  function readURL() {
    var params = new URLSearchParams(location.search);
    var sort = params.get("sort");
    var tag = params.get("tag");
    if (sortSelect) sortSelect.value = hasOption(sortSelect, sort) ? sort : "title";
    if (tagSelect) tagSelect.value = hasOption(tagSelect, tag) ? tag : "";
  }

  function writeURL(s) {
    var url = new URL(location.href);
    if (s.sort !== "title") url.searchParams.set("sort", s.sort); else url.searchParams.delete("sort");
    if (s.tag) url.searchParams.set("tag", s.tag); else url.searchParams.delete("tag");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }

  function pageUrl(n) { return n === 1 ? listUrl : listUrl + "page/" + n + "/"; }

  // Every item of the list, in page order: this page's plus the others', fetched 4 at a time.
  function loadAll() {
    if (all) return Promise.resolve(all);
    if (loading) return loading;
    var pages = new Array(pageCount + 1);
    pages[pageNumber] = original;
    var queue = [];
    for (var n = 1; n <= pageCount; n++) if (n !== pageNumber) queue.push(n);
    var done = 0;
    var parser = new DOMParser();
    function worker() {
      var n = queue.shift();
      if (n === undefined) return Promise.resolve();
      return fetch(pageUrl(n)).then(function (r) {
        if (!r.ok) throw new Error("page " + n + ": HTTP " + r.status);
        return r.text();
      }).then(function (html) {
        var doc = parser.parseFromString(html, "text/html");
        var items = doc.querySelectorAll("#paper-list > li");
        pages[n] = Array.prototype.map.call(items, function (item) { return document.importNode(item, true); });
        done++;
        status.textContent = "Loading all " + total + " papers… (" + Math.round(100 * done / (pageCount - 1)) + "%)";
        return worker();
      });
    }
    status.textContent = "Loading all " + total + " papers…";
    var workers = [];
    for (var w = 0; w < Math.min(4, queue.length); w++) workers.push(worker());
    loading = Promise.all(workers).then(function () {
      all = [];
      pages.forEach(function (items) { if (items) all.push.apply(all, items); });
      return all;
    });
    loading.catch(function () { loading = null; });
    return loading;
  }

  function rank(item, key) { return parseInt(item.getAttribute(key), 10) || 0; }

  function matches(item, tag) {
    return !tag || (" " + (item.getAttribute("data-tags") || "") + " ").indexOf(" " + tag + " ") >= 0;
  }

  function show(items) {
    var fragment = document.createDocumentFragment();
    items.forEach(function (item) { fragment.appendChild(item); });
    list.textContent = "";
    list.appendChild(fragment);
  }

  function optionName(select) {
    var option = select.options[select.selectedIndex];
    return option ? option.textContent.replace(/\s*\(\d+\)$/, "") : "";
  }

  function describe(count, s) {
    var text = count + (count === 1 ? " paper" : " papers");
    if (s.tag) text += " tagged " + optionName(tagSelect);
    text += s.sort === "venue" ? ", by venue (newest first), then title" : ", by title";
    return text;
  }

  function apply(focusFrom) {
    var s = state();
    if (isDefault(s)) {
      show(original);
      if (nav) nav.hidden = false;
      if (more) more.hidden = true;
      if (range) range.textContent = rangeText;
      status.textContent = "";
      return;
    }
    loadAll().then(function (items) {
      if (!isDefault(state())) render(items, state(), focusFrom);
    }, function (error) {
      status.textContent = "The rest of the list could not be loaded (" + error.message + "); try again.";
    });
  }

  function render(items, s, focusFrom) {
    var key = s.sort === "venue" ? "data-venue-rank" : "data-title-rank";
    var found = items.filter(function (item) { return matches(item, s.tag); });
    found.sort(function (a, b) { return rank(a, key) - rank(b, key); });
    var visible = found.slice(0, shown);
    show(visible);
    if (nav) nav.hidden = true;
    if (more) {
      more.hidden = found.length <= shown;
      if (moreButton) {
        var left = found.length - shown;
        moreButton.textContent = "Show " + Math.min(pageSize, left) + " more (" + left + " not shown)";
      }
    }
    var text = describe(found.length, s) + (found.length > visible.length ? "; showing the first " + visible.length : "");
    if (range) range.textContent = text;
    status.textContent = found.length ? "Showing " + text + "." : "No papers match.";
    if (focusFrom !== undefined && visible[focusFrom]) {
      var link = visible[focusFrom].querySelector("a");
      if (link) link.focus();
    }
  }

  function onChange() {
    shown = pageSize;
    var s = state();
    writeURL(s);
    apply();
  }
  if (sortSelect) sortSelect.addEventListener("change", onChange);
  if (tagSelect) tagSelect.addEventListener("change", onChange);
  if (moreButton) {
    moreButton.addEventListener("click", function () {
      var from = shown;
      shown += pageSize;
      apply(from);
    });
  }
  window.addEventListener("popstate", function () { readURL(); apply(); });

  controls.hidden = false;
  readURL();
  if (!isDefault(state())) apply();
})();
