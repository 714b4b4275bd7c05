// Paper list pages (venue, tag, author, all papers): sorting, filtering and keyboard moves.
//
// Sorting and filtering. The server renders the list by title, PAGE_SIZE papers per page,
// with links to the other pages: that works without JavaScript. This script shows the
// controls the build wrote (only those that would change the list: templates/partials/
// paper_listing.html) and, when the reader changes them, works on the *whole* list without
// its other pages (issue 32): the list's data file (data-list-data: its papers' ordinals by
// title and, per paper, what the sorts and filters need: generator/outputs/list_data.py)
// gives the order, a tag filter reads the tag's own list file, and the items shown are made
// from the rows of just those papers (lists/<k>/<n>.json.gz, 16 papers a file), a page at a
// time ("Show more"). Every sort is a group (venue, year, presentation, date added), then
// title, as the server's (generator/outputs/pages.py, sort_ranks). The state lives in the URL
// (?sort=year&tag=robotics&presentation=oral), so it can be shared and survives reloads.
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
  var dataUrl = section.getAttribute("data-list-data");
  // The data files are gzip, read with DecompressionStream: without it the controls stay
  // hidden and the server's pagination is the list.
  if (!controls || !dataUrl || !window.fetch || !window.DecompressionStream) return;

  var sortSelect = controls.querySelector("#list-sort");
  var filters = Array.prototype.slice.call(controls.querySelectorAll("select[data-filter]"));
  var status = controls.querySelector("#list-status");
  var nav = section.querySelector(".pagination");
  var range = section.querySelector(".list-range");
  var rangeText = range ? range.textContent : "";

  var original = Array.prototype.slice.call(list.children); // this page, by title
  var pageSize = Math.max(parseInt(section.getAttribute("data-list-size"), 10) || original.length, 1); // "Show more" adds a page
  var rowsShard = Math.max(1, parseInt(section.getAttribute("data-list-rows-shard"), 10) || 1);
  var rowsFolder = Math.max(1, parseInt(section.getAttribute("data-list-rows-folder"), 10) || 1);
  var shown = pageSize;
  var files = {}; // url -> Promise of its JSON, each file fetched once
  var made = {}; // ordinal -> its item, made once

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

  // A pattern of the section's (data-url-paper="/papers/{venue}/{slug}/") with its values, each
  // percent-encoded (as derive/urls.py makes them).
  function fill(pattern, values) {
    return pattern.replace(/\{(\w+)\}/g, function (m, key) { return encodeURIComponent(String(values[key])); });
  }

  // The JSON of a data file: gzip (`.json.gz`, as static hosts serve them) unpacked here, or
  // JSON as it is when the host unpacked it already (Content-Encoding: gzip).
  function fetchJSON(url) {
    if (files[url]) return files[url];
    var promise = files[url] = fetch(url).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      return response.arrayBuffer();
    }).then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      if (bytes[0] !== 0x1f || bytes[1] !== 0x8b || !window.DecompressionStream) return JSON.parse(new TextDecoder().decode(bytes));
      return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).json();
    });
    promise.catch(function () { delete files[url]; });
    return promise;
  }

  // A list's data (generator/outputs/list_data.py) with its ordinals (`o` as gaps) summed.
  function listData(url) {
    return fetchJSON(url).then(function (data) {
      if (!data.ordinals) {
        var at = 0;
        data.ordinals = data.o.map(function (gap, i) { at = i ? at + gap : gap; return at; });
      }
      return data;
    });
  }

  // The list's papers (their places in the list, by title) that the filters keep, in the
  // order of the sort: every sort is a group, then title, so a stable sort by the group.
  function select(s) {
    var tagFilter = s.filters.filter(function (f) { return f[1] && f[0].name === "tag"; })[0];
    var tagUrl = tagFilter && fill(section.getAttribute("data-list-tag-data"), { id: tagFilter[1] });
    var venues = fetchJSON(section.getAttribute("data-list-venues"));
    return Promise.all([listData(dataUrl), tagUrl ? listData(tagUrl) : null, venues]).then(function (loaded) {
      var data = loaded[0], tagged = loaded[1] && new Set(loaded[1].ordinals);
      data.V = loaded[2];
      var keep = [];
      var presentation = s.filters.filter(function (f) { return f[1] && f[0].name === "presentation"; })[0];
      var digit = presentation ? String(data.P.indexOf(presentation[1])) : null;
      for (var i = 0; i < data.n; i++) {
        if (tagged && !tagged.has(data.ordinals[i])) continue;
        if (digit !== null && data.p.charAt(i) !== digit) continue;
        keep.push(i);
      }
      var group = null;
      if (s.sort === "venue") group = function (i) { return data.v[i]; };
      else if (s.sort === "year") group = function (i) { return -data.V[data.v[i]][2]; };
      else if (s.sort === "presentation") group = function (i) { return +data.p.charAt(i); };
      else if (s.sort === "added") group = function (i) { return data.a[i]; };
      if (group) keep.sort(function (x, y) { return group(x) - group(y) || x - y; });
      return { data: data, found: keep };
    });
  }

  // The items of `positions` (places in the list): made from their rows (lists/<k>/<n>.json.gz,
  // each file fetched once), as the server renders them (partials/paper_item.html).
  function items(data, positions) {
    var needed = {};
    positions.forEach(function (i) {
      var n = Math.floor(data.ordinals[i] / rowsShard);
      needed[n] = fill(section.getAttribute("data-list-rows"), { k: Math.floor(n / rowsFolder), n: n });
    });
    var numbers = Object.keys(needed);
    return Promise.all(numbers.map(function (n) { return fetchJSON(needed[n]); })).then(function (loaded) {
      var shards = {};
      numbers.forEach(function (n, j) { shards[n] = loaded[j]; });
      var made_ = positions.map(function (i) {
        var ordinal = data.ordinals[i];
        if (!made[ordinal]) {
          made[ordinal] = makeItem(data, shards[Math.floor(ordinal / rowsShard)][ordinal % rowsShard]);
          calm([made[ordinal]]);
        }
        return made[ordinal];
      });
      return made_;
    });
  }

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // As shards.name_path (search-engine.js namePath): an ASCII name's page below authors/.
  function namePath(name) {
    var slug = (name.toLowerCase().match(/[a-z0-9]+/g) || []).join("-");
    return (slug.replace(/-/g, "").slice(0, 2) + "__").slice(0, 2) + "/" + slug;
  }

  // As Python's quote(name, safe=""): encodeURIComponent leaves !'()* as they are.
  function quote(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, function (c) { return "%" + c.charCodeAt(0).toString(16).toUpperCase(); });
  }

  // One name of a byline, linked as partials/author_name.html links it (the row's entry:
  // generator/outputs/list_data.py): "name" (a page at namePath), [name, path] (a page
  // there), [name, 0, url] (their own page elsewhere), [name] (a search for the name).
  function authorName(entry) {
    var name = typeof entry === "string" ? entry : entry[0];
    var href = typeof entry === "string" ? section.getAttribute("data-url-author").replace("{path}", namePath(name))
      : entry.length === 3 ? entry[2]
      : entry.length === 2 ? section.getAttribute("data-url-author").replace("{path}", entry[1])
      : section.getAttribute("data-url-name") + quote(name);
    var link = element("a", "", name);
    link.setAttribute("href", href);
    return link;
  }

  // The byline (partials/byline.html): names separated by ", ", those after the row's fold
  // (a 0) in a <details> "and N more" that opens without script.
  function byline(authors) {
    var box = element("div"), into = box, first = true;
    authors.forEach(function (entry, i) {
      if (entry === 0) {
        var details = element("details", "more-authors"), summary = element("summary");
        summary.appendChild(element("span", "more-closed", "and " + (authors.length - i - 1).toLocaleString("en-US") + " more"));
        summary.appendChild(element("span", "more-open", "show fewer"));
        details.appendChild(summary);
        details.appendChild(document.createTextNode(" "));
        box.appendChild(document.createTextNode(", "));
        box.appendChild(details);
        into = details;
        first = true;
        return;
      }
      if (!first) into.appendChild(document.createTextNode(", "));
      into.appendChild(authorName(entry));
      first = false;
    });
    return box;
  }

  // row: [badge index (the venue's, or its track's: data.V), slug, plain title, authors, presentation digit, provisional, PDF, title HTML]
  function makeItem(data, row) {
    var venue = data.V[row[0]], title = row[2];
    var item = element("li", "paper-item");
    var heading = element("h3"), link = element("a");
    link.href = fill(section.getAttribute("data-url-paper"), { venue: venue[0], slug: row[1] });
    if (row.length > 7) link.innerHTML = row[7]; // the build's own markup of the title (math)
    else link.textContent = title;
    heading.appendChild(link);
    item.appendChild(heading);
    item.appendChild(row[3].length ? byline(row[3]) : element("p", "unknown", "Authors unknown"));
    var meta = element("p");
    var badge = element("a", "badge badge-venue", venue[1]);
    badge.href = fill(section.getAttribute("data-url-venue"), { id: venue[0] });
    meta.appendChild(badge);
    var kind = data.P[row[4]];
    if (kind) {
      meta.appendChild(document.createTextNode(" "));
      meta.appendChild(element("span", "badge badge-" + kind, kind.charAt(0).toUpperCase() + kind.slice(1)));
    }
    if (row[5]) {
      meta.appendChild(document.createTextNode(" "));
      meta.appendChild(element("span", "badge badge-provisional", "Provisional"));
    }
    item.appendChild(meta);
    var action;
    if (row[6]) {
      action = element("a", "pdf-link", "PDF");
      action.href = row[6];
      action.setAttribute("aria-label", "PDF: " + title);
    } else {
      action = element("a", "find-link", "Find PDF");
      action.href = fill(section.getAttribute("data-url-find"), { query: title });
      action.setAttribute("aria-label", "Find PDF on " + section.getAttribute("data-find-engine") + ": " + title);
    }
    item.appendChild(action);
    return item;
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

  var asked = 0; // the latest change: an answer to an earlier one is dropped

  function apply(focusFrom) {
    var s = state(), turn = ++asked;
    if (isDefault(s)) {
      show(original);
      if (nav) nav.hidden = false;
      if (more) more.hidden = true;
      if (range) range.textContent = rangeText;
      status.textContent = "";
      return;
    }
    status.textContent = "Loading…";
    select(s).then(function (result) {
      var visible = result.found.slice(0, shown);
      return items(result.data, visible).then(function (made_) {
        if (turn === asked) render(made_, result.found.length, s, focusFrom);
      });
    }).catch(function (error) {
      if (turn === asked) status.textContent = "The list could not be loaded (" + error.message + "); try again.";
    });
  }

  function render(visible, count, s, focusFrom) {
    show(visible);
    if (nav) nav.hidden = true;
    if (more) {
      more.hidden = count <= shown;
      if (moreButton) {
        var left = count - shown;
        moreButton.textContent = "Show " + Math.min(pageSize, left).toLocaleString("en-US") + " more ("
          + left.toLocaleString("en-US") + " not shown)";
      }
    }
    var text = describe(count, s) + (count > visible.length ? "; showing the first " + visible.length.toLocaleString("en-US") : "");
    if (range) range.textContent = text;
    status.textContent = count ? "Showing " + text + "." : "No papers match.";
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
