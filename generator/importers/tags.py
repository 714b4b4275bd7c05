"""Tag suggestions for imported papers: which tags of ``tags.toml`` a title and abstract
are about, by phrase matching (``suggest_tags``).

Title and abstract are normalised (``normalize_text``): LaTeX commands and control symbols
are dropped, formulas included, as read by the one LaTeX tokenizer
(``generator.text.tokens``; ``$K$-means`` -> ``k means``, ``\\emph{x}`` -> ``x``), Markdown
links become their text and URLs are removed; then, as for the phrases (``fold_words``),
accents are folded, text is lower-cased, a few British spellings are Americanised
(``optimisation`` -> ``optimization``) and every run of characters that is not a letter or
digit becomes one space. Phrases are plain words: they are folded, not read as LaTeX.
Matching is then on whole words only, so ``rl`` matches "offline RL" but not "world". A
hyphen in a phrase also matches a space or nothing (``self-supervised`` matches "self
supervised" and "selfsupervised"), and the last word of a phrase may carry a plural
``s``/``es`` (``y`` -> ``ies``) — so write phrases in the singular.

When phrases overlap in a text, the longest match wins, across all tags: with
"reinforcement learning from human feedback" listed under one tag, the words
"reinforcement learning" inside it do not also count for the tag that lists only
"reinforcement learning". List a phrase under several tags to credit all of them.

Score of a tag = ``TITLE_WEIGHT`` per distinct phrase found in the title + for each
distinct phrase found in the abstract, its number of occurrences capped at
``ABSTRACT_CAP`` (only the first ``MAX_MATCH_CHARS`` characters of a title or abstract are
searched, which bounds the time a huge pasted text takes). A tag qualifies when one of its
phrases is in the title (titles are chosen words), or else when its score is at least
``MIN_ABSTRACT_SCORE`` (one passing mention in an abstract is not enough) and at least
``RELATIVE_CUTOFF`` times the best tag's score. The result is in **score order** (best
first; ties in taxonomy order), at most ``limit`` tags, and never empty: when nothing
qualifies, the fallback tag alone is returned (``fallback_tag``).
"""

from __future__ import annotations

import bisect
import functools
import re
import string
from dataclasses import dataclass
from itertools import accumulate, compress
from typing import Mapping, NamedTuple

from ..content.model import Tag
from ..content.series import series_of
from ..content.words import ascii_lower
from ..text.tokens import CMD, MATH, SYM, tokenize

TITLE_WEIGHT = 3
ABSTRACT_CAP = 3
MAX_MATCH_CHARS = 20_000  # phrases are looked for in this much of a text (abstracts are ~2,000)
MIN_ABSTRACT_SCORE = 3
RELATIVE_CUTOFF = 0.3
DEFAULT_FALLBACK_ID = "machine-learning"

