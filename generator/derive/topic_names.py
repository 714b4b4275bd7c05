"""Names for the topics: their most distinctive words and phrases, as readers write them.

A term names a topic when many of the topic's papers use it and few others do. For topic
``c`` and term ``t``, with ``p_in`` the share of the topic's papers that hold the term and
``p_out`` the share of the other papers (a paper whose title holds the term counts
``1 + TITLE_BONUS`` times: titles use the field's own words), the score is
``p_in * log(p_in / p_out)`` (shares smoothed by one paper in the whole catalog): the
term's part in how the topic's words differ from the rest's (a Kullback-Leibler term).
"Model" is in every topic and names none; "graph neural" is in most papers of one topic
and few others. A phrase's score is multiplied by ``PHRASE_BONUS`` ("graph neural networks"
says more than "graph"). A term must be in ``MIN_SHARE`` of the topic's papers (and two of
them), and not made only of the words every field uses (``GENERIC``: "main findings"); a
single word is not an adverb or participle ("completely", "specified": ``WEAK_ENDINGS``).

A name is the ``NAME_TERMS`` best terms that share no word with a better one ("graph
neural networks", then not "neural networks" nor "graph"); the topic page lists up to
``KEYWORDS``. A two-word phrase is lengthened while one word follows (or precedes) it in
``EXTEND_SHARE`` of its uses within the topic ("graph neural" becomes "graph neural
networks"), and is written as the topic's papers most often write it ("verifiable
watermarks", not the stems' "verify watermark"; hyphens and capitals as written).

Deterministic: sorts are stable with the term id as the last key.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from .numeric import np
from .related import terms
from .topic_terms import Corpus

PHRASE_BONUS = 1.5
TITLE_BONUS = 1.0
MIN_SHARE = 0.08
NAME_TERMS = 2
KEYWORDS = 8
CANDIDATES = 40  # best-scored terms of a topic looked at
EXTEND_SHARE = 0.6
MAX_WORDS = 3
# Words of every field: a name made only of these says nothing ("main findings", "et al").
GENERIC = frozenset(t for w in """
able address aim al algorithm allow analysis available aware benchmark certain code com consider current data
dataset empirical empirically enable ensure et existing finding framework fundamental general github high html
http https io large leading learning low main making method methodology model navigate need network obtain
org original outperform particular perform potential potentially present previous prior proof prove provide
publicly question recent remain require reveal say science setting simple small specific standard still
suggest take theoretical theory training try typical www
""".split() for t in terms(w))
# Endings of words that never name a topic on their own (adverbs, "completely"; participles,
# "specified": "supervised" names nothing, "weakly supervised learning" does).
WEAK_ENDINGS = ("ly", "ed")


# Words that are never part of a name: citations and addresses ("Bai et al", "github com").
NEVER = frozenset(t for w in "al et fig figure github http https www com org html io eq table appendix".split()
                  for t in terms(w))


@dataclass(frozen=True)
class Naming:
    """Each topic's keywords (best first: the name is the first ``NAME_TERMS``)."""

    keywords: tuple[tuple[str, ...], ...]

    def name(self, topic: int) -> str:
        words = self.keywords[topic][:NAME_TERMS]
        text = ", ".join(words) if words else "Other papers"
        return text[0].upper() + text[1:] if text[:1].islower() else text


def name_topics(corpus: Corpus, labels: np.ndarray, k: int) -> Naming:
    """The keywords of each of the ``k`` topics of ``labels`` (a topic per paper)."""
    n = corpus.papers
    count = len(corpus.df)
    row = np.repeat(np.arange(n), np.diff(corpus.indptr))
    presence = 1.0 + TITLE_BONUS * corpus.titled
    # Scores of the (topic, term) pairs that occur (a topic x term table would take
    # gigabytes at 100,000 papers and be almost all zeros), sorted by topic then term.
    pairs, inverse = np.unique(labels[row].astype(np.int64) * count + corpus.indices, return_inverse=True)
    inside = np.bincount(inverse, weights=presence)
    held = np.bincount(inverse)
    topic, term = pairs // count, pairs % count
    total = np.bincount(corpus.indices, weights=presence, minlength=count)
    sizes = np.bincount(labels, minlength=k).astype(np.float64)
    smooth = 1.0 / max(n, 1)
    p_in = inside / np.maximum(sizes, 1.0)[topic]
    p_out = (total[term] - inside) / np.maximum(n - sizes, 1.0)[topic]
    score = p_in * np.log((p_in + smooth) / (p_out + smooth))
    score = np.where(corpus.words[term, 1] >= 0, score * PHRASE_BONUS, score)
    stems = corpus.stems
    generic = np.array([all(stems[w] in GENERIC for w in pair if w >= 0)
                        or any(stems[w] in NEVER for w in pair if w >= 0) for pair in corpus.words.tolist()], bool)
    allowed = (held >= 2) & (held >= MIN_SHARE * sizes[topic]) & ~generic[term] & (score > 0)
    topic, term, score = topic[allowed], term[allowed], score[allowed]
    order = np.lexsort((term, -score, topic))  # by topic, best first, ties by term id
    bounds = np.searchsorted(topic[order], np.arange(k + 1))
    candidates = [[int(t) for t in term[order[bounds[c]:bounds[c + 1]]][:CANDIDATES]] for c in range(k)]
    phrases = _Phrases(corpus, labels, k, candidates, stems)
    keywords = []
    for c in range(k):
        chosen: list[str] = []
        used: set[int] = set()
        for t in candidates[c]:
            words, text = phrases.of(c, t)
            if used & set(words) or (len(words) == 1 and text.lower().endswith(WEAK_ENDINGS)):
                continue
            used |= set(words)
            chosen.append(text)
            if len(chosen) == KEYWORDS:
                break
        keywords.append(tuple(chosen))
    return Naming(tuple(keywords))


