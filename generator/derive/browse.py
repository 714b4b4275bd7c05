"""The tables readers browse a large catalog by (issue 28): venues as series by year, the
years, authors A–Z, and lists of papers in groups (a year's by venue, an author's by year).

* ``venue_table(venues)``: a row per series (NeurIPS, Findings of ACL, CVPR Workshops:
  ``content.series``), its venues newest first; a venue of no known series is a row of its
  own, or of the venues whose ids differ only in the year (``foo-2019``, ``foo-2020``).
  ``/venues/`` shows every row, the home page the largest, a venue page its row's other years.
* ``author_letters(authors)``: the people with a page by the first letter of their family
  name (a–z, else ``urls.OTHER_LETTER``), each letter by family name; ``letter_nav`` the
  index's letter links with counts.
* ``grouped_pages(groups, size)``: a list of papers in groups cut into pages of ``size``
  papers, a group that goes on to the next page is "continued" there.

Pure data (frozen views), computed from ``derive.views``' views; ``outputs.pages`` plans the
pages with them, the templates only loop over them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ..content.series import FINDINGS, WORKSHOPS, series_of
from .people import family_key
from .urls import LETTERS, OTHER_LETTER, author_letter_page, series_row, year_page
from .views import AuthorView, PaperView, VenueRef, VenueView

HOME_SERIES = 12  # the home page shows the series with the most papers...
HOME_YEARS = 6  # ...each with its latest years
AUTHOR_SERIES_SHOWN = 12  # an author page names the series they published at most


# ---------------------------------------------------------------------------------------
# Venues as series by year, and the years
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeriesCell:
    """A venue in its series' row: the year, the venue, its papers."""

    year: int
    venue: VenueRef
    count: int

    @property
    def year_url(self) -> str:
        """The page of every venue of the year."""
        return year_page(self.year)


@dataclass(frozen=True, slots=True)
class SeriesRow:
    key: str  # "neurips", "findings-acl", "cvpr-workshops"; else a venue id without its year
    name: str  # "NeurIPS", "Findings of ACL", "CVPR Workshops"
    full_name: str
    cells: tuple[SeriesCell, ...]  # newest first
    count: int  # papers in all its venues

    @property
    def url(self) -> str:
        """The row on ``/venues/`` (``urls.series_row``)."""
        return series_row(self.key)

    @property
    def anchor(self) -> str:
        return self.url.split("#", 1)[1]

    @property
    def latest(self) -> tuple[SeriesCell, ...]:
        """The cells the home page shows."""
        return self.cells[:HOME_YEARS]

    @property
    def older(self) -> int:
        """How many cells the home page leaves out."""
        return max(0, len(self.cells) - HOME_YEARS)


@dataclass(frozen=True, slots=True)
class YearCount:
    year: int
    papers: int
    venues: int

    @property
    def url(self) -> str:
        return year_page(self.year)


@dataclass(frozen=True, slots=True)
class VenueTable:
    rows: tuple[SeriesRow, ...]  # by name
    years: tuple[YearCount, ...]  # newest first
    row_of: Mapping[str, SeriesRow]  # venue id -> its row

    @property
    def largest(self) -> tuple[SeriesRow, ...]:
        """The ``HOME_SERIES`` rows with the most papers (the home page's), most first."""
        return tuple(sorted(self.rows, key=lambda r: (-r.count, r.name.casefold(), r.key))[:HOME_SERIES])


def _strip_year(text: str, year: int) -> str:
    stripped = re.sub(rf"(?<!\d)\s*'?{year}(?!\d)", "", text).strip(" -–—,:;")
    return " ".join(stripped.split())


def row_key(ref: VenueRef, full_name: str) -> tuple[str, str, str]:
    """(key, name, full name) of the row of a venue (see ``venue_table``)."""
    found = series_of(ref.id)
    if found is not None:
        s = found.series
        if found.part == FINDINGS:
            return f"findings-{s.id}", f"Findings of {s.short}", f"Findings of the {s.full_name}"
        if found.part == WORKSHOPS:
            return f"{s.id}-workshops", f"{s.short} Workshops", f"Workshops of the {s.full_name}"
        return s.id, s.short, s.full_name
    match = re.fullmatch(r"(.+?)-?(\d{4})", ref.id)
    if match and int(match.group(2)) == ref.year:
        return (match.group(1), _strip_year(ref.name, ref.year) or ref.name,
                _strip_year(full_name, ref.year) or full_name)
    return ref.id, ref.name, full_name


def venue_table(venues: Iterable[VenueView]) -> VenueTable:
    """The venues as rows of series by year, and the years (see the module docstring)."""
    cells: dict[str, list[SeriesCell]] = defaultdict(list)
    names: dict[str, tuple[str, str]] = {}
    by_year: dict[int, list[int]] = defaultdict(list)
    for v in venues:
        key, name, full = row_key(v.ref, v.venue.full_name)
        names.setdefault(key, (name, full))
        cells[key].append(SeriesCell(v.ref.year, v.ref, len(v.papers)))
        by_year[v.ref.year].append(len(v.papers))
    rows = [SeriesRow(key, *names[key], tuple(sorted(found, key=lambda c: (-c.year, c.venue.name.casefold()))),
                      sum(c.count for c in found))
            for key, found in cells.items()]
    rows.sort(key=lambda r: (r.name.casefold(), r.key))
    row_of = {c.venue.id: row for row in rows for c in row.cells}
    years = tuple(YearCount(y, sum(counts), len(counts)) for y, counts in sorted(by_year.items(), reverse=True))
    return VenueTable(tuple(rows), years, row_of)


