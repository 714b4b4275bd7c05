/*
 * Papershelf search engine: queries the prebuilt Lunr indexes written by
 * generator/outputs/search/. Runs in a Web Worker (search-worker.js), on the page as a
 * fallback, and under Node for the parity tests. Needs lunr.js 2.3.9.
 *
 * The query code here and SearchEngine in tests/outputs/search_engine.py are twins: the same folding and
 * tokenizing (table in meta.json), the same lunr.js stemmer (ported to Python), the same
 * expansion of each word (exact, prefix for the last word, one typo for words of 5+
 * letters) and the same scoring, so both return the same papers in the same order.
 * tests/outputs/test_search_parity.py checks it.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("lunr"));
  } else {
    root.PapershelfSearch = factory(root.lunr);
  }
})(typeof self !== "undefined" ? self : this, function (lunr) {
  "use strict";

  // Same as search.tokens.CJK: each ideograph or kana is a word of its own.
  var CJK = "\\u3005-\\u3007\\u3041-\\u3096\\u309d-\\u309f\\u30a1-\\u30fa\\u30fc-\\u30ff\\u31f0-\\u31ff" +
    "\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\u{20000}-\\u{2ee5f}\\u{30000}-\\u{323af}";
  var CJK_CHAR = new RegExp("^[" + CJK + "]$", "u");
  var WORD = "(?:(?![" + CJK + "])[\\p{L}\\p{N}])";
  var PART = "[" + CJK + "]|" + WORD + "+(?:'+" + WORD + "+)*";
  var CHAIN = "(?:" + PART + ")(?:[-_]+(?:" + PART + "))*";
  var ASCII_PART = "[a-z0-9]+(?:'+[a-z0-9]+)*";
  var ASCII_CHAIN = ASCII_PART + "(?:[-_]+" + ASCII_PART + ")*";
  var JOINERS = /[-_]+/g;
  var MARKS = /\p{M}/gu;
  var ASCII_WORD = /^[a-z0-9]+$/;

  function cpLength(text) {
    var n = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c < 0xdc00 || c > 0xdfff) n++;
    }
    return n;
  }

  function cpSlice(text, limit) {
    if (cpLength(text) <= limit) return text;
    return Array.from(text).slice(0, limit).join("");
  }

  // Compares like Python's sort of UTF-16 keys and like JavaScript's default sort.
  function byCodeUnits(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  /* ---------------------------------------------------------------- tokenizing */

  function Folder(config) {
    this.map = config.map;
    this.maxToken = config.maxToken;
    this.cache = new Map();
  }

  Folder.prototype.foldChar = function (ch) {
    var hit = this.cache.get(ch);
    if (hit !== undefined) return hit;
    var text = ch.toLowerCase().normalize("NFKD").replace(MARKS, "").toLowerCase();
    var out = "";
    for (var c of text) {
      var mapped = this.map[c];
      out += mapped === undefined ? c : mapped;
    }
    this.cache.set(ch, out);
    return out;
  };

  Folder.prototype.fold = function (text) {
    var out = "";
    for (var ch of text) out += this.foldChar(ch);
    return out;
  };

  // Folded text plus, for each of its UTF-16 units, the range of the original text it
  // came from (to highlight the original characters).
  var ASCII_TEXT = /^[\x00-\x7f]*$/;

  Folder.prototype.foldWithOffsets = function (text) {
    if (ASCII_TEXT.test(text)) {
      // ASCII folds to itself in lower case, one unit for one unit.
      var same = { text: text.toLowerCase(), starts: null, ends: null };
      return same;
    }
    var out = "", starts = [], ends = [], i = 0;
    for (var ch of text) {
      var f = this.foldChar(ch);
      for (var k = 0; k < f.length; k++) { starts.push(i); ends.push(i + ch.length); }
      out += f;
      i += ch.length;
    }
    return { text: out, starts: starts, ends: ends };
  };

  function splitParts(chain) {
    return chain.split(JOINERS).map(function (p) { return p.replace(/'/g, ""); });
  }

  function compounds(parts) {
    if (parts.length < 2) return [];
    var found = [];
    for (var i = 0; i + 1 < parts.length; i++) found.push(parts[i] + parts[i + 1]);
    if (parts.length > 2) found.push(parts.join(""));
    return found;
  }

  // Same as search.tokens.tokenize.
  Folder.prototype.tokenize = function (text) {
    var folded = this.fold(text), tokens = [], re = new RegExp(CHAIN, "gu"), m;
    while ((m = re.exec(folded)) !== null) {
      var parts = splitParts(m[0]);
      tokens.push.apply(tokens, parts);
      tokens.push.apply(tokens, compounds(parts));
    }
    var max = this.maxToken;
    return tokens.filter(function (t) { return cpLength(t) <= max; });
  };

  var stopWords = (function () {
    // lunr.stopWordFilter drops a token when its word is in lunr's list.
    return function (word) { return !lunr.stopWordFilter(new lunr.Token(word)); };
  })();

  var stems = new Map();
  function stem(word) {
    var hit = stems.get(word);
    if (hit !== undefined) return hit;
    var out = ASCII_WORD.test(word) ? lunr.stemmer(new lunr.Token(word)).toString() : word;
    if (stems.size > 100000) stems.clear();
    stems.set(word, out);
    return out;
  }

  // Same as query_units in tests/outputs/search_engine.py.
  function queryUnits(folder, settings, query) {
    var text = folder.fold(cpSlice(query, settings.maxChars));
    var re = new RegExp(CHAIN, "gu"), chains = [], m;
    while ((m = re.exec(text)) !== null) chains.push({ text: m[0], end: m.index + m[0].length });
    var units = [], seen = new Set();
    function add(word, prefix, required) {
      if (!word || cpLength(word) > folder.maxToken) return;
      var key = (prefix ? "1" : "0") + word;
      if (seen.has(key)) return;
      seen.add(key);
      units.push({ word: word, prefix: prefix, required: required });
    }
    chains.forEach(function (chain, ci) {
      var parts = splitParts(chain.text);
      var lastChain = ci === chains.length - 1 && chain.end === text.length;
      parts.forEach(function (part, pi) {
        if (lastChain && pi === parts.length - 1 && !CJK_CHAR.test(part)) {
          add(part, true, cpLength(part) >= settings.minPrefix && !stopWords(part));
        } else if (!stopWords(part)) {
          add(part, false, true);
        }
      });
      var joined = compounds(parts);
      joined.forEach(function (word, ji) { add(word, lastChain && ji === joined.length - 1, false); });
    });
    return units.slice(0, settings.maxUnits);
  }

  /* ---------------------------------------------------------------- engine */

  // One loaded index part. Besides the lunr.Index, each field's postings are laid out as
  // flat arrays by term (refs and weights, read from lunr's field vectors) so a query
  // touches only numbers; the weights are lunr's, unchanged.
  function Part(spec, serialized, words) {
    this.name = spec.name;
    this.fields = spec.fields;
    this.index = lunr.Index.load(serialized);
    this.inverted = this.index.invertedIndex;
    this.tokenSet = this.index.tokenSet;
    var nTerms = 0;
    for (var term in this.inverted) nTerms = Math.max(nTerms, this.inverted[term]._index + 1);
    var vectors = this.index.fieldVectors, postings = {};
    this.fields.forEach(function (field) {
      var counts = new Int32Array(nTerms + 1), keys = [], prefix = field + "/";
      Object.keys(vectors).forEach(function (key) {
        if (key.lastIndexOf(prefix, 0) !== 0) return;
        keys.push(key);
        var el = vectors[key].elements;
        for (var i = 0; i < el.length; i += 2) counts[el[i] + 1]++;
      });
      for (var t = 0; t < nTerms; t++) counts[t + 1] += counts[t];
      var fill = counts.slice(0, nTerms), refs = new Int32Array(counts[nTerms]), values = new Float64Array(counts[nTerms]);
      keys.forEach(function (key) {
        var ref = +key.slice(prefix.length), el = vectors[key].elements;
        for (var i = 0; i < el.length; i += 2) {
          var at = fill[el[i]]++;
          refs[at] = ref;
          values[at] = el[i + 1];
        }
      });
      postings[field] = { offsets: counts, refs: refs, values: values };
    });
    this.postings = postings;
    var surface = new Map(), list = [];
    Object.keys(words).forEach(function (term) {
      words[term].split(" ").forEach(function (w) {
        if (w && !surface.has(w)) { surface.set(w, term); list.push(w); }
      });
    });
    list.sort(byCodeUnits);
    this.words = surface;
    this.wordSet = lunr.TokenSet.fromArray(list);
  }

  Part.prototype.termIndex = function (term) {
    var posting = Object.prototype.hasOwnProperty.call(this.inverted, term) ? this.inverted[term] : null;
    return posting ? posting._index : -1;
  };

  function Engine(meta) {
    this.meta = meta;
    this.folder = new Folder(meta.fold);
    this.settings = meta.query;
    this.parts = [];
    this.docs = null;
    this.refs = [];
    this.df = new Map();
    this.size = meta.count;
  }

  Engine.prototype.addPart = function (spec, serialized, words) {
    var part = new Part(spec, serialized, words);
    var order = this.meta.parts.map(function (p) { return p.name; });
    this.parts.push(part);
    this.parts.sort(function (a, b) { return order.indexOf(a.name) - order.indexOf(b.name); });
    this.df = new Map();
    return part;
  };

  Engine.prototype.setDocs = function (docs) {
    this.docs = docs;
    var refs = this.refs = [], records = this.records = [];
    Object.keys(docs).forEach(function (slug) { refs[docs[slug].i] = slug; records[docs[slug].i] = docs[slug]; });
    this.size = Math.max(this.size || 0, refs.length);
    // Filter values as small numbers, for counting them over thousands of results.
    var codes = this.codes = { venue: new Map(), tag: new Map(), year: new Map() };
    function code(map, key) {
      var c = map.get(key);
      if (c === undefined) { c = map.size; map.set(key, c); }
      return c;
    }
    var n = refs.length, venue = new Int32Array(n), year = new Int32Array(n), tagStart = new Int32Array(n + 1), tags = [];
    for (var r = 0; r < n; r++) {
      var d = records[r];
      venue[r] = code(codes.venue, d.v);
      year[r] = code(codes.year, String(d.y));
      tagStart[r] = tags.length;
      for (var g = 0; g < d.g.length; g++) tags.push(code(codes.tag, d.g[g]));
    }
    tagStart[n] = tags.length;
    this.docCodes = { venue: venue, year: year, tagStart: tagStart, tags: Int32Array.from(tags) };
  };

  // Counts of each venue, tag and year among `refs`, each among the refs that pass the
  // other two filters; and the refs that pass all three, in order.
  Engine.prototype.facets = function (refs, active) {
    var codes = this.codes, dc = this.docCodes;
    var want = {
      venue: active.venue ? (codes.venue.has(active.venue) ? codes.venue.get(active.venue) : -2) : -1,
      tag: active.tag ? (codes.tag.has(active.tag) ? codes.tag.get(active.tag) : -2) : -1,
      year: active.year ? (codes.year.has(active.year) ? codes.year.get(active.year) : -2) : -1,
    };
    var venues = new Int32Array(codes.venue.size), tagCounts = new Int32Array(codes.tag.size);
    var years = new Int32Array(codes.year.size), matching = [];
    for (var k = 0; k < refs.length; k++) {
      var r = refs[k], okVenue = want.venue === -1 || dc.venue[r] === want.venue;
      var okYear = want.year === -1 || dc.year[r] === want.year, okTag = want.tag === -1;
      var from = dc.tagStart[r], to = dc.tagStart[r + 1], g;
      if (!okTag) for (g = from; g < to; g++) if (dc.tags[g] === want.tag) { okTag = true; break; }
      if (okTag && okYear) venues[dc.venue[r]]++;
      if (okVenue && okYear) for (g = from; g < to; g++) tagCounts[dc.tags[g]]++;
      if (okVenue && okTag) years[dc.year[r]]++;
      if (okVenue && okTag && okYear) matching.push(r);
    }
    function named(map, counts) {
      var out = {};
      map.forEach(function (c, key) { if (counts[c]) out[key] = counts[c]; });
      return out;
    }
    return { matching: matching,
      counts: { venue: named(codes.venue, venues), tag: named(codes.tag, tagCounts), year: named(codes.year, years) } };
  };

  Engine.prototype.docFreq = function (term) {
    var n = this.df.get(term);
    if (n !== undefined) return n;
    n = 0;
    this.parts.forEach(function (part) {
      var t = part.termIndex(term);
      if (t < 0) return;
      part.fields.forEach(function (f) { var o = part.postings[f].offsets; n += o[t + 1] - o[t]; });
    });
    this.df.set(term, n);
    return n;
  };

  Engine.prototype.known = function (term) {
    return this.parts.some(function (part) { return part.termIndex(term) >= 0; });
  };

  Engine.prototype.strongest = function (terms) {
    var self = this, unique = Array.from(new Set(terms));
    unique.sort(function (a, b) { return (self.docFreq(b) - self.docFreq(a)) || byCodeUnits(a, b); });
    return unique.slice(0, this.settings.maxExpansions);
  };

  function matches(tokenSet, pattern) { return tokenSet.intersect(pattern).toArray(); }

  // Index terms a query word stands for, with their weights (exact > prefix > typo).
  Engine.prototype.expand = function (unit) {
    var self = this, found = new Map(), w = this.settings.weights, word = unit.word, exact = stem(word);
    function put(terms, weight) {
      terms.forEach(function (term) {
        if (self.known(term) && !(found.get(term) >= weight)) found.set(term, weight);
      });
    }
    function collect(pattern) {
      var out = [];
      self.parts.forEach(function (part) {
        out.push.apply(out, matches(part.tokenSet, pattern));
        matches(part.wordSet, pattern).forEach(function (s) { out.push(part.words.get(s)); });
      });
      return out;
    }
    if (unit.prefix && cpLength(word) >= this.settings.minPrefix) {
      // A completion weighs by how much of it was typed: "graph" -> "graphs" > "graphics".
      var pattern = lunr.TokenSet.fromString(word + "*"), typed = new Map(), length = cpLength(word);
      var note = function (term, completion) {
        var share = length / cpLength(completion);
        if (!(typed.get(term) >= share)) typed.set(term, share);
      };
      self.parts.forEach(function (part) {
        matches(part.tokenSet, pattern).forEach(function (t) { note(t, t); });
        matches(part.wordSet, pattern).forEach(function (s) { note(part.words.get(s), s); });
      });
      this.strongest(Array.from(typed.keys())).forEach(function (term) { put([term], w.prefix * typed.get(term)); });
    }
    if (cpLength(word) >= this.settings.minFuzzy && ASCII_WORD.test(word)) {
      var candidates = [];
      Array.from(new Set([word, exact])).forEach(function (text) {
        candidates.push.apply(candidates, collect(lunr.TokenSet.fromFuzzyString(text, 1)));
      });
      put(this.strongest(candidates), w.fuzzy);
    }
    put([exact], w.exact);
    return found;
  };

  // Adds into `best` (by ref) the unit's score: for each term, weight x the sum of the
  // term's weights over the parts and fields (in their order), the best term counting.
  // Returns the refs touched.
  Engine.prototype.unitScores = function (expansions, best, sums, seen) {
    var parts = this.parts, touched = [];
    Array.from(expansions.keys()).sort(byCodeUnits).forEach(function (term) {
      var weight = expansions.get(term), list = [];
      parts.forEach(function (part) {
        var t = part.termIndex(term);
        if (t < 0) return;
        part.fields.forEach(function (field) {
          var p = part.postings[field], end = p.offsets[t + 1];
          for (var i = p.offsets[t]; i < end; i++) {
            var ref = p.refs[i];
            if (!seen[ref]) { seen[ref] = 1; touched.push(ref); }
            if (sums[ref] === -1) { sums[ref] = p.values[i]; list.push(ref); }
            else sums[ref] += p.values[i];
          }
        });
      });
      for (var k = 0; k < list.length; k++) {
        var r = list[k], score = weight * sums[r];
        if (score > best[r]) best[r] = score;
        sums[r] = -1;
      }
    });
    for (var k = 0; k < touched.length; k++) seen[touched[k]] = 0;
    return touched;
  };

  // Work arrays, one slot per paper, reused from query to query (no garbage per keystroke).
  Engine.prototype.scratch = function () {
    var n = this.size, s = this.buffers;
    if (!s || s.n !== n) {
      s = this.buffers = { n: n, scores: new Float64Array(n), coverage: new Int32Array(n), any: new Uint8Array(n),
        best: new Float64Array(n), sums: new Float64Array(n), seen: new Uint8Array(n) };
    }
    s.scores.fill(0); s.coverage.fill(0); s.any.fill(0); s.best.fill(0); s.sums.fill(-1); s.seen.fill(0);
    return s;
  };

  // Ranks the papers for a query: same as SearchEngine.search in tests/outputs/search_engine.py.
  Engine.prototype.rank = function (query) {
    var self = this, units = queryUnits(this.folder, this.settings, query), work = this.scratch();
    var scores = work.scores, coverage = work.coverage, any = work.any, best = work.best, sums = work.sums;
    var terms = new Set(), required = 0, hit = [];
    units.forEach(function (unit) {
      var expansions = self.expand(unit);
      expansions.forEach(function (_, term) { terms.add(term); });
      if (unit.required) required++;
      var touched = self.unitScores(expansions, best, sums, work.seen);
      for (var k = 0; k < touched.length; k++) {
        var ref = touched[k], score = best[ref];
        best[ref] = 0;
        if (!(score > 0)) continue;
        if (!any[ref]) { any[ref] = 1; hit.push(ref); }
        scores[ref] += score;
        if (unit.required) coverage[ref]++;
      }
    });
    return { units: units, scores: scores, coverage: coverage, hit: hit, required: required, terms: terms };
  };

  Engine.prototype.search = function (query, filters) {
    return this.select(this.rank(query), filters);
  };

  // The papers of a ranking (``rank``) that pass ``filters``, best first; all words are
  // required if any of them has all.
  Engine.prototype.select = function (ranked, filters) {
    var self = this, scores = ranked.scores, coverage = ranked.coverage;
    var candidates = filters ? ranked.hit.filter(function (ref) { return self.passes(ref, filters); }) : ranked.hit;
    var partial = false;
    if (ranked.required) {
      var complete = candidates.filter(function (r) { return coverage[r] === ranked.required; });
      if (complete.length || !candidates.length) candidates = complete;
      else partial = true;
    }
    candidates.sort(function (a, b) {
      return (coverage[b] - coverage[a]) || (scores[b] - scores[a]) || (a - b);
    });
    return {
      refs: candidates,
      scores: scores,
      coverage: coverage,
      partial: partial,
      terms: ranked.terms,
      words: ranked.units.length,
    };
  };

  Engine.prototype.passes = function (ref, filters) {
    if (!filters) return true;
    var d = this.records[ref];
    if (!d) return false;
    if (filters.venue && d.v !== filters.venue) return false;
    if (filters.tag && d.g.indexOf(filters.tag) < 0) return false;
    if (filters.year && String(d.y) !== String(filters.year)) return false;
    return true;
  };

  /* ---------------------------------------------------------------- highlighting */

  // Ranges [start, end) of `text` whose words stand for one of `terms` (index terms).
  Engine.prototype.highlight = function (text, terms) {
    if (!text || !terms || !terms.size) return [];
    var f = this.folder.foldWithOffsets(text), m, ranges = [];
    // Folded ASCII text has only [a-z0-9] letters: the same pattern, without Unicode classes.
    var re = f.starts ? new RegExp(CHAIN, "gu") : new RegExp(ASCII_CHAIN, "g");
    var partRe = f.starts ? new RegExp(PART, "gu") : new RegExp(ASCII_PART, "g");
    while ((m = re.exec(f.text)) !== null) {
      var spans = [], p;
      partRe.lastIndex = 0;
      var chain = m[0];
      while ((p = partRe.exec(chain)) !== null) {
        spans.push({ word: p[0].replace(/'/g, ""), start: m.index + p.index, end: m.index + p.index + p[0].length });
      }
      var hit = spans.map(function (s) { return terms.has(stem(s.word)); });
      for (var i = 0; i + 1 < spans.length; i++) {
        if (terms.has(stem(spans[i].word + spans[i + 1].word))) { hit[i] = hit[i + 1] = true; }
      }
      if (spans.length > 2 && terms.has(stem(spans.map(function (s) { return s.word; }).join("")))) {
        hit = hit.map(function () { return true; });
      }
      for (var k = 0; k < spans.length; k++) {
        if (!hit[k]) continue;
        var start = f.starts ? f.starts[spans[k].start] : spans[k].start;
        var end = f.ends ? f.ends[spans[k].end - 1] : spans[k].end;
        // Highlight "K-means" as one piece when both halves match.
        if (k > 0 && hit[k - 1] && ranges.length) {
          ranges[ranges.length - 1][1] = end;
        } else {
          ranges.push([start, end]);
        }
      }
    }
    return ranges;
  };

  // A window of `text` of about `size` characters around the densest matches, cut at
  // spaces; `marks` are the highlighted ranges inside the window.
  Engine.prototype.snippet = function (text, terms, size) {
    size = size || 240;
    text = text || "";
    var ranges = this.highlight(text, terms);
    if (text.length <= size) return { text: text, marks: ranges, head: false, tail: false };
    var start = 0, bestCount = 0, lead = Math.floor(size / 5);
    ranges.forEach(function (r) {
      var from = Math.max(0, r[0] - lead), count = 0;
      ranges.forEach(function (o) { if (o[0] >= from && o[1] <= from + size) count++; });
      if (count > bestCount) { bestCount = count; start = from; }
    });
    var end = Math.min(text.length, start + size);
    if (end === text.length) start = Math.max(0, end - size);
    if (start > 0) {
      var space = text.lastIndexOf(" ", start);
      if (space >= 0 && start - space < 30) start = space + 1;
    }
    if (end < text.length) {
      var back = text.lastIndexOf(" ", end);
      var lastMark = 0;
      ranges.forEach(function (r) { if (r[0] < end) lastMark = Math.max(lastMark, r[1]); });
      if (back > start + size / 2 && back >= Math.min(lastMark, end)) end = back;
    }
    var marks = [];
    ranges.forEach(function (r) {
      if (r[1] > start && r[0] < end) marks.push([Math.max(r[0], start) - start, Math.min(r[1], end) - start]);
    });
    return { text: text.slice(start, end), marks: marks, head: start > 0, tail: end < text.length };
  };

  /* ---------------------------------------------------------------- service */

  // The search service behind the page: loads the files in stages and answers queries.
  // `post(message)` sends to the page; `fetchJSON(path)` returns a promise of parsed JSON.
  var SNIPPET_DELAY = 120; // ms

  function Service(post, fetchJSON) {
    this.post = post;
    this.fetchJSON = fetchJSON;
    this.engine = null;
    this.stage = "loading";
    this.last = null;
    this.shards = new Map();
    this.pending = new Map();
  }

  Service.prototype.handle = function (message) {
    if (message.type === "init") return this.load(message.base);
    if (message.type === "query") {
      this.last = message;
      if (this.engine && this.engine.docs) this.answer(message);
    }
  };

  // Answers a query; a failure still answers (with the error), so the page never waits.
  Service.prototype.answer = function (message) {
    try {
      this.respond(message);
    } catch (error) {
      this.post({ type: "results", id: message.id, q: message.q || "", filters: message.filters || {}, total: 0,
        partial: false, browsing: false, hits: [], facets: { venue: {}, tag: {}, year: {} }, stage: this.stage,
        waiting: this.waiting || [], error: String(error && error.message || error) });
    }
  };

  // Loads meta.json, then the first index part with the document store (enough for a
  // first answer), then the other parts one after the other; after each step the last
  // query is answered again with what is loaded.
  Service.prototype.load = function (base) {
    var self = this;
    this.base = base;
    return this.fetchJSON(base + "search/meta.json?t=" + Date.now()).then(function (meta) {
      self.meta = meta;
      self.version = "?v=" + encodeURIComponent(meta.build);
      self.engine = new Engine(meta);
      self.post({ type: "meta", meta: { venues: meta.venues, tags: meta.tags, count: meta.count, parts: meta.parts } });
      var first = meta.parts[0];
      return Promise.all([self.get(first.index), self.get(first.words), self.get("search/docs.json")])
        .then(function (loaded) {
          self.engine.addPart(first, loaded[0], loaded[1]);
          self.engine.setDocs(loaded[2]);
          self.loaded();
          return meta.parts.slice(1).reduce(function (chain, spec) {
            return chain.then(function () {
              return Promise.all([self.get(spec.index), self.get(spec.words)]).then(function (l) {
                self.engine.addPart(spec, l[0], l[1]);
                self.loaded();
              });
            });
          }, Promise.resolve());
        });
    }).catch(function (error) {
      self.post({ type: "state", state: "error", message: String(error && error.message || error) });
    });
  };

  Service.prototype.loaded = function () {
    var have = this.engine.parts.map(function (p) { return p.name; });
    var waiting = this.meta.parts.filter(function (p) { return have.indexOf(p.name) < 0; });
    this.stage = waiting.length ? "partial" : "ready";
    this.waiting = [];
    var self = this;
    waiting.forEach(function (p) { self.waiting.push.apply(self.waiting, p.fields); });
    this.post({ type: "state", state: this.stage, waiting: this.waiting });
    if (this.last) this.answer(this.last);
  };

  Service.prototype.get = function (path) {
    return this.fetchJSON(this.base + path + this.version);
  };

  Service.prototype.shard = function (n) {
    var self = this;
    if (this.shards.has(n)) return Promise.resolve(this.shards.get(n));
    if (!this.pending.has(n)) {
      this.pending.set(n, this.get("search/text/" + n + ".json").then(function (data) {
        self.shards.set(n, data);
        self.pending.delete(n);
        return data;
      }, function (error) {
        self.pending.delete(n);
        throw error;
      }));
    }
    return this.pending.get(n);
  };

  Service.prototype.abstractOf = function (slug, ref) {
    var shard = this.shards.get(Math.floor(ref / this.meta.shardSize));
    return shard ? (shard[slug] || "") : null;
  };

  Service.prototype.respond = function (message) {
    var engine = this.engine, self = this, started = Date.now();
    var filters = message.filters || {};
    var query = message.q || "";
    var hasQuery = !!query.trim();
    var result, ranked;
    if (hasQuery) {
      ranked = engine.rank(query);
      result = engine.select(ranked, null);
    } else {
      // No words: every paper, newest first then by title (browsing with filters).
      var all = engine.refs.map(function (_, i) { return i; }), records = engine.records;
      all.sort(function (a, b) { return (records[b].y - records[a].y) || (a - b); });
      result = { refs: all, partial: false, terms: new Set(), words: 0 };
    }
    var active = { venue: filters.venue || "", tag: filters.tag || "", year: String(filters.year || "") };
    var counted = engine.facets(result.refs, active), matching = counted.matching, facets = counted.counts;
    if (hasQuery && !matching.length && (active.venue || active.tag || active.year)) {
      // Papers with every word exist, but none within the filters: the papers within them
      // that have some of the words, as the search in Python (filters first) answers.
      var within = engine.select(ranked, active);
      matching = engine.facets(within.refs, active).matching;
      if (matching.length) result = within;
    }
    var limit = Math.max(1, Math.min(message.limit || 20, 1000));
    var page = matching.slice(0, limit);
    var missing = new Set();
    var hits = page.map(function (ref) {
      var slug = engine.refs[ref], d = engine.docs[slug];
      var abstract = self.abstractOf(slug, ref);
      if (abstract === null) missing.add(Math.floor(ref / self.meta.shardSize));
      return self.describe(slug, d, result.terms, abstract);
    });
    this.post({
      type: "results",
      id: message.id,
      q: query,
      filters: active,
      total: matching.length,
      partial: result.partial,
      browsing: !hasQuery,
      hits: hits,
      facets: facets,
      stage: this.stage,
      waiting: this.waiting || [],
      ms: Date.now() - started,
    });
    // Abstracts for the snippets: fetched once typing pauses, not for every keystroke.
    clearTimeout(this.snippetTimer);
    if (missing.size) {
      this.snippetTimer = setTimeout(function () {
        if (self.last !== message) return;
        Promise.all(Array.from(missing).map(function (n) { return self.shard(n); })).then(function () {
          if (self.last !== message) return;
          var snippets = {};
          page.forEach(function (ref) {
            var slug = engine.refs[ref];
            snippets[slug] = engine.snippet(self.abstractOf(slug, ref) || "", result.terms);
          });
          self.post({ type: "snippets", id: message.id, snippets: snippets });
        }, function () { /* no snippets: the results stay without them */ });
      }, SNIPPET_DELAY);
    }
  };

  Service.prototype.describe = function (slug, d, terms, abstract) {
    var engine = this.engine;
    return {
      slug: slug,
      title: d.t,
      titleMarks: engine.highlight(d.t, terms),
      // d.u: the authors' page slugs (the result links each name to its author's page)
      authors: d.a.map(function (name, i) {
        return { name: name, slug: d.u[i], marks: engine.highlight(name, terms) };
      }),
      venue: d.v,
      year: d.y,
      tags: d.g,
      presentation: d.p || null,
      provisional: !!d.x,
      pdf: d.f || null, // the PDF's URL (derive.urls.pdf_url), the result's first action
      snippet: abstract === null ? null : engine.snippet(abstract, terms),
    };
  };

  return {
    Folder: Folder,
    Engine: Engine,
    Service: Service,
    queryUnits: queryUnits,
    stem: stem,
    isStopWord: stopWords,
    compounds: compounds,
  };
});
