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
from collections import Counter
from dataclasses import dataclass

from ..content.words import ascii_lower
from .numeric import np
from .topic_terms import Corpus

PHRASE_BONUS = 1.5
TITLE_BONUS = 1.0
MIN_SHARE = 0.08
NAME_TERMS = 2
KEYWORDS = 8
CANDIDATES = 40  # best-scored terms of a topic looked at
EXTEND_SHARE = 0.6
MAX_WORDS = 3
COMPOUND_WORDS = 5  # ...and with words joined by hyphens


def _forms(words: str) -> frozenset[str]:
    """The words and their regular inflections ("model": "models", "modeled", "modeling"...).
    Words are matched as written, not by stem: the stem of "general" is also that of
    "generation" and "generative", which name topics."""
    found = set()
    for w in words.split():
        found |= {w, w + "s", w + "es", w + "d", w + "ed", w + "ing", w + "ly"}
        if w.endswith("y"):
            found |= {w[:-1] + "ies", w[:-1] + "ied"}
    return frozenset(found)


# Words of every field: a name made only of these says nothing ("main findings", "et al").
GENERIC = _forms("""
able address aim al algorithm allow analysis analyses available aware benchmark certain code com consider current
data dataset empirical empirically enable ensure et existing finding framework fundamental general github high html
http https io large leading learning low main making method methodology model navigate need network obtain
org original outperform particular perform performance potential potentially present previous prior proof prove
provide publicly question recent remain require reveal say science setting simple small specific standard still
suggest take theoretical theory training try typical www
found research case level improve improving
""")
# Endings of words that never name a topic on their own (adverbs, "completely"; participles,
# "specified": "supervised" names nothing, "weakly supervised learning" does).
WEAK_ENDINGS = ("ly", "ed")


# Words that are never part of a name: citations and addresses ("Bai et al", "github com").
# And the function words of the other languages catalogs hold papers in (French, Spanish,
# Portuguese, Italian, German): they group such papers, and name nothing ("De, la").
NEVER = _forms("al et fig figure github http https www com org html io eq table appendix") | frozenset("""
de la le les des du un une en au aux pour par sur dans avec est que qui ne pas ses leur
del los las el con para por una como entre sobre dos das uma com ao
di della delle dei il gli che nel nella
der das und mit von zu dem ein eine einer ist auf bei zur zum
""".split())
UNCOVERED_SHARE = 1 / 3  # the first keyword leaves out this share of a topic: the second names those papers
SECOND_SCORE_SHARE = 0.5  # ...when it scores (in the whole topic) at least this share of the second keyword
SUPERSET_SHARE = 0.5  # a phrase holding a better keyword's words replaces it when it scores this share of it
FRAGMENT_SHARE = 0.5  # a term joined by a hyphen to a word outside it this often is part of a compound


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
    generic_word, never_word = (_mostly_written(corpus, forms) for forms in (GENERIC, NEVER))
    first, second = corpus.words[:, 0], corpus.words[:, 1]
    pair, other = second >= 0, np.maximum(second, 0)
    never = never_word[first] | (pair & never_word[other])
    generic = (generic_word[first] & (~pair | generic_word[other])) | never
    allowed = (held >= 2) & (held >= MIN_SHARE * sizes[topic]) & (score > 0)
    best = _best(topic, term, score, allowed & ~generic[term], k)
    # A topic that no word of its own names is named by words of every field ("datasets")
    # rather than "Other papers".
    fallback = _best(topic, term, score, allowed & generic[term] & ~never[term], k)
    phrases = _Phrases(corpus, labels, k, [[t for t, _ in found] for found in best + fallback], never_word)
    keywords = []
    p_out_of = dict(zip((pairs).tolist(), p_out.tolist()))
    for c in range(k):
        chosen = _chosen(phrases, c, best[c])
        if chosen:
            chosen = _covering(corpus, phrases, c, np.nonzero(labels == c)[0], best[c], chosen,
                               lambda t, c=c: p_out_of[c * count + t])
        keywords.append(chosen or _chosen(phrases, c, fallback[c]))
    return Naming(tuple(keywords))


