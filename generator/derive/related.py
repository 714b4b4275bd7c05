"""Related papers: for each paper, the most similar others by text, phrases and tags.

TF-IDF vectors compared by cosine similarity, computed at build time with numpy (sparse
rows, ``terms.Rows``), fast enough for 100,000 papers (``bench/derive_bench.py``):

* **Text**: the plain text of the title and of the abstract (``text.plain_text``: no LaTeX,
  no Markdown), read into words and phrases by ``terms.py`` (stemmed, stop words out; a
  title term counts ``terms.TITLE_WEIGHT`` times).
* **Phrases**: two terms that follow each other with no stop word, number or punctuation
  mark between them ("exposure bias", "diffusion models"), when the paper uses them twice
  or in its title, are weighted ``PHRASE_WEIGHT`` times a word as rare (their two words
  count as well). Papers that share only the word "bias" (exposure bias, data bias) share
  no phrase; two papers on exposure bias share one.
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
  papers skip it and get the exact answer): postings of the terms that at least two papers
  share and at most ``MAX_DF_SHARE`` of them (a term in one paper adds nothing to any dot
  product; a term in most papers adds almost nothing and would pair everything with
  everything); long postings are cut to the ``POSTINGS_CAP`` papers where the term weighs
  most (impact order), except a tag's, which holds every paper with the tag. Each paper
  looks up its ``QUERY_TERMS`` heaviest terms, counting for every other paper the postings
  it appears in, weighted by how heavy the query term is (1 to ``LEVELS``). The counting is
  numpy's, a block of papers at a time, on every core for a large catalog
  (``neighbours.py``, which also says how a tag's long postings are counted without being
  read paper by paper).
* **Scores**: the ``RESCORE`` best-counted candidates (and those tied with the last) are
  then scored *exactly* (the dot product over every shared term; see ``neighbours.py`` for
  how numpy's sums are used without changing a single score), so the pruning can only miss
  a candidate, never misorder the ones it finds. On a synthetic 10,000-paper catalog
  (``bench/synth.py``, tags passed) about 95% of the exact top 5 are found (94.3% of 150
  sampled papers' top 5, ``bench/derive_bench.py --recall 150``; at 100,000 synthetic
  papers 56%, bounded by that corpus: see ``bench/PROFILE.md``).
* **Order**: highest score first; equal scores (rounded to 1e-9, so that the order does not
  hang on the last bits of a float) by position in the input, which the caller sorts by
  title. A paper that shares no term (word, phrase or tag) with another is never "related"
  to it.

Everything is deterministic: terms get integer ids in order of first appearance (integer
hashes do not depend on ``PYTHONHASHSEED``), every sort has a total order, every length is
a correctly rounded sum (``math.fsum``) and no score hangs on the order of a sum.
"""

from __future__ import annotations

import hashlib
import math
from contextlib import nullcontext
from typing import NamedTuple, Sequence

import numpy as np

from ..parallel import default_jobs, frozen_heap
from .neighbours import Params, cosine, nearest
from .terms import Rows, count_terms, hstack, labels, phrases, row_norms, terms

__all__ = ["RELATED_COUNT", "cosine", "inputs_digest", "phrases", "related_indices", "terms", "vectors"]

RELATED_COUNT = 5
PHRASE_WEIGHT = 0.5  # a two-word term weighs this much of a word as rare (its two words count too)
TAG_SHARE = 0.1  # the score: (1 - TAG_SHARE) x the cosine of the texts + TAG_SHARE x that of the tags
QUERY_TERMS = 48  # a paper's heaviest terms used to find its candidates
LEVELS = 2  # query terms count 1..LEVELS times, by weight relative to the heaviest
POSTINGS_CAP = 250  # papers kept per word or phrase, those where it weighs most
RESCORE = 32  # best-counted candidates (and ties) scored exactly
EXACT_UP_TO = 500  # catalogs this small skip the pruning: every candidate is scored exactly
MAX_DF_SHARE = 0.25  # words and phrases in more than this share of the papers are not indexed...
MIN_DF_CAP = 50  # ...unless they are in at most this many (small catalogs keep every term)
PARALLEL_FROM = 2000  # papers from which the search runs on every core (forking costs more below)

_TAG = "#"  # tag terms are "#" + the tag id: no word or phrase starts with it


class _Saturated(dict):
    """count -> its weight ``2c / (c + 1)``: 1 once, 1.33 twice, 1.8 ten times, never 2.

    A term a paper repeats counts for more, but not much more: repetition says how a paper
    is written as much as what it is about, and two papers that share one word said ten
    times over ("bias" in a paper on exposure bias and in one on data bias) are not alike.
    """

    def __missing__(self, count: int) -> float:
        weight = self[count] = 2.0 * count / (count + 1.0)
        return weight


