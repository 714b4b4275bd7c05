"""The tag taxonomy (``content/tags.toml``) and phrase-based tag suggestions.

``tags.toml`` holds one top-level table per tag, in display order::

    [reinforcement-learning]
    name = "Reinforcement learning"
    description = "Agents that learn to act from reward."
    phrases = ["reinforcement learning", "policy gradient", "offline rl"]

    [machine-learning]
    name = "Other machine learning"
    description = "Papers that fit no other tag."
    phrases = []
    fallback = true

* The table name is the tag id and must be a slug (``graph-learning``).
* ``name`` (non-empty text), ``description`` (text) and ``phrases`` (a list of
  non-empty texts, may be empty) are required; ``fallback`` (true/false) is optional
  and exactly one tag must have ``fallback = true``: the catch-all tag that
  ``suggest_tags`` returns when no phrase of any other tag matches.

Phrase matching (``suggest_tags``)
----------------------------------
Title and abstract are normalised the same way as the phrases: LaTeX is dropped
(``$K$-means`` -> ``k-means``, ``\\emph{x}`` -> ``x``), Markdown links and URLs are
removed, accents are folded, text is lower-cased, a few British spellings are
Americanised (``optimisation`` -> ``optimization``) and every run of characters that is
not a letter or digit becomes one space. Matching is then on whole words only, so
``rl`` matches "offline RL" but not "world". A hyphen in a phrase also matches a space
or nothing (``self-supervised`` matches "self supervised" and "selfsupervised"), and the
last word of a phrase may carry a plural ``s``/``es`` (``y`` -> ``ies``) — so write
phrases in the singular.

When phrases overlap in a text, the longest match wins, across all tags: with
"reinforcement learning from human feedback" listed under one tag, the words
"reinforcement learning" inside it do not also count for the tag that lists only
"reinforcement learning". List a phrase under several tags to credit all of them.

Score of a tag = ``TITLE_WEIGHT`` per distinct phrase found in the title + for each
distinct phrase found in the abstract, its number of occurrences capped at
``ABSTRACT_CAP`` (only the first ``MAX_MATCH_CHARS`` characters of a title or abstract are
searched, which bounds the time a huge pasted text takes). A tag qualifies when one of its phrases is in the title (titles are
chosen words), or else when its score is at least ``MIN_ABSTRACT_SCORE`` (one passing
mention in an abstract is not enough) and at least ``RELATIVE_CUTOFF`` times the best
tag's score. The result is in **score order** (best first; ties in taxonomy order), at
most ``limit`` tags, and never empty: when nothing qualifies, the fallback tag alone
is returned.
"""

from __future__ import annotations

import bisect
import functools
import re
import stat
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..errors import Problems
from .frontmatter import type_name
from .model import Tag
from .schema import FORBIDDEN_IN_TEXT, describe_char
from .slugs import is_valid_slug

TITLE_WEIGHT = 3
ABSTRACT_CAP = 3
MAX_MATCH_CHARS = 20_000  # phrases are looked for in this much of a text (abstracts are ~2,000)
MIN_ABSTRACT_SCORE = 3
RELATIVE_CUTOFF = 0.3
DEFAULT_FALLBACK_ID = "machine-learning"

TAG_KEYS = ("name", "description", "phrases", "fallback")


class Taxonomy(dict):
    """``dict[str, Tag]`` in display order that also knows its fallback tag id."""

    fallback: str | None = None

    def __init__(self, tags: Iterable[tuple[str, Tag]] = (), fallback: str | None = None):
        super().__init__(tags)
        self.fallback = fallback


# --------------------------------------------------------------------------- reading


MAX_TAXONOMY_BYTES = 1_000_000


