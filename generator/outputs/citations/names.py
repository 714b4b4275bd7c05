"""Author names as the formats write them: BibTeX's reading of a name (``name_parts``),
family name, "Last, First" (RIS) and the BibTeX ``author`` form (``bib_name``), and a name
in parts as a citation style sees it (``citation_name``, for the page's JSON-LD: the
formatted references are made in the browser, ``static/js/cite.js``)."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple, Sequence

from bibtexparser.middlewares.names import parse_single_name_into_parts

from ...text.bibtex.to_bibtex import latex_value
from .plain import one_line

NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


def bibtex_name_form(name: str) -> str:
    """``"Hans Müller Jr."`` → ``"Müller, Jr., Hans"``: BibTeX reads a suffix only after commas."""
    words = name.split()
    if "," in name or len(words) < 3 or words[-1].casefold() not in NAME_SUFFIXES:
        return name
    return f"{words[-2]}, {words[-1]}, {' '.join(words[:-2])}"


# Caches of per-name work: names repeat across papers (a 10,000-paper catalog has about
# 24,000 distinct names in 53,000 author slots) and each is read by several outputs.
_NAME_CACHE = 1 << 17


@functools.lru_cache(maxsize=_NAME_CACHE)
def name_parts(name: str):
    """BibTeX's reading of a name (first, von, last, jr), or None when it cannot be read."""
    try:
        parts = parse_single_name_into_parts(bibtex_name_form(name), strict=False)
    except Exception:  # a name BibTeX cannot read at all: treated as one word
        return None
    return parts if parts.last else None


def family_name(name: str) -> str:
    parts = name_parts(name)
    if parts is None:
        words = name.split()
        return words[-1] if words else ""
    return " ".join(parts.last)


@functools.lru_cache(maxsize=_NAME_CACHE)
def last_first(name: str) -> str:
    """``"Ada Lovelace"`` → ``"Lovelace, Ada"`` (von part kept with the family name)."""
    parts = name_parts(name)
    if parts is None:
        return one_line(name)
    head = " ".join(parts.von + parts.last)
    rest = [" ".join(parts.jr), " ".join(parts.first)]
    return ", ".join(p for p in [head, *rest] if p).replace("{", "").replace("}", "")


@functools.lru_cache(maxsize=_NAME_CACHE)
def bib_name(name: str) -> str:
    """An author name for BibTeX's ``author`` field (names are joined with `` and ``)."""
    value = latex_value(bibtex_name_form(name))
    if re.search(r"(?i)(^|\s)and(\s|$)", value) or value.count(",") > 2 or not value.strip(","):
        # One unit for BibTeX: "and" would split it, more than two commas are an error.
        return "{{}" + value + "}" if value.startswith("\\") else "{" + value + "}"
    return value


class Name(NamedTuple):
    """An author as CSL sees one: ``family`` (with no ``given``: a one-part name, shown as is)."""

    family: str
    given: str = ""
    particle: str = ""  # "van", "de la": a non-dropping particle, kept before the family name
    suffix: str = ""  # "Jr.", "III"


@functools.lru_cache(maxsize=_NAME_CACHE)
def citation_name(author: str) -> Name:
    """An author as the BibTeX export reads the name (``name_parts``): "Ludwig van
    Beethoven" → given "Ludwig", particle "van", family "Beethoven"; "Martin Luther King
    Jr." → suffix "Jr."; one word (or a name BibTeX cannot read) → family only."""
    parts = name_parts(author)
    if parts is None:
        return Name(one_line(author))

    def text(words: Sequence[str]) -> str:
        return " ".join(words).replace("{", "").replace("}", "")

    return Name(family=text(parts.last), given=text(parts.first), particle=text(parts.von), suffix=text(parts.jr))


def split_at_last_word(shown: str) -> Name:
    """How the page's script reads a name that its JSON-LD gives no parts of (cite.js
    ``nameOf``): the last word is the family name, the words before it the given names."""
    words = shown.split(" ")
    return Name(words[-1], " ".join(words[:-1]))