def _covering(corpus: Corpus, phrases: "_Phrases", topic: int, members: np.ndarray,
              candidates: list[tuple[int, float]], chosen: tuple[str, ...], p_out) -> tuple[str, ...]:
    """The keywords with the second one (the end of the name) chosen among the papers the
    first leaves out, when it leaves out ``UNCOVERED_SHARE`` of the topic: a name says what
    the topic's papers share, not what a part of them says twice ("Gaussian processes,
    Bayesian" for a topic whose other papers are on Gaussian splatting: "Gaussian processes,
    Gaussian splatting"). The candidates that score at least ``SECOND_SCORE_SHARE`` of the
    second keyword in the whole topic are scored as in ``name_topics`` on those papers."""
    if len(members) < 4:
        return chosen
    looked = ((t, phrases.of(topic, t)) for t, _ in candidates)
    first = next(((t, f) for t, f in looked if f is not None and f[1] == chosen[0]), None)
    if first is None:
        return chosen
    owner, indices = _members_terms(corpus, members)
    left = ~_holding(owner, indices, len(members), first[0])
    if left.sum() < UNCOVERED_SHARE * len(members):
        return chosen
    found = [(t, phrases.of(topic, t)) for t, _ in candidates]
    wanted = np.isin(indices, np.array([t for t, f in found if f is not None], dtype=indices.dtype))
    owner, indices = owner[wanted], indices[wanted]
    first_words = set(first[1][0])
    scores = {f[1]: score for (t, score), (_, f) in zip(candidates, found) if f is not None}
    floor = SECOND_SCORE_SHARE * scores.get(chosen[1], 0.0) if len(chosen) > 1 else 0.0
    smooth = 1.0 / max(corpus.papers, 1)
    best, best_score = None, 0.0
    for t, f in found:
        if f is None or t == first[0] or f[1] in chosen[:1]:
            continue
        words = set(f[0])
        if words <= first_words or first_words <= words or (len(words) == 1 and f[1].lower().endswith(WEAK_ENDINGS)):
            continue
        if scores.get(f[1], 0.0) < floor:
            continue  # much less telling of the topic than the keyword it would replace
        inside = int((_holding(owner, indices, len(members), t) & left).sum())
        if inside < 2 or inside < MIN_SHARE * left.sum():
            continue
        share = inside / left.sum()
        score = share * np.log((share + smooth) / (p_out(t) + smooth)) * (PHRASE_BONUS if len(words) > 1 else 1.0)
        if score > best_score + 1e-12:
            best, best_score = f[1], score
    if best is None:
        return chosen
    return (chosen[0], best) + tuple(w for w in chosen[1:] if w != best)[:KEYWORDS - 2]


