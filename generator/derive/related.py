"""Related papers: for each paper, the most similar others by text, phrases and tags.

TF-IDF vectors compared by cosine similarity, computed at build time in pure Python and
fast enough for 10,000 papers (see ``bench/`` and the numbers in the module's tests):

* **Text**: the plain text of the title (each term counted ``TITLE_WEIGHT`` times: titles
  are dense with topic words) and of the abstract (``text.plain_text``: no LaTeX, no Markdown).
* **Words**: accents folded, lower-cased, split on anything that is not a letter or a digit;
  English and academic-boilerplate stop words, pure numbers and one-letter words dropped;
  the rest reduced to their Porter stem (lunr's stemmer, memoised per word), so "networks" and
  "network" are one term.
* **Phrases**: two terms that follow each other with no stop word, number or punctuation
  mark between them ("exposure bias", "diffusion models", "self-supervised": a hyphen joins
  as a space does) are also a term when the paper uses them twice or in its title (a pair
  of words met once is as often chance, "current inputs", as a term of art), weighted
  ``PHRASE_WEIGHT`` times a word as rare (its two words count as well). Papers that share
  only the word "bias" (exposure bias, data bias) share no phrase; two papers on exposure
  bias share one.
* **Weights**: ``2 tf / (tf + 1) * log((N + 1) / df)``: a term said ten times weighs 1.8 times
  a term said once, never twice (see ``_Saturated``: one word repeated all through two papers
  is not what makes them alike).
* **Tags**: the papers' tags (when the caller gives them) are a second part of each vector:
  the score is ``(1 - TAG_SHARE)`` times the cosine of the texts plus ``TAG_SHARE`` times the
  cosine of the tag sets (IDF-weighted: a rare tag in common says more than a common one).
  Curated tags are the best evidence a small catalog has that two papers are on one topic;
  ``TAG_SHARE`` keeps them from overruling the text (two papers with one tag in common and
  nothing else to say are not related first). The weights were chosen by reading the
  bundled catalog (``tests/derive/test_related_pairs.py``: pairs that must and must not go
  together); those pairs hold for any ``TAG_SHARE`` from 0.08 to 0.15 and ``PHRASE_WEIGHT``
  up to 0.75, so the values are not balanced on an edge.
* **Candidates** (the pruning that keeps this fast; catalogs of up to ``EXACT_UP_TO``
  papers skip it and get the exact answer): an inverted index over the terms that at least
  two papers share and at most ``MAX_DF_SHARE`` of them (a term in one paper adds nothing
  to any dot product; a term in most papers adds almost nothing and would pair everything
  with everything); long postings are cut to the ``POSTINGS_CAP`` papers where the term
  weighs most (impact order), except a tag's, which holds every paper with the tag. Each
  paper looks up its ``QUERY_TERMS`` heaviest terms, counting for every other paper the
  postings it appears in, weighted by how heavy the query term is (1 to ``LEVELS``).
  Postings are bit sets (ints) and the counts a bit-sliced counter, so that counting runs
  as a few C big-int operations per query term, which is what makes 10,000 papers
  affordable in Python.
* **Scores**: the ``RESCORE`` best-counted candidates (and those tied with the last) are
  then scored *exactly* (the dot product over every shared term, computed once per pair;
  see ``_Scorer`` for how that is made cheap without changing a single score), so the
  pruning can only miss a candidate, never misorder the ones it finds. On a synthetic
  10,000-paper catalog (``bench/synth.py``, tags passed) about 95% of the exact top 5 are
  found (94.8% of 150 sampled papers' top 5), in no more time than the search took before
  phrases and tags.
* **Order**: highest score first; equal scores (rounded to 1e-9, so that the order does not
  hang on the last bits of a float) by position in the input, which the caller sorts by
  title. A paper that shares no term (word, phrase or tag) with another is never "related"
  to it.

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
from typing import NamedTuple, Sequence

from lunr.stemmer import PorterStemmer

from ..parallel import parallel_map

RELATED_COUNT = 5
TITLE_WEIGHT = 2  # a title term counts as this many abstract terms
PHRASE_WEIGHT = 0.5  # a two-word term weighs this much of a word as rare (its two words count too)
TAG_SHARE = 0.1  # the score: (1 - TAG_SHARE) x the cosine of the texts + TAG_SHARE x that of the tags
QUERY_TERMS = 48  # a paper's heaviest terms used to find its candidates
LEVELS = 2  # query terms count 1..LEVELS times, by weight relative to the heaviest
POSTINGS_CAP = 250  # papers kept per word or phrase, those where it weighs most
RESCORE = 32  # best-counted candidates (and ties) scored exactly
EXACT_UP_TO = 500  # catalogs this small skip the pruning: every candidate is scored exactly
MAX_DF_SHARE = 0.25  # words and phrases in more than this share of the papers are not indexed...
MIN_DF_CAP = 50  # ...unless they are in at most this many (small catalogs keep every term)
PARALLEL_FROM = 2000  # papers from which the turns run on every core (forking costs more below)

_TOKEN = re.compile(r"[a-z0-9]+|[^\sa-z0-9-]")  # a word, or a punctuation mark (a phrase ends there)
_TAG = "#"  # tag terms are "#" + the tag id: no word or phrase starts with it

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
    Punctuation marks are one-character "words": None, like stop words.
    """

    def __missing__(self, word: str) -> str | None:
        if len(self) >= _TERM_CACHE_MAX:  # bounded, like the lru_cache it replaces
            self.clear()
        term = None if len(word) <= 1 or word in STOP_WORDS or word.isdigit() else _stemmer.stem(word)
        self[word] = term
        return term