def read_taxonomy(path: Path, file_label: str = "tags.toml") -> Taxonomy:
    """Read and validate ``tags.toml``; raise ``ContentError`` listing every problem.

    Returns a ``Taxonomy`` (a ``dict[str, Tag]`` in file order with a ``fallback`` id).
    """
    problems = Problems()
    path = Path(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            problems.add(file_label, "is a folder, not a file")
        elif not stat.S_ISREG(info.st_mode):
            problems.add(file_label, "is not a regular file (a device, pipe or socket)")
        elif info.st_size > MAX_TAXONOMY_BYTES:
            problems.add(file_label, f"is too large ({info.st_size:,} bytes); the limit is {MAX_TAXONOMY_BYTES:,}")
        else:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_TAXONOMY_BYTES + 1)
    except FileNotFoundError:
        problems.add(file_label, "file not found")
    except OSError as exc:
        problems.add(file_label, f"cannot read the file: {exc.strerror or exc}")
    problems.raise_if_any()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.add(file_label, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8", line=line)
        problems.raise_if_any()
    return parse_taxonomy(text, file_label)


def parse_taxonomy(text: str, file_label: str = "tags.toml") -> Taxonomy:
    """Validate the text of ``tags.toml`` (see ``read_taxonomy``)."""
    problems = Problems()
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else None
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message).strip() or "invalid TOML"
        if match:
            reason += f" (column {match.group(2)})"
        problems.add(file_label, f"invalid TOML: {reason}", line=line)
        problems.raise_if_any()
    except RecursionError:
        problems.add(file_label, "invalid TOML: nested too deeply")
        problems.raise_if_any()

    lines = _SectionLines(text)
    tags: list[tuple[str, Tag]] = []
    fallbacks: list[str] = []
    for tag_id, value in data.items():
        header = lines.header(tag_id)
        field = f"tags.{tag_id}"
        if not isinstance(value, dict):
            problems.add(
                file_label,
                f"expected a table [{tag_id}] with name, description and phrases, found {type_name(value)}",
                line=lines.top_level_key(tag_id) or header,
                field=field,
            )
            continue
        ok = True
        if not is_valid_slug(tag_id):
            problems.add(
                file_label,
                "tag id must be lower-case letters, digits and single hyphens (at most 80 characters), "
                "e.g. [graph-learning]",
                line=header,
                field=field,
            )
            ok = False
        for key in value:
            if key not in TAG_KEYS:
                problems.add(
                    file_label,
                    f"unknown field; expected one of {', '.join(TAG_KEYS)}",
                    line=lines.key(tag_id, key) or header,
                    field=f"{field}.{key}",
                )
                ok = False

        def bad(key: str, message: str) -> None:
            problems.add(file_label, message, line=lines.key(tag_id, key) or header, field=f"{field}.{key}")

        name = value.get("name")
        if "name" not in value:
            bad("name", "required field is missing")
            ok = False
        elif not isinstance(name, str) or not name.strip():
            bad("name", f"expected non-empty text, found {_shown(name)}")
            ok = False
        elif FORBIDDEN_IN_TEXT.search(name):
            bad("name", f"text must not contain {describe_char(FORBIDDEN_IN_TEXT.search(name).group())}")
            ok = False

        description = value.get("description")
        if "description" not in value:
            bad("description", "required field is missing")
            ok = False
        elif not isinstance(description, str):
            bad("description", f"expected text, found {_shown(description)}")
            ok = False
        elif FORBIDDEN_IN_TEXT.search(description):
            bad("description",
                f"text must not contain {describe_char(FORBIDDEN_IN_TEXT.search(description).group())}")
            ok = False

        phrases: list[str] = []
        raw_phrases = value.get("phrases")
        if "phrases" not in value:
            bad("phrases", "required field is missing (use phrases = [] for a tag that is never suggested)")
            ok = False
        elif not isinstance(raw_phrases, list):
            bad("phrases", f"expected a list of phrases, found {type_name(raw_phrases)}")
            ok = False
        else:
            for i, phrase in enumerate(raw_phrases, 1):
                if not isinstance(phrase, str):
                    bad("phrases", f"item {i}: expected text, found {_shown(phrase)}")
                    ok = False
                elif not phrase.strip():
                    bad("phrases", f"item {i}: empty phrase")
                    ok = False
                elif not normalize_text(phrase):
                    bad("phrases", f"item {i}: phrase {phrase!r} has no letters or digits")
                    ok = False
                else:
                    cleaned = " ".join(phrase.lower().split())
                    if cleaned not in phrases:
                        phrases.append(cleaned)

        fallback = value.get("fallback", False)
        if not isinstance(fallback, bool):
            bad("fallback", f"expected true or false, found {_shown(fallback)}")
            ok = False
        elif fallback:
            fallbacks.append(tag_id)

        if ok:
            tags.append((tag_id, Tag(id=tag_id, name=name.strip(), description=description.strip(),
                                     phrases=tuple(phrases))))

    if not data:
        problems.add(file_label, "no tags defined; add at least one [tag-id] table", field="tags")
    elif not fallbacks:
        problems.add(
            file_label,
            "no fallback tag: mark exactly one tag (the catch-all, e.g. [machine-learning]) with fallback = true",
            field="tags",
        )
    elif len(fallbacks) > 1:
        problems.add(
            file_label,
            f"only one tag may have fallback = true, found {len(fallbacks)}: {', '.join(fallbacks)}",
            line=lines.key(fallbacks[1], "fallback"),
            field=f"tags.{fallbacks[1]}.fallback",
        )
    problems.raise_if_any()
    return Taxonomy(tags, fallback=fallbacks[0])


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return "an empty value" if not value.strip() else repr(value)
    return type_name(value)


class _SectionLines:
    """Find the line of a ``[table]`` header or of a key inside it by scanning the text."""

    _HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
    _KEY = re.compile(r"^\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)\s*=")

    def __init__(self, text: str):
        self.headers: dict[str, int] = {}
        self.keys: dict[tuple[str | None, str], int] = {}
        section: str | None = None
        for number, line in enumerate(text.split("\n"), 1):
            header = self._HEADER.match(line)
            if header and not line.lstrip().startswith("[["):
                section = _unquote(header.group(1))
                self.headers.setdefault(section, number)
                continue
            key = self._KEY.match(line)
            if key:
                self.keys.setdefault((section, _unquote(key.group(1))), number)

    def header(self, table: str) -> int | None:
        return self.headers.get(table)

    def key(self, table: str, key: str) -> int | None:
        return self.keys.get((table, key))

    def top_level_key(self, key: str) -> int | None:
        return self.keys.get((None, key))


