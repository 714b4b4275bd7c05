"""What the search indexes and how Lunr weighs it: fields, boosts, query settings, weights.

``search_fields`` gives the text of each indexed field of a paper; ``PARTS`` groups the fields with their boosts (title 10, authors 5,
tags and venue 3, abstract 1) as three Lunr indexes would hold them. ``PartWeights``
computes each field's Lunr field-vector weights (BM25 with the boost) exactly as lunr.py's
``Builder`` does for one part, rounded as lunr.py rounds them and cut to 3 significant
digits; ``build_part`` writes them as a whole lunr index (what lunr.py would serialize),
which the tests compare with lunr.py's own output and load in lunr.js. The site's search
files (``shards.py``) carry the same weights in postings split by term, so a query's
ranking is Lunr's without loading a whole index.

The words indexed come from ``content.words`` (folding, splitting, lunr.js's Porter stemmer)
and ``tokens`` (stop words), never from Lunr's own pipeline, whose lunr.py and lunr.js
versions differ.

The query settings (``MAX_UNITS``, ``W_EXACT``, ...) go to ``meta.json`` for the page's
query code (``static/js/search-engine.js``); its Python twin, with the ranking described,
is ``tests/outputs/search_engine.py``.
"""

from __future__ import annotations

import json
import json.encoder
import math
from collections import Counter
from typing import Mapping, Sequence

from lunr import __TARGET_JS_VERSION__ as LUNR_JS_VERSION

from ...content.words import stem, tokenize
from ...derive.views import PaperView
from .tokens import STOP_WORDS, UMLAUTS

# 2: split by term (shards.py); 3: refs by venue (facets "n"), slugs from titles; 4: records
# hold titles (the rest on the paper's page), typoUnder. search-engine.js reads this one only.
# 5: author names unstemmed (``RAW_FIELDS``), whole records, people and identifier files,
# venue runs in meta.json ("n"), facets.json the tags only.
FORMAT_VERSION = 5

# Index parts: (name, fields with their boosts). A title match matters most, then authors,
# then tags and venue, then the abstract. Each part's weights are Lunr's for an index of its
# fields (its own average field lengths and document frequencies).
PARTS: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("titles", (("title", 10),)),
    ("details", (("authors", 5), ("meta", 3))),
    ("abstracts", (("abstract", 1),)),
)
# Fields indexed word for word: names are names, not words to stem ("Levine" is not "Levin"),
# and no name is a stop word ("Will", "An"). A query word matches them as typed (or as a
# prefix while typed); its stem matches the other fields (search-engine.js ``expand``).
RAW_FIELDS = frozenset({"authors"})


# Query expansion: written to meta.json for the page's query code (search-engine.js).
MAX_QUERY_CHARS = 200
MAX_UNITS = 12
MIN_PREFIX = 2  # a half-typed last word of fewer letters is not expanded
MIN_FUZZY = 5  # words of 5+ letters also match with one edit
# The per-query budget: a query of n (required) words looks up about one dictionary file a
# word, and a word matched with a typo three more (and its neighbours' postings). Only the
# first (TYPO_BUDGET - n) // 3 required words of 5+ ASCII letters (query order) also match with
# one edit: 3 for 1-3 words, 2 for 4-6, 1 for 7-9, none beyond; the rest, and the optional
# compounds of hyphenated words, match exactly (and the last, half-typed word as a prefix). A 9-word query fetched 23 dictionary files (115 kB gzip at
# 10,000 papers) without it.
TYPO_BUDGET = 12
# ... and only when the index holds the word's term fewer than this many times (its postings,
# the dictionary's count: a paper's title and abstract count twice): a word the index knows
# needs no typo (as Algolia's typoTolerance "min": "model" does not also match "modal") and
# costs no typo files; a misspelt word, or one that happens to be a rare term, does.
TYPO_UNDER = 3


