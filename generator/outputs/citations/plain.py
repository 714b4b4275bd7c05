"""Plain text for metadata: one line (``one_line``), a title as its page shows it
(``text_as_shown``), lower-case ASCII letters and digits for keys (``key_letters``)."""

from __future__ import annotations

import functools
import re

from ...content.words import ascii_lower
from ...text import plain_text
from ...text.tokens import clean_text

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


def key_letters(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` (``words.ascii_lower``, the rest dropped)."""
    return re.sub(r"[^a-z0-9]", "", ascii_lower(text))
