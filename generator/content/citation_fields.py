"""The citation fields of a paper (issue 36): pages, month, DOI, as records write them.

``pages("1149--1162")`` → "1149–1162", ``month("may")`` → 5. A value that cannot be read is
no reason to refuse a paper: ``lenient(data, label, warnings)`` drops it from a paper's
front matter with a warning naming the file and the field, before the schema checks the rest.
"""

from __future__ import annotations

import re
from typing import Any, Callable

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")

# "1149--1162", "1149–1162", "1149-62"? (kept as written), "e0123", "123", "S12-S19", "iv-xii"
_PAGE = r"[A-Za-z]{0,3}\d{1,6}|[ivxlcdm]{1,8}"
_PAGES = re.compile(rf"^\s*({_PAGE})\s*(?:(?:-{{1,3}}|–|—|\u2212|\s+to\s+)\s*({_PAGE}))?\s*$", re.IGNORECASE)


def pages(value: Any) -> str | None:
    """A page range as citations write it ("1149–1162", en dash) or one page ("e0123"); None
    when ``value`` is no page or range."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value) if value > 0 else None
    if not isinstance(value, str):
        return None
    match = _PAGES.match(value)
    if not match:
        return None
    first, last = match.group(1), match.group(2)
    return f"{first}–{last}" if last and last != first else first


def first_page(value: str | None) -> int | None:
    """The number of a range's first page (for the order of a table of contents)."""
    if not value:
        return None
    found = re.match(r"[A-Za-z]{0,3}(\d+)", value)
    return int(found.group(1)) if found else None


def month(value: Any) -> int | None:
    """A month, 1–12, from a number or a name ("may", "Sep.", "September"); None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1 <= value <= 12 else None
    if isinstance(value, str):
        text = value.strip().rstrip(".").casefold()
        if text.isdigit():
            return month(int(text))
        if len(text) >= 3:
            for i, name in enumerate(MONTHS, 1):
                if name.startswith(text):
                    return i
        # a date or range that names one month: "23--29 Jul", "June 18-22"
        found = {i for i, name in enumerate(MONTHS, 1)
                 for word in re.findall(r"[a-z]{3,}", text) if name.startswith(word)}
        if len(found) == 1:
            return found.pop()
    return None


_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)?(10\.\d{4,9}/\S+)$", re.IGNORECASE)


def doi_of(value: str) -> str | None:
    """The DOI of ``value`` (bare, ``doi:…`` or a doi.org URL), None if it holds none."""
    found = _DOI.match(value.strip()) if isinstance(value, str) else None
    return found.group(1) if found else None


def read_pages(value: Any) -> str | None:
    """The ``pages`` field (unreadable ones were dropped with a warning by ``lenient``)."""
    return None if value is None or value == "" else pages(value)


def read_month(value: Any) -> int | None:
    return None if value is None or value == "" else month(value)


def lenient(data: dict[str, Any], label: str, warnings: list[str], *,
            doi_link: Callable[[str], str]) -> dict[str, Any]:
    """``data`` without the citation values that cannot be read (pages, month, ``links.doi``:
    ``doi_link`` raises ValueError for one that is not a doi.org URL of a DOI), each dropped
    with a warning naming ``label`` and the field; a bare DOI is made a doi.org URL."""
    out = data
    for name, read in (("pages", pages), ("month", month)):
        if name in out and out[name] is not None and out[name] != "" and read(out[name]) is None:
            what = "page range" if name == "pages" else name
            warnings.append(f"{label}: {name}: {out[name]!r} is not a readable {what}; left out")
            out = {k: v for k, v in out.items() if k != name}
    links = out.get("links")
    if isinstance(links, dict) and isinstance(links.get("doi"), str) and links["doi"].strip():
        for candidate in (links["doi"], f"https://doi.org/{doi_of(links['doi'])}" if doi_of(links["doi"]) else None):
            try:
                if candidate is not None:
                    doi_link(candidate)
                    return {**out, "links": dict(links, doi=candidate)}
            except ValueError:
                pass
        warnings.append(f"{label}: links.doi: {links['doi']!r} is not a readable DOI; left out")
        out = {**out, "links": {k: v for k, v in links.items() if k != "doi"}}
    return out
