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
* ``series`` (optional) lists conference series by their id in ``series.toml`` (``acl``,
  ``cvpr``): a paper of such a series that matches no phrase gets this tag rather than the
  catch-all (a paper at ACL is about language unless its words say more).
* ``field`` (optional): the research field(s) the tag belongs to, a name or a list of names
  (``"vision"``, ``["language", "retrieval"]``), as ``series.toml`` names its series' fields.
  A tag is also of the fields of the series it lists. An imported paper of a series whose
  phrases give it no tag of the series' field gets the tag that lists the series too.
"""

from __future__ import annotations

import re
import stat
import tomllib
from pathlib import Path
from typing import Any, Iterable

from ..errors import ContentError, Problems
from .frontmatter import type_name
from .model import Tag
from . import characters, schema
from .series import table as series_table
from .slugs import is_valid_slug
from .words import ascii_lower

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
    text = characters.decode_utf8(raw, file_label, problems)
    problems.raise_if_any()
    return parse_taxonomy(text, file_label)


def _phrases(value: Any) -> tuple[str, ...]:
    """A tag's phrases: texts with a letter or digit, lower-cased, each listed once."""
    if not isinstance(value, list):
        raise schema.Invalid(f"expected a list of phrases, found {type_name(value)}")
    phrases: list[str] = []
    messages = []
    for i, phrase in enumerate(value, 1):
        if not isinstance(phrase, str):
            messages.append(f"item {i}: expected text, found {_shown(phrase)}")
        elif not phrase.strip():
            messages.append(f"item {i}: empty phrase")
        elif not _has_words(phrase):
            messages.append(f"item {i}: phrase {phrase!r} has no letters or digits")
        elif " ".join(phrase.lower().split()) not in phrases:
            phrases.append(" ".join(phrase.lower().split()))
    if messages:
        raise schema.Invalid("; ".join(messages), tuple(messages))
    return tuple(phrases)


def _description(value: Any) -> str:
    """Text, which may be empty (a tag needs no description to be shown)."""
    if not isinstance(value, str):
        raise schema.Invalid(f"expected text, found {_shown(value)}")
    return schema.optional_text(value)


def _series(value: Any) -> tuple[str, ...]:
    """Ids of known conference series (``series.toml``), each listed once."""
    if not isinstance(value, list):
        raise schema.Invalid(f"expected a list of series ids such as [\"acl\", \"emnlp\"], found {_shown(value)}")
    known = series_table()
    ids = schema.slug_list(value)
    unknown = [sid for sid in ids if sid not in known]
    if unknown:
        raise schema.Invalid(f"unknown series {', '.join(map(repr, unknown))}; the known ones are "
                             f"{', '.join(sorted(known))}")
    return ids


def _fields(value: Any) -> tuple[str, ...]:
    """A field name (``"vision"``) or a list of them, as slugs, each listed once."""
    return schema.slug_list([value] if isinstance(value, str) else value)


TAG_FIELDS = (
    schema.Field("name", schema.text, required=True),
    schema.Field("description", _description, required=True),
    schema.Field("phrases", _phrases, required=True),
    schema.Field("fallback", schema.flag),
    schema.Field("series", _series, default=()),
    schema.Field("field", _fields, default=()),
)
TAG_KEYS = tuple(f.name for f in TAG_FIELDS)


def parse_taxonomy(text: str, file_label: str = "tags.toml") -> Taxonomy:
    """Validate the text of ``tags.toml`` (see ``read_taxonomy``): each table by ``TAG_FIELDS``
    through ``schema.check_fields``, then the rules across tables (one fallback tag)."""
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
            problems.add(file_label,
                         f"expected a table [{tag_id}] with name, description and phrases, found {type_name(value)}",
                         line=lines.top_level_key(tag_id) or header, field=field)
            continue
        id_ok = is_valid_slug(tag_id)
        if not id_ok:
            problems.add(file_label, "tag id must be lower-case letters, digits and single hyphens (at most 80 "
                         "characters), e.g. [graph-learning]", line=header, field=field)
        clean, ok = schema.check_fields(value, TAG_FIELDS, file=file_label, problems=problems, prefix=field + ".",
                                        line_of=lambda key, tag_id=tag_id, header=header: lines.key(tag_id, key) or header)
        if clean.get("fallback"):
            fallbacks.append(tag_id)
        if ok and id_ok:
            tags.append((tag_id, Tag(id=tag_id, name=clean["name"], description=clean["description"],
                                     phrases=clean["phrases"], series=clean["series"],
                                     fallback=bool(clean.get("fallback")),
                                     fields=_tag_fields(clean["field"], clean["series"]))))
    _check_one_fallback(data, fallbacks, lines, file_label, problems)
    problems.raise_if_any()
    return Taxonomy(tags, fallback=fallbacks[0])


def _tag_fields(declared: tuple[str, ...], series: tuple[str, ...]) -> tuple[str, ...]:
    """A tag's fields: those it declares, then those of the series it lists (``series.toml``)."""
    known = series_table()
    inferred = (known[sid].field for sid in series if sid in known)
    return tuple(dict.fromkeys([*declared, *(f for f in inferred if f)]))


def _check_one_fallback(data: dict, fallbacks: list[str], lines: "SectionLines", file_label: str,
                        problems: Problems) -> None:
    if not data:
        problems.add(file_label, "no tags defined; add at least one [tag-id] table", field="tags")
    elif not fallbacks:
        problems.add(file_label, "no fallback tag: mark exactly one tag (the catch-all, e.g. [machine-learning]) "
                     "with fallback = true", field="tags")
    elif len(fallbacks) > 1:
        problems.add(file_label,
                     f"only one tag may have fallback = true, found {len(fallbacks)}: {', '.join(fallbacks)}",
                     line=lines.key(fallbacks[1], "fallback"), field=f"tags.{fallbacks[1]}.fallback")


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
    return _WORD_CHAR.search(ascii_lower(phrase)) is not None
