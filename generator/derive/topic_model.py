"""The topic model: papers grouped by what they say (latent semantic analysis, then
spherical k-means), seeded and deterministic.

* **How many**: ``topic_count(n)``, about ``sqrt(n / 2)``: 6 topics for the 76 bundled
  papers, 71 at 10,000, 224 at 100,000 (at most ``MAX_TOPICS``); none below ``MIN_PAPERS``.
* **Space**: the TF-IDF rows (``topic_terms``) projected on their ``dims`` leading singular
  vectors (a truncated SVD, found by the randomized range finder of Halko, Martinsson and
  Tropp with ``POWER_STEPS`` power iterations), each row scaled to length 1. Words that go
  together ("graph", "node", "message passing") fall on the same few directions, so two
  papers that use different words of one field come out close. At most ``FIT_PAPERS``
  papers (an even spread over the catalog) fit the projection; every paper is projected.
* **Topics**: spherical k-means in that space (cosine similarity; centroids scaled to
  length 1), ``TRIES`` seeded k-means++ starts, the one with the best total similarity
  kept, ``MAX_STEPS`` Lloyd steps at most. A topic left empty takes the paper that fits its
  topic least.

Each paper is placed by its terms, at most its ``HEAVIEST_TERMS`` heaviest (an abstract
has ~110 with its phrases): the words a field's papers share (lower weights: more papers
hold them) are what sets the fields apart. Keeping only the 64 heaviest left mostly each
paper's rarest words, and the topics separated the venues' fields less well than a plain
TF-IDF -> SVD -> k-means (purity 0.78 against 0.84 on a synthetic mixed archive; 0.85 with
every term: ``bench/topics_purity.py``). The sparse products run in
numpy (``_times``, on the matrix and its transpose) in chunks, so memory stays bounded at
100,000 papers; BLAS runs on one thread (``numeric``). Every random draw comes from ``numpy.random.default_rng``
with a fixed seed; sorts are stable; equal scores go to the lower index. Same catalog,
same topics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from .numeric import np

from .topic_terms import Corpus

SEED = 20240507
MIN_PAPERS = 12  # fewer papers than this: no topics (a list is all one needs)
MAX_TOPICS = 300
MAX_DIMS = 64  # dimensions of the topic space
HEAVIEST_TERMS = 256  # a paper's terms that place it: its heaviest (an abstract has ~110: all of them)
POWER_STEPS = 2
OVERSAMPLE = 10
FIT_PAPERS = 8_000  # papers that fit the space and the topics (an even spread); all are placed
TRIES = 3  # k-means++ starts on those; the best kept
MAX_STEPS = 40  # Lloyd steps per start
FINAL_STEPS = 8  # ...and then on every paper, when not all fitted
CHUNK = 1 << 16  # nonzeros per step of a sparse product


def topic_count(papers: int) -> int:
    """How many topics a catalog of ``papers`` papers is split into (0: none)."""
    if papers < MIN_PAPERS:
        return 0
    return max(2, min(MAX_TOPICS, round(math.sqrt(papers / 2))))


@dataclass(frozen=True)
class Model:
    """Each paper's topic (``labels``, 0..k-1) and place in the topic space (``points``,
    rows of length 1 or 0), and the topics' ``centroids`` (rows of length 1)."""

    labels: np.ndarray
    points: np.ndarray
    centroids: np.ndarray


def fit(corpus: Corpus, k: int | None = None) -> Model | None:
    """The topic model of ``corpus`` with ``k`` topics (default ``topic_count``), or None
    when the catalog is too small or says too little to split."""
    n = corpus.papers
    k = topic_count(n) if k is None else k
    terms = len(corpus.df)
    if k < 2 or terms < 2:
        return None
    dims = max(2, min(MAX_DIMS, 2 * k, n - 1, terms - 1))
    rng = np.random.default_rng(SEED)
    matrix = _heaviest(corpus, HEAVIEST_TERMS)
    fit_rows = np.arange(n) if n <= FIT_PAPERS else np.linspace(0, n - 1, FIT_PAPERS).round().astype(np.int64)
    sample = matrix.rows(fit_rows)
    basis = _right_vectors(sample, terms, dims, rng)
    points = _unit_rows(_times(matrix, basis))
    fit_points = points[fit_rows]
    best = None
    for _ in range(TRIES):
        centroids = _kmeans(fit_points, _seeds(fit_points, k, rng), MAX_STEPS)
        score = float((fit_points @ centroids.T).max(axis=1).sum())
        if best is None or score > best[1] + 1e-6:
            best = (centroids, score)
    centroids = best[0] if n <= FIT_PAPERS else _kmeans(points, best[0], FINAL_STEPS)
    labels = (points @ centroids.T).argmax(axis=1)
    return Model(labels.astype(np.int32), points, centroids)


