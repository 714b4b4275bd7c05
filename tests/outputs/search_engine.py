"""The query engine of the search page, in Python: the twin of ``static/js/search-engine.js``.

No build uses it: the page answers queries in JavaScript. ``SearchEngine`` runs queries
over the files written by ``generator.outputs.search.build_search`` with the same
expansion, scoring and order as the page, so the tests can check ranking in Python
(``test_search_index.py``, ``test_search_quality.py``) and compare both engines result by
result (``test_search_parity.py``).

Ranking. A query is split into words (``query_units``); each word stands for index terms
(``SearchEngine.expand``): its stem (weight 1), for the last word while it is being typed
the terms it is a prefix of (0.6 x the share of the completion typed, "graph" -> "graphs"
before "graphics"), and for the first words of 5+ ASCII letters within the per-query budget (``typo_words``:
3 in a query of 1-3 words, 2 of 4-6, 1 of 7-9) the terms one edit away (0.25). A
word's score in a paper is the best of its terms' weight x the sum of that term's Lunr
field weights (BM25 with the field boosts of ``PARTS``: title 10, authors 5, tags and
venue 3, abstract 1); a paper's score is the sum over the words. Papers that match every
word come first and are the only ones shown when there are any; otherwise the papers
matching some words are shown, with a note. Ties go to title order.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from generator.outputs.search.index import (
    MAX_EXPANDED_POSTINGS, MAX_EXPANSION_FILES, MAX_EXPANSIONS, MAX_QUERY_CHARS, MAX_UNITS, MIN_FUZZY, MIN_PREFIX,
    TYPO_UNDER, W_EXACT, W_FUZZY, W_PREFIX, typo_words, utf16_key,
)
from generator.outputs.search.shards import bucket, typo_keys
from generator.content.words import CHAIN_RE, CJK_CHAR, JOINER_RE, MAX_TOKEN, compounds, fold, stem
from generator.outputs.search.tokens import STOP_WORDS

from ..conftest import record_slug

AUTHORS, WORDS, ALL = 2, 13, 15  # field masks (title, authors, meta, abstract): search-engine.js


@dataclass(frozen=True)
class Unit:
    """One word of a query. ``required`` words must all match (if any paper has them all)."""

    word: str
    prefix: bool  # the last, maybe half-typed word: also matches as a prefix
    required: bool
    fuzzy: bool = False  # also matches with one typo (the first required words of 5+ ASCII letters, ``typo_words``)


def query_units(query: str) -> list[Unit]:
    """Split a query into words: stop words are skipped (unless half-typed at the end),
    hyphenated words give their compounds as optional extra words."""
    text = fold(query[:MAX_QUERY_CHARS])
    chains = list(CHAIN_RE.finditer(text))
    units: list[Unit] = []
    seen: set[tuple[str, bool]] = set()

    def add(word: str, prefix: bool, required: bool) -> None:
        if not word or len(word) > MAX_TOKEN or (word, prefix) in seen:
            return
        seen.add((word, prefix))
        units.append(Unit(word, prefix, required))

    for ci, match in enumerate(chains):
        parts = [p.replace("'", "") for p in JOINER_RE.split(match.group())]
        last_chain = ci == len(chains) - 1 and match.end() == len(text)
        for pi, part in enumerate(parts):
            # (an ideograph is a whole word, never half-typed)
            is_prefix = last_chain and pi == len(parts) - 1 and not CJK_CHAR.fullmatch(part)
            if is_prefix:
                # A half-typed word: one letter is not a word yet, and a stop word ("for") may
                # be a whole word, which the index does not hold: neither is required.
                add(part, True, len(part) >= MIN_PREFIX and part not in STOP_WORDS)
            elif part not in STOP_WORDS:
                add(part, False, True)
        joined = compounds(parts)
        for ji, word in enumerate(joined):
            add(word, last_chain and ji == len(joined) - 1, False)
    # The per-query budget: of n required words, only the first typo_words(n) of 5+ ASCII
    # letters also match with one typo (a typo costs three dictionary files more); optional
    # words (compounds of a hyphenated word) match exactly.
    units = units[:MAX_UNITS]
    out, fuzzy, typos = [], 0, typo_words(sum(u.required for u in units))
    for unit in units:
        eligible = (unit.required and len(unit.word) >= MIN_FUZZY and unit.word.isascii() and unit.word.isalnum()
                    and fuzzy < typos)
        fuzzy += eligible
        out.append(Unit(unit.word, unit.prefix, unit.required, eligible))
    return out


@dataclass
class Hit:
    slug: str
    ref: int
    score: float
    coverage: int


@dataclass
class SearchResult:
    hits: list[Hit]
    partial: bool = False  # no paper has every word: papers with some of them
    terms: set[str] = field(default_factory=set)  # index terms that matched, for highlighting

    @property
    def slugs(self) -> list[str]:
        return [h.slug for h in self.hits]


def one_edit(a: str, b: str) -> bool:
    """At most one insertion, deletion, substitution or swap of neighbours apart (code points)."""
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    i = 0
    while i < la and i < lb and a[i] == b[i]:
        i += 1
    if i == la and i == lb:
        return True
    j = 0
    while j < la - i and j < lb - i and a[la - 1 - j] == b[lb - 1 - j]:
        j += 1
    if la == lb:
        return i + j >= la - 1 or (i + j == la - 2 and a[i] == b[i + 1] and a[i + 1] == b[i])
    return i + j >= min(la, lb)


class SearchEngine:
    """Runs queries over the files written by ``build_search`` exactly as the page does
    (with every file loaded: which files a query needs is the page's business, tested in
    test_search_parity.py)."""

    def __init__(self, files: Mapping[str, str]):
        meta = json.loads(files["search/meta.json"])
        self.buckets: dict[str, list[list]] = {}
        for n in range(len(meta["dict"])):
            self.buckets.update(json.loads(files[f"search/dict/{n}.json"]))
        self.postings: dict[str, list[tuple[int, int, float]]] = {}  # term -> [(ref, field, weight)]
        n = 0
        while f"search/terms/{n}.json" in files:
            for term, flat in json.loads(files[f"search/terms/{n}.json"]).items():
                triples: list[tuple[int, int, float]] = []
                ref = 0
                for i in range(0, len(flat), 2):
                    ref += flat[i] >> 2
                    triples.append((ref, flat[i] & 3, flat[i + 1]))
                self.postings[term] = triples
            n += 1
        self.docs = []
        n = 0
        while f"search/docs/{n}.json" in files:
            self.docs += json.loads(files[f"search/docs/{n}.json"])
            n += 1
        self.refs = {i: record_slug(record) for i, record in enumerate(self.docs)}
        facets = json.loads(files["search/facets.json"])
        venues = [v for v, count in zip(meta["venues"], meta["n"], strict=True) for _ in range(count)]
        self.venue_of = [v["id"] for v in venues]
        self.year_of = [v["year"] for v in venues]
        self.tags_of = [[meta["tags"][g]["id"] for g in tags] for tags in facets["g"]]
        self.info: dict[str, tuple[int, int]] = {}  # term -> (document frequency, postings file)
        self.common = meta["query"].get("common", 0)

    def entries(self, word: str) -> list[list]:
        return self.buckets.get(bucket(word), [])

    def df(self, term: str) -> int:
        return self.info[term][0]

    def _note(self, entry: list) -> str:
        term = entry[1] or entry[0]
        self.info.setdefault(term, (entry[2], entry[3]))
        return term

    def _strongest(self, terms: Iterable[str]) -> list[str]:
        ranked = sorted(set(terms), key=lambda t: (-self.df(t), utf16_key(t)))
        kept: list[str] = []
        postings = 0
        files: set[int] = set()
        for term in ranked[:MAX_EXPANSIONS]:
            postings += self.df(term)
            files.add(self.info[term][1])
            if kept and (postings > MAX_EXPANDED_POSTINGS or len(files) > MAX_EXPANSION_FILES):
                break
            kept.append(term)
        return kept

    def expand(self, unit: Unit) -> dict[tuple[str, int], float]:
        """Index terms a query word stands for, with the fields each counts in (a bit mask
        by field number) and their weights (exact > prefix > typo). Names are indexed as
        typed (``RAW_FIELDS``): the word's stem counts in the other fields, the word in the names."""
        found: dict[tuple[str, int], float] = {}

        def put(term: str, weight: float, mask: int) -> None:
            if found.get((term, mask), 0.0) < weight:
                found[(term, mask)] = weight

        word = unit.word
        exact = stem(word)
        if unit.prefix and len(word) >= MIN_PREFIX:
            # A completion weighs by how much of it was typed: "graph" -> "graphs" > "graphics".
            typed: dict[str, float] = {}
            masks: dict[str, int] = {}
            for entry in self.entries(word):
                if entry[0].startswith(word):
                    term = self._note(entry)
                    share = len(word) / len(entry[0])
                    if share > typed.get(term, 0.0):
                        typed[term] = share
                    masks[term] = masks.get(term, 0) | (WORDS if entry[1] else ALL)
            for term in self._strongest(typed):
                put(term, W_PREFIX * typed[term], masks[term])
        own = self.term_entry(exact)  # the term itself
        name = self.term_entry(word) if exact != word else None
        df = max(own[2] if own else 0, name[2] if name else 0)
        if unit.fuzzy and df < TYPO_UNDER:  # a word the index knows needs no typo
            known = own or self.term_entry(word)
            candidates = []
            cmasks: dict[str, int] = {}
            for text in {word, exact}:
                for key in typo_keys(text):
                    for e in self.buckets.get(key, []):
                        if one_edit(text, e[0]):
                            term = self._note(e)
                            candidates.append(term)
                            names = not known and text == word  # names as typed: the word's neighbours only
                            cmasks[term] = cmasks.get(term, 0) | ((WORDS if e[1] else ALL) & (ALL if names else WORDS))
            for term in self._strongest(candidates):
                put(term, W_FUZZY, cmasks[term])
        if own:
            put(self._note(own), W_EXACT, ALL if exact == word else WORDS)
        if name:
            put(self._note(name), W_EXACT, AUTHORS)
        return found

    def drop_common(self, units: list[Unit], expanded: list[dict]) -> list[dict | None]:
        """A required word all of whose terms have at least ``common_postings`` postings is
        dropped (None) when another required word is rarer (search-engine.js ``dropCommon``)."""
        common = [u.required and bool(e) and all(self.df(t) >= self.common for t, _ in e) for u, e in zip(units, expanded)]
        if not any(u.required and e and not c for u, e, c in zip(units, expanded, common)):
            return expanded
        return [None if c else e for e, c in zip(expanded, common)]

    def term_entry(self, term: str) -> list | None:
        return next((e for e in self.entries(term) if e[0] == term and not e[1]), None)

    def _unit_scores(self, expansions: Mapping[tuple[str, int], float]) -> dict[int, float]:
        best: dict[int, float] = {}
        for term, mask in sorted(expansions, key=lambda k: utf16_key(f"{k[0]}\u0001{k[1]}")):
            weight = expansions[(term, mask)]
            sums: dict[int, float] = {}
            for ref, f, value in self.postings[term]:
                if mask >> f & 1:
                    sums[ref] = sums.get(ref, 0.0) + value
            for ref, total in sums.items():
                score = weight * total
                if total > 0 and score > best.get(ref, 0.0):
                    best[ref] = score
        return best

    def search(self, query: str, venue: str | None = None, tag: str | None = None,
               year: int | None = None) -> SearchResult:
        units = query_units(query)
        scores: dict[int, float] = {}
        coverage: dict[int, int] = {}
        terms: set[str] = set()
        required = 0
        self.info = {}
        expanded = self.drop_common(units, [self.expand(unit) for unit in units])
        for unit, expansions in zip(units, expanded):
            if expansions is None:  # a common word: neither fetched nor required
                continue
            terms.update(term for term, _ in expansions)
            if unit.required:
                required += 1
            for ref, score in self._unit_scores(expansions).items():
                scores[ref] = scores.get(ref, 0.0) + score
                if unit.required:
                    coverage[ref] = coverage.get(ref, 0) + 1
        candidates = [r for r in scores if self._passes(r, venue, tag, year)]
        partial = False
        if required:
            complete = [r for r in candidates if coverage.get(r, 0) == required]
            if complete or not candidates:
                candidates = complete
            else:
                partial = True
        candidates.sort(key=lambda r: (-coverage.get(r, 0), -scores[r], r))
        hits = [Hit(self.refs[r], r, scores[r], coverage.get(r, 0)) for r in candidates]
        return SearchResult(hits, partial, terms)

    def _passes(self, ref: int, venue: str | None, tag: str | None, year: int | None) -> bool:
        return ((venue is None or self.venue_of[ref] == venue) and (tag is None or tag in self.tags_of[ref])
                and (year is None or self.year_of[ref] == year))


def site_search_files(site: Path) -> dict[str, str]:
    """The search files of a built site as ``build_search`` made them: the text of each, by its
    path before the site stored it (``<n>.json.gz`` unpacked as ``<n>.json``: outputs/search/stored.py)."""
    files = {}
    for path in (site / "search").rglob("*.json*"):
        rel = path.relative_to(site).as_posix()
        if rel.endswith(".gz"):
            files[rel[:-3]] = gzip.decompress(path.read_bytes()).decode("utf-8")
        else:
            files[rel] = path.read_text(encoding="utf-8")
    return files