def _unquote(name: str) -> str:
    name = name.strip()
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "\"'":
        return name[1:-1]
    return name


# --------------------------------------------------------------------------- matching

_BRITISH = re.compile(
    r"(optim|minim|maxim|regular|normal|general|parameter|character|visual|real|recogn|organ|summar|"
    r"categor|amort|standard|special|personal|initial|quant|central|local|synthes|emphas|util|random|"
    r"stabil|discret|vector|linear|factor|custom|memor|penal|modern|harmon|symmetr|token|binar|polar|"
    r"serial|neutral)is(e|es|ed|ing|er|ers|ation|ations)\b"
)
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?|\\.")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_URL = re.compile(r"(?:https?://|www\.)\S+")
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize_text(text: str) -> str:
    """Lower-case words separated by single spaces; LaTeX, links and punctuation dropped."""
    text = _MD_LINK.sub(r" \1 ", text)
    text = _URL.sub(" ", text)
    text = _LATEX_COMMAND.sub(" ", text)
    text = unicodedata.normalize("NFKD", text)
    text = text.encode("ascii", "ignore").decode("ascii").lower()
    text = text.replace("'", "")  # "Arrow's" -> "arrows", "let's" -> "lets"
    text = _BRITISH.sub(r"\1iz\2", text)  # optimise/optimisation -> optimize/optimization
    return _NON_WORD.sub(" ", text).strip()


def _phrase_variants(phrase: str) -> set[str]:
    """Normalised spellings of a phrase: each hyphen as a space or as nothing."""
    parts = re.split(r"(-)", phrase.lower())
    variants = {""}
    for part in parts:
        if part == "-":
            variants = {v + sep for v in variants for sep in (" ", "")}
        else:
            variants = {v + part for v in variants}
    return {normalize_text(v) for v in variants} - {""}


@dataclass(frozen=True)
class _Matcher:
    phrase: str
    pattern: re.Pattern[str]


@functools.lru_cache(maxsize=4096)
def _matcher(phrase: str) -> _Matcher:
    alternatives: set[str] = set()
    for variant in _phrase_variants(phrase):
        body = re.escape(variant)
        alternatives.add(body + r"(?:s|es)?")
        if re.search(r"[^aeiou]y$", variant):
            alternatives.add(re.escape(variant[:-1]) + "ies")
    ordered = sorted(alternatives, key=lambda a: (-len(a), a))
    pattern = re.compile(r"(?<![a-z0-9])(?:" + "|".join(ordered) + r")(?![a-z0-9])")
    return _Matcher(phrase, pattern)


def _phrase_hits(text: str, phrase_tags: Mapping[str, tuple[str, ...]]) -> dict[str, dict[str, int]]:
    """tag id -> {phrase: occurrences} in normalised ``text``; longest match wins on overlap."""
    found: list[tuple[int, int, str]] = []
    for phrase in phrase_tags:
        for match in _matcher(phrase).pattern.finditer(text):
            found.append((match.start(), match.end(), phrase))
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
            for tag_id in phrase_tags[phrase]:
                if tag_id in credited:
                    continue
                credited.add(tag_id)
                counts = hits.setdefault(tag_id, {})
                counts[phrase] = counts.get(phrase, 0) + 1
    return hits


def _phrase_index(tags: Mapping[str, Tag]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for tag_id, tag in tags.items():
        for phrase in tag.phrases:
            if normalize_text(phrase):
                owners = index.setdefault(phrase.lower(), [])
                if tag_id not in owners:
                    owners.append(tag_id)
    return {phrase: tuple(owners) for phrase, owners in index.items()}


@dataclass(frozen=True)
class TagScore:
    tag: str
    score: int
    in_title: bool


def score_tags(title: str, abstract: str, tags: Mapping[str, Tag]) -> dict[str, TagScore]:
    """Score of every tag with at least one phrase hit (see the module docstring)."""
    index = _phrase_index(tags)
    title_hits = _phrase_hits(normalize_text(title[:MAX_MATCH_CHARS])[:MAX_MATCH_CHARS], index)
    abstract_hits = _phrase_hits(normalize_text(abstract[:MAX_MATCH_CHARS])[:MAX_MATCH_CHARS], index)
    scores: dict[str, TagScore] = {}
    for tag_id in tags:
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


def suggest_tags(title: str, abstract: str, tags: Mapping[str, Tag], *, limit: int = 4) -> tuple[str, ...]:
    """Best-matching tag ids for a paper, best first; never empty (see the module docstring)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    fallback = fallback_tag(tags)
    scores = score_tags(title, abstract, tags)
    order = {tag_id: i for i, tag_id in enumerate(tags)}
    ranked = sorted(scores.values(), key=lambda s: (-s.score, order[s.tag]))
    if not ranked:
        return (fallback,)
    best = ranked[0].score
    chosen = [
        s.tag
        for s in ranked
        if s.in_title or (s.score >= MIN_ABSTRACT_SCORE and s.score >= RELATIVE_CUTOFF * best)
    ]
    return tuple(chosen[:limit]) or (fallback,)
