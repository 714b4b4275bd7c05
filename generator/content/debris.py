"""PDF-extraction debris in a text: the ``(cid:N)`` codes a PDF's glyphs become when the
extractor finds no character for them (``repair``).

* ``(cid:173)`` is a soft hyphen (Latin-1 0xAD), left where the typesetter broke a word at a
  line end: "improve(cid:173) ment" → "improvement" (the break is the typesetter's, never a
  hyphen of the word: the word is joined whatever follows). A real soft hyphen (U+00AD)
  before a space is the same thing.
* ``(cid:11)`` … ``(cid:15)`` next to a letter are the ligatures of TeX's fonts (OT1):
  ff, fi, fl, ffi, ffl — "e(cid:14)cient" → "efficient", "(cid:12)nd" → "find".
* any other ``(cid:N)`` stands for a glyph no text can be read from: it is dropped.

``repair`` returns the text and what it changed, counted by kind. The importers repair what
they import (and report it); the loader repairs what a hand-written file still carries, with
a warning, so that ``(cid:`` never reaches a page.
"""

from __future__ import annotations

import re
from collections import Counter

SOFT_HYPHENS, LIGATURES, DROPPED = "soft hyphens joined", "ligatures restored", "unknown codes dropped"
KINDS = (SOFT_HYPHENS, LIGATURES, DROPPED)
MARK = "(cid:"

_LIGATURES = {11: "ff", 12: "fi", 13: "fl", 14: "ffi", 15: "ffl"}
_SOFT = re.compile(r"(?:\(cid:173\)|\u00ad)(?:[ \t]*\n?[ \t]*(?=[^\W\d_]))?")
_CID = re.compile(r"\(cid:(\d{1,5})\)")


def repair(text: str) -> tuple[str, Counter]:
    """``text`` without its ``(cid:N)`` codes (see the module docstring), and the changes by kind."""
    changes: Counter = Counter()
    if MARK not in text and "\u00ad" not in text:
        return text, changes

    def soft(match: re.Match[str]) -> str:
        changes[SOFT_HYPHENS] += 1
        return ""

    text = _SOFT.sub(soft, text)

    def code(match: re.Match[str]) -> str:
        number = int(match.group(1))
        before = text[match.start() - 1: match.start()]
        after = text[match.end(): match.end() + 1]
        if number in _LIGATURES and (before.isalpha() or after.isalpha()):
            changes[LIGATURES] += 1
            return _LIGATURES[number]
        changes[DROPPED] += 1
        return ""

    text = _CID.sub(code, text)
    if changes[DROPPED]:
        text = re.sub(r"[ \t]{2,}", " ", text)
    return text, changes


def describe(changes: Counter) -> str:
    """``"3 soft hyphens joined, 1 ligatures restored"``."""
    return ", ".join(f"{changes[kind]:,} {kind}" for kind in KINDS if changes[kind])
