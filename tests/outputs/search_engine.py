"""The query engine of the search page, in Python: the twin of ``static/js/search-engine.js``.

No build uses it: the page answers queries in JavaScript. ``SearchEngine`` runs queries
over the files written by ``generator.outputs.search.build_search`` with the same
expansion, scoring and order as the page, so the tests can check ranking in Python
(``test_search_index.py``, ``test_search_quality.py``) and compare both engines result by
result (``test_search_parity.py``).

Ranking. A query is split into words (``query_units``); each word stands for index terms
(``SearchEngine.expand``): its stem (weight 1), for the last word while it is being typed
the terms it is a prefix of (0.6 x the share of the completion typed, "graph" -> "graphs"
before "graphics"), and for words of 5+ ASCII letters the terms one edit away (0.25). A
word's score in a paper is the best of its terms' weight x the sum of that term's Lunr
field weights (BM25 with the field boosts of ``PARTS``: title 10, authors 5, tags and
venue 3, abstract 1); a paper's score is the sum over the words. Papers that match every
word come first and are the only ones shown when there are any; otherwise the papers
matching some words are shown, with a note. Ties go to title order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from lunr.token_set import TokenSet

from generator.outputs.search.index import (
    MAX_EXPANSIONS, MAX_QUERY_CHARS, MAX_UNITS, MIN_FUZZY, MIN_PREFIX, W_EXACT, W_FUZZY, W_PREFIX, utf16_key,
)
from generator.outputs.search.stemmer import stem
from generator.outputs.search.tokens import CHAIN_RE, CJK_CHAR, JOINER_RE, MAX_TOKEN, STOP_WORDS, compounds, fold


@dataclass(frozen=True)
class Unit:
    """One word of a query. ``required`` words must all match (if any paper has them all)."""

    word: str
    prefix: bool  # the last, maybe half-typed word: also matches as a prefix
    required: bool


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
    return units[:MAX_UNITS]


@dataclass
class _Part:
    name: str
    fields: list[str]
    inverted: dict[str, dict]
    vectors: dict[str, dict[int, float]]
    token_set: TokenSet
    words: dict[str, str]  # surface word -> stem
    word_set: TokenSet

    @classmethod
    def load(cls, name: str, fields: list[str], index: Mapping, words: Mapping[str, str]) -> "_Part":
        inverted = {term: posting for term, posting in index["invertedIndex"]}
        vectors = {}
        for ref, elements in index["fieldVectors"]:
            vectors[ref] = {int(elements[i]): float(elements[i + 1]) for i in range(0, len(elements), 2)}
        surface = {w: term for term, ws in words.items() for w in ws.split(" ") if w}
        return cls(name, fields, inverted, vectors, TokenSet.from_list(sorted(inverted)), surface,
                   TokenSet.from_list(sorted(surface)))


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


def _matches(token_set: TokenSet, pattern: TokenSet) -> list[str]:
    return token_set.intersect(pattern).to_list()


class SearchEngine:
    """Runs queries over the files written by ``build_search`` exactly as the page does."""

    def __init__(self, files: Mapping[str, str]):
        meta = json.loads(files["search/meta.json"])
        self.parts = [
            _Part.load(p["name"], p["fields"], json.loads(files[p["index"]]), json.loads(files[p["words"]]))
            for p in meta["parts"]
        ]
        self.docs = json.loads(files["search/docs.json"])
        self.refs = {record["i"]: slug for slug, record in self.docs.items()}
        self._df: dict[str, int] = {}

    def df(self, term: str) -> int:
        if term not in self._df:
            total = 0
            for part in self.parts:
                posting = part.inverted.get(term)
                if posting:
                    total += sum(len(posting[f]) for f in part.fields)
            self._df[term] = total
        return self._df[term]

    def _known(self, term: str) -> bool:
        return any(term in part.inverted for part in self.parts)

    def _strongest(self, terms: Iterable[str]) -> list[str]:
        ranked = sorted(set(terms), key=lambda t: (-self.df(t), utf16_key(t)))
        return ranked[:MAX_EXPANSIONS]

    def expand(self, unit: Unit) -> dict[str, float]:
        """Index terms a query word stands for, with their weights (exact > prefix > typo)."""
        found: dict[str, float] = {}

        def put(terms: Iterable[str], weight: float) -> None:
            for term in terms:
                if self._known(term) and found.get(term, 0.0) < weight:
                    found[term] = weight

        word = unit.word
        exact = stem(word)
        if unit.prefix and len(word) >= MIN_PREFIX:
            # A completion weighs by how much of it was typed: "graph" -> "graphs" > "graphics".
            pattern = TokenSet.from_string(word + "*")
            typed: dict[str, float] = {}
            for part in self.parts:
                pairs = [(t, t) for t in _matches(part.token_set, pattern)]
                pairs += [(part.words[w], w) for w in _matches(part.word_set, pattern)]
                for term, completion in pairs:
                    share = len(word) / len(completion)
                    if share > typed.get(term, 0.0):
                        typed[term] = share
            for term in self._strongest(typed):
                put([term], W_PREFIX * typed[term])
        if len(word) >= MIN_FUZZY:
            candidates = []
            for text in {word, exact}:
                pattern = TokenSet.from_fuzzy_string(text, 1)
                for part in self.parts:
                    candidates += _matches(part.token_set, pattern)
                    candidates += [part.words[w] for w in _matches(part.word_set, pattern)]
            put(self._strongest(candidates), W_FUZZY)
        put([exact], W_EXACT)
        return found

    def _unit_scores(self, expansions: Mapping[str, float]) -> dict[int, float]:
        best: dict[int, float] = {}
        for term in sorted(expansions, key=utf16_key):
            weight = expansions[term]
            sums: dict[int, float] = {}
            for part in self.parts:
                posting = part.inverted.get(term)
                if not posting:
                    continue
                index = posting["_index"]
                for name in part.fields:
                    for ref in posting[name]:
                        value = part.vectors[f"{name}/{ref}"].get(index, 0.0)
                        key = int(ref)
                        sums[key] = sums.get(key, 0.0) + value
            for ref, total in sums.items():
                score = weight * total
                if score > best.get(ref, 0.0):
                    best[ref] = score
        return best

    def search(self, query: str, venue: str | None = None, tag: str | None = None,
               year: int | None = None) -> SearchResult:
        units = query_units(query)
        scores: dict[int, float] = {}
        coverage: dict[int, int] = {}
        terms: set[str] = set()
        required = 0
        for unit in units:
            expansions = self.expand(unit)
            terms.update(expansions)
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
        record = self.docs[self.refs[ref]]
        return ((venue is None or record["v"] == venue) and (tag is None or tag in record["g"])
                and (year is None or record["y"] == year))
