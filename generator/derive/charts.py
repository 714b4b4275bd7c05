"""Chart geometry, made at build time: bars by year as one SVG path, with their numbers.

Templates draw what is computed here and compute nothing: a ``YearBars`` holds the path of
its bars (one ``<path>``: a few bytes per bar, however many bars), the year labels to print
under them, the largest value, and every (year, value) pair for the text beside the chart.
Heights are in a ``viewBox`` of ``WIDTH`` x ``HEIGHT`` units; the SVG scales to its box
(``preserveAspectRatio="none"`` keeps the bars full width on a 320 px phone). Values are
rounded to one decimal in the path, so the bytes do not hang on float noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

WIDTH = 300
HEIGHT = 60
GAP = 0.2  # share of a bar's slot left empty


@dataclass(frozen=True, slots=True)
class YearValue:
    year: int
    value: float
    text: str  # the value as the page says it ("12", "3.4%")


@dataclass(frozen=True, slots=True)
class YearBars:
    """Bars by year: ``path`` (SVG, in a ``WIDTH`` x ``HEIGHT`` box), ``ticks`` (years to
    label, with their x in percent of the width), the numbers (``values``) and a summary."""

    path: str
    values: tuple[YearValue, ...]
    ticks: tuple[tuple[int, float], ...]
    largest: str
    summary: str  # one sentence: the range and the peak, for the text alternative
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def first(self) -> int:
        return self.values[0].year

    @property
    def last(self) -> int:
        return self.values[-1].year


def _number(x: float) -> str:
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def year_bars(years: Sequence[int], values: Sequence[float], unit: str = "papers", percent: bool = False,
              ticks: int = 4) -> YearBars | None:
    """The bars of ``values`` (one per year of ``years``, consecutive); None without years.
    ``percent``: the values are shares (0..1), said as percentages."""
    if not years:
        return None
    top = max(values) if values else 0.0
    slot = WIDTH / len(years)
    bar = slot * (1 - GAP)
    parts = []
    for i, v in enumerate(values):
        if v <= 0 or top <= 0:
            continue
        h = max(HEIGHT * v / top, 0.8)  # a value above 0 always shows
        parts.append(f"M{_number(i * slot + (slot - bar) / 2)} {HEIGHT}v-{_number(h)}h{_number(bar)}v{_number(h)}z")
    said = [f"{v * 100:.1f}%" if percent else f"{v:,.0f}" if v == int(v) else f"{v:,}" for v in values]
    entries = tuple(YearValue(y, v, t) for y, v, t in zip(years, values, said))
    step = max(1, -(-len(years) // ticks))
    marks = list(range(0, len(years), step))
    if marks[-1] != len(years) - 1 and len(years) > 1:
        if len(years) - 1 - marks[-1] < step / 2:
            marks[-1] = len(years) - 1
        else:
            marks.append(len(years) - 1)
    tick_marks = tuple((years[i], round(100 * (i + 0.5) / len(years), 2)) for i in marks)
    peak = max(range(len(values)), key=lambda i: (values[i], -i)) if values else 0
    largest = said[peak] if values else "0"
    summary = (f"{years[0]}–{years[-1]}: from {said[0]} to {said[-1]} {unit}; most in {years[peak]} ({largest})"
               if len(years) > 1 else f"{years[0]}: {said[0]} {unit}")
    return YearBars("".join(parts), entries, tick_marks, largest, summary)