class _Sparse(NamedTuple):
    """A sparse matrix by rows (CSR)."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray

    def rows(self, rows: np.ndarray) -> "_Sparse":
        lo, hi = self.indptr[rows], self.indptr[rows + 1]
        counts = hi - lo
        indptr = np.concatenate([[0], np.cumsum(counts)])
        at = np.repeat(lo - indptr[:-1], counts) + np.arange(indptr[-1])
        return _Sparse(indptr, self.indices[at], self.data[at])

    def transposed(self, columns: int) -> "_Sparse":
        row = np.repeat(np.arange(len(self.indptr) - 1), np.diff(self.indptr))
        order = np.argsort(self.indices, kind="stable")
        indptr = np.zeros(columns + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.indices, minlength=columns), out=indptr[1:])
        return _Sparse(indptr, row[order].astype(np.int32), self.data[order])


def _heaviest(corpus: Corpus, keep: int) -> _Sparse:
    """The TF-IDF rows with only each paper's ``keep`` heaviest terms (ties: the lower term
    id), scaled to length 1 again: what a paper is about, at a fraction of the cost."""
    indptr, indices, data = corpus.indptr, corpus.indices, corpus.data
    row = np.repeat(np.arange(corpus.papers), np.diff(indptr))
    # By paper, heaviest first (weights are in (0, 1]); a stable sort keeps equal weights
    # in term order.
    order = np.argsort(row + (1.0 - data.astype(np.float64)) * 0.5, kind="stable")
    rank = np.arange(len(order)) - indptr[row[order]]
    chosen = np.sort(order[rank < keep])
    counts = np.bincount(row[chosen], minlength=corpus.papers)
    new_indptr = np.concatenate([[0], np.cumsum(counts)])
    values = data[chosen]
    norms = np.sqrt(np.bincount(row[chosen], weights=values.astype(np.float64) ** 2, minlength=corpus.papers))
    norms[norms == 0] = 1.0
    return _Sparse(new_indptr, indices[chosen], (values / np.repeat(norms, counts)).astype(np.float32))


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    lengths = np.linalg.norm(matrix, axis=1)
    return (matrix / np.where(lengths > 0, lengths, 1.0)[:, None]).astype(np.float32)


def _times(matrix: _Sparse, dense: np.ndarray) -> np.ndarray:
    """``matrix @ dense``, in chunks of about ``CHUNK`` nonzeros (float32 products)."""
    indptr, indices, data = matrix.indptr, matrix.indices, matrix.data
    rows = len(indptr) - 1
    dense = dense.astype(np.float32)
    out = np.zeros((rows, dense.shape[1]), dtype=np.float64)
    bounds = np.searchsorted(indptr, np.arange(0, indptr[-1] + CHUNK, CHUNK), side="right") - 1
    bounds = np.unique(np.concatenate([bounds, [0, rows]]).clip(0, rows))
    for start, stop in zip(bounds[:-1], bounds[1:]):
        lo, hi = indptr[start], indptr[stop]
        if hi == lo:
            continue
        owner = np.repeat(np.arange(start, stop), np.diff(indptr[start:stop + 1]))
        products = data[lo:hi, None] * dense[indices[lo:hi]]
        first = np.concatenate([[0], np.nonzero(np.diff(owner))[0] + 1])
        out[owner[first]] += np.add.reduceat(products, first, axis=0)
    return out


def _right_vectors(sample: _Sparse, terms: int, dims: int, rng: np.random.Generator) -> np.ndarray:
    """The ``dims`` leading right singular vectors of ``sample`` (terms x dims)."""
    width = min(dims + OVERSAMPLE, terms, len(sample.indptr) - 1)
    transposed = sample.transposed(terms)
    q, _ = np.linalg.qr(_times(sample, rng.standard_normal((terms, width))))
    for _ in range(POWER_STEPS):
        q, _ = np.linalg.qr(_times(transposed, q))
        q, _ = np.linalg.qr(_times(sample, q))
    small = _times(transposed, q).T  # width x terms
    _, _, vt = np.linalg.svd(small, full_matrices=False)
    basis = vt[:dims].T
    # A singular vector's sign is arbitrary: make its largest entry positive (determinism).
    signs = np.sign(basis[np.abs(basis).argmax(axis=0), np.arange(basis.shape[1])])
    return basis * np.where(signs == 0, 1.0, signs)


def _kmeans(points: np.ndarray, centroids: np.ndarray, steps: int) -> np.ndarray:
    """Spherical k-means from ``centroids``: at most ``steps`` Lloyd steps; the centroids."""
    k = len(centroids)
    labels = None
    for _ in range(steps):
        similarity = points @ centroids.T
        new = similarity.argmax(axis=1)
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        centroids = _centroids(points, labels, k, similarity)
    return centroids


def _centroids(points: np.ndarray, labels: np.ndarray, k: int, similarity: np.ndarray) -> np.ndarray:
    sums = np.stack([np.bincount(labels, weights=column, minlength=k) for column in points.T], axis=1)
    sizes = np.bincount(labels, minlength=k)
    fit = similarity[np.arange(len(points)), labels]
    for empty in np.nonzero(sizes == 0)[0]:  # the worst-fitting paper starts the empty topic
        worst = int(np.argmin(fit))
        sums[empty] = points[worst]
        fit[worst] = np.inf
    lengths = np.linalg.norm(sums, axis=1)
    return (sums / np.where(lengths > 0, lengths, 1.0)[:, None]).astype(np.float32)


def _seeds(points: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k-means++ starts: each next centroid drawn with probability growing with its
    distance (1 - cosine) to the nearest centroid so far."""
    n = len(points)
    chosen = [int(rng.integers(n))]
    nearest = 1.0 - points @ points[chosen[0]]
    for _ in range(1, k):
        weights = np.clip(nearest, 0.0, None)
        total = weights.sum()
        pick = int(rng.integers(n)) if total <= 0 else int(np.searchsorted(np.cumsum(weights), rng.random() * total))
        pick = min(pick, n - 1)
        chosen.append(pick)
        nearest = np.minimum(nearest, 1.0 - points @ points[pick])
    return points[chosen].copy()
