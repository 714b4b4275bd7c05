"""Trends: papers per year and venue, and each tag's and topic's share of the papers by year.

A year's share of a tag is the part of that year's papers that carry it (a paper may carry
several tags; it is in exactly one topic). The **rise** of a tag or topic is its share in
the last ``RECENT`` years with papers against its share in the ``BEFORE`` years before
them, in percentage points; those with at least ``MIN_RECENT`` papers in the recent years
and the largest rise are named first (``risers``). With papers from fewer than
``RECENT + 1`` years there are no risers, only the counts.

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

    def of_tag(self, tag_id: str) -> YearBars | None:
        return self.tag_years.get(tag_id)


_YEAR = re.compile(r"\s*(?:\(?\d{4}\)?)\s*$")


def series(name: str) -> str:
    """A venue's series: its name without the year ("ICLR 2024" -> "ICLR")."""
    return _YEAR.sub("", name) or name


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

    def row(name: str, url: str | None, years: Counter, total: int) -> TrendRow:
        chart = year_bars(shares, [years.get(y, 0) / per_year[y] if per_year.get(y) else 0.0 for y in shares],
                          "of the papers", percent=True) if len(shares) > 1 else None
        if not measured:
            return TrendRow(name, url, total, chart)
        now = _share(years, per_year, recent)
        then = _share(years, per_year, before)
        rise = round((now - then) * 100, 1) if sum(years.get(y, 0) for y in recent) >= MIN_RECENT else None
        text = "" if rise is None else (f"{rise:+.1f} points: {now * 100:.1f}% in {_span(recent)} "
                                        f"against {then * 100:.1f}% in {_span(before)}")
        return TrendRow(name, url, total, chart, rise, text)

    tag_rows = _ranked([row(t.ref.name, t.ref.url, Counter(p.venue.year for p in t.papers), len(t.papers))
                        for t in tags if t.papers])
    topic_rows = _ranked([row(t.ref.name, t.ref.url, Counter(p.venue.year for p in t.papers), len(t.papers))
                          for t in topics or ()])
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
        shares_from=shares[0],
    )


def _share(years: Counter, per_year: Counter, window: list[int]) -> float:
    total = sum(per_year.get(y, 0) for y in window)
    return sum(years.get(y, 0) for y in window) / total if total else 0.0


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
