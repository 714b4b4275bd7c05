"""Related papers: for each paper, the most similar others by the text of title and abstract.

TF-IDF vectors compared by cosine similarity, computed at build time in pure Python and
fast enough for 10,000 papers (see ``bench/`` and the numbers in the module's tests):

* **Text**: the plain text of the title (each word counted ``TITLE_WEIGHT`` times: titles
  are dense with topic words) and of the abstract (``text.plain_text``: no LaTeX, no Markdown).
* **Terms**: accents folded, lower-cased, split on anything that is not a letter or a digit;
  English and academic-boilerplate stop words, pure numbers and one-letter words dropped;
  the rest reduced to their Porter stem (lunr's stemmer, memoised per word), so "networks" and
  "network" are one term.
* **Weights**: ``(1 + log tf) * log((N + 1) / df)``, each vector scaled to unit length over
  *all* its terms, so a score is the true cosine.
* **Candidates** (the pruning that keeps this fast): an inverted index over the terms that
  at least two papers share and at most ``MAX_DF_SHARE`` of them (a term in one paper adds
  nothing to any dot product; a term in most papers adds almost nothing and would pair
  everything with everything). Long postings are cut to the ``POSTINGS_CAP`` papers where
  the term weighs most (impact order). Each paper looks up only its ``QUERY_TERMS``
  heaviest terms, counting for every other paper the postings it appears in, weighted by
  how heavy the query term is (1 to ``LEVELS``). Postings are bit sets (ints) and the
  counts a bit-sliced counter, so that counting runs as a few C big-int operations per
  query term, which is what makes 10,000 papers affordable in Python.
* **Scores**: the ``RESCORE`` best-counted candidates (and those tied with the last) are
  then scored *exactly* (the full sparse dot product over every shared term, computed once
  per pair; see ``_Scorer`` for how that is made cheap without changing a single score),
  so the pruning can only miss a candidate, never misorder the ones it finds.
  On a synthetic 10,000-paper catalog (``bench/synth.py``) about 96% of the exact top 5 are
  found. Catalogs of up to ``EXACT_UP_TO`` papers skip the pruning and get the exact answer.
* **Order**: highest cosine first; equal scores (rounded to 1e-9, so that the order does not
  hang on the last bits of a float) by position in the input, which the caller sorts by
  title. A paper with no word in common with another is never "related" to it.

Everything is deterministic: terms get integer ids in order of first appearance (integer
hashes do not depend on ``PYTHONHASHSEED``), and every sort has a total order.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections import Counter
from operator import mul
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
_TERM_CACHE_MAX = 200_000


class _TermOf(dict):
    """word -> its index term (the Porter stem), or None for a word that is no term.

    A plain dict filled on first sight: every abstract repeats the same few thousand words,
    and a dict lookup is much cheaper than filtering and calling a memoised stemmer per word.
    """

    def __missing__(self, word: str) -> str | None:
        if len(self) >= _TERM_CACHE_MAX:  # bounded, like the lru_cache it replaces
            self.clear()
        term = None if len(word) <= 1 or word in STOP_WORDS or word.isdigit() else _stemmer.stem(word)
        self[word] = term
        return term


_term_of = _TermOf()


def terms(text: str) -> list[str]:
    """The index terms of a text, in order: stemmed; stop words, numbers and 1-letter words out."""
    if text.isascii():  # NFKD and the ASCII fold change nothing
        folded = text.lower()
    else:
        folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return [t for t in map(_term_of.__getitem__, _WORD.findall(folded)) if t is not None]


def vectors(texts: Sequence[tuple[str, str]]) -> list[dict[int, float]]:
    """Unit-length TF-IDF vectors ``{term id: weight}`` of (title, abstract) pairs."""
    ids: dict[str, int] = {}
    counts: list[Counter[int]] = []
    df: Counter[int] = Counter()
    for title, abstract in texts:
        found = terms(abstract)
        for t in found:  # ids in order of first appearance
            if t not in ids:
                ids[t] = len(ids)
        tf = Counter(map(ids.__getitem__, found))
        for t in terms(title):
            tf[ids.setdefault(t, len(ids))] += TITLE_WEIGHT
        counts.append(tf)
        df.update(tf.keys())
    n = len(texts)
    idf = {term: math.log((n + 1) / d) for term, d in df.items()}
    log_tf: dict[int, float] = {}  # 1 + log(tf): the same few small counts over and over
    result = []
    for tf in counts:
        vec = {}
        for term, c in tf.items():
            factor = log_tf.get(c)
            if factor is None:
                factor = log_tf[c] = 1.0 + math.log(c)
            vec[term] = factor * idf[term]
        norm = math.sqrt(math.fsum(w * w for w in vec.values()))
        result.append({term: w / norm for term, w in vec.items()} if norm else {})
    return result


def cosine(a: dict[int, float], b: dict[int, float]) -> float:
    """The dot product of two unit vectors (exact, over every shared term)."""
    if len(a) > len(b):
        a, b = b, a
    return math.fsum(w * b[t] for t, w in a.items() if t in b)


def _postings(vecs: list[dict[int, float]], df: Counter[int], max_df: int, cap: int) -> dict[int, int]:
    """term -> the set of papers in its (impact-ordered, capped) postings, as a bit set.

    Only terms in at least 2 and at most ``max_df`` papers are indexed. A term in more than
    ``cap`` papers keeps the ``cap`` where it weighs most (ties: the earlier paper).
    """
    docs: dict[int, list[int]] = {t: [] for t, d in df.items() if 2 <= d <= max_df}
    for doc, vec in enumerate(vecs):
        for term in vec.keys() & docs.keys():
            docs[term].append(doc)
    size = (len(vecs) + 7) // 8
    postings: dict[int, int] = {}
    for term, found in docs.items():
        if len(found) > cap:
            # By weight, heaviest first; equal weights stay in paper order (a stable sort).
            weights = [vecs[d][term] for d in found]
            found = [found[i] for i in sorted(range(len(found)), key=weights.__getitem__, reverse=True)[:cap]]
        bits = bytearray(size)
        for d in found:
            bits[d >> 3] |= 1 << (d & 7)
        postings[term] = int.from_bytes(bits, "little")
    return postings


def _add(slices: list[int], bits: int, i: int) -> None:
    """Add 1 << ``i`` to the counter of every paper in ``bits``.

    ``slices`` is a bit-sliced counter: bit ``i`` of paper ``d``'s count is bit ``d`` of
    ``slices[i]``, so one addition is a ripple-carry over whole bit sets (C big-int ops).
    """
    if i > len(slices):
        slices.extend([0] * (i - len(slices)))
    carry = bits
    while carry:
        if i == len(slices):
            slices.append(carry)
            return
        current = slices[i]
        slices[i] = current ^ carry
        carry &= current
        i += 1


def _at_least_kth(slices: list[int], candidates: int, k: int) -> int:
    """The candidates whose count is at least the ``k``-th largest count among them.

    A radix select from the top bit down: ``tied`` holds the candidates whose count agrees
    with the ``k``-th largest on the bits seen so far, ``above`` those known to be larger.
    """
    tied, above = candidates, 0
    for bits in reversed(slices):
        high = tied & bits
        count = high.bit_count()
        if count >= k:
            tied = high
        else:
            k -= count
            above |= high
            tied ^= high
    return above | tied


def _members(bits: int) -> list[int]:
    """The positions of the set bits of ``bits``."""
    text = bin(bits)
    top = len(text) - 1
    return [top - m.start() for m in _ONE.finditer(text, 2)]


_ONE = re.compile("1")


def related_indices(texts: Sequence[tuple[str, str]], k: int = RELATED_COUNT) -> list[tuple[int, ...]]:
    """For each (title, abstract) pair, the indices of the ``k`` most similar other pairs.

    The candidate counting of the module docstring, done on bit sets: each posting is a set
    of papers as an int, and the weighted count of every paper is kept in a bit-sliced
    counter (``_add``), which is far cheaper than counting up to ~10,000 list entries per
    paper; the best-counted ``RESCORE`` (and ties) then come out of a radix select.
    Scores are computed as in ``_Scorer``.
    """
    n = len(texts)
    if n < 2 or k <= 0:
        return [() for _ in range(n)]
    vecs = vectors(texts)

    df: Counter[int] = Counter(itertools.chain.from_iterable(vecs))
    exact = n <= EXACT_UP_TO
    max_df = n if exact else max(int(MAX_DF_SHARE * n), MIN_DF_CAP)
    cap = n if exact else POSTINGS_CAP
    postings = _postings(vecs, df, max_df, cap)

    query_terms, rescore = (len(df), n) if exact else (QUERY_TERMS, RESCORE)
    scorer = _Scorer(vecs, max(df, default=-1) + 1)
    scores: dict[tuple[int, int], float] = {}  # cosines computed for a later paper's turn: (earlier, later)
    result: list[tuple[int, ...]] = []
    for doc, vec in enumerate(vecs):
        # Heaviest first, ties by term id: (-weight, term) tuples sort that way natively.
        query = sorted([(-w, t) for t, w in vec.items() if t in postings])[:query_terms]
        if not query:
            result.append(())
            continue
        heaviest = -query[0][0]
        slices: list[int] = []
        for weight, term in query:
            level = 1 + int(LEVELS * -weight / heaviest - 1e-9)  # the times the term counts
            bits, i = postings[term], 0
            while level:
                if level & 1:
                    _add(slices, bits, i)
                level >>= 1
                i += 1
        candidates = 0
        for bits in slices:
            candidates |= bits
        me = 1 << doc
        if candidates & me:
            candidates ^= me
        if candidates.bit_count() > rescore:
            candidates = _at_least_kth(slices, candidates, rescore)
        scorer.start(doc)
        scored = []
        for other in _members(candidates):
            score = scores.pop((other, doc), None) if other < doc else None  # computed from the other side
            if score is None:
                score = scorer.score(other)
                if other > doc:
                    scores[(doc, other)] = score
            if score > 0.0:
                scored.append((-score, other))
        scorer.stop()
        scored.sort()
        result.append(tuple(other for _, other in scored[:k]))
    return result


class _Scorer:
    """Cosines of one paper (``start``) with others, rounded to 1e-9: ``round(dot, 9)``.

    The score is defined as the dot product summed, with ``sum``, in the iteration order of
    the frozenset intersection of the two papers' terms, the intersection taken on the turn
    of the paper whose candidate the other was first. Computing that intersection for every
    pair is slow (it reads two big hash tables of a paper that is not in the cache), so the
    dot product is first summed in another order: over the other paper's terms, looking up
    this paper's weights in a list indexed by term id (0.0 where it has none).

    Both sums add the same non-negative products (x + 0.0 is exactly x), only in another
    order, and recursive summation of m non-negative terms is off by at most
    (m - 1) * 2**-53 * (1 + tiny) times their true sum, which is at most 1 (a cosine of unit
    vectors); so the two sums differ by less than ``SLACK`` times the number of the other
    paper's terms (four times the bound). Rounding to 1e-9 is monotonic: when both ends of
    that interval round to the same value, so does the defining sum, and that value is the
    score. Otherwise (a sum within ~1e-13 of a rounding midpoint: a few in 10,000) the
    defining sum is computed.
    """

    SLACK = 1e-15

    def __init__(self, vecs: list[dict[int, float]], term_count: int):
        self.vecs = vecs
        self.terms = [tuple(v) for v in vecs]
        self.weights = [tuple(v.values()) for v in vecs]
        self.dense = [0.0] * term_count  # the current paper's weights by term id
        self.doc = -1

    def start(self, doc: int) -> None:
        self.doc = doc
        dense = self.dense
        for term, weight in self.vecs[doc].items():
            dense[term] = weight

    def stop(self) -> None:
        dense = self.dense
        for term in self.vecs[self.doc]:
            dense[term] = 0.0

    def score(self, other: int) -> float:
        terms = self.terms[other]
        approx = sum(map(mul, map(self.dense.__getitem__, terms), self.weights[other]))
        slack = (len(terms) + 1) * self.SLACK
        score = round(approx - slack, 9)
        if score == round(approx + slack, 9):
            return score
        return self.exact(other)

    def exact(self, other: int) -> float:
        """The defining sum (the original computation of the score, kept for the rare case)."""
        mine, theirs = self.vecs[self.doc], self.vecs[other]
        common = frozenset(mine) & frozenset(theirs)  # a set of ints: its order does not depend on the hash seed
        return round(sum(map(mul, map(mine.__getitem__, common), map(theirs.__getitem__, common))), 9)