class _Phrases:
    """The phrases among the topics' candidates: grown and written as the topic's papers
    write them (``of``). Their uses are found once for all topics: the positions of every
    candidate pair in the token array, grouped by (pair, topic)."""

    def __init__(self, corpus: Corpus, labels: np.ndarray, k: int, candidates: list[list[int]],
                 stems: tuple[str, ...]):
        self.corpus = corpus
        self.stems = stems
        tokens = self.tokens = corpus.tokens
        words = self.words = max(len(corpus.stems), 1)
        self.k = k
        wanted = {int(corpus.words[t, 0]) * words + int(corpus.words[t, 1])
                  for found in candidates for t in found if corpus.words[t, 1] >= 0}
        if len(tokens) < 2 or not wanted:
            self.keys = self.at = np.zeros(0, dtype=np.int64)
            return
        # Only where a wanted phrase's first word is (no pair code for every token: at
        # 100,000 papers that would be gigabytes).
        firsts = np.array(sorted({code // words for code in wanted}), dtype=tokens.dtype)
        at = np.nonzero(np.isin(tokens[:-1], firsts))[0]
        code = tokens[at].astype(np.int64) * words + tokens[at + 1]
        keep = (tokens[at + 1] >= 0) & np.isin(code, np.array(sorted(wanted), dtype=np.int64))
        at, code = at[keep], code[keep]
        keys = code * k + labels[corpus.token_paper[at]]
        order = np.argsort(keys, kind="stable")
        self.keys, self.at = keys[order], at[order]

    def of(self, topic: int, term: int) -> tuple[tuple[int, ...], str]:
        """A candidate's words (grown, for a phrase) and its text."""
        corpus = self.corpus
        a, b = (int(w) for w in corpus.words[term])
        if b < 0:
            return (a,), corpus.spell(a)
        key = (a * self.words + b) * self.k + topic
        lo, hi = np.searchsorted(self.keys, [key, key + 1])
        starts = self.at[lo:hi]
        if not len(starts):
            return (a, b), corpus.label(term)
        phrase, starts = _grown(self.tokens, starts, [a, b])
        if not len(starts) or any(self.stems[w] in NEVER for w in phrase):
            return (a, b), corpus.label(term)
        return phrase, self._written(phrase, starts)

    def _written(self, phrase: tuple[int, ...], starts: np.ndarray) -> str:
        """The phrase as most of its uses write it (each word's capitals as ``spelled``)."""
        corpus = self.corpus
        offsets = np.arange(len(phrase))
        surface = corpus.surface[starts[:, None] + offsets[None, :]]
        hyphens = corpus.hyphen_before[starts[:, None] + offsets[None, 1:]]
        forms = Counter(zip(map(tuple, surface.tolist()), map(tuple, hyphens.tolist())))
        (tokens, joins), _ = max(forms.items(), key=lambda kv: (kv[1], kv[0]))
        text = ""
        for i, (word, token) in enumerate(zip(phrase, tokens)):
            written = corpus.written[token]
            spelled = corpus.spell(word)
            shown = written if written.isupper() and len(written) > 1 else \
                spelled if spelled != spelled.lower() and spelled.lower() == written.lower() else written.lower()
            text += ("-" if joins[i - 1] else " ") + shown if i else shown
        return text


def _grown(tokens: np.ndarray, starts: np.ndarray, phrase: list[int]) -> tuple[tuple[int, ...], np.ndarray]:
    """``phrase`` (word ids), found at ``starts`` in ``tokens``, with the words that follow
    (then precede) it in at least ``EXTEND_SHARE`` of its uses added, up to ``MAX_WORDS``;
    and where the grown phrase starts."""
    for forward in (True, False):
        while len(phrase) < MAX_WORDS and len(starts):
            at = starts + len(phrase) if forward else starts - 1
            inside = (at >= 0) & (at < len(tokens))
            starts, at = starts[inside], at[inside]
            neighbours = tokens[at]
            known = neighbours[neighbours >= 0]
            if not len(known):
                break
            values, counts = np.unique(known, return_counts=True)
            top = int(np.argmax(counts))
            word = int(values[top])
            if counts[top] < EXTEND_SHARE * len(starts) or word in phrase:
                break
            keep = neighbours == word
            starts = starts[keep] if forward else starts[keep] - 1
            phrase = phrase + [word] if forward else [word] + phrase
    return tuple(phrase), starts


def slug(text: str) -> str:
    """A URL segment of a name: ASCII letters and digits, single hyphens."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-") or "topic"