class _Scorer:
    """How far numpy's sum of a score's products may be from the correctly rounded one.

    Recursive or pairwise summation of m non-negative terms is off by at most
    (m - 1) * 2**-53 * (1 + tiny) times their true sum, which is at most 1 (a dot product
    of vectors of length at most 1), while ``fsum`` is off by at most half an ulp; so the
    two differ by less than ``SLACK`` times the number of the other paper's terms plus one
    (four times the bound). Rounding to 1e-9 is monotonic: when both ends of that interval
    round to the same value, so does the defining sum, and that value is the score.
    Otherwise (a sum within ~1e-13 of a rounding midpoint: a few in 10,000) the defining
    sum is computed (``neighbours.py``).
    """

    SLACK = 1e-15


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
    """``vectors`` as dicts; without ``singletons`` the terms of a single paper are left out."""
    weights = _weights(texts, tags, singletons)
    return _Vectors([weights.rows.row(i) for i in range(weights.rows.n_rows)], weights.first_tag)


class _Weights(NamedTuple):
    rows: Rows  # a row per paper: term id -> weight (float64)
    first_tag: int  # tag terms have the ids from here on
    n_terms: int


def _weights(texts: Sequence[tuple[str, str]], tags: Sequence[Sequence[str]] | None, singletons: bool,
             jobs: int | None = None) -> _Weights:
    """The vectors of ``vectors`` as sparse rows; without ``singletons`` the terms of a single
    paper are left out after scaling (they are in no dot product, only in the length, which
    already counts them)."""
    n = len(texts)
    counted = count_terms(texts, jobs)
    first_tag = len(counted.vocabulary)
    tag_names, tag_rows = labels(tags if tags is not None else [()] * n, first_tag)
    n_terms = first_tag + len(tag_names)
    df = np.bincount(np.concatenate([counted.counts.indices, tag_rows.indices]), minlength=n_terms)
    # IDF (one log per distinct document frequency), times PHRASE_WEIGHT for a phrase
    distinct = np.unique(df[df > 0])
    logs = np.zeros(int(distinct[-1]) + 1 if len(distinct) else 1)
    logs[distinct] = [math.log((n + 1) / d) for d in distinct.tolist()]
    boost = np.ones(n_terms)
    boost[:first_tag][counted.phrase_mask()] = PHRASE_WEIGHT
    weight = boost * logs[df]
    saturated = _Saturated()
    text = counted.counts
    distinct = np.unique(text.values)
    table = np.zeros(int(distinct[-1]) + 1 if len(distinct) else 1)
    table[distinct] = [saturated[c] for c in distinct.tolist()]
    text = _scaled(text.with_values(table[text.values] * weight[text.indices]),
                   math.sqrt(1.0 - TAG_SHARE) if tags is not None else 1.0)
    rows = hstack(text, _scaled(tag_rows.with_values(weight[tag_rows.indices]), math.sqrt(TAG_SHARE)))
    if not singletons:
        rows = rows.select(df[rows.indices] > 1)
    return _Weights(rows, first_tag, n_terms)


def _scaled(rows: Rows, length: float) -> Rows:
    """Each row scaled to ``length`` (left empty if it is 0)."""
    norms = row_norms(rows)
    nonzero = norms > 0
    scale = np.zeros(rows.n_rows)
    scale[nonzero] = length / norms[nonzero]
    scaled = rows.with_values(rows.values * np.repeat(scale, rows.lengths()))
    return scaled if nonzero.all() else scaled.select(np.repeat(nonzero, rows.lengths()))


def related_indices(texts: Sequence[tuple[str, str]], k: int = RELATED_COUNT,
                    tags: Sequence[Sequence[str]] | None = None) -> list[tuple[int, ...]]:
    """For each (title, abstract) pair, the indices of the ``k`` most similar other pairs;
    ``tags`` (the tag ids of each pair's paper) count as terms when given."""
    n = len(texts)
    if n < 2 or k <= 0:
        return [() for _ in range(n)]
    if tags is not None and len(tags) != n:
        raise ValueError(f"{len(tags)} tag lists for {n} papers")
    jobs = default_jobs(n, PARALLEL_FROM)
    # One garbage collection before the workers fork, not one per step (``parallel.frozen_heap``).
    with frozen_heap() if jobs > 1 else nullcontext():
        weights = _weights(texts, tags, singletons=False, jobs=jobs)
        exact = n <= EXACT_UP_TO
        params = Params(k=k, query_terms=weights.n_terms if exact else QUERY_TERMS, levels=LEVELS,
                        cap=n if exact else POSTINGS_CAP,
                        max_df=n if exact else max(int(MAX_DF_SHARE * n), MIN_DF_CAP),
                        rescore=n if exact else RESCORE, slack=_Scorer.SLACK)
        return nearest(weights.rows, weights.n_terms, weights.first_tag, params, jobs)


def inputs_digest(texts: Sequence[tuple[str, str]], tags: Sequence[Sequence[str]] | None) -> bytes:
    """A digest of all that ``related_indices(texts, tags=tags)`` depends on besides the code
    (the build cache's key), made without a copy of the texts: at 100,000 papers pickling
    them whole for a key held ~150 MB at once."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(b"tags" if tags is not None else b"no tags")
    for i, (title, abstract) in enumerate(texts):
        fields = [title, abstract, *(tags[i] if tags is not None else ())]
        digest.update(repr(len(fields)).encode())  # the lengths make the sequence unambiguous
        for field in fields:
            data = field.encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "little") + data)
    return digest.digest()