_term_of = _TermOf()


def _sequence(text: str) -> list[str | None]:
    """The text's words as index terms, in order, with None for a word that is no term and
    for each punctuation mark (a hyphen joins words as a space does): None ends a phrase."""
    if text.isascii():  # NFKD and the ASCII fold change nothing
        folded = text.lower()
    else:
        folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return list(map(_term_of.__getitem__, _TOKEN.findall(folded)))


def terms(text: str) -> list[str]:
    """The word terms of a text, in order: stemmed; stop words, numbers and 1-letter words out."""
    return [t for t in _sequence(text) if t is not None]


def phrases(text: str) -> list[str]:
    """The two-word terms of a text, in order ("exposur bia" for "exposure bias")."""
    seq = _sequence(text)
    return [f"{a} {b}" for a, b in zip(seq, seq[1:]) if a and b]


def _features(text: str) -> tuple[list[str], list[str]]:
    """``terms`` and ``phrases`` of a text, from one pass over it."""
    seq = _sequence(text)
    return [t for t in seq if t], [f"{a} {b}" for a, b in zip(seq, seq[1:]) if a and b]


class _Ids(dict):
    """term -> its integer id, the next one on first sight (so: in order of first appearance)."""

    def __missing__(self, term: str) -> int:
        term_id = self[term] = len(self)
        return term_id


class _Saturated(dict):
    """count -> its weight ``2c / (c + 1)``: 1 once, 1.33 twice, 1.8 ten times, never 2.

    A term a paper repeats counts for more, but not much more: repetition says how a paper
    is written as much as what it is about, and two papers that share one word said ten
    times over ("bias" in a paper on exposure bias and in one on data bias) are not alike.
    """

    def __missing__(self, count: int) -> float:
        weight = self[count] = 2.0 * count / (count + 1.0)
        return weight


def vectors(texts: Sequence[tuple[str, str]], tags: Sequence[Sequence[str]] | None = None) -> list[dict[int, float]]:
    """The vectors ``{term id: weight}`` of (title, abstract) pairs and of their tags.

    The text part (words and phrases) has length ``sqrt(1 - TAG_SHARE)`` and the tag part
    ``sqrt(TAG_SHARE)``, so that the dot product of two vectors is ``(1 - TAG_SHARE)`` times
    the cosine of their texts plus ``TAG_SHARE`` times the cosine of their tags. Without
    ``tags`` the text part has length 1: the dot product is the cosine of the texts.
    """
    return _vectors(texts, tags, singletons=True).vecs


class _Vectors(NamedTuple):
    vecs: list[dict[int, float]]
    first_tag: int  # tag terms have the ids from here on


