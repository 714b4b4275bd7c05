/*
 * Papershelf search engine: queries the search files written by generator/outputs/search/
 * (an index split by term: a query fetches the dictionary and postings files of its words,
 * the people and identifier files a short query needs, and the whole rows of the results on
 * screen). Runs in a Web Worker
 * (search-worker.js), on the page as a fallback, and under Node for the parity tests.
 * Uses lunr.js 2.3.9 for its stemmer and stop words; the postings carry Lunr's weights.
 *
 * The query code here and SearchEngine in tests/outputs/search_engine.py are twins: the same folding and
 * tokenizing (table in meta.json), the same lunr.js stemmer (ported to Python), the same
 * expansion of each word (exact, prefix for the last word, one typo for the first words
 * of 5+ letters within meta.query.typoBudget, when the word's term has fewer than
 * meta.query.typoUnder postings) and the same scoring, so both return the same papers in the same order.
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

  // Same as content.words.CJK: each ideograph or kana is a word of its own.
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

  // Same as content.words.tokenize.
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
    // The per-query budget (index.typo_words): of n required words, only the first
    // (typoBudget - n) / 3 of 5+ ASCII letters also match with one typo (a typo costs three
    // dictionary files more); optional words (compounds of a hyphenated word) match exactly.
    units = units.slice(0, settings.maxUnits);
    var fuzzy = 0, required = units.filter(function (unit) { return unit.required; }).length;
    var typos = Math.max(0, Math.floor((settings.typoBudget - required) / 3));
    units.forEach(function (unit) {
      unit.fuzzy = unit.required && cpLength(unit.word) >= settings.minFuzzy && ASCII_WORD.test(unit.word) &&
        fuzzy++ < typos;
    });
    return units;
  }

  /* ---------------------------------------------------------------- engine */

  function codePoints(text) { return ASCII_TEXT.test(text) ? text.split("") : Array.from(text); }

  // Same as shards.bucket: the first two characters (code points).
  function bucket(word) { return ASCII_TEXT.test(word) ? word.slice(0, 2) : codePoints(word).slice(0, 2).join(""); }

  // Same as shards.typo_keys: the dictionary keys of every word one edit from `word`.
  var TAIL = " ", SKIP = "!";
  function typoKeys(word) {
    var c = codePoints(word), rest = c.slice(1), skipped = c.slice(0, 1).concat(c.slice(2));
    function b(chars) { return chars.slice(0, 2).join(""); }
    var found = [b(c), b(rest), b(c.slice(1, 2).concat(c.slice(0, 1), c.slice(2))), b(skipped),
      b(c) + TAIL, b(rest) + TAIL, b(skipped) + SKIP, b(c) + SKIP], out = [];
    found.forEach(function (k) {
      if (k.replace(/[ !]+$/, "") && out.indexOf(k) < 0) out.push(k);
    });
    return out;
  }

  // Whether a and b (arrays of code points) are at most one insertion, deletion,
  // substitution or swap of neighbours apart (what lunr's fuzzy match with distance 1 finds).
  function oneEdit(a, b) {
    var la = a.length, lb = b.length;
    if (Math.abs(la - lb) > 1) return false;
    var i = 0;
    while (i < la && i < lb && a[i] === b[i]) i++;
    if (i === la && i === lb) return true;
    var j = 0;
    while (j < la - i && j < lb - i && a[la - 1 - j] === b[lb - 1 - j]) j++;
    if (la === lb) {
      if (i + j >= la - 1) return true; // one substitution
      return i + j === la - 2 && a[i] === b[i + 1] && a[i + 1] === b[i]; // a swap
    }
    return i + j >= Math.min(la, lb); // one insertion or deletion
  }

  // The dictionary file holding a bucket: meta.dict lists the first bucket of each file.
  function dictFile(starts, b) {
    var lo = 0, hi = starts.length - 1, found = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (starts[mid] <= b) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  // Same as shards.name_path: an author's page (below authors/) from an ASCII name.
  function namePath(name) {
    if (typeof name !== "string" || !ASCII_TEXT.test(name)) return null;
    var slug = (name.toLowerCase().match(/[a-z0-9]+/g) || []).join("-");
    return slug ? (slug.replace(/-/g, "").slice(0, 2) + "__").slice(0, 2) + "/" + slug : null;
  }

  // Same as shards.title_slug: a paper's page when its record leaves it out (ASCII titles).
  function titleSlug(title, max) {
    var slug = "";
    (title.toLowerCase().match(/[a-z0-9]+/g) || []).every(function (word) {
      if (slug.length + word.length + (slug ? 1 : 0) > max) return false;
      slug = slug ? slug + "-" + word : word;
      return true;
    });
    return slug;
  }

  function Engine(meta) {
    this.meta = meta;
    this.folder = new Folder(meta.fold);
    this.settings = meta.query;
    this.size = meta.count;
    this.dictLoaded = new Set(); // dictionary file numbers
    this.buckets = new Map(); // bucket -> entries [word, term or "", df, postings file]
    this.postings = new Map(); // term -> {refs, fields, values}
    this.records = []; // ref -> display record {t, s, g}, as chunks arrive
  }

  /* Files. Each add* takes a parsed file; *Needed says which files a step still lacks. */

  Engine.prototype.addDict = function (n, data) {
    this.dictLoaded.add(n);
    for (var b in data) this.buckets.set(b, data[b]);
  };

  Engine.prototype.addTerms = function (data) {
    for (var term in data) {
      var flat = data[term], n = flat.length / 2, refs = new Int32Array(n), fields = new Uint8Array(n);
      var values = new Float64Array(n), ref = 0;
      for (var i = 0; i < n; i++) {
        var code = flat[2 * i];
        ref += code >> 2;
        refs[i] = ref;
        fields[i] = code & 3;
        values[i] = flat[2 * i + 1];
      }
      this.postings.set(term, { refs: refs, fields: fields, values: values });
    }
  };

  Engine.prototype.addDocs = function (n, records) {
    var first = n * this.meta.docChunk;
    for (var i = 0; i < records.length; i++) {
      if (!records[i].s) records[i].s = titleSlug(records[i].t, this.meta.slugMax);
      this.records[first + i] = records[i];
    }
  };

  // Venue and year of each paper as numbers (the year is the venue's): refs run through the
  // venues in order, meta.n[i] papers of venue i (shards.py). Tags come later (setTags).
  Engine.prototype.setVenues = function (counts) {
    var meta = this.meta, n = 0;
    counts.forEach(function (c) { n += c; });
    var codes = this.codes = { venue: new Map(), tag: new Map(), year: new Map() };
    var venueYear = [];
    meta.venues.forEach(function (v, i) {
      codes.venue.set(v.id, i);
      var y = String(v.year);
      if (!codes.year.has(y)) codes.year.set(y, codes.year.size);
      venueYear[i] = codes.year.get(y);
    });
    meta.tags.forEach(function (t, i) { codes.tag.set(t.id, i); });
    var venue = new Int32Array(n), year = new Int32Array(n);
    for (var r = 0, v = 0, end = counts[0] || 0; r < n; r++) {
      while (r >= end && v < counts.length - 1) end += counts[++v];
      venue[r] = v;
      year[r] = venueYear[v];
    }
    this.years = meta.venues.map(function (v) { return v.year; });
    this.docCodes = { venue: venue, year: year, tagStart: null, tags: null };
    this.size = n;
  };

  // Each paper's tags (facets.json "g"), for the tag filter and its counts: loaded when needed.
  Engine.prototype.setTags = function (data) {
    var n = data.g.length, tagStart = new Int32Array(n + 1), tags = [];
    for (var r = 0; r < n; r++) {
      tagStart[r] = tags.length;
      for (var g = 0; g < data.g[r].length; g++) tags.push(data.g[r][g]);
    }
    tagStart[n] = tags.length;
    this.docCodes.tagStart = tagStart;
    this.docCodes.tags = Int32Array.from(tags);
  };

  // Both at once (the tests under Node).
  Engine.prototype.setFacets = function (data) {
    this.setVenues(this.meta.n);
    this.setTags(data);
  };

  // The dictionary files a query's words need: the buckets of each word's stem and of the
  // half-typed last word itself; then (`typos`, once those are loaded) for the words that
  // need a typo (typoNeeded) the buckets of words one edit away.
  Engine.prototype.dictNeeded = function (units, typos) {
    var self = this, s = this.settings, starts = this.meta.dict, files = new Set();
    function add(key) {
      var n = dictFile(starts, key);
      if (starts.length && !self.dictLoaded.has(n)) files.add(n);
    }
    units.forEach(function (unit) {
      var word = unit.word, exact = stem(word);
      if (typos) {
        if (self.typoNeeded(unit)) {
          [word, exact].forEach(function (text) { typoKeys(text).forEach(function (k) { add(k); }); });
        }
        return;
      }
      add(bucket(exact));
      add(bucket(word)); // the word itself: a completion, or a name as typed
    });
    return Array.from(files).sort(function (a, b) { return a - b; });
  };

  Engine.prototype.entries = function (b) { return this.buckets.get(b) || []; };

  // The dictionary entry of the term `exact` itself, or null (its bucket must be loaded).
  Engine.prototype.termEntry = function (exact) {
    var found = null;
    this.entries(bucket(exact)).forEach(function (entry) { if (entry[0] === exact && !entry[1]) found = entry; });
    return found;
  };

  // Whether a word also matches with a typo: it may (unit.fuzzy: the query's budget) and
  // its term has fewer than typoUnder postings (index.TYPO_UNDER; its stem's bucket loaded).
  Engine.prototype.typoNeeded = function (unit) {
    if (!unit.fuzzy) return false;
    var term = this.termEntry(stem(unit.word)), name = this.rawEntry(unit.word);
    return Math.max(term ? term[2] : 0, name ? name[2] : 0) < this.settings.typoUnder;
  };

  Engine.prototype.termsNeeded = function (expansions) {
    var self = this, files = new Set();
    expansions.forEach(function (found) {
      found.forEach(function (e) { if (!self.postings.has(e.term)) files.add(self.info.get(e.term)[1]); });
    });
    return Array.from(files);
  };

  Engine.prototype.docsNeeded = function (refs) {
    var self = this, files = new Set();
    refs.forEach(function (r) { if (!self.records[r]) files.add(Math.floor(r / self.meta.docChunk)); });
    return Array.from(files);
  };

  /* Ranking. */

  Engine.prototype.strongest = function (terms) {
    var info = this.info, unique = Array.from(new Set(terms));
    unique.sort(function (a, b) { return (info.get(b)[0] - info.get(a)[0]) || byCodeUnits(a, b); });
    // The most frequent, while their postings add up to at most maxPostings and lie in at most
    // maxFiles files (the first always).
    var s = this.settings, kept = [], postings = 0, files = new Set();
    for (var i = 0; i < unique.length && kept.length < s.maxExpansions; i++) {
      postings += info.get(unique[i])[0];
      files.add(info.get(unique[i])[1]);
      if (kept.length && (postings > s.maxPostings || files.size > s.maxFiles)) break;
      kept.push(unique[i]);
    }
    return kept;
  };

  // Which fields of a posting a match counts in (bits by field number: title, authors, meta,
  // abstract). Author names are indexed as typed (index.RAW_FIELDS): a word's stem matches
  // the other fields (WORDS), the word itself the names (AUTHORS) ("Levine" is not "Levin").
  var AUTHORS = 2, WORDS = 13, ALL = 15;

  // Index terms a query word stands for, with their weights (exact > prefix > typo) and the
  // fields each counts in: Map key -> {term, weight, mask}; its buckets must be loaded.
  // Notes each term's document frequency and postings file in `info`, and in
  // `found.correction` the word a typo was read as when only typos matched.
  Engine.prototype.expand = function (unit) {
    var self = this, found = new Map(), w = this.settings.weights, word = unit.word, exact = stem(word);
    var info = this.info, matched = false;
    function note(entry) {
      var term = entry[1] || entry[0];
      if (!info.has(term)) info.set(term, [entry[2], entry[3]]);
      return term;
    }
    function put(term, weight, mask) {
      var key = term + "\u0001" + mask, old = found.get(key);
      if (!old || old.weight < weight) found.set(key, { term: term, weight: weight, mask: mask });
    }
    if (unit.prefix && cpLength(word) >= this.settings.minPrefix) {
      // A completion weighs by how much of it was typed: "graph" -> "graphs" > "graphics".
      // A surface word stands for its stem in the fields of words; a term also for names.
      var typed = new Map(), masks = new Map(), length = cpLength(word);
      this.entries(bucket(word)).forEach(function (entry) {
        if (entry[0].lastIndexOf(word, 0) !== 0) return;
        var term = note(entry), share = length / cpLength(entry[0]);
        if (!(typed.get(term) >= share)) typed.set(term, share);
        masks.set(term, (masks.get(term) || 0) | (entry[1] ? WORDS : ALL));
      });
      this.strongest(Array.from(typed.keys())).forEach(function (term) {
        put(term, w.prefix * typed.get(term), masks.get(term));
        matched = true;
      });
    }
    if (this.typoNeeded(unit)) {
      // A typo never turns one name into another: a word the index holds matches no
      // other name with a typo.
      var candidates = [], cmasks = new Map(), surface = new Map();
      var known = this.termEntry(exact) || this.rawEntry(word);
      Array.from(new Set([word, exact])).forEach(function (text) {
        var chars = codePoints(text);
        typoKeys(text).forEach(function (b) {
          self.entries(b).forEach(function (entry) {
            if (!oneEdit(chars, codePoints(entry[0]))) return;
            // (names as typed: the word's neighbours, never its stem's)
            var term = note(entry), mask = (entry[1] ? WORDS : ALL) & (known || text !== word ? WORDS : ALL);
            candidates.push(term);
            cmasks.set(term, (cmasks.get(term) || 0) | mask);
            if (!surface.has(term) || text === word) surface.set(term, entry[0]); // what was meant, as a word
          });
        });
      });
      var kept = this.strongest(candidates);
      kept.forEach(function (term) { put(term, w.fuzzy, cmasks.get(term)); });
      if (kept.length) found.typo = surface.get(kept[0]);
    }
    var own = this.termEntry(exact);
    if (own) { put(note(own), w.exact, exact === word ? ALL : WORDS); matched = true; }
    var name = exact !== word ? this.rawEntry(word) : null;
    if (name) { put(note(name), w.exact, AUTHORS); matched = true; }
    if (found.typo && !matched) found.correction = found.typo;
    return found;
  };

  // The entry of `word` as a term of its own (a name as typed), or null.
  Engine.prototype.rawEntry = function (word) { return this.termEntry(word); };

  // The expansions of every word (their buckets must be loaded), common words dropped.
  Engine.prototype.expandAll = function (units) {
    var self = this;
    this.info = new Map();
    return this.dropCommon(units, units.map(function (unit) { return self.expand(unit); }));
  };

  // A required word all of whose terms have at least meta.query.common postings (index.
  // COMMON_SHARE) is neither fetched nor required when another required word is rarer:
  // "learning" in "diffusion learning protein" adds little but the largest postings.
  Engine.prototype.dropCommon = function (units, expansions) {
    var info = this.info, limit = this.settings.common;
    if (!limit) return expansions;
    var common = units.map(function (unit, u) {
      if (!unit.required || !expansions[u].size) return false;
      var all = true;
      expansions[u].forEach(function (e) { if (info.get(e.term)[0] < limit) all = false; });
      return all;
    });
    var rarer = units.some(function (unit, u) { return unit.required && expansions[u].size && !common[u]; });
    if (!rarer) return expansions;
    return expansions.map(function (found, u) {
      if (!common[u]) return found;
      units[u].required = false;
      return new Map();
    });
  };

  // Adds into `best` (by ref) the unit's score: for each term, weight x the sum of the
  // term's weights over the fields of its mask (in their order), the best term counting.
  // Returns the refs touched.
  Engine.prototype.unitScores = function (expansions, best, seen) {
    var postings = this.postings, touched = [];
    Array.from(expansions.keys()).sort(byCodeUnits).forEach(function (key) {
      var e = expansions.get(key), weight = e.weight, mask = e.mask, p = postings.get(e.term);
      var n = p.refs.length, i = 0;
      while (i < n) {
        var ref = p.refs[i], sum = 0;
        do { if ((mask >> p.fields[i]) & 1) sum += p.values[i]; i++; } while (i < n && p.refs[i] === ref);
        if (!(sum > 0)) continue;
        if (!seen[ref]) { seen[ref] = 1; touched.push(ref); }
        var score = weight * sum;
        if (score > best[ref]) best[ref] = score;
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
        best: new Float64Array(n), seen: new Uint8Array(n) };
    }
    s.scores.fill(0); s.coverage.fill(0); s.any.fill(0); s.best.fill(0); s.seen.fill(0);
    return s;
  };

  // Ranks the papers for a query whose files are loaded: same as SearchEngine.search in
  // tests/outputs/search_engine.py.
  Engine.prototype.rank = function (units, expansions) {
    var self = this, work = this.scratch();
    var scores = work.scores, coverage = work.coverage, any = work.any, best = work.best;
    var terms = new Set(), required = 0, hit = [];
    units.forEach(function (unit, u) {
      var found = expansions[u];
      found.forEach(function (e) { terms.add(e.term); });
      if (unit.required) required++;
      var touched = self.unitScores(found, best, work.seen);
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

  Engine.prototype.units = function (query) { return queryUnits(this.folder, this.settings, query); };

  // The whole query at once, for callers that have every file (the tests under Node).
  Engine.prototype.search = function (query, filters) {
    var units = this.units(query);
    return this.select(this.rank(units, this.expandAll(units)), filters);
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
    return { refs: candidates, scores: scores, coverage: coverage, partial: partial, terms: ranked.terms,
      words: ranked.units.length };
  };

  Engine.prototype.passes = function (ref, filters) {
    if (!filters) return true;
    var dc = this.docCodes, codes = this.codes;
    if (filters.venue && dc.venue[ref] !== codes.venue.get(filters.venue)) return false;
    if (filters.year && dc.year[ref] !== codes.year.get(String(filters.year))) return false;
    if (filters.tag) {
      if (!dc.tags) return false;
      var want = codes.tag.get(filters.tag), ok = false;
      for (var g = dc.tagStart[ref]; g < dc.tagStart[ref + 1]; g++) if (dc.tags[g] === want) ok = true;
      if (!ok) return false;
    }
    return true;
  };

  // Every paper, newest first (browsing with filters and no words).
  Engine.prototype.browse = function () {
    var year = this.docCodes.year, years = [], all = [];
    this.codes.year.forEach(function (c, y) { years[c] = +y; });
    for (var r = 0; r < this.size; r++) all.push(r);
    all.sort(function (a, b) { return (years[year[b]] - years[year[a]]) || (a - b); });
    return { refs: all, partial: false, terms: new Set(), words: 0 };
  };

  // Counts of each venue, tag and year among `refs`, each among the refs that pass the
  // other two filters; and the refs that pass all three, in order.
  Engine.prototype.facets = function (refs, active) {
    var codes = this.codes, dc = this.docCodes, hasTags = !!dc.tags;
    function wanted(map, key) { return key ? (map.has(key) ? map.get(key) : -2) : -1; }
    var want = { venue: wanted(codes.venue, active.venue), tag: wanted(codes.tag, active.tag),
      year: wanted(codes.year, active.year) };
    var venues = new Int32Array(codes.venue.size), tagCounts = new Int32Array(codes.tag.size);
    var years = new Int32Array(codes.year.size), matching = [];
    for (var k = 0; k < refs.length; k++) {
      var r = refs[k], okVenue = want.venue === -1 || dc.venue[r] === want.venue;
      var okYear = want.year === -1 || dc.year[r] === want.year, okTag = want.tag === -1, g, from = 0, to = 0;
      if (hasTags) { from = dc.tagStart[r]; to = dc.tagStart[r + 1]; }
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
      counts: { venue: named(codes.venue, venues), tag: hasTags ? named(codes.tag, tagCounts) : null,
        year: named(codes.year, years) } };
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

  /* ---------------------------------------------------------------- identifiers, people */

  // Same as search.ids (link_keys, query_keys, key_file): a paper's identifiers as keys.
  var ARXIV_NEW = /^(\d{4}\.\d{4,5})(?:v\d+)?$/i;
  var ARXIV_URL = /arxiv\.org\/(?:abs|pdf|html)\/([a-z-]+(?:\.[a-z]{2})?\/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?/i;
  var DOI_RE = /(10\.\d{4,9}\/[^\s?#]+)/i;
  var ACL = /^(\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*\.\d+|[a-z]\d{2}-\d{4})$/i;
  var ACL_URL = /aclanthology\.org\/(\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*\.\d+|[a-z]\d{2}-\d{4})/i;
  var OPENREVIEW_URL = /openreview\.net\/(?:forum|pdf|attachment)\?(?:[^#\s]*&)?id=([a-z0-9_-]+)/i;
  var PMLR_URL = /proceedings\.mlr\.press\/(v\d+)\/([a-z0-9_-]+?)(?:\.html|\.pdf|\/|$)/i;
  var ID_TOKEN = /^[a-z0-9][a-z0-9._\/:-]{4,}$/i;

  function doiKeys(text) {
    var doi = text.replace(/[\/.]+$/, "").toLowerCase();
    if (/\.pdf$/.test(doi)) doi = doi.slice(0, -4);
    var keys = [doi], m = /^10\.18653\/v1\/(.+)$/i.exec(doi);
    if (m && ACL.test(m[1])) keys.push(m[1]);
    return keys;
  }

  function unique(keys) {
    return keys.filter(function (k, i) { return k.length <= 120 && keys.indexOf(k) === i; });
  }

  function linkKeys(url) {
    var keys = [], m;
    if ((m = ARXIV_URL.exec(url))) keys.push(m[1].toLowerCase());
    if (/doi\.org\//i.test(url) && (m = DOI_RE.exec(url))) keys = keys.concat(doiKeys(m[1]));
    if ((m = ACL_URL.exec(url))) keys.push(m[1].toLowerCase());
    if ((m = OPENREVIEW_URL.exec(url))) keys.push(m[1].toLowerCase());
    if ((m = PMLR_URL.exec(url))) keys.push((m[1] + "/" + m[2]).toLowerCase(), m[2].toLowerCase());
    return unique(keys);
  }

  function queryKeys(query) {
    var text = String(query || "").trim(), m;
    if (!text || text.length > 300 || /\s/.test(text)) return [];
    var lower = text.toLowerCase();
    if (text.indexOf("://") >= 0 || /^(arxiv\.org|aclanthology\.org|openreview\.net|doi\.org)/.test(lower)) return linkKeys(text);
    ["doi:", "arxiv:"].forEach(function (p) { if (lower.lastIndexOf(p, 0) === 0) lower = lower.slice(p.length); });
    if ((m = /^(10\.\d{4,9}\/\S+)$/.exec(lower))) return doiKeys(m[1]);
    if ((m = ARXIV_NEW.exec(lower))) return [m[1]];
    if (ID_TOKEN.test(lower) && (/\d/.test(lower) || text !== lower)) return [lower.replace(/\/+$/, "")];
    return [];
  }

  // Which of `files` files holds a key: FNV-1a over its UTF-16 code units (ids.key_file).
  function keyFile(key, files) {
    var h = 0x811c9dc5;
    for (var i = 0; i < key.length; i++) {
      h ^= key.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h % Math.max(1, files);
  }

  // The words of a name or a query as names are compared: folded, hyphens split.
  Folder.prototype.nameWords = function (text) {
    var re = new RegExp(CHAIN, "gu"), m, words = [];
    var folded = this.fold(cpSlice(text, 200));
    while ((m = re.exec(folded)) !== null) words.push.apply(words, splitParts(m[0]));
    return words.filter(function (w) { return w; });
  };

  // Whether the query words spell the name's words: each a word of the name (in any
  // order), an initial of one, or for the last word still being typed the start of one.
  function spells(query, name, typing) {
    if (query.length < 2 || query.length > name.length) return false;
    var used = name.map(function () { return false; });
    // Whole words first, then initials and the half-typed word.
    var order = query.map(function (q, i) { return i; }).sort(function (a, b) {
      var la = query[a].length === 1 ? 1 : 0, lb = query[b].length === 1 ? 1 : 0;
      return la - lb || a - b;
    });
    var whole = 0;
    var ok = order.every(function (i) {
      var q = query[i], found = -1;
      for (var k = 0; k < name.length && found < 0; k++) if (!used[k] && name[k] === q) found = k;
      if (found >= 0) whole++;
      for (k = 0; k < name.length && found < 0; k++) {
        if (used[k]) continue;
        if (q.length === 1 && name[k].charAt(0) === q) found = k;
        else if (typing && i === query.length - 1 && q.length >= 2 && name[k].lastIndexOf(q, 0) === 0) found = k;
      }
      if (found < 0) return false;
      used[found] = true;
      return true;
    });
    return ok && whole >= 1 ? (used.every(Boolean) ? 2 : 1) : 0;
  }

  /* ---------------------------------------------------------------- service */

  // The search service behind the page. `post(message)` sends to the page; `fetchJSON(path)`
  // returns a promise of parsed JSON. Loads meta.json, then for each query the dictionary
  // files of its words, the postings files of their terms, the people file of each word of a
  // short query, the identifier file of a query that looks like one, and the records of
  // the results on screen (whole rows: title, authors, badges, PDF), each file once;
  // answers when all are there. The tags of every paper (facets.json) load only for the
  // tag filter and its counts.
  var FORMAT_VERSION = 5; // index.FORMAT_VERSION
  var MAX_PERSON_WORDS = 4, MAX_CARDS = 5, PEOPLE_KEY = 3; // people.KEY_CHARS

  function Service(post, fetchJSON) {
    this.post = post;
    this.fetchJSON = fetchJSON;
    this.engine = null;
    this.last = null;
    this.files = new Map(); // path -> promise of its parsed JSON
    this.failed = null;
  }

  Service.prototype.handle = function (message) {
    if (message.type === "init") return this.load(message.base);
    if (message.type === "query") {
      this.last = message;
      if (this.engine) this.answer(message);
    }
  };

  Service.prototype.fail = function (error, message) {
    this.failed = String(error && error.message || error);
    this.post({ type: "state", state: "error", message: this.failed, id: message ? message.id : 0 });
  };

  Service.prototype.load = function (base) {
    var self = this;
    this.base = base;
    return this.fetchJSON(base + "search/meta.json?t=" + Date.now()).then(function (meta) {
      // The search files of another build format (this script cached from an older or newer
      // build): one clear error, not a wrong answer.
      if (!meta || meta.version !== FORMAT_VERSION) throw new Error("search files of format " + (meta && meta.version) + ", not " + FORMAT_VERSION + "; reload the page");
      self.meta = meta;
      self.version = "?v=" + encodeURIComponent(meta.build);
      self.engine = new Engine(meta);
      self.engine.setVenues(meta.n);
      self.post({ type: "meta", meta: { venues: meta.venues, tags: meta.tags, count: meta.count } });
      self.post({ type: "state", state: "ready" });
      if (self.last) self.answer(self.last);
    }).catch(function (error) { self.fail(error, self.last); });
  };

  // Every paper's tags, loaded once (again after a failure).
  Service.prototype.tags = function () {
    var self = this, engine = this.engine;
    if (engine.docCodes.tags) return Promise.resolve();
    if (!this.facets) {
      this.facets = this.get("search/facets.json").then(function (data) {
        if (!data || !Array.isArray(data.g) || data.g.length !== engine.size) throw new Error("search/facets.json is damaged");
        engine.setTags(data);
      }, function (error) { self.facets = null; throw error; });
    }
    return this.facets;
  };

  Service.prototype.get = function (path) {
    var self = this, url = this.base + path + this.version;
    if (!this.files.has(url)) {
      this.files.set(url, this.fetchJSON(url).catch(function (error) {
        self.files.delete(url); // a later query tries again
        throw error;
      }));
    }
    return this.files.get(url);
  };

  // Loads the numbered files of `folder` and hands each to `add(n, data)`.
  Service.prototype.fetchAll = function (folder, numbers, add) {
    var self = this;
    return Promise.all(numbers.map(function (n) {
      return self.get("search/" + folder + "/" + n + ".json.gz").then(function (data) {
        if (!data || typeof data !== "object") throw new Error("search/" + folder + "/" + n + ".json.gz is damaged");
        add(n, data);
      });
    }));
  };

  // `fetchJSON(url)` of the page and the worker: the parsed JSON of a file of the site. The
  // numbered files are gzip (`<n>.json.gz`, a third of their size:
  // generator/outputs/search/stored.py), as static hosts serve them: the bytes of the
  // file, unpacked here (DecompressionStream); a host that sends them unpacked already
  // (Content-Encoding: gzip) gives JSON, read as it is. A damaged file is an error that names it.
  function fetchJSON(url) {
    var name = url.split("?")[0];
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error(name + ": HTTP " + response.status);
      if (!/\.gz(\?|$)/.test(url)) return response.json();
      return response.arrayBuffer().then(function (buffer) {
        var bytes = new Uint8Array(buffer);
        if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return JSON.parse(new TextDecoder().decode(bytes));
        return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).json();
      });
    }).catch(function (error) {
      if (/HTTP \d+/.test(String(error && error.message))) throw error;
      throw new Error(name + " could not be read (" + (error && error.message || error) + ")");
    });
  }

  // The people a short query may name: the words of the query (2 to MAX_PERSON_WORDS).
  Service.prototype.personWords = function (query) {
    if (!query || query.length > 120) return null;
    var words = this.engine.folder.nameWords(query);
    if (words.length < 2 || words.length > MAX_PERSON_WORDS) return null;
    if (!words.every(function (w) { return /^\p{L}/u.test(w); })) return null; // "2301.01234" names nobody
    return words;
  };

  // Answers a query once its files are loaded; a file that fails gives the error state.
  Service.prototype.answer = function (message) {
    var self = this, engine = this.engine, meta = this.meta;
    var query = message.q || "", units = query.trim() ? engine.units(query) : null, expansions = null;
    if (units && message.exact) units.forEach(function (unit) { unit.fuzzy = false; });
    var steps = [];
    if (units && units.length) {
      var addDict = function (n, d) { engine.addDict(n, d); };
      steps.push(this.fetchAll("dict", engine.dictNeeded(units), addDict)
        .then(function () { return self.fetchAll("dict", engine.dictNeeded(units, true), addDict); })
        .then(function () {
          expansions = engine.expandAll(units);
          return self.fetchAll("terms", engine.termsNeeded(expansions), function (n, d) { engine.addTerms(d); });
        }));
    } else if (units) {
      expansions = [];
    }
    var keys = queryKeys(query), idRefs = [];
    if (keys.length && meta.ids) {
      var idFiles = Array.from(new Set(keys.map(function (k) { return keyFile(k, meta.ids); })));
      steps.push(this.fetchAll("ids", idFiles, function (n, data) {
        keys.forEach(function (k) {
          if (Object.prototype.hasOwnProperty.call(data, k) && Array.isArray(data[k])) idRefs = idRefs.concat(data[k]);
        });
      }));
    }
    var words = units ? this.personWords(query) : null, people = [];
    if (words && meta.people) {
      var families = words.filter(function (w) { return w.length >= 2; });
      var fileOf = function (w) { return keyFile(cpSlice(w, PEOPLE_KEY), meta.people); };
      var peopleFiles = Array.from(new Set(families.map(fileOf)));
      steps.push(this.fetchAll("people", peopleFiles, function (n, data) {
        families.forEach(function (w) {
          if (fileOf(w) === n && Object.prototype.hasOwnProperty.call(data, w)) people = people.concat(data[w]);
        });
      }));
    }
    var filters = message.filters || {};
    if (filters.tag || message.tags) steps.push(this.tags());
    var computed;
    return Promise.all(steps).then(function () {
      computed = self.compute(message, units, expansions, idRefs, self.persons(words, people, /\S$/.test(query)));
      return self.fetchAll("docs", engine.docsNeeded(computed.page), function (n, d) { engine.addDocs(n, d); });
    }).then(function () {
      self.failed = null;
      self.respond(message, computed);
    }).catch(function (error) {
      self.fail(error, message);
    });
  };

  // The people whose name the query spells (`spells`), whole names first, then by papers.
  Service.prototype.persons = function (words, entries, typing) {
    if (!words || !entries.length) return [];
    var folder = this.engine.folder, found = [], seen = new Set(), size = this.engine.size;
    entries.forEach(function (e) {
      if (!Array.isArray(e) || seen.has(e[1])) return;
      var best = 0;
      [e[0]].concat(e[6] || []).forEach(function (name) { best = Math.max(best, spells(words, folder.nameWords(name), typing)); });
      if (!best) return;
      seen.add(e[1]);
      var refs = [], ref = 0;
      (e[5] || []).forEach(function (d) { ref += d; if (ref >= 0 && ref < size) refs.push(ref); });
      found.push({ name: e[0], path: e[1], first: e[2], last: e[3], venues: e[4], refs: refs, count: refs.length, whole: best });
    });
    found.sort(function (a, b) { return (b.whole - a.whole) || (b.count - a.count) || byCodeUnits(a.name, b.name); });
    return found.slice(0, MAX_CARDS);
  };

  Service.prototype.compute = function (message, units, expansions, idRefs, persons) {
    var engine = this.engine, filters = message.filters || {}, result, ranked = null;
    if (units) {
      ranked = engine.rank(units, expansions);
      result = engine.select(ranked, null);
      // A paper an identifier names comes first, then the papers of the people named (best
      // score first), then the rest: a full name as an author beats the words found apart.
      var front = [], inFront = new Set(), scores = ranked.scores;
      function lead(ref) { if (ref >= 0 && ref < engine.size && !inFront.has(ref)) { inFront.add(ref); front.push(ref); } }
      idRefs.forEach(lead);
      persons.forEach(function (p) { // in the cards' order, each one's best first
        p.refs.slice().sort(function (a, b) { return (scores[b] - scores[a]) || (a - b); }).forEach(lead);
      });
      if (front.length) {
        result.refs = front.concat(result.refs.filter(function (r) { return !inFront.has(r); }));
        if (result.partial && !idRefs.length) result.partial = false;
      }
    } else {
      result = engine.browse();
    }
    var active = { venue: filters.venue || "", tag: filters.tag || "", year: String(filters.year || "") };
    var counted = engine.facets(result.refs, active), matching = counted.matching;
    if (units && ranked && !matching.length && (active.venue || active.tag || active.year)) {
      // Papers with every word exist, but none within the filters: the papers within them
      // that have some of the words, as the search in Python (filters first) answers.
      var within = engine.select(ranked, active);
      var inside = engine.facets(within.refs, active).matching;
      if (inside.length) { result = within; matching = inside; }
    }
    if (message.sort === "year") {
      var year = engine.docCodes.venue, years = engine.years, position = new Map();
      matching.forEach(function (r, i) { position.set(r, i); });
      matching = matching.slice().sort(function (a, b) {
        return (years[year[b]] - years[year[a]]) || (position.get(a) - position.get(b));
      });
    }
    var corrections = [];
    if (units && expansions) {
      units.forEach(function (unit, u) {
        if (expansions[u] && expansions[u].correction) corrections.push([unit.word, expansions[u].correction]);
      });
    }
    var limit = Math.max(1, Math.min(message.limit || 10, 1000));
    return { result: result, matching: matching, facets: counted.counts, active: active,
      page: matching.slice(0, limit), browsing: !units, persons: persons, corrections: corrections,
      words: units ? engine.folder.nameWords(message.q || "") : [], typing: /\S$/.test(message.q || ""),
      ids: idRefs.length };
  };

  Service.prototype.respond = function (message, computed) {
    var self = this, terms = computed.result.terms, people = new Set();
    computed.persons.forEach(function (p) { people.add(p.path); });
    var hits = computed.page.map(function (ref) { return self.describe(ref, terms, computed, people); });
    this.post({
      type: "results", id: message.id, q: message.q || "", filters: computed.active, sort: message.sort || "",
      total: computed.matching.length, partial: computed.result.partial, browsing: computed.browsing,
      hits: hits, facets: computed.facets, stage: "ready",
      persons: computed.persons.map(function (p) {
        return { name: p.name, path: p.path, count: p.count, first: p.first, last: p.last, venues: p.venues };
      }),
      corrections: message.exact ? [] : computed.corrections,
    });
  };

  // Ranges of an author's name to mark: the whole name for a person the query named, else
  // each word of the name the query has (the last word also as the start of one).
  Engine.prototype.nameMarks = function (name, words, typing) {
    if (!words.length) return [];
    var f = this.folder.foldWithOffsets(name), re = new RegExp(PART, "gu"), m, ranges = [];
    var last = typing ? words[words.length - 1] : null;
    while ((m = re.exec(f.text)) !== null) {
      var w = m[0].replace(/'/g, "");
      if (words.indexOf(w) < 0 && !(last && last.length >= 2 && w.lastIndexOf(last, 0) === 0)) continue;
      var start = f.starts ? f.starts[m.index] : m.index;
      var end = f.ends ? f.ends[m.index + m[0].length - 1] : m.index + m[0].length;
      ranges.push([start, end]);
    }
    return ranges;
  };

  // A whole result from its record: title, authors (linked to their pages, the person the
  // query named marked), venue, year, tags, presentation, PDF.
  Service.prototype.describe = function (ref, terms, computed, people) {
    var engine = this.engine, meta = this.meta, d = engine.records[ref];
    var venue = meta.venues[engine.docCodes.venue[ref]], tags = [];
    (d.g || []).forEach(function (g) { if (meta.tags[g]) tags.push(meta.tags[g].id); });
    var names = Array.isArray(d.a) ? d.a : [], paths = (Array.isArray(d.h) ? d.h : []).map(function (h, i) {
      return h === 1 ? namePath(names[i]) : typeof h === "string" ? h : null;
    });
    return {
      slug: d.s,
      title: d.t,
      titleMarks: engine.highlight(d.t, terms),
      authors: names.map(function (name, i) {
        var path = paths[i] || null, person = !!(path && people.has(path));
        return { name: name, path: path, person: person,
          marks: person ? [[0, name.length]] : engine.nameMarks(name, computed.words, computed.typing) };
      }),
      venue: venue.id,
      year: venue.year,
      tags: tags,
      presentation: d.p || null,
      provisional: !!d.x,
      pdf: d.f || null,
      sessions: Array.isArray(d.d) ? d.d : [],
    };
  };

  return {
    Folder: Folder,
    Engine: Engine,
    Service: Service,
    fetchJSON: fetchJSON,
    queryUnits: queryUnits,
    queryKeys: queryKeys,
    linkKeys: linkKeys,
    keyFile: keyFile,
    spells: spells,
    stem: stem,
    isStopWord: stopWords,
    compounds: compounds,
    bucket: bucket,
    typoKeys: typoKeys,
    oneEdit: oneEdit,
    titleSlug: titleSlug,
    namePath: namePath,
  };
});
