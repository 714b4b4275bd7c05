"""Related papers: for each paper, the most similar others by the text of title and abstract.

TF-IDF vectors compared by cosine similarity, computed at build time in pure Python and
fast enough for 10,000 papers (see ``bench/`` and the numbers in the module's tests):

* **Text**: the plain text of the title (each word counted ``TITLE_WEIGHT`` times: titles
  are dense with topic words) and of the abstract (``text.plain_text``: no LaTeX, no Markdown).
* **Terms**: accents folded, lower-cased, split on anything that is not a letter or a digit;
  English and academic-boilerplate stop words, pure numbers and one-letter words dropped;
  the rest reduced to their Porter stem (lunr's stemmer, memoised), so "networks" and
  "network" are one term.
* **Weights**: ``(1 + log tf) * log((N + 1) / df)``, each vector scaled to unit length over
  *all* its terms, so a score is the true cosine.
* **Candidates** (the pruning that keeps this fast): an inverted index over the terms that
  at least two papers share and at most ``MAX_DF_SHARE`` of them (a term in one paper adds
  nothing to any dot product; a term in most papers adds almost nothing and would pair
  everything with everything). Long postings are cut to the ``POSTINGS_CAP`` papers where
  the term weighs most (impact order). Each paper looks up only its ``QUERY_TERMS``
  heaviest terms, counting for every other paper the postings it appears in, weighted by
  how heavy the query term is (1 to ``LEVELS``); that counting runs in C
  (``collections.Counter``), which is what makes 10,000 papers affordable in Python.
* **Scores**: the ``RESCORE`` best-counted candidates (and those tied with the last) are
  then scored *exactly* (the full sparse dot product over every shared term, computed once
  per pair), so the pruning can only miss a candidate, never misorder the ones it finds.
  On a synthetic 10,000-paper catalog (``bench/synth.py``) about 96% of the exact top 5 are
  found. Catalogs of up to ``EXACT_UP_TO`` papers skip the pruning and get the exact answer.
* **Order**: highest cosine first; equal scores (rounded to 1e-9, so that the order does not
  hang on the last bits of a float) by position in the input, which the caller sorts by
  title. A paper with no word in common with another is never "related" to it.

Everything is deterministic: terms get integer ids in order of first appearance (integer
hashes do not depend on ``PYTHONHASHSEED``), and every sort has a total order.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import unicodedata
from collections import Counter
from operator import itemgetter, mul
from typing import Sequence

from lunr.stemmer import PorterStemmer

RELATED_COUNT = 5
TITLE_WEIGHT = 2  # a title word counts as this many abstract words
QUERY_TERMS = 36  # a paper's heaviest terms used to find its candidates
LEVELS = 3  # query terms count 1..LEVELS times, by weight relative to the heaviest
POSTINGS_CAP = 150  # papers kept per term, those where it weighs most
RESCORE = 40  # best-counted candidates (and ties) scored exactly
EXACT_UP_TO = 500  # catalogs this small skip the pruning: every candidate is scored exactly
MAX_DF_SHARE = 0.25  # terms in more than this share of the papers are not indexed...
MIN_DF_CAP = 50  # ...unless they are in at most this many (small catalogs keep every term)

_WORD = re.compile(r"[a-z0-9]+")

# English function words and the boilerplate every abstract uses ("we propose a novel
# method and show results"): they say nothing about what a paper is about.
STOP_WORDS = frozenset("""
a about above across after again against all almost along already also although always am among an and
another any anyone anything are around as at be became because become been before being below between
both but by can cannot could did do does doing done down due during each either else enough etc even
ever every few for from further get gets given gives go had has have having he her here hers him his how
however i ie eg if in into is it its itself just least less let like made make makes many may me might
more most much must my neither no nor not now of off often on once one only onto or other others
otherwise our ours out over own per perhaps rather same several she should since so some such than that
the their theirs them themselves then there therefore these they this those though through thus to
together too toward towards under until up upon us use used uses using very via was way ways we well
were what whatever when where whereas whether which while who whom whose why will with within without
would yet you your
abstract achieve achieves achieving approach approaches art based best better demonstrate demonstrates
different effective effectively existing experiment experimental experiments extensive first furthermore
help improve improved improves including introduce key moreover new novel number paper performance
problem problems propose proposed provide results second show shows significant significantly
specifically state study task tasks three two various wide widely work
""".split())

_stemmer = PorterStemmer()


@functools.lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return _stemmer.stem(word)


def terms(text: str) -> list[str]:
    """The index terms of a text, in order: stemmed; stop words, numbers and 1-letter words out."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return [_stem(w) for w in _WORD.findall(folded)
            if len(w) > 1 and w not in STOP_WORDS and not w.isdigit()]