def _vectors(texts: Sequence[tuple[str, str]], tags: Sequence[Sequence[str]] | None,
             singletons: bool) -> _Vectors:
    """``vectors``; without ``singletons`` the terms of a single paper are left out after
    scaling (they are in no dot product, only in the length, which already counts them)."""
    ids = _Ids()
    counts: list[dict[int, int]] = []
    for title, abstract in texts:
        seq = _sequence(abstract)
        found = Counter(filter(None, seq))
        # A phrase the abstract uses once is no term (unless the title has it: added below).
        found.update({f"{a} {b}": c for (a, b), c in Counter(zip(seq, seq[1:])).items() if c > 1 and a and b})
        words, pairs = _features(title)
        for t in words + pairs:
            found[t] += TITLE_WEIGHT
        counts.append(dict(zip(map(ids.__getitem__, found), found.values())))
    first_tag = len(ids)
    tag_ids = [list(map(ids.__getitem__, [_TAG + tag for tag in dict.fromkeys(mine)])) for mine in tags] \
        if tags is not None else []
    df = Counter(itertools.chain.from_iterable(counts))
    df.update(itertools.chain.from_iterable(tag_ids))
    n = len(texts)
    # IDF, times PHRASE_WEIGHT for a phrase (ids are in order of first appearance: so is ``ids``)
    boost = [PHRASE_WEIGHT if " " in t else 1.0 for t in ids]
    weight = {term: boost[term] * math.log((n + 1) / d) for term, d in df.items()}
    text_length = math.sqrt(1.0 - TAG_SHARE) if tags is not None else 1.0
    tag_length = math.sqrt(TAG_SHARE)
    saturated = _Saturated()
    vecs = []
    for i, tf in enumerate(counts):
        vec = _scaled(dict(zip(tf, map(mul, map(saturated.__getitem__, tf.values()), map(weight.__getitem__, tf)))),
                      text_length, df, singletons)
        if tag_ids and tag_ids[i]:
            vec.update(_scaled({term: weight[term] for term in tag_ids[i]}, tag_length, df, singletons))
        vecs.append(vec)
    return _Vectors(vecs, first_tag)


def _scaled(vec: dict[int, float], length: float, df: Counter[int], singletons: bool) -> dict[int, float]:
    """``vec`` scaled to ``length`` (empty if it is 0), its single-paper terms left out unless ``singletons``."""
    weights = list(vec.values())
    norm = math.sqrt(math.fsum(map(mul, weights, weights)))
    if not norm:
        return {}
    scale = length / norm
    if singletons:
        return {term: w * scale for term, w in vec.items()}
    return {term: w * scale for term, w in vec.items() if df[term] > 1}


def cosine(a: dict[int, float], b: dict[int, float]) -> float:
    """The dot product of two vectors over every shared term, correctly rounded (``math.fsum``)."""
    if len(a) > len(b):
        a, b = b, a
    return math.fsum(w * b[t] for t, w in a.items() if t in b)


def _postings(vecs: list[dict[int, float]], df: Counter[int], max_df: int, cap: int,
              first_tag: int) -> dict[int, int]:
    """term -> the set of papers in its (impact-ordered, capped) postings, as a bit set.

    Words and phrases in at least 2 and at most ``max_df`` papers are indexed; one in more
    than ``cap`` papers keeps the ``cap`` where it weighs most (ties: the earlier paper).
    Tags (ids from ``first_tag`` on) in at least 2 papers are indexed with all their papers.
    """
    docs: dict[int, list[int]] = {t: [] for t, d in df.items() if 2 <= d and (d <= max_df or t >= first_tag)}
    for doc, vec in enumerate(vecs):
        for term in vec.keys() & docs.keys():
            docs[term].append(doc)
    size = (len(vecs) + 7) // 8
    postings: dict[int, int] = {}
    for term, found in docs.items():
        if len(found) > cap and term < first_tag:
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


def related_indices(texts: Sequence[tuple[str, str]], k: int = RELATED_COUNT,
                    tags: Sequence[Sequence[str]] | None = None) -> list[tuple[int, ...]]:
    """For each (title, abstract) pair, the indices of the ``k`` most similar other pairs;
    ``tags`` (the tag ids of each pair's paper) count as terms when given.

    The candidate counting of the module docstring, done on bit sets: each posting is a set
    of papers as an int, and the weighted count of every paper is kept in a bit-sliced
    counter (``_add``), which is far cheaper than counting up to ~10,000 list entries per
    paper; the best-counted ``RESCORE`` (and ties) then come out of a radix select.
    Scores are computed as in ``_Scorer``.
    """
    n = len(texts)
    if n < 2 or k <= 0:
        return [() for _ in range(n)]
    exact = n <= EXACT_UP_TO
    if tags is not None and len(tags) != n:
        raise ValueError(f"{len(tags)} tag lists for {n} papers")
    vecs, first_tag = _vectors(texts, tags, singletons=False)

    df: Counter[int] = Counter(itertools.chain.from_iterable(vecs))
    max_df = n if exact else max(int(MAX_DF_SHARE * n), MIN_DF_CAP)
    cap = n if exact else POSTINGS_CAP
    postings = _postings(vecs, df, max_df, cap, first_tag)

    query_terms, rescore = (len(df), n) if exact else (QUERY_TERMS, RESCORE)
    ranker = _Ranker(vecs, postings, _Scorer(vecs, max(df, default=-1) + 1), query_terms, rescore, k)
    # Each paper's turn on its own: on every core for a large catalog (the scores a worker
    # computes for a later paper's turn are kept for it when that paper is its own too).
    return parallel_map(ranker.rank, range(n), minimum_items=PARALLEL_FROM)


