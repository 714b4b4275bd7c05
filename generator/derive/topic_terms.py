"""The terms of the topic model: each paper's words and two-word phrases as a TF-IDF matrix.

The words are those of related papers (``related.terms``: accents folded, lower case,
English and academic stop words, numbers and one-letter words out), each reduced to its
singular (``singular``: "networks" and "network" are one word) but not to its Porter stem,
which makes one word of "general", "generation", "generative" and "generalization", or of
"community" and "communication": topics need those apart. A token is looked up once in a
memo and becomes a word id, or -1 for a word that is no term, as is every punctuation mark
(a hyphen joins words as a space does). Phrases are two word ids side by side with nothing
between them, as in ``related.phrases``.

The whole catalog is then counted at once with numpy: every paper's title (twice: title
words say most about a paper) and abstract become one array of word ids with -1 between
papers, so that words, phrases and their counts per paper come out of a few vectorised
``np.unique`` calls instead of a Python loop per token. Terms in fewer than ``min_df``
papers (a misprint, a pair met by chance) or in more than ``MAX_DF_SHARE`` of them
("learn", "model") are left out. Weights: ``(1 + log tf) * log((N + 1) / df)``, each
paper's row scaled to length 1.

For naming the topics, each term keeps the form readers know: the spelling its stem is
most often written in ("networks" for ``network``, "LLMs" for ``llm``: capitals when the
catalog writes the word so), and a phrase its two words, hyphenated where the catalog
mostly hyphenates them ("self-supervised"). ``tokens`` (the word ids, paper after paper)
lets the namer look at what comes before and after a phrase.

Deterministic: ids are given in order of first appearance, every sort is total.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..content.words import ascii_fold
from .numeric import np

from .related import terms

MAX_DF_SHARE = 0.5  # a term in more than this share of the papers says nothing about a topic
MIN_DF_SHARE = 0.0002  # ...and one in fewer than this share (and at least 2 papers) little
TITLE_REPEAT = 2  # a title's words count this many times
HYPHEN_SHARE = 0.3  # a phrase hyphenated at least this often (titles count twice) is shown so

CHUNK = 2000  # papers tokenised at once (one string of their texts)
KEY_CHUNK = 10_000  # papers whose (paper, term) pairs are counted at once

# Tokens as ``related`` finds them, by translating and splitting (much faster than a regex
# over 100,000 abstracts): letters and digits make words (keeping their capitals, for the
# names), any other mark is a token of its own that ends a phrase (BREAK), a hyphen is
# HYPHEN (left out after counting the words it joins), a mark that ends a sentence or a
# clause (". ? ! :") is END. PAPER ends a paper, TITLE each copy of its title.
BREAK, PAPER, HYPHEN, TITLE, END = b"\x00", b"\x01", b"\x02", b"\x03", b"\x04"
_MARKS = {BREAK: -1, PAPER: -1, HYPHEN: -2, TITLE: -1, END: -1}
_MARKED = bytes(c if chr(c).isalnum() or chr(c).isspace() or c < 5 else 2 if chr(c) == "-" else 4 if chr(c) in ".?!:"
                else 0 for c in range(256))


def _split(text: str) -> list[bytes]:
    """The tokens of an ASCII text (``words.ascii_fold``): words, and the marks."""
    marked = text.encode("ascii").translate(_MARKED)
    for mark in (BREAK, HYPHEN, TITLE, END):
        marked = marked.replace(mark, b" " + mark + b" ")
    return marked.split()


class _Tokens(dict):
    """token (as written) -> its index, the next one on first sight."""

    def __missing__(self, token: bytes) -> int:
        index = self[token] = len(self)
        return index


# Words in -s that are no plurals (and "-ies" words that are no plurals of "-y").
SINGULAR_S = frozenset("""
series species news physics mathematics economics linguistics statistics ethics politics robotics genetics
dynamics kinetics acoustics optics semantics pragmatics phonetics mechanics diabetes analysis basis axis
""".split())


def singular(word: str) -> str:
    """A lower-case word's singular, by its ending alone (an "S stemmer"): "networks" →
    "network", "classes" → "class", "approaches" → "approach", "studies" → "study"; words in
    -ss, -us, -is, -ias and those of ``SINGULAR_S`` as they are."""
    if len(word) <= 3 or word in SINGULAR_S or word.endswith(("ss", "us", "is", "ias")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(("ss", "x", "z", "ch", "sh", "ias")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("'s", "ys'")):
        return word[:-1]
    return word


def _word_ids(tokens: _Tokens) -> tuple[np.ndarray, dict[str, int]]:
    """The word id of each token (by index): its singular's, in order of first appearance,
    -1 for a token that is no term and a mark, -2 for a hyphen; and the words' ids."""
    stems: dict[str, int] = {}
    ids = np.empty(len(tokens), dtype=np.int32)
    for token, index in tokens.items():
        if token in _MARKS:
            ids[index] = _MARKS[token]
            continue
        word = token.decode("ascii").lower()
        ids[index] = stems.setdefault(singular(word), len(stems)) if terms(word) else -1
    return ids, stems