def typo_words(words: int) -> int:
    """How many of a query's words of 5+ letters (the first ones) also match with a typo."""
    return max(0, (TYPO_BUDGET - words) // 3)
MAX_EXPANSIONS = 16  # per word and route, the most frequent terms are kept (each costs its postings)
# ... while their postings (by document frequency, the first term always) add up to at most this
# many (~55 kB gzip) ...: "co" stands for a few of its common completions, not 16 lists of thousands.
MAX_EXPANDED_POSTINGS = 20_000
MAX_EXPANSION_FILES = 3  # ... and lie in at most this many postings files
# A word whose every term has at least this share of the papers' count in postings (and
# COMMON_MIN) says little about which papers a query wants, and its postings are the
# largest files ("learn": 222 kB gzip at 100,000 papers): when the query has a rarer word,
# it is neither fetched nor required (search-engine.js ``dropCommon``).
COMMON_SHARE = 0.5
COMMON_MIN = 2_000


def common_postings(papers: int) -> int:
    return max(COMMON_MIN, int(COMMON_SHARE * papers))


W_EXACT = 1.0
W_PREFIX = 0.6
W_FUZZY = 0.25


def index_terms(text: str) -> list[str]:
    return [stem(t) for t in tokenize(text) if t not in STOP_WORDS]


def search_fields(view: PaperView, notes: str = "") -> dict[str, str]:
    """The text of each indexed field of a paper; ``notes``: its sessions' notes, searched with
    the abstract (``sessions.session_notes``)."""
    names = [a.name for a in view.authors]
    german = [n.translate(str.maketrans(UMLAUTS)) for n in names if any(c in n for c in UMLAUTS)]
    return {
        "title": view.title_plain,
        "authors": " ; ".join(names + german),
        # Venue: short name and year only; the full name ("... on Learning Representations")
        # would make every paper of the venue match topic words.
        "meta": " ; ".join([t.name for t in view.tags] + [view.venue.name, str(view.venue.year)]),
        "abstract": f"{view.abstract_plain}\n{notes}" if notes else view.abstract_plain,
    }


def utf16_key(text: str) -> bytes:
    """JavaScript's default string order (UTF-16 code units), which lunr.js's loader needs."""
    return text.encode("utf-16-be", "surrogatepass")


# BM25 parameters of lunr (``lunr.Builder``'s defaults, which lunr.js uses too).
_K1 = 1.2
_B = 0.75
_PIPELINE = ["stemmer"]  # the search pipeline lunr.py records for ``lunr.stemmer``; lunr.js knows it
_encode_string = json.encoder.encode_basestring  # how ``json.dumps(ensure_ascii=False)`` writes a string


def significant(value: float) -> float | int:
    """Vector weights to 3 significant digits (lunr keeps 3 decimals): a third smaller file."""
    rounded = float(f"{value:.3g}")
    return int(rounded) if rounded.is_integer() else rounded


def _idf(documents_with_term: int, document_count: int) -> float:
    """``lunr.idf.idf``: the same arithmetic, from the number of (field, document) postings."""
    x = (document_count - documents_with_term + 0.5) / (documents_with_term + 0.5)
    return math.log(1 + abs(x))


class PartWeights:
    """One part's Lunr field-vector weights, computed as lunr.py's ``Builder`` computes them.

    ``term_ids``: term -> its ``_index`` (order of first appearance: document, field, then
    position, as lunr.py numbers them); ``postings``: by term id, by field, the refs that
    have the term; ``vectors``: by (document, field) in the order lunr.py adds them,
    ``(ref, field number, [(term id, weight as written), ...])`` with the weights BM25 with the
    field boost, rounded as lunr.py rounds them and cut to 3 significant digits
    (``significant``); ``words``: stem -> the surface words that stem to it.
    """

    def __init__(self, fields: Sequence[tuple[str, int]], docs: Sequence[Mapping[str, Sequence[str]]],
                 raw: frozenset[str] = frozenset()):
        names = self.names = [name for name, _ in fields]
        boosts = [boost for _, boost in fields]
        words: dict[str, set[str]] = {}
        term_ids: dict[str, int] = {}
        postings: list[list[list[int]]] = []
        # (Dicts of ints only are not tracked by the garbage collector, lists of pairs would be.)
        counted: list[tuple[int, int, int, dict[int, int]]] = []
        total_lengths = [0] * len(fields)
        term_of: dict[str, str] = {}  # token -> its term, "" for a stop word
        for ref, doc in enumerate(docs):
            for f, name in enumerate(names):
                tokens = doc[name]
                if name in raw:  # (``RAW_FIELDS``) each token its own term
                    terms = list(tokens)
                else:
                    for token in set(tokens).difference(term_of):
                        term = term_of[token] = "" if token in STOP_WORDS else stem(token)
                        if term and term != token:
                            words.setdefault(term, set()).add(token)
                    terms = [term for term in map(term_of.__getitem__, tokens) if term]
                counts: dict[int, int] = {}
                for term, tf in Counter(terms).items():  # in order of first appearance
                    tid = term_ids.get(term)
                    if tid is None:
                        tid = term_ids[term] = len(postings)
                        postings.append([[] for _ in names])
                    postings[tid][f].append(ref)
                    counts[tid] = tf
                total_lengths[f] += len(terms)
                counted.append((ref, f, len(terms), counts))
        document_count = len(docs)
        if not document_count:  # (lunr.py cannot average over no documents; an empty index is still valid)
            average = [0.0] * len(fields)
        else:
            average = [total / document_count for total in total_lengths]
        idfs = [_idf(sum(len(refs) for refs in posting), document_count) for posting in postings]
        # Many weights recur (same document frequency, term frequency and field length): each
        # is formatted once.
        formatted: dict[float, str] = {}

        def weight(score: float) -> str:
            text = formatted[score] = str(significant(round(score, 3)))
            return text

        known = formatted.get
        k1_plus_1 = _K1 + 1
        vectors = []
        for ref, f, length, counts in counted:
            norm = _K1 * (1 - _B + _B * (length / average[f])) if counts else 0.0
            boost = boosts[f]
            # lunr.py's score: idf * ((k1 + 1) * tf) / (norm + tf), then times the field boost.
            scores = [(tid, idfs[tid] * (k1_plus_1 * tf) / (norm + tf) * boost) for tid, tf in sorted(counts.items())]
            vectors.append((ref, f, [(tid, known(score) or weight(score)) for tid, score in scores]))
        self.term_ids = term_ids
        self.postings = postings
        self.vectors = vectors
        self.words = words


def build_part(fields: Sequence[tuple[str, int]], docs: Sequence[Mapping[str, Sequence[str]]],
               raw: frozenset[str] = frozenset()) -> tuple[str, dict]:
    """The serialized lunr index (JSON text) of one part over already-stemmed terms, and its
    surface words.

    This writes exactly what lunr.py's ``Builder`` (fed these terms, with an empty pipeline
    and the stemmer as search pipeline) then ``Index.serialize()`` and ``json.dumps`` would,
    after two changes of ours: the inverted index in JavaScript string order (lunr.js's
    loader needs it) and vector weights to 3 significant digits (``significant``).
    ``tests/outputs/test_search_index.py`` compares the output with lunr.py's own, and
    ``test_search_parity.py`` loads it in lunr.js and compares lunr.js's scores with the
    page's engine, whose postings carry these same weights (``shards.py``). The site itself
    no longer writes whole Lunr indexes.
    """
    part = PartWeights(fields, docs, raw)
    names = part.names
    vector_texts = []
    for ref, f, pairs in part.vectors:
        prefix = f"[{_encode_string(f'{names[f]}/{ref}')},["
        vector_texts.append(prefix + ",".join(f"{tid},{text}" for tid, text in pairs) + "]]")

    # invertedIndex: [[term, {field: {ref: {}}, ..., "_index": n}], ...] in JavaScript order.
    field_keys = [_encode_string(name) + ":{" for name in names]
    ref_keys = [f'"{ref}":{{}}' for ref in range(len(docs))]
    term_texts = []
    for term in sorted(part.term_ids, key=utf16_key):
        tid = part.term_ids[term]
        posting = ",".join(key + ",".join(map(ref_keys.__getitem__, refs)) + "}"
                           for key, refs in zip(field_keys, part.postings[tid]))
        term_texts.append(f'[{_encode_string(term)},{{{posting},"_index":{tid}}}]')

    text = (f'{{"version":{_encode_string(LUNR_JS_VERSION)},"fields":{_dump(names)},'
            f'"fieldVectors":[{",".join(vector_texts)}],"invertedIndex":[{",".join(term_texts)}],'
            f'"pipeline":{_dump(_PIPELINE)}}}')
    vocabulary = {term: " ".join(sorted(ws, key=utf16_key)) for term, ws in sorted(part.words.items())}
    return text, vocabulary


def _dump(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