# British "-ise" spellings: one of these stems, "is", one of the endings, the end of a word.
_BRITISH_STEMS = tuple(
    "optim minim maxim regular normal general parameter character visual real recogn organ summar categor "
    "amort standard special personal initial quant central local synthes emphas util random stabil discret "
    "vector linear factor custom memor penal modern harmon symmetr token binar polar serial neutral".split()
)
# Where "is" + an ending ends a word; a stem must end there too (``_americanize``).
_BRITISH_IS = re.compile(r"is(?=(?:e|es|ed|ing|er|ers|ation|ations)\b)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_URL = re.compile(r"(?:https?://|www\.)\S+")
# Every ASCII character that is not a letter or digit -> a space (``fold_words``).
_ASCII_WORDS = str.maketrans({chr(i): chr(i) if chr(i) in string.ascii_lowercase + string.digits else " "
                               for i in range(128)})


def normalize_text(text: str) -> str:
    """Lower-case words separated by single spaces; LaTeX, links and punctuation dropped."""
    text = _MD_LINK.sub(r" \1 ", text)
    text = _URL.sub(" ", text)
    return fold_words(_without_latex(text))


def fold_words(text: str) -> str:
    """Lower-case ASCII words separated by single spaces: accents folded, apostrophes
    dropped, British spellings Americanised, every other character a separator."""
    text = ascii_lower(text)
    text = text.replace("'", "")  # "Arrow's" -> "arrows", "let's" -> "lets"
    text = _americanize(text)  # optimise/optimisation -> optimize/optimization
    return " ".join(text.translate(_ASCII_WORDS).split())


def _americanize(text: str) -> str:
    """``text`` with the "is" of each British "-ise" word (``_BRITISH_STEMS``) as "iz".

    The same as one regex of all stems (``(optim|...)is(e|es|...)\\b`` -> ``\\1iz\\2``),
    faster: it finds "is" + an ending (a literal start the regex engine jumps to) and then
    looks for a stem before it, where a regex starting with 44 alternatives is tried at
    nearly every character of a text (it was most of the time of ``fold_words``)."""
    parts: list[str] = []
    last = 0
    for match in _BRITISH_IS.finditer(text):
        if text.endswith(_BRITISH_STEMS, 0, match.start()):
            parts.append(text[last:match.start()])
            parts.append("iz")
            last = match.end()
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


def _without_latex(text: str) -> str:
    """``text`` with each LaTeX command and control symbol (``\\emph``, ``\\%``) a space,
    inside formulas too; the words of their arguments and of formulas stay."""
    if "\\" not in text:
        return text
    parts = []
    for tok in tokenize(text, spaces=False):
        if tok.kind == MATH:
            body = tok.text[2:-2] if tok.text.startswith(("$$", "\\(", "\\[")) else tok.text[1:-1]
            parts.append(f" {_without_latex(body)} ")
        elif tok.kind in (CMD, SYM):
            parts.append(" ")
        else:
            parts.append(tok.text)
    return "".join(parts)


def _phrase_variants(phrase: str) -> set[str]:
    """Normalised spellings of a phrase: each hyphen as a space or as nothing."""
    parts = re.split(r"(-)", phrase.lower())
    variants = {""}
    for part in parts:
        if part == "-":
            variants = {v + sep for v in variants for sep in (" ", "")}
        else:
            variants = {v + part for v in variants}
    return {fold_words(v) for v in variants} - {""}


@dataclass(frozen=True)
class _Matcher:
    phrase: str
    pattern: re.Pattern[str]
    # What a match's first word (a one-word spelling: the whole match) or first two words
    # can be in a normalised text: a text's words are looked up among these, which is far
    # cheaper than running hundreds of phrase regexes over it.
    words: frozenset[str]  # one-word spellings, plural endings included
    pairs: frozenset[str]  # "first second" words of the longer spellings, plural endings included


@functools.lru_cache(maxsize=4096)
def _matcher(phrase: str) -> _Matcher:
    alternatives: set[str] = set()
    spellings: set[str] = set()
    for variant in _phrase_variants(phrase):
        body = re.escape(variant)
        alternatives.add(body + r"(?:s|es)?")
        spellings.update((variant, variant + "s", variant + "es"))
        if re.search(r"[^aeiou]y$", variant):
            alternatives.add(re.escape(variant[:-1]) + "ies")
            spellings.add(variant[:-1] + "ies")
    ordered = sorted(alternatives, key=lambda a: (-len(a), a))
    pattern = re.compile(r"(?<![a-z0-9])(?:" + "|".join(ordered) + r")(?![a-z0-9])")
    words = frozenset(s for s in spellings if " " not in s)
    pairs = frozenset(" ".join(s.split(" ")[:2]) for s in spellings if " " in s)
    return _Matcher(phrase, pattern, words, pairs)


@dataclass(frozen=True)
class _PhraseIndex:
    """A taxonomy's phrases ready for matching (built once per taxonomy, ``_index``)."""

    owners: dict[str, tuple[str, ...]]  # phrase -> ids of the tags listing it, taxonomy order
    matchers: dict[str, _Matcher]  # phrase -> its matcher
    by_word: dict[str, tuple[str, ...]]  # word -> phrases with a one-word spelling that is this word
    by_pair: dict[str, tuple[str, ...]]  # "first second" -> phrases a longer spelling starts so
    pair_starts: frozenset[str]  # the first words of by_pair's keys
    start_words: frozenset[str]  # by_word's keys and pair_starts
    order: dict[str, int]  # tag id -> position in the taxonomy


_last_index: tuple[tuple, _PhraseIndex | None] = ((), None)  # (tags' items, index) of the last taxonomy


def _index(tags: Mapping[str, Tag]) -> _PhraseIndex:
    """The phrase index of ``tags``, cached by the tags' ids and phrases."""
    global _last_index
    items = tuple(tags.items())
    last_items, last = _last_index
    if last is not None and items == last_items:  # the same Tag objects: compared by identity, fast
        return last
    index = _index_of(tuple((tag_id, tuple(tag.phrases)) for tag_id, tag in items))
    _last_index = (items, index)
    return index


@functools.lru_cache(maxsize=16)
def _index_of(key: tuple[tuple[str, tuple[str, ...]], ...]) -> _PhraseIndex:
    owners: dict[str, list[str]] = {}
    for tag_id, phrases in key:
        for phrase in phrases:
            if fold_words(phrase):
                tag_ids = owners.setdefault(phrase.lower(), [])
                if tag_id not in tag_ids:
                    tag_ids.append(tag_id)
    matchers = {phrase: _matcher(phrase) for phrase in owners}
    by_word: dict[str, list[str]] = {}
    by_pair: dict[str, list[str]] = {}
    for phrase, matcher in matchers.items():
        for word in sorted(matcher.words):
            by_word.setdefault(word, []).append(phrase)
        for pair in sorted(matcher.pairs):
            by_pair.setdefault(pair, []).append(phrase)
    return _PhraseIndex(
        owners={phrase: tuple(tag_ids) for phrase, tag_ids in owners.items()},
        matchers=matchers,
        by_word={word: tuple(phrases) for word, phrases in by_word.items()},
        by_pair={pair: tuple(phrases) for pair, phrases in by_pair.items()},
        pair_starts=frozenset(pair.split(" ")[0] for pair in by_pair),
        start_words=frozenset(by_word) | frozenset(pair.split(" ")[0] for pair in by_pair),
        order={tag_id: i for i, (tag_id, _) in enumerate(key)},
    )


def _phrase_index(tags: Mapping[str, Tag]) -> dict[str, tuple[str, ...]]:
    """Phrase -> ids of the tags listing it."""
    return _index(tags).owners


def _matches(text: str, index: _PhraseIndex) -> list[tuple[int, int, str]]:
    """(start, end, phrase) of every match of every phrase in normalised ``text`` (words of
    ``[a-z0-9]`` separated by single spaces, as ``normalize_text`` writes it): exactly what
    each phrase's ``pattern.finditer(text)`` finds, but a phrase's regex is only tried where
    the text's word, or its two words, are what a match of that phrase starts with."""
    starts: dict[str, list[int]] = {}  # phrase -> where a match may start, ascending
    words = text.split(" ")
    # The few words that may start a match, found without a Python step per word.
    candidates = list(compress(range(len(words)), map(index.start_words.__contains__, words)))
    if not candidates:
        return []
    before = list(accumulate(map(len, words), initial=0))  # letters before each word
    for i in candidates:
        word, position = words[i], before[i] + i
        for phrase in index.by_word.get(word, ()):
            starts.setdefault(phrase, []).append(position)
        if word in index.pair_starts and i + 1 < len(words):
            for phrase in index.by_pair.get(f"{word} {words[i + 1]}", ()):
                starts.setdefault(phrase, []).append(position)
    found: list[tuple[int, int, str]] = []
    for phrase, positions in starts.items():
        pattern = index.matchers[phrase].pattern
        end = 0  # like finditer: the next match starts after the previous one
        for start in positions:
            if start < end:
                continue
            match = pattern.match(text, start)
            if match:
                end = match.end()
                found.append((start, end, phrase))
    return found


def _phrase_hits(text: str, index: _PhraseIndex) -> dict[str, dict[str, int]]:
    """tag id -> {phrase: occurrences} in normalised ``text``; longest match wins on overlap."""
    found = _matches(text, index)
    # Longest spans first; a span is dropped when it overlaps a kept (longer or, at equal
    # length, earlier) span. Phrases matching exactly the same span are all kept.
    found.sort(key=lambda f: (-(f[1] - f[0]), f[0], f[2]))
    # The kept spans never overlap, so sorted by start only the neighbours of a new span
    # can overlap it: O(n log n) instead of comparing with every kept span.
    kept: dict[tuple[int, int], list[str]] = {}
    starts: list[int] = []
    ends: list[int] = []
    for start, end, phrase in found:
        if (start, end) in kept:
            kept[(start, end)].append(phrase)
            continue
        i = bisect.bisect_left(starts, start)
        if (i > 0 and ends[i - 1] > start) or (i < len(starts) and starts[i] < end):
            continue
        starts.insert(i, start)
        ends.insert(i, end)
        kept[(start, end)] = [phrase]
    hits: dict[str, dict[str, int]] = {}
    for phrases in kept.values():
        credited: set[str] = set()
        for phrase in phrases:
            for tag_id in index.owners[phrase]:
                if tag_id in credited:
                    continue
                credited.add(tag_id)
                counts = hits.setdefault(tag_id, {})
                counts[phrase] = counts.get(phrase, 0) + 1
    return hits


@dataclass(frozen=True)
class TagScore:
    tag: str
    score: int
    in_title: bool


def score_tags(title: str, abstract: str, tags: Mapping[str, Tag]) -> dict[str, TagScore]:
    """Score of every tag with at least one phrase hit (see the module docstring)."""
    index = _index(tags)
    title_hits = _phrase_hits(normalize_text(title[:MAX_MATCH_CHARS])[:MAX_MATCH_CHARS], index)
    abstract_hits = _phrase_hits(normalize_text(abstract[:MAX_MATCH_CHARS])[:MAX_MATCH_CHARS], index)
    scores: dict[str, TagScore] = {}
    for tag_id in sorted(title_hits.keys() | abstract_hits.keys(), key=index.order.__getitem__):  # taxonomy order
        in_title = len(title_hits.get(tag_id, {}))
        score = TITLE_WEIGHT * in_title
        score += sum(min(count, ABSTRACT_CAP) for count in abstract_hits.get(tag_id, {}).values())
        if score:
            scores[tag_id] = TagScore(tag_id, score, in_title > 0)
    return scores


def fallback_tag(tags: Mapping[str, Tag]) -> str:
    """The catch-all tag: ``tags.fallback`` for a ``Taxonomy``, else ``machine-learning``
    when present, else the last tag."""
    if not tags:
        raise ValueError("the taxonomy has no tags")
    fallback = getattr(tags, "fallback", None)
    if fallback in tags:
        return fallback
    if DEFAULT_FALLBACK_ID in tags:
        return DEFAULT_FALLBACK_ID
    return list(tags)[-1]


def series_tag(venue: str | None, tags: Mapping[str, Tag]) -> str | None:
    """The first tag whose ``series`` holds the conference series of ``venue`` (an id such as
    ``acl-2019`` or ``findings-emnlp-2020``), if any."""
    found = series_of(venue) if venue else None
    if found is None:
        return None
    return next((tag_id for tag_id, tag in tags.items() if found.series.id in tag.series), None)


# How a paper's tags were placed (``Placement.by``).
BY_PHRASE, BY_SERIES, BY_PHRASE_AND_SERIES, BY_FALLBACK = "phrase", "series", "phrase and series", "catch-all"
BY_KEYWORDS = "keywords"  # the record's keywords named tags (``records.tags_from_keywords``)


class Placement(NamedTuple):
    """A paper's suggested tags (best first, never empty) and how they were found: by its
    phrases, by its venue's series (``field_hint``), both, or the catch-all alone."""

    tags: tuple[str, ...]
    by: str


def field_hint(venue: str | None, tags: Mapping[str, Tag], chosen: tuple[str, ...]) -> str | None:
    """The tag to add to ``chosen`` (a paper's phrase tags) for its venue's series: the tag
    that lists the series (``Tag.series``), when none of ``chosen`` is of the series' field
    (``series.toml`` ``field``; ``Tag.fields``). A series without a field hints only a paper
    with no tag at all; a taxonomy with no tag for the series gives no hint."""
    hint = series_tag(venue, tags)
    if hint is None or hint in chosen:
        return None
    found = series_of(venue)
    field = found.series.field if found is not None else None
    if not chosen:
        return hint
    if field is None or any(field in tags[tag_id].fields for tag_id in chosen if tag_id in tags):
        return None
    return hint


def place_tags(title: str, abstract: str, tags: Mapping[str, Tag], *, limit: int = 4,
               venue: str | None = None) -> Placement:
    """``suggest_tags``, and how the tags were found (``Placement``)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    fallback = fallback_tag(tags)
    scores = score_tags(title, abstract, tags)
    order = _index(tags).order
    ranked = sorted(scores.values(), key=lambda s: (-s.score, order[s.tag]))
    best = ranked[0].score if ranked else 0
    chosen = tuple([
        s.tag
        for s in ranked
        if s.in_title or (s.score >= MIN_ABSTRACT_SCORE and s.score >= RELATIVE_CUTOFF * best)
    ][:limit])
    hint = field_hint(venue, tags, chosen)
    if hint is not None:
        by = BY_PHRASE_AND_SERIES if chosen else BY_SERIES
        return Placement((*chosen[:limit - 1], hint), by)
    return Placement(chosen, BY_PHRASE) if chosen else Placement((fallback,), BY_FALLBACK)


def suggest_tags(title: str, abstract: str, tags: Mapping[str, Tag], *, limit: int = 4,
                 venue: str | None = None) -> tuple[str, ...]:
    """Best-matching tag ids for a paper, best first; never empty (see the module docstring).
    ``venue``: the paper's venue id; when its phrases give the paper no tag of the field of
    the venue's conference series (``series.toml`` ``field``), the tag that names the series
    (``Tag.series``) is added: a CVPR paper about generative models is a vision paper too,
    and one that matches no phrase gets that tag rather than the catch-all."""
    return place_tags(title, abstract, tags, limit=limit, venue=venue).tags


def placement_lines(placed: Mapping[str, int]) -> list[str]:
    """The summary line of how the imported papers' tags were placed."""
    if not placed:
        return []
    series = placed[BY_SERIES] + placed[BY_PHRASE_AND_SERIES]
    parts = [f"by phrase {placed[BY_PHRASE] + placed[BY_PHRASE_AND_SERIES]:,}",
             f"by their venue's series {series:,}"
             + (f" ({placed[BY_PHRASE_AND_SERIES]:,} of them besides phrase tags of another field)"
                if placed[BY_PHRASE_AND_SERIES] else ""),
             f"in the catch-all alone {placed[BY_FALLBACK]:,}"]
    if placed[BY_KEYWORDS]:
        parts.insert(0, f"by their keywords {placed[BY_KEYWORDS]:,}")
    return [f"Tags placed: {', '.join(parts)}."]