@dataclass(frozen=True)
class Corpus:
    """The catalog's TF-IDF matrix (CSR: ``indptr``, ``indices``, ``data``) and its terms."""

    indptr: np.ndarray  # int64, papers + 1
    indices: np.ndarray  # int32: term ids, ascending within a paper
    data: np.ndarray  # float32: weights, each paper's row of length 1 (or empty)
    df: np.ndarray  # int64: papers that hold each term
    stems: tuple[str, ...]  # each word id's stem
    spellings: "Spellings"  # each word and term as readers write it (``spell``, ``label``)
    words: np.ndarray  # int32: each term's word ids (two for a phrase, the second -1 for a word)
    tokens: np.ndarray  # int32: word ids of every paper's texts, -1 between words that are no phrase
    token_paper: np.ndarray  # int32: the paper of each token
    surface: np.ndarray  # int32: each token as written (an index of ``written``)
    written: tuple[str, ...]  # the tokens as written (the indices of ``surface``)
    hyphen_before: np.ndarray  # bool: each token is joined to the one before by a hyphen
    titled: np.ndarray  # bool, by nonzero (as ``indices``): the paper's title holds the term

    @property
    def papers(self) -> int:
        return len(self.indptr) - 1

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        return self.indices[self.indptr[i]:self.indptr[i + 1]], self.data[self.indptr[i]:self.indptr[i + 1]]

    def spell(self, word: int) -> str:
        return self.spellings.spell(word)

    def label(self, term: int) -> str:
        a, b = (int(w) for w in self.words[term])
        return self.spellings.label(a, b)


