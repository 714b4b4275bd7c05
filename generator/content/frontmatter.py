"""Split a Markdown file into YAML front matter and body, keeping line numbers.

The loader needs to say *where* a field is wrong, so besides the parsed mapping we
return the 1-based line of every top-level key.

Front matter is plain data, so the YAML accepted here is a safe subset: no anchors or
aliases ("billion laughs"), no tags other than ``!!str`` (so ``!!python/object`` and
friends never reach a constructor), at most ``MAX_DEPTH`` levels of nesting, and no key
twice in one mapping (YAML would silently keep the last one). A scalar that YAML
would read as a date or a number but cannot (``2024-13-45``, a 5,000-digit integer)
is kept as text, so the schema reports it against its field. Whatever the input,
``parse`` returns a ``FrontMatter`` or raises ``FrontMatterError`` naming the file and
line: never another exception.

The YAML is read with libyaml's C parser when PyYAML has it (much faster on large
catalogs); text that it rejects is read again with the pure-Python parser, whose error
messages are clearer. ``tests/test_properties.py`` checks that both give the same data.
"""

from __future__ import annotations

import datetime
import functools
import re
from dataclasses import dataclass
from typing import Any

import yaml

from ..errors import Problem

FENCE = "---"
MAX_DEPTH = 20  # nested lists/mappings; real front matter needs 3
ALLOWED_TAGS = frozenset({None, "tag:yaml.org,2002:str"})


@dataclass(frozen=True)
class FrontMatter:
    data: dict[str, Any]
    lines: dict[str, int]  # top-level key -> 1-based line in the file
    body: str
    body_line: int  # 1-based line where the body starts
    end_line: int  # 1-based line of the closing fence

    def line_of(self, key: str) -> int:
        """Line of ``key``; the closing fence when the key is missing."""
        return self.lines.get(key, self.end_line)


class FrontMatterError(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


class _LenientScalars:
    """Scalars that look like a number or a date but are not one stay text; the schema
    then says what was expected ("added: expected a date such as 2024-05-07, found ...")."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int | str:
        try:
            return super().construct_yaml_int(node)  # type: ignore[misc]
        except (ValueError, OverflowError):
            return str(node.value)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> datetime.date | datetime.datetime | str:
        try:
            return super().construct_yaml_timestamp(node)  # type: ignore[misc]
        except (ValueError, OverflowError, AttributeError, TypeError):
            return str(node.value)


class _Loader(_LenientScalars, yaml.SafeLoader):
    """Pure-Python safe loader: always there, and its error messages are the clearer ones."""


_LOADERS: list[type] = [_Loader]
if getattr(yaml, "__with_libyaml__", False):  # the C parser is about ten times faster

    class _FastLoader(_LenientScalars, yaml.CSafeLoader):  # type: ignore[name-defined, misc]
        pass

    _LOADERS.insert(0, _FastLoader)

for _cls in _LOADERS:
    _cls.add_constructor("tag:yaml.org,2002:int", _cls.construct_yaml_int)
    _cls.add_constructor("tag:yaml.org,2002:timestamp", _cls.construct_yaml_timestamp)


def parse(text: str, file: str) -> FrontMatter:
    """Parse ``---``-fenced YAML front matter; raise FrontMatterError naming file and line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise FrontMatterError(Problem(file, None, None, "the file is empty"))
    lines = text.split("\n")
    if lines[0].rstrip() != FENCE:
        raise FrontMatterError(
            Problem(file, 1, None, "expected front matter starting with '---' on the first line")
        )
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in (FENCE, "...")), None)
    if end is None:
        raise FrontMatterError(
            Problem(file, 1, None, "front matter opened with '---' on line 1 is never closed")
        )
    yaml_text = "\n".join(lines[1:end])
    node, data = _load_yaml(yaml_text, file)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontMatterError(
            Problem(file, 2, None, f"front matter must be a mapping of fields, found {type_name(data)}")
        )
    key_lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key_lines.setdefault(str(key_node.value), file_line(yaml_text, key_node.start_mark))
    bad_keys = [k for k in data if not isinstance(k, str)]
    if bad_keys:
        raise FrontMatterError(Problem(file, 2, None, f"field names must be text, found {bad_keys[0]!r}"))
    body = "\n".join(lines[end + 1 :])
    return FrontMatter(data=data, lines=key_lines, body=body, body_line=end + 2, end_line=end + 1)


def _load_yaml(yaml_text: str, file: str) -> tuple[yaml.Node | None, Any]:
    """Compose and construct the YAML between the fences; every failure is a FrontMatterError.

    The fast C parser reads well-formed front matter; YAML it rejects is read again by the
    pure-Python parser, whose messages say more ("found character '\\t' ...").
    """
    for loader_class in _LOADERS[:-1]:
        try:
            return _load_with(loader_class, yaml_text, file)
        except FrontMatterError as exc:
            if exc.problem.message.startswith("invalid YAML"):
                continue
            raise
    return _load_with(_LOADERS[-1], yaml_text, file)


