"""Split a Markdown file into YAML front matter and body, keeping line numbers.

The loader needs to say *where* a field is wrong, so besides the parsed mapping we
return the 1-based line of every top-level key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from .errors import Problem

FENCE = "---"


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
    loader = yaml.SafeLoader(yaml_text)
    try:
        node = loader.get_single_node()
        _refuse_aliases(node, file)
        data = loader.construct_document(node) if node is not None else {}
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else None
        reason = exc.problem or exc.context or "invalid YAML"
        raise FrontMatterError(Problem(file, line, None, f"invalid YAML: {reason}")) from None
    except yaml.YAMLError as exc:
        raise FrontMatterError(Problem(file, 2, None, f"invalid YAML: {exc}")) from None
    finally:
        loader.dispose()
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontMatterError(
            Problem(file, 2, None, f"front matter must be a mapping of fields, found {type_name(data)}")
        )
    key_lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            key_lines[str(key_node.value)] = key_node.start_mark.line + 2
    bad_keys = [k for k in data if not isinstance(k, str)]
    if bad_keys:
        raise FrontMatterError(Problem(file, 2, None, f"field names must be text, found {bad_keys[0]!r}"))
    body = "\n".join(lines[end + 1 :])
    return FrontMatter(data=data, lines=key_lines, body=body, body_line=end + 2, end_line=end + 1)


def _refuse_aliases(node: yaml.Node | None, file: str) -> None:
    """YAML aliases have no use in front matter and enable 'billion laughs' inputs.

    The composer hands back the very same node object for every alias of an anchor,
    so a node met twice is an alias.
    """
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if id(n) in seen:
            raise FrontMatterError(
                Problem(file, n.start_mark.line + 2, None, "YAML anchors and aliases are not allowed")
            )
        seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.extend((k, v))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)


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
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def dump(data: dict[str, Any], body: str) -> str:
    """Write front matter + body in the form ``parse`` reads (used by importers)."""
    yaml_text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    body = body.rstrip("\n")
    return f"{FENCE}\n{yaml_text}{FENCE}\n\n{body}\n" if body else f"{FENCE}\n{yaml_text}{FENCE}\n"
