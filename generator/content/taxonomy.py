"""The tag taxonomy: ``content/tags.toml`` read and validated into a ``Taxonomy``.

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
  and exactly one tag must have ``fallback = true``: the catch-all tag that ``suggest_tags``
  (the importers' tag suggestions, ``generator.importers.tags``) returns when no phrase
  of any other tag matches.
* A phrase is plain words (no LaTeX) with at least one letter or digit; phrases are
  lower-cased and listed once.
"""

from __future__ import annotations

import re
import stat
import tomllib
import unicodedata
from pathlib import Path
from typing import Any, Iterable

from ..errors import ContentError, Problems
from .frontmatter import type_name
from .model import Tag
from .characters import FORBIDDEN_IN_TEXT, describe_char
from .slugs import is_valid_slug

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
    data = load_toml(text, file_label)
    lines = SectionLines(text)
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
                elif not _has_words(phrase):
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


def load_toml(text: str, file_label: str) -> dict[str, Any]:
    """The TOML document ``text``, or a ``ContentError`` naming the line and column it breaks at."""
    problems = Problems()
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else None
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message).strip() or "invalid TOML"
        if match:
            reason += f" (column {match.group(2)})"
        problems.add(file_label, f"invalid TOML: {reason}", line=line)
    except RecursionError:
        problems.add(file_label, "invalid TOML: nested too deeply")
    raise ContentError(problems.items)


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return "an empty value" if not value.strip() else repr(value)
    return type_name(value)


class SectionLines:
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


_WORD_CHAR = re.compile(r"[a-z0-9]")


def _has_words(phrase: str) -> bool:
    """Whether a phrase has a letter or digit to match (accents folded, as the matching does)."""
    folded = unicodedata.normalize("NFKD", phrase).encode("ascii", "ignore").decode("ascii").lower()
    return _WORD_CHAR.search(folded) is not None
