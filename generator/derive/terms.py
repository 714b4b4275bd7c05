"""The words and phrases of the papers' texts, as a sparse document-term matrix (numpy).

The one tokenizer of the papers' texts for whatever compares them (related papers; topics
may share it): ``count_terms`` reads (title, abstract) pairs, on every core for a large
catalog, into ``TermCounts``: a vocabulary and a ``Rows`` matrix (compressed sparse rows,
plain numpy arrays) of how often each paper says each term. What a term is:

* **Words**: in ASCII (``words.ascii_fold``: "Straße" is "strasse"), lower-cased, split on
  anything that is not a letter or a digit; English and academic-boilerplate stop words, pure
  numbers and one-letter words dropped; the rest reduced to their Porter stem (``words.stem``,
  search's), so "networks" and "network" are one term.
* **Phrases**: two terms that follow each other with no stop word, number or punctuation
  mark between them ("exposure bias", "diffusion models", "self-supervised": a hyphen joins
  as a space does), written "exposur bia", when the abstract says them twice or the title
  once (a pair of words met once is as often chance, "current inputs", as a term of art).
* **Counts**: a title term counts ``TITLE_WEIGHT`` times (titles are dense with topic words).

Term ids are given in order of first appearance (papers in order; in a paper: the
abstract's words, its phrases, then the title's new words and phrases), so the matrix is
the same whatever ``PYTHONHASHSEED`` is and however many processes read the texts.
``labels`` turns per-paper labels (tags) into a second matrix whose ids follow the texts'.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
from ..content.words import ascii_fold, stem
from ..parallel import default_jobs, parallel_map

TITLE_WEIGHT = 2  # a title term counts as this many abstract terms
PARALLEL_FROM = 2000  # papers from which the texts are read on every core (forking costs more below)
CHUNKS_PER_JOB = 4  # pieces of the catalog per worker, so that a slow one does not hold up the rest


def _separators() -> bytes:
    """A ``bytes.translate`` table for ASCII text: letters lower-cased, digits kept, white
    space and hyphens to a space (they join words in a phrase), every other mark to "|"."""
    table = bytearray(b"|" * 256)
    for byte in range(256):
        char = chr(byte)
        if "a" <= char <= "z" or "0" <= char <= "9":
            table[byte] = byte
        elif "A" <= char <= "Z":
            table[byte] = byte + 32
        elif char.isspace() or char == "-":
            table[byte] = 32
    return bytes(table)


_SEPARATORS = _separators()

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
        term = None if len(word) <= 1 or word in STOP_WORDS or word.isdigit() else stem(word)
        self[word] = term
        return term


_term_of = _TermOf()


def sequence(text: str) -> list[str | None]:
    """The text's words as index terms, in order, with None for a word that is no term and
    for each punctuation mark (a hyphen joins words as a space does): None ends a phrase."""
    folded = ascii_fold(text).encode("ascii")
    # The words (runs of letters and digits) and each other mark as "|" (a phrase ends there).
    tokens = folded.translate(_SEPARATORS).replace(b"|", b" | ").decode("ascii").split()
    return list(map(_term_of.__getitem__, tokens))


def stem_of(word: str) -> str | None:
    """A word's index term (a lower-case ASCII word: its Porter stem), or None if it is none."""
    return _term_of[word]


def terms(text: str) -> list[str]:
    """The word terms of a text, in order: stemmed; stop words, numbers and 1-letter words out."""
    return [t for t in sequence(text) if t is not None]


def phrases(text: str) -> list[str]:
    """The two-word terms of a text, in order ("exposur bia" for "exposure bias")."""
    seq = sequence(text)
    return [f"{a} {b}" for a, b in zip(seq, seq[1:]) if a and b]


def paper_terms(title: str, abstract: str) -> Counter[str]:
    """A paper's terms and their counts, in order of first appearance (see the module's docstring)."""
    seq = sequence(abstract)
    found = Counter(filter(None, seq))
    # A phrase the abstract uses once is no term (unless the title has it: added below).
    found.update({f"{a} {b}": c for (a, b), c in Counter(zip(seq, seq[1:])).items() if c > 1 and a and b})
    title_seq = sequence(title)
    for term in [t for t in title_seq if t] + [f"{a} {b}" for a, b in zip(title_seq, title_seq[1:]) if a and b]:
        found[term] += TITLE_WEIGHT
    return found


@dataclass(frozen=True, slots=True, eq=False)
class Rows:
    """A sparse matrix in compressed sparse rows: row ``i``'s entries are
    ``indices[indptr[i]:indptr[i + 1]]`` (column ids) and the same slice of ``values``."""

    indptr: np.ndarray  # int64, one more than the rows
    indices: np.ndarray  # int32 or int64 column ids
    values: np.ndarray

    @property
    def n_rows(self) -> int:
        return len(self.indptr) - 1

    def lengths(self) -> np.ndarray:
        return np.diff(self.indptr)

    def row_ids(self) -> np.ndarray:
        """The row of each entry (int32)."""
        return np.repeat(np.arange(self.n_rows, dtype=np.int32), self.lengths())

    def row(self, i: int) -> dict[int, float]:
        """Row ``i`` as ``{column: value}``."""
        a, b = self.indptr[i], self.indptr[i + 1]
        return dict(zip(self.indices[a:b].tolist(), self.values[a:b].tolist()))

    def select(self, keep: np.ndarray) -> "Rows":
        """The entries where ``keep`` (a mask over the entries) is true, rows as they were."""
        counts = np.bincount(self.row_ids()[keep], minlength=self.n_rows)
        return Rows(_pointers(counts), self.indices[keep], self.values[keep])

    def with_values(self, values: np.ndarray) -> "Rows":
        return Rows(self.indptr, self.indices, values)