def _members_terms(corpus: Corpus, members: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nonzeros of ``members``' rows: each one's member (0..len-1) and term."""
    lo, hi = corpus.indptr[members], corpus.indptr[members + 1]
    counts = hi - lo
    at = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts) + np.arange(counts.sum())
    return np.repeat(np.arange(len(members)), counts), corpus.indices[at]


def _holding(owner: np.ndarray, indices: np.ndarray, members: int, term: int) -> np.ndarray:
    """Which members hold ``term``."""
    mask = np.zeros(members, dtype=bool)
    mask[owner[indices == term]] = True
    return mask


def _best(topic: np.ndarray, term: np.ndarray, score: np.ndarray, allowed: np.ndarray,
          k: int) -> list[list[tuple[int, float]]]:
    """Each topic's ``CANDIDATES`` best-scored ``allowed`` terms and their scores (ties: the
    lower term id)."""
    topic, term, score = topic[allowed], term[allowed], score[allowed]
    order = np.lexsort((term, -score, topic))  # by topic, best first, ties by term id
    bounds = np.searchsorted(topic[order], np.arange(k + 1))
    return [list(zip(term[order[bounds[c]:bounds[c + 1]]][:CANDIDATES].tolist(),
                     score[order[bounds[c]:bounds[c + 1]]][:CANDIDATES].tolist())) for c in range(k)]


def _chosen(phrases: "_Phrases", topic: int, candidates: list[tuple[int, float]]) -> tuple[str, ...]:
    """The keywords among a topic's candidates: each shares no word with a better one, but a
    phrase that holds all the words of one better keyword and scores at least
    ``SUPERSET_SHARE`` of it takes its place ("word sense disambiguation" for "word")."""
    chosen: list[tuple[set[int], str, float]] = []
    for t, score in candidates:
        found = phrases.of(topic, t)
        if found is None:
            continue
        words, text = set(found[0]), found[1]
        if len(words) == 1 and text.lower().endswith(WEAK_ENDINGS):
            continue
        sharing = [i for i, (used, _, _) in enumerate(chosen) if used & words]
        if not sharing:
            if len(chosen) < KEYWORDS:
                chosen.append((words, text, score))
            continue
        if len(sharing) == 1:
            used, _, better = chosen[sharing[0]]
            if used < words and score >= SUPERSET_SHARE * better:
                chosen[sharing[0]] = (words, text, better)
    return tuple(text for _, text, _ in chosen)


def _mostly_written(corpus: Corpus, forms: frozenset[str]) -> np.ndarray:
    """For each word id: is it written as one of ``forms`` (lower case) in most of its uses?"""
    spellings = corpus.spellings
    flags = np.array([w.lower() in forms for w in spellings.written], dtype=bool)
    shares = spellings.share(flags)
    words = max(len(corpus.stems), 1)
    return np.concatenate([shares, np.zeros(max(0, words - len(shares)))])[:words] >= 0.5


class _Phrases:
    """The candidates of the topics as their papers write them (``of``): a phrase grown
    ("graph neural" → "graph neural networks"), a word completed to the compound it is
    mostly part of ("shot" → "zero-shot"), and neither when it is still a piece of a
    hyphenated compound ("multi", "based", "end" of "end-to-end"). Their uses are found
    once for all topics: the positions of every candidate pair (and word) in the token
    array, grouped by (pair or word, topic)."""

    def __init__(self, corpus: Corpus, labels: np.ndarray, k: int, candidates: list[list[int]],
                 never: np.ndarray):
        self.corpus = corpus
        self.never = never
        tokens = self.tokens = corpus.tokens
        words = self.words = max(len(corpus.stems), 1)
        self.k = k
        singles = sorted({int(corpus.words[t, 0]) for found in candidates for t in found if corpus.words[t, 1] < 0})
        at = np.nonzero(np.isin(tokens, np.array(singles, dtype=tokens.dtype)))[0]
        keys = tokens[at].astype(np.int64) * k + labels[corpus.token_paper[at]]
        order = np.argsort(keys, kind="stable")
        self.single_keys, self.single_at = keys[order], at[order]
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

    def of(self, topic: int, term: int) -> tuple[tuple[int, ...], str] | None:
        """A candidate's words (grown) and its text; None for a piece of a compound."""
        corpus = self.corpus
        a, b = (int(w) for w in corpus.words[term])
        if b < 0:
            lo, hi = np.searchsorted(self.single_keys, [a * self.k + topic, a * self.k + topic + 1])
            starts, phrase = self.single_at[lo:hi], [a]
        else:
            key = (a * self.words + b) * self.k + topic
            lo, hi = np.searchsorted(self.keys, [key, key + 1])
            starts, phrase = self.at[lo:hi], [a, b]
        if not len(starts):
            return tuple(phrase), corpus.label(term)
        grown, at = _grown(self.tokens, corpus.hyphen_before, starts, phrase, hyphens_only=b < 0)
        if not len(at) or any(self.never[w] for w in grown):
            grown, at = tuple(phrase), starts
        if self._piece(len(grown), at):
            return None
        return grown, self._written(grown, at)

    def _piece(self, length: int, starts: np.ndarray) -> bool:
        """Are the words at ``starts`` joined by a hyphen to a word before or after them in
        at least ``FRAGMENT_SHARE`` of their uses ("end" of "end-to-end")?"""
        joined = self.corpus.hyphen_before
        after = starts + length
        inside = after < len(joined)
        pieces = joined[starts].copy()
        pieces[inside] |= joined[after[inside]]
        return bool(pieces.sum() >= FRAGMENT_SHARE * len(starts))

    def _written(self, phrase: tuple[int, ...], starts: np.ndarray) -> str:
        """The words as most of their uses in the topic write them ("models" or "model"; each
        word's capitals as ``spelled``)."""
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


def _grown(tokens: np.ndarray, hyphen_before: np.ndarray, starts: np.ndarray, phrase: list[int],
           hyphens_only: bool = False) -> tuple[tuple[int, ...], np.ndarray]:
    """``phrase`` (word ids), found at ``starts`` in ``tokens``, with the words that follow
    (then precede) it in at least ``EXTEND_SHARE`` of its uses added, up to ``MAX_WORDS``
    (``COMPOUND_WORDS`` for a word joined by a hyphen: "zero-shot cross-lingual transfer");
    and where the grown phrase starts. ``hyphens_only``: only words joined by a hyphen."""
    for forward in (True, False):
        while len(starts):
            at = starts + len(phrase) if forward else starts - 1
            inside = (at >= 0) & (at < len(tokens))
            starts, at = starts[inside], at[inside]
            neighbours = tokens[at]
            joined = hyphen_before[at] if forward else hyphen_before[starts]
            usable = (neighbours >= 0) & joined if hyphens_only else neighbours >= 0
            if not usable.any():
                break
            values, counts = np.unique(neighbours[usable], return_counts=True)
            top = int(np.argmax(counts))
            word = int(values[top])
            keep = usable & (neighbours == word)
            limit = COMPOUND_WORDS if (keep & joined).sum() >= EXTEND_SHARE * len(starts) else MAX_WORDS
            if counts[top] < EXTEND_SHARE * len(starts) or word in phrase or len(phrase) >= limit:
                break
            starts = starts[keep] if forward else starts[keep] - 1
            phrase = phrase + [word] if forward else [word] + phrase
    return tuple(phrase), starts


def slug(text: str) -> str:
    """A URL segment of a name: ASCII letters and digits, single hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", ascii_lower(text)).strip("-") or "topic"