class _Ranker:
    """One paper's turn: its candidates counted over the postings of its heaviest terms, the
    best-counted scored exactly (``_Scorer``), the ``k`` best kept."""

    def __init__(self, vecs: list[dict[int, float]], postings: dict[int, int], scorer: "_Scorer",
                 query_terms: int, rescore: int, k: int):
        self.vecs, self.postings, self.scorer = vecs, postings, scorer
        self.query_terms, self.rescore, self.k = query_terms, rescore, k
        self.scores: dict[tuple[int, int], float] = {}  # computed for a later paper's turn: (earlier, later)

    def rank(self, doc: int) -> tuple[int, ...]:
        postings = self.postings
        # Heaviest first, ties by term id: (-weight, term) tuples sort that way natively.
        query = sorted([(-w, t) for t, w in self.vecs[doc].items() if t in postings])[:self.query_terms]
        if not query:
            return ()
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
        if candidates.bit_count() > self.rescore:
            candidates = _at_least_kth(slices, candidates, self.rescore)
        scored = self.scorer.ranked(doc, _members(candidates), self.scores)
        return tuple(other for _, other in scored[:self.k])


class _Scorer:
    """Scores of one paper (``start``) with others: ``round(cosine(a, b), 9)``.

    The score is defined by ``cosine``: the dot product over the shared terms, correctly
    rounded by ``math.fsum`` (so in no particular order). Finding the shared terms of every
    pair is slow (it reads two big hash tables of a paper that is not in the cache), so the
    dot product is first summed with ``sum`` over the other paper's terms, looking up this
    paper's weights in a list indexed by term id (0.0 where it has none).

    Both add the same non-negative products (x + 0.0 is exactly x), and recursive summation
    of m non-negative terms is off by at most (m - 1) * 2**-53 * (1 + tiny) times their true
    sum, which is at most 1 (a dot product of vectors of length at most 1), while ``fsum``
    is off by at most half an ulp; so the two differ by less than ``SLACK`` times the number
    of the other paper's terms plus one (four times the bound). Rounding to 1e-9 is
    monotonic: when both ends of that interval round to the same value, so does the
    defining sum, and that value is the score. Otherwise (a sum within ~1e-13 of a rounding
    midpoint: a few in 10,000) the defining sum is computed.
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

    def ranked(self, doc: int, others: list[int], cache: dict[tuple[int, int], float]) -> list[tuple[float, int]]:
        """``(-score, other)`` of ``doc`` with each of ``others`` that scores above 0, best
        first (ties: the earlier paper). ``cache`` holds the scores computed on an earlier
        paper's turn for a later one, ``(earlier, later)``: each pair is scored once."""
        self.start(doc)
        dense_get, terms_of, weights_of, slack = self.dense.__getitem__, self.terms, self.weights, self.SLACK
        scored = []
        for other in others:
            score = cache.pop((other, doc), None) if other < doc else None
            if score is None:
                terms = terms_of[other]
                approx = sum(map(mul, map(dense_get, terms), weights_of[other]))
                margin = (len(terms) + 1) * slack
                score = round(approx - margin, 9)
                if score != round(approx + margin, 9):
                    score = self.exact(other)
                if other > doc:
                    cache[(doc, other)] = score
            if score > 0.0:
                scored.append((-score, other))
        self.stop()
        scored.sort()
        return scored

    def exact(self, other: int) -> float:
        """The defining sum: ``cosine``, correctly rounded (``math.fsum``), in no order."""
        return round(cosine(self.vecs[self.doc], self.vecs[other]), 9)