def _load_with(loader_class: type, yaml_text: str, file: str) -> tuple[yaml.Node | None, Any]:
    try:
        _check_events(loader_class, yaml_text, file)
        loader = loader_class(yaml_text)
        try:
            node = loader.get_single_node()
            _refuse_duplicate_keys(node, file, yaml_text)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:
        raise _reader_problem(exc, yaml_text, file) from None
    except yaml.MarkedYAMLError as exc:
        line = file_line(yaml_text, exc.problem_mark or exc.context_mark)
        reason = exc.problem or exc.context or "invalid YAML"
        if "'\\t'" in reason:
            reason += " (indent with spaces, not tabs)"
        raise FrontMatterError(Problem(file, line, None, f"invalid YAML: {reason}")) from None
    except yaml.YAMLError as exc:
        raise FrontMatterError(Problem(file, 2, None, f"invalid YAML: {exc}")) from None
    except RecursionError:
        raise FrontMatterError(Problem(file, 2, None, "invalid YAML: nested too deeply")) from None
    except (ValueError, TypeError, AttributeError, OverflowError, KeyError) as exc:
        # A constructor choked on a value the parser accepted; should not happen, but never a traceback.
        raise FrontMatterError(Problem(file, 2, None, f"invalid YAML: cannot read a value ({exc})")) from None
    return node, data