@dataclass(frozen=True, slots=True)
class SeriesCount:
    """A series an author published at: its row on /venues/ and the author's papers there."""

    name: str
    url: str
    count: int


def series_counts(papers: Iterable[PaperView], table: VenueTable,
                  shown: int = AUTHOR_SERIES_SHOWN) -> tuple[SeriesCount, ...]:
    """The series of ``papers`` with how many each, most first (then by name), at most ``shown``."""
    counts: dict[str, int] = defaultdict(int)
    rows: dict[str, SeriesRow] = {}
    for p in papers:
        row = table.row_of[p.venue.id]
        counts[row.key] += 1
        rows[row.key] = row
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], rows[kv[0]].name.casefold(), kv[0]))
    return tuple(SeriesCount(rows[k].name, rows[k].url, n) for k, n in ordered[:shown])


# ---------------------------------------------------------------------------------------
# Lists in groups
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PaperGroup:
    """Papers under one heading on one page of a grouped list."""

    heading: str  # "NeurIPS 2019", "2024"
    url: str | None  # what the heading links to
    total: int  # papers of the group on every page
    papers: tuple[PaperView, ...]  # those on this page
    continued: bool = False  # the group began on an earlier page

    @property
    def anchor(self) -> str:
        return "group-" + re.sub(r"[^a-z0-9]+", "-", self.heading.casefold()).strip("-")


def grouped_pages(groups: Sequence[tuple[str, str | None, Sequence[PaperView]]],
                  size: int) -> list[tuple[PaperGroup, ...]]:
    """``groups`` ((heading, url, papers) in order) cut into pages of ``size`` papers (one page
    at least); a group cut by a page's end goes on, ``continued``, at the top of the next."""
    pages: list[tuple[PaperGroup, ...]] = []
    current: list[PaperGroup] = []
    room = size
    for heading, url, papers in groups:
        start = 0
        while start < len(papers):
            if room == 0:
                pages.append(tuple(current))
                current, room = [], size
            part = tuple(papers[start:start + room])
            current.append(PaperGroup(heading, url, len(papers), part, start > 0))
            start += len(part)
            room -= len(part)
    pages.append(tuple(current))
    return pages


def by_year(papers: Sequence[PaperView]) -> list[tuple[str, str | None, list[PaperView]]]:
    """``papers`` in groups by their venue's year, newest first (each year in the list's order)."""
    years: dict[int, list[PaperView]] = defaultdict(list)
    for p in papers:
        years[p.venue.year].append(p)
    return [(str(y), year_page(y), years[y]) for y in sorted(years, reverse=True)]


def by_venue(papers: Sequence[PaperView], table: VenueTable) -> list[tuple[str, str | None, list[PaperView]]]:
    """``papers`` in groups by venue, the venues by their row's name (then their own)."""
    venues: dict[str, list[PaperView]] = defaultdict(list)
    refs: dict[str, VenueRef] = {}
    for p in papers:
        venues[p.venue.id].append(p)
        refs[p.venue.id] = p.venue.base or p.venue  # the venue's own ref, not a track's
    order = sorted(refs, key=lambda vid: (table.row_of[vid].name.casefold(), refs[vid].name.casefold(), vid))
    return [(refs[vid].name, refs[vid].url, venues[vid]) for vid in order]


# ---------------------------------------------------------------------------------------
# Authors A–Z
# ---------------------------------------------------------------------------------------


def letter_of(name: str) -> str:
    """The index letter of a name: the first letter of its family name, a-z, else ``OTHER_LETTER``."""
    family = family_key(name)[0]
    return family[0] if family and family[0] in LETTERS else OTHER_LETTER


def author_letters(authors: Iterable[AuthorView]) -> dict[str, list[AuthorView]]:
    """The authors by index letter (a-z, then ``OTHER_LETTER``; only letters that have some),
    each letter's by family name, then name and slug."""
    found: dict[str, list[AuthorView]] = defaultdict(list)
    for a in authors:
        found[letter_of(a.ref.name)].append(a)
    return {letter: sorted(found[letter], key=lambda a: (family_key(a.ref.name), a.ref.slug))
            for letter in LETTERS + OTHER_LETTER if letter in found}


@dataclass(frozen=True, slots=True)
class LetterLink:
    letter: str  # "a" … "z", OTHER_LETTER
    label: str  # "A" … "Z", "Other"
    count: int  # people with a page under it
    url: str | None  # None: nobody under this letter (the index shows it without a link)

    @property
    def is_other(self) -> bool:
        """The page of the names that start with no letter a-z."""
        return self.letter == OTHER_LETTER


def letter_nav(by_letter: Mapping[str, Sequence[AuthorView]]) -> tuple[LetterLink, ...]:
    """A link per letter of the index, a-z and then the others, with its count."""
    links = []
    for letter in LETTERS + OTHER_LETTER:
        count = len(by_letter.get(letter, ()))
        label = "Other" if letter == OTHER_LETTER else letter.upper()
        links.append(LetterLink(letter, label, count, author_letter_page(letter) if count else None))
    return tuple(links)
