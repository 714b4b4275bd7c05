"""The shape of an author name: whether one "name" is in fact a list of people ("Ipek Oztas,
Duygu Ceylan, Aysegul Dundar", "X and Y", "Doe, J.; Roe, R.") and how it splits, with care
for suffixes ("Martin Luther King, Jr.") and for one name written "Family, Given" ("Lovelace,
Ada"). The importers split such lists (``importers.names``); the loader warns about a name
that still looks like one (``looks_like_list``), with the same rule.

``split_list(name)`` gives the names, each as written ("Family, Given" kept: the caller
turns it round, ``given_first``), or None when the name is one person, or cannot be split
safely (``ambiguous``: "Doe, Jane, Roe, Rick" — pairs or four people?).
"""

from __future__ import annotations

import re

SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v", "2nd", "3rd", "phd", "ph.d.", "md", "m.d."})
_AND = re.compile(r"\s+and\s+|\s*;\s*", re.IGNORECASE)
_INITIALS = re.compile(r"^(?:(?:[^\W\d_]\.-?)+|[^\W\d_]|[A-Z]{2,3})$")  # "J.", "J.-P.", "J", "JP"


def _words(part: str) -> list[str]:
    return part.split()


def _is_suffix(part: str) -> bool:
    return part.strip().casefold() in SUFFIXES


def _family_given(parts: list[str]) -> bool:
    """Whether ``"A, B"`` split at its comma is one name written "Family, Given"."""
    family, given = _words(parts[0]), _words(parts[1])
    if not family or not given:
        return False
    if len(family) == 1:  # "Lovelace, Ada Maria"
        return len(given) <= 3
    # "van der Berg, Ludwig", "Doe Smith, J. R."; two names of two words each are two people
    return len(family) <= 3 and (len(given) == 1 or all(_INITIALS.match(w) for w in given))


def _comma_parts(piece: str) -> list[str] | None:
    """The people of one piece between "and"/";": None when it is one person (or undecidable)."""
    parts = [p.strip() for p in piece.split(",")]
    while len(parts) > 1 and _is_suffix(parts[-1]):  # "King, Jr.": part of the name before it
        parts[-2:] = [f"{parts[-2]}, {parts[-1]}"]
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return None
    if len(parts) == 2 and _family_given(parts):
        return None
    if all(len(_words(p)) >= 2 or _is_suffix(p.rsplit(",", 1)[-1]) for p in parts):
        return parts
    return None


def split_list(name: str) -> list[str] | None:
    """The people of a name that is a list (see the module docstring), else None."""
    if "," not in name and ";" not in name and not _AND.search(name):
        return None
    pieces = [p.strip() for p in _AND.split(name)]
    pieces = [p.removeprefix("and ").strip() if p.startswith("and ") else p for p in pieces]
    pieces = [p for p in pieces if p]
    if not pieces:
        return None
    if len(pieces) == 1 and pieces[0].count(",") and not _AND.search(name):
        return _comma_parts(pieces[0])
    people: list[str] = []
    for piece in pieces:
        if "," in piece and not (len(piece.split(",")) == 2 and _family_given(piece.split(","))):
            split = _comma_parts(piece)
            if split is None:
                if any(_is_suffix(p) for p in piece.split(",")[1:]):
                    people.append(piece)
                    continue
                return None
            people.extend(split)
        else:
            people.append(piece)
    return people if len(people) >= 2 else None


def ambiguous(name: str) -> bool:
    """A name with separators that ``split_list`` cannot split safely ("Doe, Jane, Roe, Rick")."""
    return (split_list(name) is None and given_first(name) == name
            and (name.count(",") >= 2 or ";" in name or bool(_AND.search(name))))


def looks_like_list(name: str) -> bool:
    """Whether a name looks like several people (the loader warns about it)."""
    return split_list(name) is not None or ambiguous(name)


def given_first(name: str) -> str:
    """"Lovelace, Ada" → "Ada Lovelace"; "King, Jr., Martin Luther" → "Martin Luther King Jr.";
    any other name as it is."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and _family_given(parts) and not _is_suffix(parts[1]):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and _is_suffix(parts[1]) and parts[0] and parts[2]:
        return f"{parts[2]} {parts[0]} {parts[1]}"
    return name