def _check_events(loader_class: type, yaml_text: str, file: str) -> None:
    """Refuse anchors, aliases, explicit tags and deep nesting before anything is built.

    Done on the parser's event stream, which needs no recursion, so "billion laughs" and
    100,000 nested brackets cost no more than reading them.
    """
    loader = loader_class(yaml_text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            line = file_line(yaml_text, event.start_mark)
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise FrontMatterError(Problem(file, line, None,
                                               "YAML anchors and aliases are not allowed (&name, *name)"))
            tag = getattr(event, "tag", None)
            if tag not in ALLOWED_TAGS:
                shown = tag.replace("tag:yaml.org,2002:", "!!") if isinstance(tag, str) else tag
                raise FrontMatterError(Problem(file, line, None,
                                               f"YAML tags such as {shown!r} are not allowed; write plain values"))
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise FrontMatterError(Problem(file, line, None, f"nested more than {MAX_DEPTH} levels deep"))
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    finally:
        loader.dispose()


_YAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_OTHER_BREAKS = re.compile("[\r\x85\u2028\u2029]")


def file_line(yaml_text: str, mark: Any) -> int:
    """The 1-based line of the file where a YAML ``mark`` is (the front matter starts on line 2).

    YAML also breaks lines at CR, NEL (U+0085) and U+2028/9, which are not line ends in the
    file (split at "\n" only), so where the text has any, the YAML line is mapped back.
    """
    if mark is None:
        return 2
    if not _OTHER_BREAKS.search(yaml_text):
        return mark.line + 2
    start = 0
    for number, match in enumerate(_YAML_BREAK.finditer(yaml_text), start=1):
        if number > mark.line:
            break
        start = match.end()
    return yaml_text.count("\n", 0, start) + 2


def _reader_problem(exc: yaml.reader.ReaderError, yaml_text: str, file: str) -> FrontMatterError:
    position = exc.position if isinstance(exc.position, int) else 0
    line = yaml_text.count("\n", 0, max(0, position)) + 2
    char = exc.character
    code = f"U+{char:04X}" if isinstance(char, int) else repr(char)
    return FrontMatterError(Problem(file, line, None, f"invalid YAML: the character {code} is not allowed"))


def _refuse_duplicate_keys(node: yaml.Node | None, file: str, yaml_text: str) -> None:
    """YAML keeps the last of two equal keys without a word; we say so instead."""
    stack = [(node, True)]
    while stack:
        current, top = stack.pop()
        if isinstance(current, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key_node, value_node in current.value:
                if isinstance(key_node, yaml.ScalarNode):
                    line = file_line(yaml_text, key_node.start_mark)
                    key = str(key_node.value)
                    if key in seen:
                        what = "" if top else f"key {key!r} "
                        raise FrontMatterError(Problem(
                            file, line, key if top else None, f"{what}appears twice (first on line {seen[key]})"))
                    seen[key] = line
                stack.append((value_node, False))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend((item, False) for item in current.value)


def type_name(value: Any) -> str:
    """A person's word for a YAML value's type, for error messages."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "a yes/no value"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, datetime.datetime):
        return "a date and time"
    if isinstance(value, datetime.date):
        return "a date"
    if isinstance(value, datetime.time):
        return "a time"
    if isinstance(value, (bytes, bytearray)):
        return "binary data"
    if isinstance(value, (set, frozenset)):
        return "a set"
    return type(value).__name__


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # never write &id001 / *id001: parse refuses them
        return True


_DUMPERS: list[type] = [_Dumper]
if getattr(yaml, "__with_libyaml__", False):  # libyaml's emitter: the same text, many times faster

    class _FastDumper(yaml.CSafeDumper):  # type: ignore[name-defined, misc]
        def ignore_aliases(self, data: Any) -> bool:
            return True

    _DUMPERS.insert(0, _FastDumper)

# Characters both emitters write alike. Outside them (NEL, U+2028/9, tabs and other controls,
# characters beyond the BMP, a BOM) libyaml quotes or folds differently: the pure-Python
# emitter writes those, so the same data is always the same bytes (a re-import finds its files
# unchanged). tests/test_properties.py compares the two.
_SAME_IN_BOTH = re.compile("[\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*")


def _plain_enough(value: Any) -> bool:
    if isinstance(value, str):
        return _SAME_IN_BOTH.fullmatch(value) is not None
    if isinstance(value, (list, tuple)):
        return all(map(_plain_enough, value))
    if isinstance(value, dict):
        return all(_plain_enough(k) and _plain_enough(v) for k, v in value.items())
    return True


def _yaml(data: dict[str, Any]) -> str:
    dumper = _DUMPERS[0] if _plain_enough(data) else _Dumper
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=100)


# Most values (names, titles, URLs) are one short line of ordinary characters, which the
# emitter writes plain, or in single quotes where plain would read otherwise (": ", " #"):
# ``_scalar`` writes those as PyYAML's ``analyze_scalar``/``choose_scalar_style`` do and
# leaves every other value to the emitter (tests/importers/test_import_seeds.py compares).
_ORDINARY = re.compile("[\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]+")
_WIDTH = 95  # below the dump's width (100): no line of it is folded (only a space is a place to fold)


def _scalar(value: str, column: int) -> str | None:
    """``value`` as the emitter writes it at ``column``, or None when that is not a simple case."""
    if ((" " in value and column + len(value) > _WIDTH) or not _ORDINARY.fullmatch(value) or value[0] in "0123456789+-.~=<?:,[]{}#&*!|>'\"%@` "
            or value[-1] == " " or value in _NOT_PLAIN_VALUES):
        return None
    if ": " in value or " #" in value or value[-1] == ":":
        return "'" + value.replace("'", "''") + "'"
    return value


@functools.lru_cache(maxsize=1 << 16)
def _item(key: str, value: str) -> str:
    """One item of the block list ``key``, as the emitter writes it there ("- value\n")."""
    text = _scalar(value, 2)
    return f"- {text}\n" if text is not None else _yaml({key: [value]})[len(key) + 2:]


@functools.lru_cache(maxsize=4096)
def _pair(key: str, value: str | bool | int) -> str:
    return _yaml({key: value})


def _value(key: str, value: Any) -> str:
    """``_yaml({key: value})`` (see ``_front_matter``)."""
    if type(value) is str:
        text = _scalar(value, len(key) + 2)
        if text is not None:
            return f"{key}: {text}\n"
        return _pair(key, value) if len(value) <= 60 else _yaml({key: value})
    if type(value) is list and value and all(type(v) is str for v in value):
        return f"{key}:\n" + "".join(_item(key, v) for v in value)
    if type(value) in (bool, int):
        return _pair(key, value)
    if type(value) is dict and value and all(type(k) is str and _SIMPLE_KEY.fullmatch(k) and k not in _NOT_PLAIN_VALUES
                                             and type(v) is str for k, v in value.items()):
        lines = [f"  {k}: {_scalar(v, len(k) + 4)}\n" for k, v in value.items()]
        if not any(line.endswith(": None\n") for line in lines):
            return f"{key}:\n" + "".join(lines)
    return _yaml({key: value})


_SIMPLE_KEY = re.compile(r"[a-z][a-z_]*")


def _front_matter(data: dict[str, Any]) -> str:
    """``_yaml(data)``, made faster for importers' many files: in block style each top-level key,
    and each item of a list, is written the same whatever surrounds it, so the text is one piece
    per key, each item of a list written once for all papers (authors, tags recur)."""
    if not all(type(key) is str and _SIMPLE_KEY.fullmatch(key) and key not in _NOT_PLAIN_VALUES for key in data):
        return _yaml(data)
    return "".join(_value(key, value) for key, value in data.items())


# Values YAML 1.1 reads as true/false or null when written plain.
_NOT_PLAIN_VALUES = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF null Null "
                              "NULL".split())


def dump(data: dict[str, Any], body: str) -> str:
    """Write front matter + body in the form ``parse`` reads (used by importers)."""
    yaml_text = _front_matter(data) if data else _yaml(data)
    body = body.rstrip("\n")
    return f"{FENCE}\n{yaml_text}{FENCE}\n\n{body}\n" if body else f"{FENCE}\n{yaml_text}{FENCE}\n"
