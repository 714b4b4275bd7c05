"""The pruned nearest-neighbour search of ``related``: for each row of a sparse matrix of
weight vectors, its ``k`` best-scoring other rows, found by counting shared postings and
rescored exactly. numpy does the counting and the sums, a block of rows at a time, on every
core for a large catalog; the rules are ``related``'s (its docstring says why):

* **Postings**: a text term in 2 to ``max_df`` papers lists the ``cap`` papers where it
  weighs most (ties: the earlier paper); a label (tag, ids from ``first_label`` on) in 2 or
  more papers lists all of them.
* **Query**: a paper's ``query_terms`` heaviest indexed terms (ties: the lower term id),
  each counting ``1 + trunc(levels * weight / heaviest - 1e-9)`` times.
* **Candidates**: every other paper gets the sum of the counts of the query terms whose
  postings hold it; the papers with a count of at least the ``rescore``-th largest (all
  that count, when there are no more than ``rescore``) are scored exactly.

Counting over the text postings is a scatter-add into a (block × papers) array. A label's
postings are too long for that (a tag holds thousands of papers), so what labels add is
counted per *label set* (``_LabelSets``): papers with the same labels get the same
addition, and the papers no text posting reached are counted by set, not one by one.

**Scores** are ``round(fsum(products over the shared terms), 9)``, the same whatever the
order of the sum: numpy sums the products in its own order, and a score is taken from that
sum only when the sum's error bound (``slack`` times the terms plus one) cannot move it
across a rounding boundary; otherwise the exact sum decides (a few pairs in 10,000). No
BLAS product takes part in a score, so the lists do not depend on threads or hardware.
Order: highest score first, ties by position; a paper that scores 0 is never listed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..parallel import parallel_map
from .terms import Rows

BLOCK_CELLS = 4_000_000  # papers x block rows counted at once (the scratch arrays' size)
MAX_BLOCK = 64  # rows per block at most
FLOOR = 4  # the text count from which most rows' candidates are decided (see ``_candidates``)
_SAFE = 1e-6  # how far (in units of 1e-9) a sum must be from a rounding midpoint to be decided in numpy


@dataclass(frozen=True, slots=True)
class Params:
    k: int
    query_terms: int
    levels: int
    cap: int
    max_df: int
    rescore: int
    slack: float


def nearest(weights: Rows, n_terms: int, first_label: int, params: Params, jobs: int) -> list[tuple[int, ...]]:
    """For each row, the ``params.k`` best other rows (see the module's docstring)."""
    search = _Search(weights, n_terms, first_label, params)
    n = weights.n_rows
    starts = list(range(0, n, search.block))
    blocks = parallel_map(search.run, starts, jobs=jobs if len(starts) > 1 else 1)
    found: list[tuple[int, ...]] = []
    for block in blocks:
        found.extend(tuple(other for other in row if other >= 0) for row in block.tolist())
    return found


def cosine(a: dict[int, float], b: dict[int, float]) -> float:
    """The dot product of two vectors over every shared term, correctly rounded (``math.fsum``)."""
    if len(a) > len(b):
        a, b = b, a
    return math.fsum(w * b[t] for t, w in a.items() if t in b)


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[i]`` to ``starts[i] + lengths[i]``, one range after another."""
    total = int(lengths.sum())
    return np.repeat(starts - (np.cumsum(lengths) - lengths), lengths) + np.arange(total, dtype=np.int64)


def _tally(bins: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """``bincount`` of whole numbers summed as floats (exact: each bin's sum is a whole
    number well below 2**53, and its float error far below 0.5), as int64."""
    return np.rint(np.bincount(bins, weights=weights, minlength=size)).astype(np.int64)


def thresholds(histogram: np.ndarray, rescore: int) -> np.ndarray:
    """For each row of ``histogram`` (how many papers have each count, by count), the count
    a candidate needs: the ``rescore``-th largest positive count, or 1 when there are no
    more than ``rescore`` positive ones (everything tied with the ``rescore``-th is kept)."""
    at_least = np.cumsum(histogram[:, :0:-1], axis=1)[:, ::-1]  # papers with a count >= 1, 2, ...
    return np.maximum((at_least >= rescore).sum(axis=1), 1)


class _LabelSets:
    """The papers grouped by the set of their indexed labels: ``of[doc]`` is its set,
    ``by_label`` a (label x set) matrix of 0/1, ``sizes`` the papers of each set, ``members`` them."""

    def __init__(self, weights: Rows, indexed: np.ndarray, first_label: int, n_terms: int):
        n = weights.n_rows
        is_label = indexed & (np.arange(n_terms) >= first_label)
        mask = is_label[weights.indices]
        rows = weights.select(mask)
        labels = (rows.indices - first_label).tolist()
        bounds = rows.indptr.tolist()
        ids: dict[tuple[int, ...], int] = {}
        of = [ids.setdefault(tuple(sorted(labels[a:b])), len(ids)) for a, b in zip(bounds, bounds[1:])]
        self.of = np.array(of, dtype=np.int32) if n else np.zeros(0, np.int32)
        self.count = max(1, len(ids))
        self.by_label = np.zeros((max(1, n_terms - first_label), self.count), dtype=np.int32)
        for key, set_id in ids.items():
            self.by_label[list(key), set_id] = 1
        self.sizes = np.bincount(self.of, minlength=self.count)
        order = np.argsort(self.of, kind="stable")
        self.members = np.split(order.astype(np.int64), np.cumsum(self.sizes)[:-1])


class _Search:
    """What every block needs: the postings, the label sets; scratch arrays per process."""

    def __init__(self, weights: Rows, n_terms: int, first_label: int, params: Params):
        self.w, self.p, self.first_label = weights, params, first_label
        n = self.n = weights.n_rows
        self.block = max(1, min(MAX_BLOCK, BLOCK_CELLS // max(n, 1)))
        df = np.bincount(weights.indices, minlength=n_terms)
        label = np.arange(n_terms) >= first_label
        self.indexed = (df >= 2) & ((df <= params.max_df) | label)
        self.lengths = weights.lengths()
        self.post_ptr, self.post_docs = self._postings(df, label)
        self.labels = _LabelSets(weights, self.indexed, first_label, n_terms)
        self.scratch: tuple[np.ndarray, np.ndarray] | None = None

    def _postings(self, df: np.ndarray, label: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The text terms' postings: term -> papers (``post_docs[post_ptr[t]:post_ptr[t + 1]]``)."""
        w = self.w
        terms, docs, values = w.indices, w.row_ids(), w.values
        keep = self.indexed[terms] & ~label[terms]
        terms, docs, values = terms[keep], docs[keep], values[keep]
        long = df[terms] > self.p.cap
        if long.any():  # the cap heaviest of a long posting: by weight, then paper
            t_long, d_long, v_long = terms[long], docs[long], values[long]
            order = np.argsort(-v_long, kind="stable")  # the entries are in paper order: ties stay so
            order = order[np.argsort(t_long[order], kind="stable")]
            t_long, d_long = t_long[order], d_long[order]
            starts = np.searchsorted(t_long, t_long, side="left")
            top = (np.arange(len(t_long)) - starts) < self.p.cap
            terms = np.concatenate([terms[~long], t_long[top]])
            docs = np.concatenate([docs[~long], d_long[top]])
        order = np.argsort(terms, kind="stable")
        counts = np.bincount(terms, minlength=len(df))
        ptr = np.zeros(len(df) + 1, dtype=np.int64)
        np.cumsum(counts, out=ptr[1:])
        return ptr, docs[order].astype(np.int32)

    def _scratch(self) -> tuple[np.ndarray, np.ndarray]:
        """The counters and the term slots (made in the process that uses them)."""
        if self.scratch is None:
            bound = self.p.levels * self.p.query_terms
            dtype = np.int8 if bound < 2**7 else np.int16 if bound < 2**15 else np.int32
            self.scratch = (np.zeros(self.block * self.n, dtype=dtype),
                            np.full(len(self.indexed), -1, dtype=np.int32))
        return self.scratch

    def run(self, start: int) -> np.ndarray:
        """The lists of rows ``start`` to ``start + block``: a (rows x k) array, -1 where short."""
        stop = min(start + self.block, self.n)
        rows = stop - start
        result = np.full((rows, self.p.k), -1, dtype=np.int32)
        q_doc, q_term, q_level = self._query(start, stop)
        if not len(q_doc):
            return result
        pair_doc, pair_other = self._candidates(start, rows, q_doc, q_term, q_level)
        if not len(pair_doc):
            return result
        keys = self._scores(start, stop, pair_doc, pair_other)
        good = keys >= 1
        pair_doc, pair_other, keys = pair_doc[good], pair_other[good], keys[good]
        order = np.lexsort((pair_other, -keys, pair_doc))
        pair_doc, pair_other = pair_doc[order], pair_other[order]
        rank = np.arange(len(pair_doc)) - np.searchsorted(pair_doc, pair_doc, side="left")
        top = rank < self.p.k
        result[pair_doc[top], rank[top]] = pair_other[top]
        return result

    def _query(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(row in block, term, level) of each query term of the block's rows."""
        a, b = int(self.w.indptr[start]), int(self.w.indptr[stop])
        terms, values = self.w.indices[a:b], self.w.values[a:b]
        docs = np.repeat(np.arange(stop - start, dtype=np.int64), self.lengths[start:stop])
        keep = self.indexed[terms]
        terms, values, docs = terms[keep], values[keep], docs[keep]
        order = np.lexsort((terms, -values, docs))
        terms, values, docs = terms[order], values[order], docs[order]
        first = np.searchsorted(docs, docs, side="left")
        top = (np.arange(len(docs)) - first) < self.p.query_terms
        heaviest = values[first]
        levels = 1 + np.trunc(self.p.levels * values / heaviest - 1e-9).astype(np.int64)
        return docs[top], terms[top].astype(np.int64), levels[top]

    def _candidates(self, start: int, rows: int, q_doc: np.ndarray, q_term: np.ndarray,
                    q_level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row in block, other paper) of each candidate pair."""
        n = self.n
        acc = self._scratch()[0]
        text = q_term < self.first_label
        by_set = self._label_counts(rows, q_doc[~text], q_term[~text] - self.first_label, q_level[~text])
        # The text postings, scatter-added: an entry (row, other) per posting that holds the other.
        q_doc, q_term, q_level = q_doc[text], q_term[text], q_level[text]
        lengths = self.post_ptr[q_term + 1] - self.post_ptr[q_term]
        others = self.post_docs[_ranges(self.post_ptr[q_term], lengths)]
        cells = np.repeat((q_doc * n).astype(np.int32), lengths)
        cells += others
        levels = np.repeat(q_level.astype(acc.dtype), lengths)
        np.add.at(acc, cells, levels)
        words = acc[cells]  # the other's count from the text
        inner = np.arange(rows)
        own_words = acc[inner * n + start + inner].astype(np.int64)
        acc[:rows * n] = 0
        # Most rows are decided by the others that share a few postings: the text alone gives
        # a lower bound of the row's threshold, and no paper the text counts less than that
        # bound minus what the labels add at most can reach it (nor one the text never met).
        sure = np.flatnonzero(words >= FLOOR)
        sure_doc = cells[sure] // n
        easy, lower = self._text_bounds(rows, sure_doc, words[sure], levels[sure], own_words, by_set)
        keep = words[sure] >= lower[sure_doc]
        picked = [self._choose(start, rows, easy, by_set, sure_doc[keep], others[sure][keep], words[sure][keep],
                               levels[sure][keep], own_words, with_unreached=False)]
        if not easy.all():  # the rest: every other the text met, and those it did not by label set
            hard = np.flatnonzero(~easy[q_doc])
            entries = _ranges(np.cumsum(lengths)[hard] - lengths[hard], lengths[hard])
            picked.append(self._choose(start, rows, ~easy, by_set, np.repeat(q_doc[hard], lengths[hard]),
                                       others[entries], words[entries], levels[entries], own_words,
                                       with_unreached=True))
        return np.concatenate([d for d, _ in picked]), np.concatenate([o for _, o in picked])

    def _text_bounds(self, rows: int, doc: np.ndarray, words: np.ndarray, levels: np.ndarray,
                     own_words: np.ndarray, by_set: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which rows are decided by the others the text counts at least ``FLOOR`` (given
        here), and for those, the least text count a candidate can have."""
        width = int(max(words.max(initial=0), own_words.max(initial=0))) + 1
        histogram = _tally(doc * width + words, levels / words, rows * width).reshape(rows, width)
        own = np.flatnonzero(own_words >= FLOOR)
        histogram[own, own_words[own]] -= 1
        histogram[:, :FLOOR] = 0
        text_need = thresholds(histogram, self.p.rescore)  # a lower bound of the row's threshold...
        known = histogram.sum(axis=1) >= self.p.rescore  # ...when at least this many count FLOOR or more
        most = by_set.max(axis=1, initial=0)
        lower = text_need - most
        return known & (text_need > most) & (lower >= FLOOR), np.where(known, lower, FLOOR)

    def _choose(self, start: int, rows: int, chosen_rows: np.ndarray, by_set: np.ndarray, doc: np.ndarray,
                others: np.ndarray, words: np.ndarray, levels: np.ndarray, own_words: np.ndarray,
                with_unreached: bool) -> tuple[np.ndarray, np.ndarray]:
        """The candidates of the ``chosen_rows``, from entries (row, other, text count, level)
        that hold every other that can reach the row's threshold; ``with_unreached``: the
        entries are all the row's, and the others no entry holds count by label set."""
        sets, inner = self.labels, np.arange(rows)
        set_of = sets.of[others]
        counts = words + by_set.ravel()[doc * sets.count + set_of]
        own_set = sets.of[start + inner]
        own_count = own_words + by_set[inner, own_set]
        # Per (row, count) how many distinct others: an other's entries add up to exactly 1
        # (each adds its level over the other's text count).
        share = levels / words
        width = int(max(counts.max(initial=0), by_set.max(initial=0), own_count.max(initial=0))) + 1
        histogram = _tally(doc * width + counts, share, rows * width).reshape(rows, width)
        own = others == start + doc  # the row's own paper is no candidate of its own
        met = np.unique(doc[own])
        histogram[met, own_count[met]] -= 1
        if with_unreached:  # papers no text posting reached count what their label set adds
            reached = _tally(doc * sets.count + set_of, share, rows * sets.count).reshape(rows, -1)
            reached[met, own_set[met]] -= 1
            unreached = sets.sizes[None, :] - reached
            unreached[inner, own_set] -= 1
            histogram += _tally((inner[:, None] * width + by_set).ravel(), unreached.ravel(),
                                rows * width).reshape(rows, width)
        histogram[:, 0] = 0
        need = thresholds(histogram, self.p.rescore)
        take = (counts >= need[doc]) & chosen_rows[doc] & ~own
        pairs = np.unique(doc[take] * self.n + others[take])
        pair_doc, pair_other = [pairs // self.n], [pairs % self.n]
        if with_unreached:
            wanted = (by_set >= need[:, None]) & (unreached > 0) & chosen_rows[:, None]
            for row, set_id in zip(*np.nonzero(wanted)):
                members = sets.members[set_id]
                members = members[(members != start + row) & ~np.isin(members, others[doc == row])]
                pair_doc.append(np.full(len(members), row, dtype=np.int64))
                pair_other.append(members)
        return np.concatenate(pair_doc).astype(np.int64), np.concatenate(pair_other).astype(np.int64)

    def _label_counts(self, rows: int, docs: np.ndarray, labels: np.ndarray, levels: np.ndarray) -> np.ndarray:
        """What the query's labels add to a paper of each label set, per row: (rows x sets)."""
        by_set = np.zeros((rows, self.labels.count), dtype=np.int32)
        if len(docs):
            starts = np.flatnonzero(np.r_[True, docs[1:] != docs[:-1]])
            added = levels[:, None].astype(np.int32) * self.labels.by_label[labels]
            by_set[docs[starts]] = np.add.reduceat(added, starts, axis=0)
        return by_set

    def _scores(self, start: int, stop: int, pair_doc: np.ndarray, pair_other: np.ndarray) -> np.ndarray:
        """Each pair's score as an integer count of 1e-9 (``round(score, 9)`` orders as it does)."""
        w = self.w
        slot = self._scratch()[1]
        a, b = int(w.indptr[start]), int(w.indptr[stop])
        own_terms = w.indices[a:b]
        own_docs = np.repeat(np.arange(stop - start), self.lengths[start:stop])
        unique = np.unique(own_terms)
        slot[unique] = np.arange(len(unique), dtype=np.int32)
        # The block's rows as dense rows over their own terms, plus a last column of 0 where a
        # term of the other paper is not the row's (slot -1: the previous row's last column).
        width = len(unique) + 1
        dense = np.zeros((stop - start) * width)
        dense[own_docs * width + slot[own_terms]] = w.values[a:b]
        lengths = self.lengths[pair_other]  # >= 1: a candidate shares a term
        entries = _ranges(w.indptr[pair_other], lengths)
        cells = np.repeat(pair_doc * width, lengths)
        cells += slot[w.indices[entries]]
        sums = np.add.reduceat(dense[cells] * w.values[entries], np.cumsum(lengths) - lengths)
        slot[unique] = -1
        margin = (lengths + 1) * self.p.slack
        low, high = (sums - margin) * 1e9, (sums + margin) * 1e9
        keys = np.rint(low)
        decided = (keys == np.rint(high)) & (np.abs(np.abs(low - keys) - 0.5) > _SAFE) & \
            (np.abs(np.abs(high - np.rint(high)) - 0.5) > _SAFE)
        for i in np.nonzero(~decided)[0].tolist():
            keys[i] = self._exact(start + int(pair_doc[i]), int(pair_other[i]), float(sums[i]), float(margin[i]))
        return keys.astype(np.int64)

    def _exact(self, doc: int, other: int, approx: float, margin: float) -> float:
        """A pair's key decided as ``related`` defines it: ``round(sum, 9)``, or the exact sum."""
        score = round(approx - margin, 9)
        if score != round(approx + margin, 9):
            score = round(cosine(self.w.row(doc), self.w.row(other)), 9)
        return float(np.rint(score * 1e9))
