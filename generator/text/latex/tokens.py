"""LaTeX source split into tokens: the one reader of LaTeX markup that BibTeX export and
import share (formulas are whole ``MATH`` tokens, commands ``CMD``, control symbols ``SYM``,
braces ``OPEN``/``CLOSE``, runs of text ``CHAR``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def clean_text(text: str) -> str:
    """Text without control characters (tabs and newlines kept)."""
    return text if text.isprintable() else _CONTROL.sub("", text)



MATH, CMD, SYM, BACKSLASH, OPEN, CLOSE, SPACE, CHAR = "math", "cmd", "sym", "backslash", "open", "close", "space", "char"

# Control symbols that mean something in LaTeX text mode; they are kept as they are. A
# backslash before other ASCII punctuation is a Markdown escape (``\*``, ``\[``): it stands
# for the character itself.
LATEX_SYMBOLS = frozenset("\\{}$&%#_'\"^~`=.,;:! -/@")
ACCENT_SYMBOLS = frozenset("'\"^~`=.")


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str
    text: str


def escaped(s: str, pos: int) -> bool:
    """True when the character at ``pos`` is preceded by an odd number of backslashes."""
    count = 0
    pos -= 1
    while pos >= 0 and s[pos] == "\\":
        count += 1
        pos -= 1
    return count % 2 == 1


def _find_unescaped(s: str, needle: str, start: int) -> int:
    pos = s.find(needle, start)
    while pos != -1 and escaped(s, pos):
        pos = s.find(needle, pos + 1)
    return pos


def _math_end(s: str, i: int) -> int | None:
    """If a formula starts at ``s[i]``, the index just after it (mirrors ``text``'s rules)."""
    if s.startswith("\\(", i) or s.startswith("\\[", i):
        closer = "\\)" if s[i + 1] == "(" else "\\]"
        j = s.find(closer, i + 2)
        return j + 2 if j > i + 2 else None
    if s[i] != "$" or escaped(s, i):
        return None
    if s.startswith("$$", i):
        j = _find_unescaped(s, "$$", i + 2)
        return j + 2 if j != -1 and s[i + 2 : j].strip() else None
    if i > 0 and s[i - 1].isdigit():  # "5$" is currency, not math
        return None
    j = _find_unescaped(s, "$", i + 1)
    if j == -1 or j == i + 1 or (j + 1 < len(s) and s[j + 1].isdigit()):
        return None
    return j + 1


_COMMAND = re.compile(r"\\[A-Za-z]+\*?")
_WHITESPACE = re.compile(r"\s+")
_RUN = re.compile(r"[^\\{}$~\s]+")  # ordinary text: one CHAR token per run
_RUN_WITH_SPACES = re.compile(r"[^\\{}$~]+")


def tokenize(s: str, *, spaces: bool = True) -> list[Tok]:
    """Split LaTeX-with-math source into tokens: formulas are single ``MATH`` tokens, and
    ``CHAR`` tokens are runs of ordinary characters (``$`` and ``~`` on their own).

    ``spaces=False``: whitespace is part of the runs (no ``SPACE`` tokens; faster when
    words do not matter)."""
    run = _RUN if spaces else _RUN_WITH_SPACES
    tokens: list[Tok] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        end = _math_end(s, i) if c in "$\\" else None
        if end is not None:
            tokens.append(Tok(MATH, s[i:end]))
            i = end
        elif c == "\\":
            nxt = s[i + 1] if i + 1 < n else ""
            if nxt.isascii() and nxt.isalpha():
                m = _COMMAND.match(s, i)
                assert m
                tokens.append(Tok(CMD, m.group()))
                i = m.end()
            elif nxt.isascii() and nxt and not nxt.isalnum():
                tokens.append(Tok(SYM, s[i : i + 2]))
                i += 2
            else:
                tokens.append(Tok(BACKSLASH, c))
                i += 1
        elif c == "{":
            tokens.append(Tok(OPEN, c))
            i += 1
        elif c == "}":
            tokens.append(Tok(CLOSE, c))
            i += 1
        elif spaces and c.isspace():
            m = _WHITESPACE.match(s, i)
            assert m
            tokens.append(Tok(SPACE, m.group()))
            i = m.end()
        elif c in "$~":
            tokens.append(Tok(CHAR, c))
            i += 1
        else:
            m = run.match(s, i)
            assert m
            tokens.append(Tok(CHAR, m.group()))
            i = m.end()
    return tokens


def match_pairs(tokens: Sequence[Tok], is_open, is_close) -> tuple[dict[int, int], set[int]]:
    """Matching open/close indices (both directions) and the indices left unmatched."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    unmatched: set[int] = set()
    for i, tok in enumerate(tokens):
        if is_open(tok):
            stack.append(i)
        elif is_close(tok):
            if stack:
                j = stack.pop()
                pairs[i], pairs[j] = j, i
            else:
                unmatched.add(i)
    unmatched.update(stack)
    return pairs, unmatched
