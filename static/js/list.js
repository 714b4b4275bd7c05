// Paper list pages (venue, tag, author, all papers): sorting, filtering and keyboard moves.
//
// Sorting and filtering. The server renders the list by title, PAGE_SIZE papers per page,
// with links to the other pages: that works without JavaScript. This script shows the
// controls the build wrote (only those that would change the list: templates/partials/
// paper_listing.html) and, when the reader changes them, works on the *whole* list: a list
// of one page has every paper in the DOM already; a longer one fetches its other pages once
// (same markup, so titles keep their MathML) and shows the matching papers a page at a time
// ("Show more"). The state lives in the URL (?sort=year&tag=robotics&presentation=oral), so
// it can be shared and survives reloads. Sorting uses the ranks the build put on each item
// (data-ranks: generator/outputs/pages.py, sort_ranks), so the browser's order is
// exactly the server's; a filter <select data-filter="data-tags"> keeps the items whose
// attribute holds the chosen value among its space-separated words.
//
// Keyboard. Each paper is one Tab stop, its title link: the item's other links and buttons
// (venue, PDF, Save) get tabindex="-1" and stay reachable with the
// arrow keys (a roving tab stop: the part last reached holds the item's stop until the focus
// leaves the item). In the list, Down/Up or j/k move between papers, Right/Left through a
// paper's parts, Home/End to the first and last paper, Escape back to the paper's title.
// The single-letter keys act only while the focus is in the list (WCAG 2.1.4). The "Skip to
// the list of papers" link puts the focus on the first paper. Without JavaScript every link
// is a Tab stop, as on any page.
(function () {
  "use strict";
  var section = document.querySelector(".paper-listing");
  var list = section && section.querySelector("#paper-list");
  if (!list) return;
  var more = section.querySelector(".list-more");
  var moreButton = section.querySelector("#list-more");

  /* ------------------------------------------------------------ keyboard */

  var PARTS = "a[href], button, summary, input, select, textarea, [tabindex]";

  function titleOf(item) { return item.querySelector(":scope > h3 a"); }
  function itemsOf() { return Array.prototype.filter.call(list.children, function (li) { return li.matches(".paper-item"); }); }
  function parts(item) { return Array.prototype.slice.call(item.querySelectorAll(PARTS)); }

  // The parts a reader can reach now: shown, enabled, not folded away in a closed <details>.
  function reachable(item) {
    return parts(item).filter(function (el) {
      if (el.disabled || el.hidden || !el.getClientRects().length) return false;
      var details = el.closest("details");
      return !details || details.open || el.parentNode === details && el.tagName === "SUMMARY";
    });
  }

  // `stop` (the title by default) is the item's one Tab stop.
  function setStop(item, stop) {
    var title = titleOf(item);
    stop = stop || title;
    parts(item).forEach(function (el) {
      var wanted = el === stop ? 0 : -1;
      if (el === title && wanted === 0) el.removeAttribute("tabindex");
      else if (el.getAttribute("tabindex") !== String(wanted)) el.setAttribute("tabindex", String(wanted));
    });
  }

  function calm(items) { items.forEach(function (item) { setStop(item, null); }); }

  function focusItem(item) {
    var title = item && titleOf(item);
    if (title) title.focus();
  }

  list.addEventListener("focusin", function (event) {
    var item = event.target.closest(".paper-item");
    if (item && item.parentNode === list) setStop(item, event.target.matches(PARTS) ? event.target : null);
  });
  list.addEventListener("focusout", function (event) {
    var item = event.target.closest(".paper-item");
    if (item && !(event.relatedTarget && item.contains(event.relatedTarget))) setStop(item, null);
  });

  list.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || target.isContentEditable) return;
    var items = itemsOf();
    if (!items.length) return;
    var item = target === list ? null : target.closest(".paper-item");
    var i = items.indexOf(item);
    var key = event.key;
    if (key === "ArrowDown" || key === "j") {
      if (i + 1 < items.length) focusItem(items[i + 1]);
      else if (more && !more.hidden && moreButton) moreButton.focus();
    } else if ((key === "ArrowUp" || key === "k") && i >= 0) {
      focusItem(items[Math.max(0, i - 1)]);
    } else if (key === "Home") {
      focusItem(items[0]);
    } else if (key === "End") {
      focusItem(items[items.length - 1]);
    } else if ((key === "ArrowRight" || key === "ArrowLeft") && item) {
      var reach = reachable(item);
      var at = reach.indexOf(target);
      var next = reach[at + (key === "ArrowRight" ? 1 : -1)];
      if (at < 0 || !next) { event.preventDefault(); return; }
      setStop(item, next);
      next.focus();
    } else if (key === "Escape" && item && target !== titleOf(item)) {
      focusItem(item);
    } else {
      return;
    }
    event.preventDefault();
  });

  var skip = document.querySelector(".list-skip");
  if (skip) {
    skip.addEventListener("click", function (event) {
      var first = itemsOf()[0];
      if (!first) return;
      event.preventDefault();
      focusItem(first);
    });
  }
  // The keys, said under the list's heading when there is more than one paper to move between.
  var header = section.querySelector(".list-header");
  if (header && list.children.length > 1 && !section.querySelector("#list-keys")) {
    var keysHelp = document.createElement("p");
    keysHelp.className = "list-keys";
    keysHelp.id = "list-keys";
    keysHelp.innerHTML = "Keys: <kbd>j</kbd> <kbd>k</kbd> or <kbd>\u2193</kbd> <kbd>\u2191</kbd> next and previous paper, " +
      "<kbd>\u2192</kbd> <kbd>\u2190</kbd> its links, <kbd>Home</kbd> <kbd>End</kbd> first and last";
    header.appendChild(keysHelp);
  }
  calm(itemsOf());

  /* ------------------------------------------------------ sort and filter */

  var controls = section.querySelector(".list-controls");
  if (!controls || !window.fetch || !window.DOMParser) return;

  var sortSelect = controls.querySelector("#list-sort");
  var filters = Array.prototype.slice.call(controls.querySelectorAll("select[data-filter]"));
  var status = controls.querySelector("#list-status");
  var nav = section.querySelector(".pagination");
  var range = section.querySelector(".list-range");
  var rangeText = range ? range.textContent : "";

  var listUrl = section.getAttribute("data-list-url");
  var pageCount = Math.max(1, parseInt(section.getAttribute("data-list-pages"), 10) || 1);
  var pageNumber = Math.max(1, parseInt(section.getAttribute("data-list-page"), 10) || 1);
  var total = parseInt(section.getAttribute("data-list-total"), 10) || list.children.length;
  var original = Array.prototype.slice.call(list.children); // this page, by title
  var pageSize = Math.max(parseInt(section.getAttribute("data-list-size"), 10) || original.length, 1); // "Show more" adds a page
  var all = pageCount === 1 ? original.slice() : null; // every item of the list, once loaded
  var loading = null;
  var shown = pageSize;

  // {sort: "title", filters: [[select, value]...]}
  function state() {
    return {
      sort: sortSelect ? sortSelect.value : "title",
      filters: filters.map(function (select) { return [select, select.value]; })
    };
  }

  function isDefault(s) {
    return s.sort === "title" && s.filters.every(function (f) { return !f[1]; });
  }

  function hasOption(select, value) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === value; });
  }

  function readURL() {
    var params = new URLSearchParams(location.search);
    if (sortSelect) {
      var sort = params.get("sort");
      sortSelect.value = hasOption(sortSelect, sort) ? sort : "title";
    }
    filters.forEach(function (select) {
      var value = params.get(select.name);
      select.value = value && hasOption(select, value) ? value : "";
    });
  }

  function writeURL(s) {
    var url = new URL(location.href);
    if (s.sort !== "title") url.searchParams.set("sort", s.sort); else url.searchParams.delete("sort");
    s.filters.forEach(function (f) {
      if (f[1]) url.searchParams.set(f[0].name, f[1]); else url.searchParams.delete(f[0].name);
    });
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
        calm(pages[n]);
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

  // An item's data-ranks: its place in the whole catalog in each order, in this order.
  var ORDERS = ["title", "venue", "year", "presentation", "added"];
  function rank(item, sort) {
    var ranks = (item.getAttribute("data-ranks") || "").split(" ");
    return parseInt(ranks[ORDERS.indexOf(sort)], 10) || 0;
  }

  function matches(item, s) {
    return s.filters.every(function (f) {
      if (!f[1]) return true;
      var words = " " + (item.getAttribute(f[0].getAttribute("data-filter")) || "") + " ";
      return words.indexOf(" " + f[1] + " ") >= 0;
    });
  }

  function show(items) {
    var fragment = document.createDocumentFragment();
    items.forEach(function (item) { fragment.appendChild(item); });
    list.textContent = "";
    list.appendChild(fragment);
  }

  function optionName(select) {
    var option = select.options[select.selectedIndex];
    if (!option) return "";
    return option.getAttribute("data-name") || option.textContent.replace(/\s*\([\d,]+\)$/, "");
  }

  // "3 papers tagged Robotics and presented as oral, by year (newest first), then title"
  function describe(count, s) {
    var text = count.toLocaleString("en-US") + (count === 1 ? " paper" : " papers");
    var phrases = s.filters.filter(function (f) { return f[1]; }).map(function (f) {
      return f[0].getAttribute("data-describe") + " " + optionName(f[0]);
    });
    if (phrases.length) text += " " + phrases.join(" and ");
    var option = sortSelect && sortSelect.options[sortSelect.selectedIndex];
    return text + ", " + ((option && option.getAttribute("data-describe")) || "by title");
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
    var key = s.sort;
    var found = items.filter(function (item) { return matches(item, s); });
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
    if (focusFrom !== undefined && visible[focusFrom]) focusItem(visible[focusFrom]);
  }

  function onChange() {
    shown = pageSize;
    writeURL(state());
    apply();
  }
  if (sortSelect) sortSelect.addEventListener("change", onChange);
  filters.forEach(function (select) { select.addEventListener("change", onChange); });
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
