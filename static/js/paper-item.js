// A paper's list item made in the browser (search results, the reading list) from the
// server's own markup: <template id="paper-item-template"> holds the empty item that
// templates/partials/paper_item.html renders for list pages, with data-slot on each part
// to fill. This file clones it and fills the slots; it builds no markup of its own.
// Links come from the URL patterns the generator writes on the template (data-url-paper,
// data-url-author, data-url-venue, data-url-tag: "/papers/{venue}/{slug}/",
// "/authors/{path}/"...; data-url-find: a title search,
// "https://scholar.google.com/scholar?q={query}"): no URL rule is written here, and
// authors' links come made (`href`) from the data of the page that calls this file; and
// long author lists fold where the template says (data-authors-shown, -hidden-min), as on
// list pages. All text is set with textContent; highlights are <mark> around text nodes.
//
// window.PapershelfItem:
//   make(paper)            the filled <li>; paper = {slug, title, titleMarks, authors:
//                          [{name, href, marks}], venue: {id, name, full, year},
//                          presentation, provisional, tags: [{id, name}], snippet, pdf}
//                          (pdf: the PDF's URL; null: none known, the item offers a
//                          title search; undefined: not known here, neither is shown;
//                          authors: null = not known yet (a search result whose paper's
//                          page is still to come): a line kept for them, no COinS;
//                          unknown: what to say instead of authors not known here, no COinS)
//                          (snippet: undefined = no snippet part, null = still loading;
//                          venue: null for a paper known only by its slug and title, whose
//                          item says `unknown` where the authors go and whose title links
//                          nowhere; author href: their page, here or their own, or null for
//                          a name without one, shown as plain text)
//   url(kind, values)      a site URL from the template's pattern: url("paper", {venue: v, slug: s})
//   fillSnippet(node, s)   a snippet {text, marks, head, tail} into its <p>
//   appendMarked(node, text, marks)
(function () {
  "use strict";
  var template = null;

  function shell() {
    if (!template) template = document.getElementById("paper-item-template");
    if (!template) throw new Error("paper-item.js: the page has no #paper-item-template");
    return template;
  }

  // The pattern's placeholders ({slug}, {venue}, {path}...) replaced by the values, each
  // segment of a value ("ab/slug") percent-encoded.
  function url(kind, values) {
    var pattern = shell().getAttribute("data-url-" + kind);
    if (pattern === null) throw new Error("paper-item.js: no data-url-" + kind + " on the template");
    return pattern.replace(/\{(\w+)\}/g, function (m, key) {
      if (!Object.prototype.hasOwnProperty.call(values, key)) throw new Error("paper-item.js: no " + key + " for " + kind);
      return String(values[key]).split("/").map(encodeURIComponent).join("/");
    });
  }

  function number(name) { return parseInt(shell().getAttribute(name), 10) || 0; }

  // Appends `text` to `parent`, wrapping the [start, end) ranges of `marks` in <mark>.
  function appendMarked(parent, text, marks) {
    var at = 0;
    (marks || []).forEach(function (m) {
      if (m[0] < at) return;
      if (m[0] > at) parent.appendChild(document.createTextNode(text.slice(at, m[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(m[0], m[1]);
      parent.appendChild(mark);
      at = m[1];
    });
    if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
  }

  function fillSnippet(node, snippet) {
    node.textContent = "";
    if (!snippet || !snippet.text) { node.hidden = true; return; }
    node.hidden = false;
    if (snippet.head) node.appendChild(document.createTextNode("… "));
    appendMarked(node, snippet.text, snippet.marks);
    if (snippet.tail) node.appendChild(document.createTextNode(" …"));
  }

  // The slots of a fresh clone, by name; the data-slot attributes go, so a filled item
  // is exactly a list page's item.
  function slotsOf(item) {
    var slots = {};
    Array.prototype.forEach.call(item.querySelectorAll("[data-slot]"), function (node) {
      slots[node.getAttribute("data-slot")] = node;
      node.removeAttribute("data-slot");
    });
    return slots;
  }

  // An author's name: a link where they have a page (here or their own), else plain text
  // in a <span>, as on the paper's page (partials/authors.html).
  function authorLink(proto, author) {
    var a = author.href ? proto.cloneNode(false) : document.createElement("span");
    if (author.href) a.href = author.href;
    appendMarked(a, author.name, author.marks);
    return a;
  }

  // derive.views.fold_authors: a list folds after `shown` names when at least `hiddenMin` would fold.
  function fillAuthors(slots, authors, note) {
    var list = slots.authors, unknown = slots["authors-unknown"];
    if (authors === null) { // still to come: an empty line keeps their place
      drop(list);
      unknown.textContent = "";
      unknown.classList.remove("unknown");
      unknown.setAttribute("data-loading", "true");
      return;
    }
    if (!authors.length) { drop(list); if (note) unknown.textContent = note; return; }
    drop(unknown);
    var proto = slots.author, separator = proto.nextSibling, more = slots.more;
    var shown = number("data-authors-shown"), hiddenMin = number("data-authors-hidden-min");
    var head = authors.length - shown < hiddenMin ? authors : authors.slice(0, shown);
    var tail = authors.slice(head.length);
    var sep = function () { return separator.cloneNode(false); };
    head.forEach(function (author, i) {
      if (i) list.insertBefore(sep(), proto);
      list.insertBefore(authorLink(proto, author), proto);
    });
    if (tail.length) {
      var closed = more.querySelector(".more-closed");
      closed.textContent = closed.textContent.replace("{n}", tail.length.toLocaleString("en-US"));
      tail.forEach(function (author, i) {
        if (i) more.appendChild(sep());
        more.appendChild(authorLink(proto, author));
      });
      proto.remove(); // the separator after it stays: it comes before the <details>
    } else {
      proto.remove();
      separator.remove();
      more.remove();
    }
  }

  // Removes a part the item does not have, and the line break before it when a line break
  // follows it too, so the item reads as the server's (never gluing two elements together).
  function drop(node) {
    var before = node.previousSibling, after = node.nextSibling;
    if (blank(before) && (!after || blank(after))) before.remove();
    node.remove();
  }

  function blank(node) { return !!node && node.nodeType === 3 && !node.textContent.trim(); }

  function capitalize(text) { return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase(); }

  // COinS (OpenURL ContextObject in a span), as list pages have, so that Zotero can save the
  // papers of a result list at once. Every author goes as rft.au; the pages split the first
  // one into aulast/aufirst with BibTeX's name rules, which Zotero reads the same.
  function coins(paper, pageUrl) {
    var pairs = [
      ["ctx_ver", "Z39.88-2004"], ["rft_val_fmt", "info:ofi/fmt:kev:mtx:book"],
      ["rfr_id", "info:sid/papershelf"], ["rft.genre", "proceeding"], ["rft.atitle", paper.title],
      ["rft.btitle", paper.venue.full || paper.venue.name],
      ["rft.date", paper.venue.year ? String(paper.venue.year) : ""],
    ];
    paper.authors.forEach(function (author) { pairs.push(["rft.au", author.name]); });
    pairs.push(["rft_id", pageUrl]);
    return pairs.map(function (p) { return encodeKev(p[0]) + "=" + encodeKev(p[1]); }).join("&");
  }

  function encodeKev(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
      return "%" + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }

  function make(paper) {
    var item = document.importNode(shell().content.firstElementChild, true);
    var slots = slotsOf(item);
    item.setAttribute("data-slug", paper.slug);

    if (paper.venue) slots.title.href = url("paper", { venue: paper.venue.id, slug: paper.slug });
    appendMarked(slots.title, paper.title, paper.titleMarks);
    fillAuthors(slots, paper.authors, paper.unknown);

    if (paper.venue) {
      slots.venue.href = url("venue", { id: paper.venue.id });
      slots.venue.textContent = paper.venue.name;
      if (paper.presentation) {
        slots.presentation.classList.add("badge-" + paper.presentation);
        slots.presentation.textContent = capitalize(paper.presentation);
      } else {
        drop(slots.presentation);
      }
      if (!paper.provisional) drop(slots.provisional);
      paper.tags.forEach(function (tag) {
        var chip = slots.tag.cloneNode(false);
        chip.href = url("tag", { id: tag.id });
        chip.textContent = tag.name;
        slots.tag.parentNode.insertBefore(chip, slots.tag);
      });
      drop(slots.tag);
    } else {
      drop(slots.venue.parentNode); // a paper known by its slug only (see `unknown`)
    }

    if (slots.snippet) {
      if (paper.snippet === undefined) drop(slots.snippet);
      else if (paper.snippet === null) slots.snippet.setAttribute("data-pending", "true");
      else fillSnippet(slots.snippet, paper.snippet);
    }
    // The first action: the PDF, else a search for the title (data-url-find); neither for a
    // paper known by its slug only, nor when the caller does not say (pdf undefined).
    var first = !paper.venue || paper.pdf === undefined ? null
      : paper.pdf && /^https?:\/\//i.test(paper.pdf) ? "pdf" : "find";
    if (first === "pdf") slots.pdf.href = paper.pdf;
    if (first === "find") slots.find.href = url("find", { query: paper.title });
    ["pdf", "find"].forEach(function (kind) {
      var link = slots[kind];
      if (kind === first) link.setAttribute("aria-label", link.getAttribute("aria-label") + paper.title);
      else drop(link);
    });
    if (slots.save) {
      slots.save.setAttribute("data-slug", paper.slug);
      slots.save.setAttribute("data-title", paper.title);
    }
    if (paper.venue && paper.authors && !paper.unknown) slots.coins.title = coins(paper, new URL(slots.title.href, location.href).href); // absolute
    else drop(slots.coins);
    return item;
  }

  window.PapershelfItem = { make: make, url: url, fillSnippet: fillSnippet, appendMarked: appendMarked };
})();
