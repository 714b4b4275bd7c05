// Search page: loads the prebuilt Lunr index and runs the query from ?q= and as you type.
(function () {
  "use strict";
  var base = document.body.getAttribute("data-base") || "/";
  var input = document.getElementById("search-input");
  var results = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var empty = document.getElementById("search-empty");
  var index = null;
  var docs = null;
  var timer = null;

  function fetchJSON(path) {
    return fetch(base + path).then(function (r) {
      if (!r.ok) throw new Error(path + ": HTTP " + r.status);
      return r.json();
    });
  }

  function terms(query) {
    return lunr.tokenizer(query).map(function (t) { return t.toString(); }).filter(Boolean);
  }

  function run(query) {
    var words = terms(query);
    if (!words.length) return [];
    return index.query(function (q) {
      words.forEach(function (word, i) {
        q.term(word, { boost: 10 });
        if (i === words.length - 1) {
          q.term(word, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING, boost: 1 });
        }
      });
    });
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function render(query) {
    results.textContent = "";
    empty.hidden = true;
    if (!query.trim()) { status.textContent = ""; return; }
    var hits = run(query);
    status.textContent = hits.length + (hits.length === 1 ? " paper" : " papers") + " found";
    if (!hits.length) { empty.hidden = false; return; }
    hits.slice(0, 100).forEach(function (hit) {
      var doc = docs[hit.ref];
      if (!doc) return;
      var item = el("li", "paper-item");
      var h = el("h3", "paper-item-title");
      var a = el("a", "", doc.t);
      a.href = base + doc.u;
      h.appendChild(a);
      item.appendChild(h);
      item.appendChild(el("p", "paper-item-authors", doc.a.length ? doc.a.join(", ") : "Authors unknown"));
      var meta = el("p", "paper-item-meta");
      meta.appendChild(el("span", "badge badge-venue", doc.v));
      doc.g.forEach(function (tag) { meta.appendChild(el("span", "chip", tag)); });
      item.appendChild(meta);
      item.appendChild(el("p", "paper-item-snippet", doc.s.length > 240 ? doc.s.slice(0, 240) + "…" : doc.s));
      results.appendChild(item);
    });
  }

  function update(pushHistory) {
    var query = input.value;
    render(query);
    var url = new URL(window.location.href);
    if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
    if (url.href !== window.location.href) {
      if (pushHistory) history.pushState(null, "", url); else history.replaceState(null, "", url);
    }
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { update(false); }, 120);
  });
  document.getElementById("search-form").addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    update(true);
  });
  window.addEventListener("popstate", function () {
    input.value = new URL(window.location.href).searchParams.get("q") || "";
    render(input.value);
  });

  input.value = new URL(window.location.href).searchParams.get("q") || "";
  status.textContent = "Loading the search index…";
  Promise.all([fetchJSON("search/index.json"), fetchJSON("search/docs.json")]).then(function (loaded) {
    index = lunr.Index.load(loaded[0]);
    docs = loaded[1];
    status.textContent = "";
    render(input.value);
  }).catch(function (error) {
    status.textContent = "The search index could not be loaded (" + error.message + ").";
  });
})();
