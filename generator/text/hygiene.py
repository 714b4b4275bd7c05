"""Input hygiene: the characters of a title or abstract made safe to parse and to show.

NUL and lone surrogates become U+FFFD; control characters, the byte-order mark and Unicode
noncharacters are dropped; LaTeX quotes (````like this''``) become typographic quotes before
Markdown sees the backticks."""

from __future__ import annotations

import re
from typing import Any

_REPLACE_CHARS = re.compile(r"[\x00\ud800-\udfff]")
# Control characters (tab, newline and carriage return kept), the byte-order mark and the
# Unicode noncharacters (U+FDD0-U+FDEF and the last two code points of every plane), which
# HTML forbids.
_NONCHARACTERS = "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000))
_DROP_CHARS = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ufdd0-\ufdef" + _NONCHARACTERS + "]")
# LaTeX quotes ``like this'' (converted before Markdown sees the backticks).
_LATEX_QUOTES = re.compile(r"``(?=[^\s`])([^`$\n]{0,500}?[^\s`])''")
_LATEX_SINGLE_QUOTES = re.compile(r"(?<![`\w])`(?=\w)([^`'$\n]{0,200}?[^\s`'])'(?!\w)")


# The part of _DROP_CHARS below U+10000: a class the regex engine tests quickly (the full
# class, with its characters beyond the BMP, makes every search slow). The other dropped
# characters can only be in a string that has a character beyond U+FFFF.
_DROP_BMP_CHARS = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ufdd0-\ufdef\ufffe\uffff]")


def clean(source: Any) -> str:
    if not isinstance(source, str):
        source = "" if source is None else str(source)
    source = _REPLACE_CHARS.sub("\ufffd", source)
    if _DROP_BMP_CHARS.search(source) or (not source.isascii() and max(source) > "\uffff"):
        source = _DROP_CHARS.sub("", source)
    return typographic_quotes(source)


def typographic_quotes(source: str) -> str:
    """LaTeX quotes (````like this''``, ```this'``) as typographic quotes (“like this”)."""
    if "`" in source and "'" in source:
        source = _LATEX_QUOTES.sub("\u201c\\1\u201d", source)
        source = _LATEX_SINGLE_QUOTES.sub("\u2018\\1\u2019", source)
    return source