def _pointers(lengths: np.ndarray) -> np.ndarray:
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    return indptr


def hstack(left: Rows, right: Rows) -> Rows:
    """Each row of ``left`` followed by the same row of ``right`` (their columns are distinct)."""
    lengths = left.lengths() + right.lengths()
    indptr = _pointers(lengths)
    to_right = np.repeat(indptr[:-1] + left.lengths(), right.lengths()) + \
        (np.arange(len(right.indices)) - np.repeat(right.indptr[:-1], right.lengths()))
    is_right = np.zeros(int(indptr[-1]), dtype=bool)
    is_right[to_right] = True
    indices = np.empty(int(indptr[-1]), dtype=np.result_type(left.indices, right.indices))
    values = np.empty(int(indptr[-1]), dtype=np.result_type(left.values, right.values))
    indices[to_right], values[to_right] = right.indices, right.values
    indices[~is_right], values[~is_right] = left.indices, left.values
    return Rows(indptr, indices, values)


def row_norms(rows: Rows, chunk: int = 8192) -> np.ndarray:
    """The Euclidean length of each row, from a correctly rounded sum of the squares
    (``math.fsum``: the same value in any order, so no BLAS or summation order decides it)."""
    squares = rows.values * rows.values
    norms = np.empty(rows.n_rows)
    indptr = rows.indptr
    fsum, sqrt = math.fsum, math.sqrt
    for start in range(0, rows.n_rows, chunk):
        stop = min(start + chunk, rows.n_rows)
        base = int(indptr[start])
        values = squares[base:int(indptr[stop])].tolist()
        bounds = (indptr[start:stop + 1] - base).tolist()
        norms[start:stop] = [sqrt(fsum(values[a:b])) for a, b in zip(bounds, bounds[1:])]
    return norms


@dataclass(frozen=True, slots=True, eq=False)
class TermCounts:
    """How often each paper says each term: ``counts`` has a row per paper (columns: term
    ids), ``vocabulary[id]`` is the term ("network", "diffus model")."""

    vocabulary: list[str]
    counts: Rows  # int32 counts (title terms counted TITLE_WEIGHT times)

    def document_frequencies(self) -> np.ndarray:
        """For each term, the number of papers that say it."""
        return np.bincount(self.counts.indices, minlength=len(self.vocabulary))

    def phrase_mask(self) -> np.ndarray:
        """True for the two-word terms."""
        return np.fromiter((" " in term for term in self.vocabulary), dtype=bool, count=len(self.vocabulary))


class _Ids(dict):
    """term -> its integer id, the next one on first sight (so: in order of first appearance)."""

    def __missing__(self, term: str) -> int:
        term_id = self[term] = len(self)
        return term_id


def count_terms(texts: Sequence[tuple[str, str]], jobs: int | None = None) -> TermCounts:
    """The terms of each (title, abstract) pair; read on every core for a large catalog
    (each piece with its own vocabulary, merged in order: the ids are the one-process ids)."""
    n = len(texts)
    jobs = default_jobs(n, PARALLEL_FROM) if jobs is None else jobs
    size = max(1, -(-n // (max(1, jobs) * CHUNKS_PER_JOB)))
    bounds = [(start, min(start + size, n)) for start in range(0, n, size)]
    reader = _ChunkReader(texts)
    pieces = parallel_map(reader.read, bounds, jobs=jobs if len(bounds) > 1 else 1)
    ids = _Ids()
    lengths, indices, counts = [], [], []
    for vocabulary, piece_lengths, local, piece_counts in pieces:
        to_global = np.fromiter(map(ids.__getitem__, vocabulary), dtype=np.int32, count=len(vocabulary))
        lengths.append(piece_lengths)
        indices.append(to_global[local])
        counts.append(piece_counts)
    rows = Rows(_pointers(np.concatenate(lengths) if lengths else np.zeros(0, np.int64)),
                np.concatenate(indices) if indices else np.zeros(0, np.int32),
                np.concatenate(counts) if counts else np.zeros(0, np.int32))
    return TermCounts(list(ids), rows)


class _ChunkReader:
    """Reads a slice of the texts: its own vocabulary (first appearance), then per paper the
    local ids and counts (numpy arrays: cheap to send back from a worker)."""

    def __init__(self, texts: Sequence[tuple[str, str]]):
        self.texts = texts

    def read(self, start_stop: tuple[int, int]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        local = _Ids()
        lengths, ids, counts = [], [], []
        for title, abstract in self.texts[start_stop[0]:start_stop[1]]:
            found = paper_terms(title, abstract)
            lengths.append(len(found))
            ids.extend(map(local.__getitem__, found))
            counts.extend(found.values())
        return (list(local), np.array(lengths, dtype=np.int64), np.array(ids, dtype=np.int32),
                np.array(counts, dtype=np.int32))


def labels(per_paper: Iterable[Iterable[str]], first_id: int) -> tuple[list[str], Rows]:
    """Labels (tags) as terms: their names in order of first appearance and a row per paper
    of ones (a label listed twice counts once), with ids from ``first_id`` on."""
    ids = _Ids()
    lengths, found = [], []
    for mine in per_paper:
        own = list(map(ids.__getitem__, dict.fromkeys(mine)))
        lengths.append(len(own))
        found.extend(own)
    indices = np.array(found, dtype=np.int32) + first_id
    return list(ids), Rows(_pointers(np.array(lengths, dtype=np.int64)), indices, np.ones(len(found), dtype=np.int32))