def corpus(texts: Sequence[tuple[str, str]]) -> Corpus:
    """The ``Corpus`` of (title, abstract) pairs (plain text)."""
    n = len(texts)
    index = _Tokens()
    for mark in _MARKS:
        index[mark]  # noqa: B018 - the marks get the first indices
    get = index.__getitem__
    chunks = []
    for start in range(0, n, CHUNK):
        text = "".join(f"{t}\x03" * TITLE_REPEAT + f"{ascii_fold(a)} \x01 "
                       for t, a in ((ascii_fold(t), a) for t, a in texts[start:start + CHUNK]))
        split = _split(text)
        chunks.append(np.fromiter(map(get, split), dtype=np.int32, count=len(split)))
    found = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)
    word_of, stem_ids = _word_ids(index)
    stems = list(stem_ids)
    words = len(stems)
    written = np.bincount(found, minlength=len(index))
    tokens = word_of[found]
    is_end = found == index[PAPER]
    token_paper = (np.cumsum(is_end) - is_end).astype(np.int32)
    titles = found == index[TITLE]
    in_title = np.cumsum(titles) - titles - TITLE_REPEAT * token_paper < TITLE_REPEAT
    telling = np.bincount(found[~_case_unknown(found, index, word_of, token_paper, in_title, n)],
                          minlength=len(index))
    hyphens = np.nonzero(tokens[1:-1] == -2)[0] + 1
    joined = _hyphenated(tokens[hyphens - 1], tokens[hyphens + 1], words)
    hyphen_before = np.zeros(len(tokens), dtype=bool)
    hyphen_before[hyphens + 1] = True
    kept = tokens != -2
    tokens, token_paper, found = tokens[kept], token_paper[kept], found[kept]
    in_title, hyphen_before = in_title[kept], hyphen_before[kept]
    space = words + words * words
    keys, tf, title_keys = _counted(tokens, token_paper, in_title, words, n)
    key_paper, key_term = keys // space, keys % space
    found_terms, df = np.unique(key_term, return_counts=True)
    min_df = max(2, math.ceil(MIN_DF_SHARE * n))
    keep = (df >= min_df) & (df <= max(min_df, MAX_DF_SHARE * n))
    kept_terms, kept_df = found_terms[keep], df[keep]
    # Final ids: the kept terms in order of their codes (words first, by first appearance).
    position = np.searchsorted(kept_terms, key_term)
    position[position == len(kept_terms)] = 0
    in_vocab = kept_terms[position] == key_term if len(kept_terms) else np.zeros(len(key_term), bool)
    key_paper, new_term, tf = key_paper[in_vocab], position[in_vocab].astype(np.int32), tf[in_vocab]
    kept_keys = keys[in_vocab]
    at = np.minimum(np.searchsorted(title_keys, kept_keys), max(len(title_keys) - 1, 0))
    in_title_term = title_keys[at] == kept_keys if len(title_keys) else np.zeros(len(kept_keys), bool)
    idf = np.log((n + 1) / kept_df)
    weight = (1.0 + np.log(tf)) * idf[new_term]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(key_paper, minlength=n), out=indptr[1:])
    norms = np.sqrt(np.bincount(key_paper, weights=weight * weight, minlength=n))
    norms[norms == 0] = 1.0
    data = (weight / np.repeat(norms, np.diff(indptr))).astype(np.float32)
    term_words = np.full((len(kept_terms), 2), -1, dtype=np.int32)
    is_word = kept_terms < words
    term_words[is_word, 0] = kept_terms[is_word]
    codes = kept_terms[~is_word] - words
    term_words[~is_word, 0], term_words[~is_word, 1] = codes // words, codes % words
    occurrences = np.bincount(new_term, weights=tf, minlength=len(kept_terms))
    hyphened = {(int(a), int(b)) for (a, b), count in zip(term_words.tolist(), occurrences.tolist())
                if b >= 0 and joined.get((a, b), 0) >= HYPHEN_SHARE * count}
    spellings = Spellings(tuple(t.decode("ascii") for t in index), word_of, written, telling, hyphened)
    return Corpus(indptr, new_term, data, kept_df.astype(np.int64), tuple(stems), spellings, term_words, tokens,
                  token_paper, found, spellings.written, hyphen_before, in_title_term)


