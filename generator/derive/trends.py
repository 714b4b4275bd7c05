"""Trends: papers per year and venue, and each tag's and topic's share of the papers by year.

A year's share of a tag is the part of that year's papers that carry it (a paper may carry
several tags; it is in exactly one topic). The **rise** of a tag or topic is its share in
the last ``RECENT`` years with papers against its share in the ``BEFORE`` years before
them, in percentage points; those with at least ``MIN_RECENT`` papers in the recent years
and the largest rise are named first (``risers``). With papers from fewer than
``RECENT + 1`` years there are no risers, only the counts.

A rise compares like with like: the share is taken within each venue series (``series``:
"ICLR 2024" is ICLR) that has papers in both periods, and those shares are averaged,
weighted by the series' papers in the two periods. A catalog whose make-up changed (2024
holds only SIGGRAPH papers, 2021 none) would otherwise show the field of the new venues
"rising" by tens of points; here papers of a series in one period only are left out, and
``Trends.makeup`` says so (with no series in both periods, no rise is measured).

Share charts cover the last ``SHARE_YEARS`` years (where trends are read; it keeps the
trends page small at 300 topics), the papers-per-year charts every year from the first
to the last. Each chart carries its numbers (``charts.YearBars``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

from .charts import YearBars, year_bars

RECENT = 2
BEFORE = 3
MIN_RECENT = 3
RISERS = 5
SHARE_YEARS = 15
VENUES_SHOWN = 12  # venue series with a row of their own; the rest are summed in one


@dataclass(frozen=True, slots=True)
class TrendRow:
    """A tag, topic or venue series over the years: ``item`` (a ref with ``name`` and ``url``,
    or None for a venue series), its total, its chart, and its rise (None: not measured)."""

    name: str
    url: str | None
    total: int
    chart: YearBars | None
    rise: float | None = None
    rise_text: str = ""  # "+3.2 points: 4.1% in 2025–2026 against 0.9% in 2022–2024"


@dataclass(frozen=True, slots=True)
class Trends:
    years: YearBars | None  # papers per year, all of them
    venues: tuple[TrendRow, ...]  # papers per year of each venue series
    tags: tuple[TrendRow, ...]  # share by year, fastest risers first
    topics: tuple[TrendRow, ...]
    tag_risers: tuple[TrendRow, ...]
    topic_risers: tuple[TrendRow, ...]
    recent: str  # "2025–2026" (empty without risers)
    before: str
    tag_years: Mapping[str, YearBars]  # tag id -> its papers per year
    first: int | None = None
    last: int | None = None
    shares_from: int | None = None  # the first year of the share charts
    makeup: str = ""  # how the venues of the two periods differ, when they do (for the page)

    def of_tag(self, tag_id: str) -> YearBars | None:
        return self.tag_years.get(tag_id)


# A year or an edition's number inside a name ("Proceedings of the 57th Annual Meeting ...",
# "... of the 2019 Conference ...", "the Fourth Workshop on ..."): each year's name differs by it.
_NUMBERING = re.compile(
    r"\b(?:19|20)\d{2}\b|\b\d+(?:st|nd|rd|th)\b|\b(?:(?:twenty|thirty|forty|fifty|sixty)[- ]?)?"
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|fortieth|fiftieth)\b",
    re.IGNORECASE)


def series(name: str) -> str:
    """A venue's series: its name without the year ("ICLR 2024" -> "ICLR") or the edition's
    number ("Proceedings of the 57th Annual Meeting of the ACL" and "... 58th ..." are one)."""
    spaced = " ".join(_NUMBERING.sub(" ", name).split())
    return re.sub(r"\s*\(\s*\)|(?<=\()\s+|\s+(?=\))", "", spaced).strip() or name


def site_trends(papers: Sequence, tags: Sequence, topics: Sequence | None) -> Trends:
    """``papers``: ``PaperView``s; ``tags``: ``TagView``s; ``topics``: ``TopicView``s or None."""
    per_year = Counter(p.venue.year for p in papers)
    if not per_year:
        return Trends(None, (), (), (), (), (), "", "", {})
    first, last = min(per_year), max(per_year)
    span = list(range(first, last + 1))
    shares = span[-SHARE_YEARS:]
    with_papers = [y for y in span if per_year.get(y)]
    measured = len(with_papers) > RECENT
    recent = with_papers[-RECENT:] if measured else []
    before = with_papers[-RECENT - BEFORE:-RECENT] if measured else []

    periods = _Periods(papers, recent, before) if measured else None

    def row(name: str, url: str | None, members: Sequence, total: int) -> TrendRow:
        years = Counter(p.venue.year for p in members)
        chart = year_bars(shares, [years.get(y, 0) / per_year[y] if per_year.get(y) else 0.0 for y in shares],
                          "of the papers", percent=True) if len(shares) > 1 else None
        if periods is None or not periods.both:
            return TrendRow(name, url, total, chart)
        now, then, recent_papers = periods.shares(members)
        rise = round((now - then) * 100, 1) if recent_papers >= MIN_RECENT else None
        text = "" if rise is None else (f"{rise:+.1f} points: {now * 100:.1f}% in {_span(recent)} "
                                        f"against {then * 100:.1f}% in {_span(before)}")
        return TrendRow(name, url, total, chart, rise, text)

    tag_rows = _ranked([row(t.ref.name, t.ref.url, t.papers, len(t.papers)) for t in tags if t.papers])
    topic_rows = _ranked([row(t.ref.name, t.ref.url, t.papers, len(t.papers)) for t in topics or ()])
    by_series: dict[str, Counter] = {}
    for p in papers:
        by_series.setdefault(series((getattr(p.venue, "base", None) or p.venue).name), Counter())[p.venue.year] += 1
    ordered = sorted(by_series.items(), key=lambda kv: (-sum(kv[1].values()), kv[0].casefold()))
    venue_rows = [_count_row(name, counts, span) for name, counts in ordered[:VENUES_SHOWN]]
    if len(ordered) > VENUES_SHOWN:
        rest: Counter = Counter()
        for _, counts in ordered[VENUES_SHOWN:]:
            rest.update(counts)
        venue_rows.append(_count_row(f"{len(ordered) - VENUES_SHOWN} other venues", rest, span))
    tag_years = {t.ref.id: chart for t in tags if t.papers
                 for chart in [_years(Counter(p.venue.year for p in t.papers), span)] if chart}
    return Trends(
        years=year_bars(span, [per_year.get(y, 0) for y in span]),
        venues=tuple(venue_rows), tags=tuple(tag_rows), topics=tuple(topic_rows),
        tag_risers=_risers(tag_rows), topic_risers=_risers(topic_rows),
        recent=_span(recent), before=_span(before), tag_years=tag_years, first=first, last=last,
        shares_from=shares[0], makeup=periods.note(_span(recent), _span(before)) if periods else "",
    )


class _Periods:
    """The papers of each venue series in the recent years and in the years before, and a
    list's shares within the series present in both (``shares``)."""

    def __init__(self, papers: Sequence, recent: list[int], before: list[int]):
        self.recent, self.before = set(recent), set(before)
        self.counts: dict[str, list[int]] = {}  # series -> [recent papers, earlier papers]
        for p in papers:
            period = self._period(p)
            if period is not None:
                self.counts.setdefault(series(p.venue.name), [0, 0])[period] += 1
        self.both = {s: c for s, c in self.counts.items() if c[0] and c[1]}
        self.weight = sum(sum(c) for c in self.both.values())

    def _period(self, paper) -> int | None:
        year = paper.venue.year
        return 0 if year in self.recent else 1 if year in self.before else None

    def shares(self, members: Sequence) -> tuple[float, float, int]:
        """``members``' share now and before (within each series in both periods, weighted
        by its papers in the two), and how many of them are recent papers of those series."""
        found: dict[str, list[int]] = {}
        for p in members:
            period = self._period(p)
            if period is not None:
                name = series(p.venue.name)
                if name in self.both:
                    found.setdefault(name, [0, 0])[period] += 1
        now = sum(sum(self.both[s]) * c[0] / self.both[s][0] for s, c in found.items()) / self.weight
        then = sum(sum(self.both[s]) * c[1] / self.both[s][1] for s, c in found.items()) / self.weight
        return now, then, sum(c[0] for c in found.values())

    def note(self, recent: str, before: str) -> str:
        """What the rises compare, when some series have papers in one period only ("" when
        every series is in both)."""
        only = sorted(((s, c) for s, c in self.counts.items() if s not in self.both),
                      key=lambda sc: (-sum(sc[1]), sc[0].casefold()))
        if not only:
            return ""
        if not self.both:
            return (f"No venue has papers in both {before} and {recent}: the catalog's venues changed, "
                    "so no rise is measured.")
        left = sum(sum(c) for _, c in only)
        total = left + self.weight
        names = ", ".join(s for s, _ in only[:3]) + (f" and {len(only) - 3} more" if len(only) > 3 else "")
        venues = f"{len(self.both)} venue{'s' if len(self.both) != 1 else ''}"
        return (f"The catalog's venues changed: {names} {'has' if len(only) == 1 else 'have'} papers in only one "
                f"of the two periods. Rises compare shares within the {venues} with papers in both "
                f"{before} and {recent} ({self.weight:,} of the {total:,} papers of those years).")


def _span(years: list[int]) -> str:
    if not years:
        return ""
    return str(years[0]) if len(years) == 1 else f"{years[0]}–{years[-1]}"


def _ranked(rows: list[TrendRow]) -> list[TrendRow]:
    """Fastest risers first, then those not measured by size; ties by name."""
    return sorted(rows, key=lambda r: (r.rise is None, -(r.rise or 0.0), -r.total, r.name.casefold()))


def _risers(rows: list[TrendRow]) -> tuple[TrendRow, ...]:
    return tuple(r for r in rows if r.rise is not None and r.rise > 0)[:RISERS]


def _count_row(name: str, counts: Counter, span: list[int]) -> TrendRow:
    return TrendRow(name, None, sum(counts.values()), _years(counts, span))


def _years(counts: Counter, span: list[int]) -> YearBars | None:
    return year_bars(span, [counts.get(y, 0) for y in span]) if len(span) > 1 else None