def vectors(texts: Sequence[tuple[str, str]]) -> list[dict[int, float]]:
    """Unit-length TF-IDF vectors ``{term id: weight}`` of (title, abstract) pairs."""
    ids: dict[str, int] = {}
    counts: list[Counter[int]] = []
    df: Counter[int] = Counter()
    for title, abstract in texts:
        tf = Counter(ids.setdefault(t, len(ids)) for t in terms(abstract))
        for t in terms(title):
            tf[ids.setdefault(t, len(ids))] += TITLE_WEIGHT
        counts.append(tf)
        df.update(tf.keys())
    n = len(texts)
    idf = {term: math.log((n + 1) / d) for term, d in df.items()}
    result = []
    for tf in counts:
        vec = {term: (1.0 + math.log(c)) * idf[term] for term, c in tf.items()}
        norm = math.sqrt(math.fsum(w * w for w in vec.values()))
        result.append({term: w / norm for term, w in vec.items()} if norm else {})
    return result


def cosine(a: dict[int, float], b: dict[int, float]) -> float:
    """The dot product of two unit vectors (exact, over every shared term)."""
    if len(a) > len(b):
        a, b = b, a
    return math.fsum(w * b[t] for t, w in a.items() if t in b)


def related_indices(texts: Sequence[tuple[str, str]], k: int = RELATED_COUNT) -> list[tuple[int, ...]]:
    """For each (title, abstract) pair, the indices of the ``k`` most similar other pairs."""
    n = len(texts)
    if n < 2 or k <= 0:
        return [() for _ in range(n)]
    vecs = vectors(texts)
    keys = [frozenset(v) for v in vecs]

    df: Counter[int] = Counter(itertools.chain.from_iterable(keys))
    exact = n <= EXACT_UP_TO
    max_df = n if exact else max(int(MAX_DF_SHARE * n), MIN_DF_CAP)
    cap = n if exact else POSTINGS_CAP
    impact: dict[int, list[tuple[float, int]]] = {}
    for doc, vec in enumerate(vecs):
        for term, weight in vec.items():
            if 2 <= df[term] <= max_df:
                impact.setdefault(term, []).append((-weight, doc))
    postings: dict[int, list[int]] = {}
    for term, entries in impact.items():
        if len(entries) > cap:
            entries.sort()
            del entries[cap:]
        postings[term] = [doc for _, doc in entries]
    del impact

    query_terms, rescore = (len(df), n) if exact else (QUERY_TERMS, RESCORE)
    chain = itertools.chain.from_iterable
    scores: dict[tuple[int, int], float] = {}  # cosines computed for a later paper's turn: (earlier, later)
    result: list[tuple[int, ...]] = []
    for doc, vec in enumerate(vecs):
        query = sorted(((w, t) for t, w in vec.items() if t in postings), key=lambda wt: (-wt[0], wt[1]))
        query = query[:query_terms]
        if not query:
            result.append(())
            continue
        heaviest = query[0][0]
        lists: list[list[int]] = []
        for weight, term in query:
            lists.extend([postings[term]] * (1 + int(LEVELS * weight / heaviest - 1e-9)))
        counted = Counter(chain(lists))
        counted.pop(doc, None)
        if len(counted) > rescore:
            threshold = sorted(counted.values(), reverse=True)[rescore - 1]
            shortlist = [other for other, c in counted.items() if c >= threshold]
        else:
            shortlist = list(counted)
        mine, get = keys[doc], vec.__getitem__
        scored = []
        for other in shortlist:
            score = scores.pop((other, doc), None) if other < doc else None  # computed from the other side
            if score is None:
                common = mine & keys[other]  # a set of ints: its order does not depend on the hash seed
                score = round(sum(map(mul, map(get, common), map(vecs[other].__getitem__, common))), 9)
                if other > doc:
                    scores[(doc, other)] = score
            if score > 0.0:
                scored.append((-score, other))
        scored.sort()
        result.append(tuple(other for _, other in scored[:k]))
    return result