def _counted(tokens: np.ndarray, token_paper: np.ndarray, in_title: np.ndarray, words: int,
             n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each (paper, term) pair as one key ``paper * space + term``, sorted, with its count,
    and the keys of the pairs found in titles. Terms: a word id ``w`` is term ``w``, the
    phrase (a, b) term ``words + a * words + b``. Counted ``KEY_CHUNK`` papers at a time
    (every paper ends with a mark, so no phrase spans two chunks), which keeps the sorts'
    memory small at 100,000 papers; the chunks' keys come out in order."""
    space = words + words * words
    bounds = np.searchsorted(token_paper, np.arange(0, n + KEY_CHUNK, KEY_CHUNK))
    keys, counts, titles = [], [], []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if lo == hi:
            continue
        mine, papers, titled = tokens[lo:hi], token_paper[lo:hi], in_title[lo:hi]
        valid = mine >= 0
        pair = valid[:-1] & valid[1:]
        left, right = mine[:-1][pair].astype(np.int64), mine[1:][pair].astype(np.int64)
        found = np.concatenate([papers[valid].astype(np.int64) * space + mine[valid],
                                papers[:-1][pair].astype(np.int64) * space + words + left * words + right])
        in_titles = np.concatenate([titled[valid], titled[:-1][pair]])
        unique, count = np.unique(found, return_counts=True)
        keys.append(unique)
        counts.append(count)
        titles.append(np.unique(found[in_titles]))
    if not keys:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return np.concatenate(keys), np.concatenate(counts), np.concatenate(titles)


def _case_unknown(found: np.ndarray, index: _Tokens, word_of: np.ndarray, token_paper: np.ndarray,
                  in_title: np.ndarray, n: int) -> np.ndarray:
    """Which tokens' capitals say nothing of how the word is written: a Capitalised word
    that starts a title, a sentence or a clause; every Capitalised word of a title in Title
    Case (more of its words Capitalised than lower-case: "Neural Machine Translation for
    ..."); every ALL-CAPS word of a title mostly in capitals. Acronyms and words with inner
    capitals ("BERT", "LLMs", "SemEval") in other titles, and any word inside a sentence,
    still tell."""
    shapes = np.zeros(len(index), dtype=np.int8)  # 1 lower, 2 Capitalised, 3 ALL CAPS
    for token, i in index.items():
        if token.islower():
            shapes[i] = 1
        elif token[:1].isupper() and (len(token) == 1 or token[1:].islower()):
            shapes[i] = 2
        elif token.isupper() and len(token) > 1:
            shapes[i] = 3
    shape = shapes[found]
    starts = np.ones(len(found), dtype=bool)
    starts[1:] = np.isin(found[:-1], [index[PAPER], index[TITLE], index[END]])
    counted = in_title & ~starts & (word_of[found] >= 0)

    def per_title(kind: int) -> np.ndarray:
        return np.bincount(token_paper[counted & (shape == kind)], minlength=n)

    lower, capitalised, capitals = per_title(1), per_title(2), per_title(3)
    title_case = (capitalised > lower)[token_paper]
    shouted = (capitals > lower + capitalised)[token_paper]
    return ((shape == 2) & (starts | (in_title & title_case))) | ((shape == 3) & in_title & shouted)


class Spellings:
    """Words and terms as readers write them, worked out when asked (only the names need
    them): a word id's most written form, lower-cased unless the catalog mostly capitalises
    it ("LLMs", "Bayesian") where its capitals tell (``telling``: not at the start of a
    sentence, not in a title in Title Case: a catalog of titles alone in Title Case writes
    "neural machine translation"); a phrase's two words, hyphenated where the catalog mostly
    hyphenates them."""

    def __init__(self, written: tuple[str, ...], word_of: np.ndarray, counts: np.ndarray, telling: np.ndarray,
                 hyphened: set[tuple[int, int]]):
        self.written, self.counts, self.telling, self.hyphened = written, counts, telling, hyphened
        self.word_of = word_of
        order = np.argsort(word_of, kind="stable")
        self.order = order
        self.bounds = np.searchsorted(word_of[order], np.arange(int(word_of.max(initial=-1)) + 2))
        self.known: dict[int, str] = {}

    def spell(self, word: int) -> str:
        if word not in self.known:
            tokens = self.order[self.bounds[word]:self.bounds[word + 1]].tolist()
            lower: Counter[str] = Counter()
            for t in tokens:
                lower[self.written[t].lower()] += int(self.counts[t])
            best = max(lower.items(), key=lambda kv: (kv[1], kv[0]))[0]
            telling = {self.written[t]: int(self.telling[t]) for t in tokens}
            count, top = max((count, token) for token, count in telling.items() if token.lower() == best)
            self.known[word] = top if top != best and count > 2 * telling.get(best, 0) else best
        return self.known[word]

    def share(self, flags: np.ndarray) -> np.ndarray:
        """For each word id, the share of its uses written as a token with ``flags`` (by
        token index) set."""
        words = int(self.word_of.max(initial=-1)) + 1
        known = self.word_of >= 0
        uses = np.bincount(self.word_of[known], weights=self.counts[known], minlength=words)
        flagged = np.bincount(self.word_of[known], weights=self.counts[known] * flags[known], minlength=words)
        return flagged / np.maximum(uses, 1)

    def label(self, a: int, b: int) -> str:
        if b < 0:
            return self.spell(a)
        return f"{self.spell(a)}{'-' if (a, b) in self.hyphened else ' '}{self.spell(b)}"


def _hyphenated(before: np.ndarray, after: np.ndarray, words: int) -> dict[tuple[int, int], int]:
    """How often each pair of word ids is written hyphenated ("self-supervised")."""
    both = (before >= 0) & (after >= 0)
    codes, counts = np.unique(before[both].astype(np.int64) * words + after[both], return_counts=True)
    return {(int(c // words), int(c % words)): int(k) for c, k in zip(codes, counts)}
