"""Plain text for metadata: one line (``one_line``), a title as its page shows it
(``text_as_shown``), lower-case ASCII for keys (``ascii_fold``)."""

from __future__ import annotations

import functools
import re
import unicodedata

from ...text import plain_text
from ...text.latex.tokens import clean_text

# Letters that NFKD does not decompose into ASCII (as in ``slugs``).
_TRANSLITERATE = str.maketrans({"ß": "ss", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d",
                                "ł": "l", "Ł": "l", "œ": "oe", "Œ": "oe", "þ": "th", "ð": "d", "ı": "i"})

_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=16384)
def one_line(text: str) -> str:
    """Text on one line: every run of whitespace one space, no control characters."""
    return " ".join(clean_text(text).split())


_LESS_THAN = "\ue000"  # stands in for "<" while ``plain_text`` runs


@functools.lru_cache(maxsize=16384)
def text_as_shown(source: str) -> str:
    """Plain text of a title as its page shows it (math as linear text).

    Like ``text.plain_text``, which cuts out anything that looks like an HTML tag, except
    that such text is kept: on the page it is text ("<b>" shows as "<b>"), and metadata
    must name the paper the way the page does. Every output escapes it again.
    """
    if "<" not in source or _LESS_THAN in source:
        return one_line(plain_text(source))
    return one_line(plain_text(source.replace("<", _LESS_THAN)).replace(_LESS_THAN, "<"))


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` (accents folded, the rest dropped)."""
    folded = unicodedata.normalize("NFKD", text.translate(_TRANSLITERATE)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())
