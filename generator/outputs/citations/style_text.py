"""The text rules the citation styles (``styles``) share, as citeproc-js (the CSL processor of
Zotero and Mendeley) applies them to English titles and names: typographic quotes
(``smart_quotes``), headline capitals (``title_case``, Chicago), initials of given names
(``initials``, APA) and the period that closes a field without doubling one (``closed``).
"""

from __future__ import annotations

import re

# A field's closing period is left out after these ("Wow!" + "." → "Wow!"). citeproc-js
# writes one after an ellipsis ("science…."); we do not: a provisional title ends with one.
CLOSING = (".", "?", "!", "\u2026")


def closed(text: str) -> str:
    """``text`` followed by a period, unless it already ends with ``.``, ``?``, ``!`` or ``…``."""
    return text if text.endswith(CLOSING) else text + "."


# --------------------------------------------------------------------------- quotes

_OPENING_CONTEXT = frozenset(" \t\n([{\u2014\u2013/-\u201c\u2018")


def smart_quotes(text: str) -> str:
    """Straight quotes as typographic ones: ``'`` after a letter is an apostrophe (’),
    otherwise ``'`` and ``"`` open (‘ “) at the start or after a space or an opening
    bracket, and close (’ ”) anywhere else."""
    if "'" not in text and '"' not in text:
        return text
    out: list[str] = []
    previous = ""
    for char in text:
        if char == "'" or char == '"':
            opening = not previous or previous in _OPENING_CONTEXT
            if char == "'":
                char = "\u2018" if opening else "\u2019"
            else:
                char = "\u201c" if opening else "\u201d"
        out.append(char)
        previous = char
    return "".join(out)


def quoted_inside_quotes(text: str) -> str:
    """Double quotes within a title that a style sets in double quotes become single ones."""
    return text.replace("\u201c", "\u2018").replace("\u201d", "\u2019")


# --------------------------------------------------------------------------- title case

# Words that stay lower case inside a title: articles, coordinating conjunctions and
# prepositions (Chicago lowercases prepositions whatever their length), plus the particles
# of names ("de Bruijn"). Compared after lower-casing.
STOP_WORDS = frozenset("""
a an the and but or nor for so yet
about above across after against along alongside amid amidst among amongst around as at atop
before behind below beneath beside besides between beyond by circa despite down during except
from in inside into like near next of off on onto out over per plus since than through
throughout till to toward towards under underneath until unto up upon versus vs v via with
within without
de von van
""".split())

# A title is words between separators: a word after ``:``, ``?`` or ``!`` is capitalized
# like a first word; ``-`` joins compounds whose parts are words of their own ("Self-Supervised").
_TOKENS = re.compile(r"([\u2018\u2019\u201c\u201d\"'\-\u2013\u2014/.,;?!:\[\]()]|[ \u00a0\u2000-\u200b\u205f\u3000]+)")
_BREAKS = frozenset(":?!")


def _capitalized(word: str) -> str:
    first = word[0]
    if len(word) == 1 and "\u0370" <= first <= "\u03ff":  # a lone Greek letter is a symbol
        return word
    return first.upper() + word[1:]


def title_case(text: str) -> str:
    """Headline-style capitals (Chicago), as citeproc-js sets them: a word in lower case
    gets a capital first letter unless it is a stop word or a single letter; the first
    word, a word after ``:``, ``?`` or ``!`` and the last word (if longer than a letter)
    always get one, and so does a word just before a hyphen in the title's first run of
    words (before any punctuation). Words that hold a capital (``iPhone``, ``GPT``) stay
    as they are; so does a lone Greek letter (``α``)."""
    tokens = _TOKENS.split(text)
    words = [i for i in range(0, len(tokens), 2) if tokens[i]]
    if not words:
        return text
    first_run = True  # no separator seen yet (spaces aside)
    pending_break = True
    for n, i in enumerate(words):
        between = tokens[words[n - 1] + 1:i:2] if n else tokens[1:i:2]
        for sep in between:
            if sep.strip():
                first_run = False
                if sep in _BREAKS:
                    pending_break = True
        word = tokens[i]
        lower = word.lower()
        if word == lower:
            long = len(word) > 1
            stop = lower in STOP_WORDS
            before_hyphen = first_run and i + 1 < len(tokens) and tokens[i + 1] == "-"
            if pending_break or before_hyphen or (long and (not stop or n == len(words) - 1)):
                tokens[i] = _capitalized(word)
        pending_break = False
    return "".join(tokens)


# --------------------------------------------------------------------------- initials

_INITIALS_RUN = re.compile(r"^(?:[^\W\d_]\.){2,}$")  # "J.K."


def spaced_initials(given: str) -> str:
    """Initials written together spaced out: "J.K." → "J. K." (Chicago); the rest as written."""
    if "." not in given:
        return given
    return " ".join(" ".join(w[i:i + 2] for i in range(0, len(w), 2)) if _INITIALS_RUN.match(w) else w
                    for w in given.split())


def initials(given: str) -> str:
    """Given names as initials, each followed by a period and parts joined by a space
    (APA): "Martin Luther" → "M. L.", "Jean-Paul" → "J.-P.", "J.K." → "J. K.". A part
    that already ends with a period (an abbreviation such as "Ma.") or sits in
    parentheses is kept; a hyphenated part that starts in lower case is left out."""
    parts: list[str] = []
    for word in given.split():
        if word.startswith("(") and word.endswith(")"):
            parts.append(word)
        elif _INITIALS_RUN.match(word):
            parts.append(" ".join(word[i:i + 2] for i in range(0, len(word), 2)))
        elif word.endswith("."):
            parts.append(word)
        elif "-" in word:
            pieces = [p for p in word.split("-") if p]
            if pieces:
                kept = [pieces[0][0] + "."] + [p[0] + "." for p in pieces[1:] if p[0].isupper()]
                parts.append("-".join(kept))
        else:
            parts.append(word[0] + ".")
    return " ".join(parts)
