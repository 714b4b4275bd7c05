// A paper's reference formatted in the page (APA, Chicago author-date, ACL) and its RIS
// record, made from the page's own metadata: its Highwire Press tags (citation_title,
// citation_conference_title, citation_publication_date, citation_pdf_url), its JSON-LD
// (authors, with their name's parts where "given names, then the family name" would read
// them wrong; the venue's place; the paper's pages elsewhere, the one to cite first) and the
// BibTeX key of its Cite section, and shows them there; the site writes no file and no
// text per style (issue 25: at 100,000 papers the styles were a fifth of every paper page).
//
// Each style is its CSL style (citation-style-language/styles, CC BY-SA 3.0) as citeproc-js,
// the CSL processor of Zotero and Mendeley, renders a conference paper: apa.csl (7th edition),
// chicago-author-date.csl (author-date), association-for-computational-linguistics.csl (the
// ACL Anthology's), written out for the one kind of item a catalog holds.
// tests/outputs/test_citation_styles.py runs this file under Node on the references of
// tests/outputs/citation_styles_reference.json (citeproc-js's output) and compares. The rules:
//
//            authors                                     title                  et al.
//   APA      Family, I. I., …, & Family, I.              as written             21+: 19, …, last
//   Chicago  Family, Given, Given Family, and Given …    “Headline Style.”      7+: 3, et al.
//   ACL      Given Family, …, and Given Family           as written             20+: 19, et al.
//
// A paper without authors starts with its title (APA, Chicago) or its year (ACL). The URL of
// APA and Chicago is the paper's own (its best link), not the catalog page. One difference from
// citeproc-js on purpose: no period after a closing ellipsis ("science…."), which every
// provisional paper's title (its first words) would get.
//
// The page part (at the end of this file, run only in a page): the formatted references and
// RIS are added to the Cite section before and after its BibTeX (which the page holds, with a
// <noscript> note that the other formats need JavaScript), each with a "Copy" button, and a
// "Download" button under BibTeX and RIS (saved as files made from the page's own text: the
// site writes no file per paper). A formatted reference is copied as plain text and as HTML,
// so that a word processor keeps its italics; BibTeX and RIS as plain text.
//
// window.PapershelfCite (module.exports under Node):
//   format(ref)         [{id, name, hint, runs: [[text, italic], ...]}] in APA, Chicago, ACL order
//   ris(ref)            the RIS record, lines ending in "\n"
//   text(runs), html(runs)
//   nameOf(person)      a JSON-LD Person as {family, given, particle, suffix}
//   fromDocument(doc)   the page's reference: {title, authors, container, year, url, place,
//                       page, pdf, key, month, pages, doi, publisher, editors}, or null when
//                       the page lacks its metadata (container: the paper's track's proceedings)
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.PapershelfCite = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var CLOSING = [".", "?", "!", "\u2026"];

  function endsClosed(text) {
    return CLOSING.some(function (c) { return text.slice(-c.length) === c; });
  }

  // `text` followed by a period, unless it already ends with ".", "?", "!" or "…".
  function closed(text) { return endsClosed(text) ? text : text + "."; }

  function chars(text) { return Array.from(text); }

  function isLetter(c) { return /[\p{L}]/u.test(c); }
  function isUpper(c) { return c === c.toUpperCase() && c !== c.toLowerCase(); }

  /* ------------------------------------------------------------------ quotes */

  var OPENING_CONTEXT = " \t\n([{\u2014\u2013/-\u201c\u2018";

  // Straight quotes as typographic ones: ' after a letter is an apostrophe (’), otherwise '
  // and " open (‘ “) at the start or after a space or an opening bracket, and close (’ ”)
  // anywhere else.
  function smartQuotes(text) {
    if (text.indexOf("'") < 0 && text.indexOf('"') < 0) return text;
    var out = "", previous = "";
    chars(text).forEach(function (c) {
      if (c === "'" || c === '"') {
        var opening = !previous || OPENING_CONTEXT.indexOf(previous) >= 0;
        if (c === "'") c = opening ? "\u2018" : "\u2019";
        else c = opening ? "\u201c" : "\u201d";
      }
      out += c;
      previous = c;
    });
    return out;
  }

  // Double quotes within a title set in double quotes become single ones.
  function quotedInsideQuotes(text) { return text.replace(/\u201c/g, "\u2018").replace(/\u201d/g, "\u2019"); }

  /* -------------------------------------------------------------- title case */

  // Words that stay lower case inside a title (compared in lower case): articles,
  // coordinating conjunctions, prepositions, and the particles of names ("de Bruijn").
  var STOP_WORDS = {};
  ("a an the and but or nor for so yet " +
   "about above across after against along alongside amid amidst among amongst around as at atop " +
   "before behind below beneath beside besides between beyond by circa despite down during except " +
   "from in inside into like near next of off on onto out over per plus since than through " +
   "throughout till to toward towards under underneath until unto up upon versus vs v via with " +
   "within without de von van").split(" ").forEach(function (w) { STOP_WORDS[w] = true; });

  // A title is words between separators; a word after ":", "?" or "!" is capitalized like a
  // first word; "-" joins compounds whose parts are words of their own.
  var TOKENS = /([\u2018\u2019\u201c\u201d"'\-\u2013\u2014/.,;?!:[\]()]|[ \u00a0\u2000-\u200b\u205f\u3000]+)/;
  var BREAKS = ":?!";

  // Only a Latin letter is capitalized: a Greek or other letter that starts a title's word is
  // a symbol there ("π₀", "α-divergence"), whose case is its meaning.
  function capitalized(word) {
    var cs = chars(word), first = cs[0];
    if (!/\p{Script=Latin}/u.test(first)) return word;
    return first.toUpperCase() + cs.slice(1).join("");
  }

  // Headline-style capitals (Chicago), as citeproc-js sets them: a word in lower case gets a
  // capital first letter unless it is a stop word or a single letter; the first word, a word
  // after ":", "?" or "!" and the last word (if longer than a letter) always get one, and so
  // does a word just before a hyphen in the title's first run of words (before any
  // punctuation). Words that hold a capital stay as they are; so do words that start with a
  // letter of another script than Latin.
  function titleCase(text) {
    var tokens = text.split(TOKENS);
    var words = [];
    for (var i = 0; i < tokens.length; i += 2) if (tokens[i]) words.push(i);
    if (!words.length) return text;
    var firstRun = true, pendingBreak = true;
    words.forEach(function (at, n) {
      for (var j = n ? words[n - 1] + 1 : 1; j < at; j += 2) {
        var sep = tokens[j];
        if (sep.trim()) {
          firstRun = false;
          if (BREAKS.indexOf(sep) >= 0) pendingBreak = true;
        }
      }
      var word = tokens[at], lower = word.toLowerCase();
      if (word === lower) {
        var long = chars(word).length > 1;
        var stop = Object.prototype.hasOwnProperty.call(STOP_WORDS, lower);
        var beforeHyphen = firstRun && at + 1 < tokens.length && tokens[at + 1] === "-";
        if (pendingBreak || beforeHyphen || (long && (!stop || n === words.length - 1))) tokens[at] = capitalized(word);
      }
      pendingBreak = false;
    });
    return tokens.join("");
  }

  /* ---------------------------------------------------------------- initials */

  var INITIALS_RUN = /^(?:[\p{L}\p{Nl}\p{No}]\.){2,}$/u; // "J.K."

  function words(text) { return text.split(/\s+/).filter(Boolean); }

  function pairs(word) {
    var cs = chars(word), out = [];
    for (var i = 0; i < cs.length; i += 2) out.push(cs.slice(i, i + 2).join(""));
    return out.join(" ");
  }

  // Initials written together spaced out: "J.K." → "J. K." (Chicago); the rest as written.
  function spacedInitials(given) {
    if (given.indexOf(".") < 0) return given;
    return words(given).map(function (w) { return INITIALS_RUN.test(w) ? pairs(w) : w; }).join(" ");
  }

  // Given names as initials (APA): "Martin Luther" → "M. L.", "Jean-Paul" → "J.-P.",
  // "J.K." → "J. K."; a part that ends with a period or sits in parentheses is kept; a
  // hyphenated part that starts in lower case is left out.
  function initials(given) {
    var parts = [];
    words(given).forEach(function (word) {
      var cs = chars(word);
      if (cs[0] === "(" && cs[cs.length - 1] === ")") parts.push(word);
      else if (INITIALS_RUN.test(word)) parts.push(pairs(word));
      else if (cs[cs.length - 1] === ".") parts.push(word);
      else if (word.indexOf("-") >= 0) {
        var pieces = word.split("-").filter(Boolean);
        if (pieces.length) {
          var kept = [chars(pieces[0])[0] + "."];
          pieces.slice(1).forEach(function (p) { var c = chars(p)[0]; if (isUpper(c)) kept.push(c + "."); });
          parts.push(kept.join("-"));
        }
      } else parts.push(cs[0] + ".");
    });
    return parts.join(" ");
  }

  /* ------------------------------------------------------------------- names */

  function joinParts(parts, separator) { return parts.filter(Boolean).join(separator); }

  // A name with typographic apostrophes ("O’Neil"), as every style prints it.
  function typographic(n) {
    if ((n.family + n.given + n.particle).indexOf("'") < 0) return n;
    return { family: smartQuotes(n.family), given: smartQuotes(n.given), particle: smartQuotes(n.particle), suffix: n.suffix };
  }

  function givenFamily(n) { return joinParts([n.given, n.particle, n.family, n.suffix], " "); }

  // "a, b, last c": `last` is the word before the last name ("and").
  function joinNames(names, last, commaBeforeLast) {
    if (names.length === 1) return names[0];
    return names.slice(0, -1).join(", ") + (commaBeforeLast ? "," : "") + " " + last + " " + names[names.length - 1];
  }

  // The case of a word as BibTeX reads a name: that of its first letter (1 upper, 0 lower;
  // a letter without case, as in 张, counts as lower case), -1 with no letter.
  function caseOf(word) {
    var c = chars(word).find(isLetter);
    return c === undefined ? -1 : isUpper(c) ? 1 : 0;
  }

  // A JSON-LD Person as a citation reads the name. With `familyName` (the page gives the
  // parts where the next rule would read them wrong: generator/outputs/citations/meta.py),
  // its particle is its words up to the last one in lower case that is not its last word
  // (BibTeX's "von" part: "van Beethoven", "de la Vallée Poussin"); otherwise the last word of
  // `name` is the family name and the words before it the given names.
  function nameOf(person) {
    if (typeof person.familyName === "string") {
      var ws = person.familyName.split(" "), end = 0;
      for (var i = 0; i < ws.length - 1; i++) if (caseOf(ws[i]) === 0) end = i + 1;
      return {
        family: ws.slice(end).join(" "), particle: ws.slice(0, end).join(" "),
        given: person.givenName || "", suffix: person.honorificSuffix || "",
      };
    }
    var all = String(person.name || "").split(" ");
    return { family: all[all.length - 1], given: all.slice(0, -1).join(" "), particle: "", suffix: "" };
  }

  /* ------------------------------------------------------------------ output */

  function Out() { this.runs = []; }
  Out.prototype.add = function (text, italic) {
    if (text) this.runs.push([text, !!italic]);
    return this;
  };
  // The container title in italics and its closing period outside them.
  Out.prototype.container = function (container) {
    this.add(container, true);
    if (!endsClosed(container)) this.add(".");
    return this;
  };

  function text(runs) { return runs.map(function (r) { return r[0]; }).join(""); }

  var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" };
  function escape(t) { return t.replace(/[&<>"']/g, function (c) { return ESCAPES[c]; }); }
  function html(runs) {
    return runs.map(function (r) { return r[1] ? "<i>" + escape(r[0]) + "</i>" : escape(r[0]); }).join("");
  }

  /* -------------------------------------------------------------------- APA */

  function apaName(n) {
    var family = joinParts([n.particle, n.family], " ");
    if (!n.given) return family;
    return joinParts([family, initials(n.given), n.suffix], ", ");
  }

  function apaAuthors(authors) {
    var names = authors.map(function (a) { return apaName(typographic(a)); });
    if (names.length >= 21) return names.slice(0, 19).join(", ") + ", \u2026 " + names[names.length - 1];
    if (names.length === 1) return names[0];
    return names.slice(0, -1).join(", ") + ", & " + names[names.length - 1];
  }

  // The editors' names as APA gives them before "(Eds.)": "S. Muresan, P. Nakov, & A. Villavicencio".
  function apaEditors(editors) {
    var names = editors.map(function (n) {
      n = typographic(n);
      return joinParts([initials(n.given), n.particle, n.family, n.suffix], " ");
    });
    if (names.length === 1) return names[0];
    if (names.length === 2) return names[0] + " & " + names[1];
    return names.slice(0, -1).join(", ") + ", & " + names[names.length - 1];
  }

  // The link a reference ends with: its DOI as a doi.org URL, else its best link.
  function link(ref) { return ref.doi ? "https://doi.org/" + ref.doi : ref.url; }

  // APA 7th edition: Zhuang, Y., & Chen, X. (2024). Title. *Proceedings*, 1–9. URL; with
  // editors: Title. In E. Editor (Ed.), *Proceedings* (pp. 1–9). Publisher. URL
  function apa(ref) {
    var out = new Out(), title = smartQuotes(ref.title), editors = ref.editors || [];
    if (ref.authors.length) out.add(closed(apaAuthors(ref.authors))).add(" (" + ref.year + "). ").add(closed(title)).add(" ");
    else out.add(closed(title)).add(" (" + ref.year + "). ");
    if (editors.length) {
      out.add("In " + apaEditors(editors) + (editors.length > 1 ? " (Eds.), " : " (Ed.), ")).add(ref.container, true);
      if (ref.pages) out.add(" (" + (/[\u2013-]/.test(ref.pages) ? "pp. " : "p. ") + ref.pages + ")");
      out.add(endsClosed(ref.container) && !ref.pages ? "" : ".");
      if (ref.publisher) out.add(" " + closed(ref.publisher));
    } else if (ref.pages) {
      out.add(ref.container, true).add(", " + ref.pages + ".");
    } else out.container(ref.container);
    if (link(ref)) out.add(" " + link(ref));
    return { id: "apa", name: "APA", hint: "7th edition", runs: out.runs };
  }

  /* ---------------------------------------------------------------- Chicago */

  // The first author, inverted: "Beethoven, Ludwig van", "King, Martin Luther, Jr.".
  function chicagoFirst(n) {
    if (!n.given && !n.particle) return n.family;
    return joinParts([n.family, joinParts([spacedInitials(n.given), n.particle], " "), n.suffix], ", ");
  }

  function chicagoAuthors(authors) {
    authors = authors.map(typographic);
    var names = [chicagoFirst(authors[0])].concat(authors.slice(1).map(function (a) {
      return givenFamily({ family: a.family, given: spacedInitials(a.given), particle: a.particle, suffix: a.suffix });
    }));
    if (names.length >= 7) return names.slice(0, 3).join(", ") + ", et al.";
    return joinNames(names, "and", true);
  }

  // A page range as Chicago abbreviates it (CSL's "chicago" page-range-format, 16th edition):
  // 1149–1162 → 1149–62, 321–328 → 321–28, 101–108 → 101–8; under 100, at a hundred, or where
  // the numbers differ in length, in full.
  function chicagoPages(pages) {
    var m = /^(\d+)[\u2013-](\d+)$/.exec(pages);
    if (!m) return pages;
    var first = m[1], last = m[2], n = parseInt(first, 10);
    if (n < 100 || n % 100 === 0 || first.length !== last.length) return first + "\u2013" + last;
    var keep = n % 100 < 10 ? 1 : 2, i = 0;
    while (i < last.length - keep && first[i] === last[i]) i++;
    return first + "\u2013" + last.slice(i);
  }

  // Chicago author-date: Zhuang, Yubo, and Xiaohui Chen. 2024. “Title.” *Proceedings*, 1–9. URL.
  // With editors: “Title.” In *Proceedings*, edited by Given Family and Given Family. Publisher. URL.
  function chicago(ref) {
    var out = new Out(), editors = ref.editors || [];
    var title = "\u201c" + closed(quotedInsideQuotes(smartQuotes(titleCase(ref.title)))) + "\u201d";
    if (ref.authors.length) out.add(closed(chicagoAuthors(ref.authors))).add(" " + ref.year + ". ").add(title).add(" ");
    else out.add(title).add(" " + ref.year + ". ");
    if (editors.length) {
      var names = editors.map(function (a) {
        a = typographic(a);
        return givenFamily({ family: a.family, given: spacedInitials(a.given), particle: a.particle, suffix: a.suffix });
      });
      out.add("In ").add(ref.container, true).add(", edited by " + closed(joinNames(names, "and", names.length > 2)));
      if (ref.publisher) out.add(" " + closed(ref.publisher));
    } else if (ref.pages) {
      out.add(ref.container, true).add(", " + chicagoPages(ref.pages) + ".");
    } else out.container(ref.container);
    if (link(ref)) out.add(" " + closed(link(ref)));
    return { id: "chicago", name: "Chicago", hint: "author-date", runs: out.runs };
  }

  /* -------------------------------------------------------------------- ACL */

  function aclAuthors(authors) {
    var names = authors.map(function (a) { return givenFamily(typographic(a)); });
    if (names.length >= 20) return names.slice(0, 19).join(", ") + ", et al.";
    return joinNames(names, "and", names.length > 2);
  }

  // ACL: Yubo Zhuang and Xiaohui Chen. 2024. Title. In Ed Itor, editor, *Proceedings*, pages
  // 1–9, Place. Publisher.
  function acl(ref) {
    var out = new Out(), editors = ref.editors || [];
    if (ref.authors.length) out.add(closed(aclAuthors(ref.authors)) + " ");
    out.add(ref.year + ". ").add(closed(smartQuotes(ref.title))).add(" In ");
    if (editors.length) {
      var names = editors.map(function (a) { return givenFamily(typographic(a)); });
      out.add(joinNames(names, "and", names.length > 2) + (names.length > 1 ? ", editors, " : ", editor, "));
    }
    var tail = [];
    if (ref.pages) tail.push((/[\u2013-]/.test(ref.pages) ? "pages " : "page ") + ref.pages);
    if (ref.place) tail.push(ref.place);
    if (tail.length) out.add(ref.container, true).add(", " + closed(tail.join(", ")));
    else out.container(ref.container);
    if (ref.publisher) out.add(" " + closed(ref.publisher));
    return { id: "acl", name: "ACL", hint: "ACL Anthology", runs: out.runs };
  }

  function format(ref) { return [apa(ref), chicago(ref), acl(ref)]; }

  /* -------------------------------------------------------------------- RIS */

  function oneLine(value) { return String(value).split(/\s+/).filter(Boolean).join(" "); }

  // "van Beethoven, Ludwig", "King, Jr., Martin Luther" (generator/outputs/citations/names.py last_first).
  function lastFirst(n) { return joinParts([joinParts([n.particle, n.family], " "), n.suffix, n.given], ", "); }

  // The RIS record (generator/outputs/citations/ris.py): the citation fields, no abstract;
  // its URL is the paper's page where the site has an absolute one, else the paper's best link.
  function ris(ref) {
    var lines = [["TY", "CPAPER"], ["TI", ref.title]];
    ref.authors.forEach(function (a) { lines.push(["AU", lastFirst(a)]); });
    (ref.editors || []).forEach(function (a) { lines.push(["A2", lastFirst(a)]); });
    lines.push(["T2", ref.container], ["PY", ref.year]);
    if (ref.month) lines.push(["DA", ref.year + "/" + ref.month + "//"]);
    if (ref.pages) {
      var range = ref.pages.split("\u2013");
      lines.push(["SP", range[0]]);
      if (range.length > 1) lines.push(["EP", range[1]]);
    }
    if (ref.place) lines.push(["CY", ref.place]);
    if (ref.publisher) lines.push(["PB", ref.publisher]);
    if (ref.doi) lines.push(["DO", ref.doi]);
    if (ref.page || ref.url) lines.push(["UR", ref.page || ref.url]);
    if (ref.pdf) lines.push(["L1", ref.pdf]);
    lines.push(["ID", ref.key || ""], ["ER", ""]);
    return lines.map(function (l) { return l[0] + "  - " + oneLine(l[1]) + "\n"; }).join("");
  }

  /* --------------------------------------------------------------- the page */

  function meta(doc, name) {
    var node = doc.querySelector('meta[name="' + name + '"]');
    return node ? node.getAttribute("content") : null;
  }

  function scholarlyArticle(doc) {
    var found = null;
    Array.prototype.forEach.call(doc.querySelectorAll('script[type="application/ld+json"]'), function (script) {
      if (found) return;
      try {
        var data = JSON.parse(script.textContent);
        if (data && data["@type"] === "ScholarlyArticle") found = data;
      } catch (e) { /* not ours */ }
    });
    return found;
  }

  // The reference of the page `doc`: Highwire tags, JSON-LD and the key of the BibTeX entry
  // (#cite-bibtex); null when something a reference needs is missing.
  function fromDocument(doc) {
    var data = scholarlyArticle(doc);
    var title = meta(doc, "citation_title"), container = meta(doc, "citation_conference_title");
    var date = meta(doc, "citation_publication_date");
    if (!data || title === null || container === null || date === null) return null;
    var year = date.split("/")[0], month = date.split("/")[1] || null;
    var event = data.publication || {}, same = data.sameAs || [];
    var bibtex = doc.getElementById("cite-bibtex");
    var key = bibtex ? /^\s*@\w+\s*\{([^,\s]+),/.exec(bibtex.textContent) : null;
    return {
      title: title,
      authors: (data.author || []).map(nameOf),
      container: container,
      year: year,
      url: same.length ? same[0] : null,
      place: event.location || null,
      page: data.url || null,
      pdf: meta(doc, "citation_pdf_url"),
      key: key ? key[1] : "",
      month: month,
      pages: data.pagination || null,
      doi: meta(doc, "citation_doi"),
      publisher: meta(doc, "citation_publisher"),
      editors: (data.editor || []).map(nameOf),
    };
  }

  return {
    format: format, apa: apa, chicago: chicago, acl: acl, ris: ris, text: text, html: html,
    nameOf: nameOf, fromDocument: fromDocument,
    titleCase: titleCase, smartQuotes: smartQuotes, initials: initials,
  };
});

// The page part: only in a page with a Cite section.
(function () {
  "use strict";
  if (typeof document === "undefined" || !document.getElementById("cite-bibtex")) return;
  var Cite = window.PapershelfCite;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function heading(name, hint) {
    var h = el("h3", "", name + " ");
    h.appendChild(el("span", "cite-hint", "(" + hint + ")"));
    return h;
  }

  // The formatted references before the BibTeX, the RIS after it.
  function addFormats() {
    var ref = Cite.fromDocument(document);
    if (!ref) return;
    var bibtex = document.getElementById("cite-bibtex");
    var before = bibtex.previousElementSibling && bibtex.previousElementSibling.tagName === "H3"
      ? bibtex.previousElementSibling : bibtex;
    Cite.format(ref).forEach(function (style) {
      var p = el("p", "cite-ref");
      p.id = "cite-" + style.id;
      p.setAttribute("data-copy", style.name);
      style.runs.forEach(function (run) { p.appendChild(run[1] ? el("i", "", run[0]) : document.createTextNode(run[0])); });
      before.parentNode.insertBefore(heading(style.name, style.hint), before);
      before.parentNode.insertBefore(p, before);
    });
    var pre = el("pre", "cite-text");
    pre.id = "cite-ris";
    pre.tabIndex = 0;
    pre.setAttribute("data-copy", "RIS");
    if (ref.key) pre.setAttribute("data-download", ref.key + ".ris");
    pre.appendChild(el("code", "", Cite.ris(ref)));
    bibtex.parentNode.insertBefore(pre, bibtex.nextSibling);
    bibtex.parentNode.insertBefore(heading("RIS", "EndNote, Zotero, Mendeley"), pre);
  }

  function selectText(element) {
    var selection = window.getSelection && window.getSelection();
    if (!selection || !document.createRange) return false;
    var range = document.createRange();
    range.selectNodeContents(element);
    selection.removeAllRanges();
    selection.addRange(range);
    return true;
  }

  function copyBySelection(element) {
    if (!selectText(element)) return false;
    try {
      return document.execCommand("copy");
    } catch (e) {
      return false;
    }
  }

  function say(status, message) {
    if (!status) return;
    status.textContent = "";
    // A fresh text node makes screen readers announce the same message again.
    window.setTimeout(function () { status.textContent = message; }, 50);
  }

  function copy(button) {
    var target = document.getElementById(button.getAttribute("data-copy-target") || "");
    if (!target) return;
    var status = button.parentNode ? button.parentNode.querySelector(".copy-status") : null;
    var text = target.textContent || "";
    function fallback() {
      if (copyBySelection(target)) {
        say(status, "Copied.");
      } else {
        selectText(target);
        say(status, "Selected: press Ctrl+C (⌘C on a Mac) to copy.");
      }
    }
    function copied() { say(status, "Copied."); }
    function writeText() {
      navigator.clipboard.writeText(text).then(copied, fallback);
    }
    var clipboard = navigator.clipboard;
    if (!clipboard || typeof clipboard.writeText !== "function" || !window.isSecureContext) {
      fallback();
    } else if (target.tagName !== "PRE" && typeof clipboard.write === "function" &&
               typeof window.ClipboardItem === "function") {
      var item;
      try {
        item = new window.ClipboardItem({
          "text/plain": new Blob([text], { type: "text/plain" }),
          "text/html": new Blob([target.innerHTML], { type: "text/html" })
        });
      } catch (e) {
        writeText();
        return;
      }
      clipboard.write([item]).then(copied, writeText);
    } else {
      writeText();
    }
  }

  // A file with `text`, offered for download as `name` (RIS wants CRLF line ends).
  function download(name, text) {
    if (/\.ris$/.test(name)) text = text.replace(/\r?\n/g, "\r\n");
    var type = /\.ris$/.test(name) ? "application/x-research-info-systems" : "application/x-bibtex";
    var url = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
    var link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    window.setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  function button(label, className) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.textContent = label;
    return b;
  }

  addFormats();

  // Under each text to copy: its Copy button, a Download button for a file (BibTeX, RIS),
  // and the status that says what happened.
  var targets = document.querySelectorAll(".cite [data-copy][id]");
  Array.prototype.forEach.call(targets, function (target) {
    var actions = document.createElement("p");
    actions.className = "cite-actions";
    var copyButton = button("Copy " + target.getAttribute("data-copy"), "copy-button");
    copyButton.setAttribute("data-copy-target", target.id);
    copyButton.addEventListener("click", function () { copy(copyButton); });
    actions.appendChild(copyButton);
    var name = target.getAttribute("data-download");
    if (name) {
      var save = button("Download ." + name.split(".").pop(), "button-link");
      save.addEventListener("click", function () { download(name, target.textContent || ""); });
      actions.appendChild(document.createTextNode(" "));
      actions.appendChild(save);
    }
    var status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    actions.appendChild(document.createTextNode(" "));
    actions.appendChild(status);
    target.parentNode.insertBefore(actions, target.nextSibling);
  });
})();
