"""LaTeX source split into tokens: the one reader of LaTeX markup, shared by BibTeX export
and import (``tokenize``) and by the page text (``tokenize_text``, ``text_token_at``).
Formulas are whole ``MATH`` tokens, commands ``CMD``, control symbols ``SYM``, braces
``OPEN``/``CLOSE``, runs of text ``CHAR``; in page text also quotes ``QUOTE``, dashes
``DASH`` and ties ``TIE``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def clean_text(text: str) -> str:
    """Text without control characters (tabs and newlines kept)."""
    return text if text.isprintable() else _CONTROL.sub("", text)



MATH, CMD, SYM, BACKSLASH, OPEN, CLOSE, SPACE, CHAR = "math", "cmd", "sym", "backslash", "open", "close", "space", "char"
QUOTE, DASH, TIE = "quote", "dash", "tie"  # page text only: ``quotes'', -- and ---, ~

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
    j = _find_unescaped(s, "$", i + 1)
    if j == -1 or j == i + 1:
        return None
    if not formula_may_touch_digits(s[i + 1 : j]) and (
            (i > 0 and s[i - 1].isdigit()) or (j + 1 < len(s) and s[j + 1].isdigit())):
        return None  # "5$" is currency, not math
    return j + 1


def formula_may_touch_digits(content: str) -> bool:
    """Whether ``$content$`` is a formula even where a digit touches a dollar outside.

    A digit next to a dollar usually means currency ("costs 5$ or $6"), but a formula
    that starts with a command or a script is never an amount: "a 2$\\times$ speedup",
    "10$^{-3}$", "360$^{\\circ}$", "5$\\%$"."""
    return content[:1] in _FORMULA_STARTS and len(content) > 1


_FORMULA_STARTS = frozenset("\\^_")


_COMMAND = re.compile(r"\\[A-Za-z]+\*?")
_WHITESPACE = re.compile(r"\s+")
_RUN = re.compile(r"[^\\{}$~\s]+")  # ordinary text: one CHAR token per run
_RUN_WITH_SPACES = re.compile(r"[^\\{}$~]+")


def _control(s: str, i: int, any_symbol: bool) -> tuple[str, int]:
    """The kind and end of what the backslash at ``s[i]`` starts: a command (ASCII letters
    and an optional ``*``), a control symbol (a backslash and one ASCII punctuation
    character, or with ``any_symbol`` any character but a letter) or a lone backslash."""
    nxt = s[i + 1 : i + 2]
    if nxt.isascii() and nxt.isalpha():
        m = _COMMAND.match(s, i)
        assert m
        return CMD, m.end()
    if nxt and (any_symbol or (nxt.isascii() and not nxt.isalnum())):
        return SYM, i + 2
    return BACKSLASH, i + 1


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
            kind, end = _control(s, i, any_symbol=False)
            tokens.append(Tok(kind, s[i:end]))
            i = end
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


# Page text: where a token other than a run of text starts. Quotes are `` ` '' (not in a
# run of three or more backticks), dashes -- and --- (not in ---- or an HTML comment's
# <!-- -->); whether a quote or a dash starts here depends on the characters around it.
_TEXT_MARK = re.compile(r"(?<!`)``?(?!`)|''|(?<![<!-])---?(?![->])")
_TEXT_START = re.compile(r"[\\{}~]|" + _TEXT_MARK.pattern)
_MARK_KINDS = {"`": QUOTE, "'": QUOTE, "-": DASH}
_TEXT_SINGLE = {"{": Tok(OPEN, "{"), "}": Tok(CLOSE, "}"), "~": Tok(TIE, "~")}
_TEXT_FIRST = frozenset("\\{}~`'-")  # what a token other than a run of text can start with


def text_token_at(s: str, i: int) -> Tok:
    """The token of page text that starts at ``s[i]`` (``i < len(s)``), read as
    ``tokenize_text`` reads it; a reader that skips over an argument resumes from any
    position. The text is LaTeX without formulas (the Markdown parser took them out):
    ``$`` is a character, whitespace is part of the runs, and a backslash before any
    character but a letter is a control symbol (``\\é``, ``\\1``)."""
    c = s[i]
    if c in _TEXT_SINGLE:
        return _TEXT_SINGLE[c]
    if c == "\\":
        kind, end = _control(s, i, any_symbol=True)
        return Tok(kind, s[i:end])
    if c in _MARK_KINDS:
        m = _TEXT_MARK.match(s, i)
        if m:
            return Tok(_MARK_KINDS[c], m.group())
    m = _TEXT_START.search(s, i + 1)
    return Tok(CHAR, s[i : m.start() if m else len(s)])


def text_kind_at(s: str, i: int) -> str:
    """The kind of ``text_token_at(s, i)`` ("" at the end of ``s``), without reading a run
    of text to its end: a look ahead for a brace or a command."""
    if i >= len(s):
        return ""
    return text_token_at(s, i).kind if s[i] in _TEXT_FIRST else CHAR


def tokenize_text(s: str) -> list[Tok]:
    """Page text split into tokens (see ``text_token_at``): commands, control symbols,
    braces, ``QUOTE`` (`` ` ''), ``DASH`` (-- ---), ``TIE`` (~) and runs of text."""
    tokens: list[Tok] = []
    i, n = 0, len(s)
    while i < n:
        tok = text_token_at(s, i)
        tokens.append(tok)
        i += len(tok.text)
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
