"""What every importer repairs in a record before it becomes a paper file, counted for the
import's summary (``Repairs``), so that whatever an import writes, the build accepts:

* ``text``: PDF debris in a title or abstract (``content.debris``: "improve(cid:173) ment"
  → "improvement", ligatures, unknown ``(cid:N)`` codes dropped); then wrapping quotes,
  citations and the LaTeX the site renders (``text_repairs``);
* ``authors``: author names (``names.NameCleaner``: lists split, footnote marks, affiliation
  digits, LaTeX, ALL-CAPS, a name listed twice — also as two spellings of one person of
  ``authors.toml``, which the build refuses);
* ``count_pdf``: whether the paper will have a PDF, by its ``pdf`` link or by the rule of the
  host of its landing page, OpenReview forum or arXiv abstract (``content.hosts``), counted by
  host for the summary. The importers do not write that PDF into the file: the build derives
  it from the one table (``derive.urls.pdf_url``), so a rule added or fixed later serves the
  papers already imported;
* ``duplicate``: a paper given twice (``content.duplicates``, the build's own rule): an exact
  duplicate (same title, venue and authors) is skipped; a suspected one (same abstract, or
  same title and authors at another venue …) is kept, as the build keeps it, and listed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from ..content import debris
from ..content.duplicates import DuplicateCheck
from ..content.hosts import host_name
from ..content.model import Person
from ..content.people import spelling_owners
from ..derive.urls import pdf_url
from .names import NameCleaner
from .text_repairs import TextRepairs

SHOWN = 20  # lines listed per kind in a summary; the rest are counted


def listed(lines: Sequence[str], limit: int = SHOWN) -> list[str]:
    """``lines`` as a summary's items: the first ``limit``, then how many more."""
    shown = [f"  - {line}" for line in lines[:limit]]
    if len(lines) > limit:
        shown.append(f"  - … and {len(lines) - limit:,} more")
    return shown


@dataclass
class Repairs:
    """The repairs of one import, and their counts (see the module docstring)."""

    people: tuple[Person, ...] = ()
    names: NameCleaner = field(default_factory=NameCleaner)
    debris: Counter = field(default_factory=Counter)
    debris_texts: list[str] = field(default_factory=list)  # where debris was repaired
    pdfs: Counter = field(default_factory=Counter)  # host name (or "pdf link") -> papers with a PDF so
    no_pdf: int = 0  # papers left with "Find PDF"
    skipped: list[str] = field(default_factory=list)  # exact duplicates, not imported
    kept: list[str] = field(default_factory=list)  # suspected duplicates, imported
    check: DuplicateCheck = field(default_factory=DuplicateCheck)
    texts: TextRepairs = field(default_factory=TextRepairs)

    def __post_init__(self) -> None:
        self.names.owners = spelling_owners(self.people)

    def text(self, text: str, where: str, *, title: bool = False) -> str:
        """``text`` without PDF debris, wrapping quotes and the citations it reads well without."""
        if debris.MARK in text or "\u00ad" in text:
            text, changes = debris.repair(text)
            if changes:
                self.debris.update(changes)
                self.debris_texts.append(f"{where}: {debris.describe(changes)}")
        return self.texts.repair(text, where, title=title)

    def authors(self, names: Sequence[str], where: str) -> list[str]:
        return self.names.clean(names, where)

    def count_pdf(self, links: Sequence[tuple[str, str]]) -> None:
        """Count where the paper's PDF comes from (see the module docstring)."""
        kinds = dict(links)
        pdf = pdf_url(kinds)
        if pdf is None:
            self.no_pdf += 1
        else:
            self.pdfs["its pdf link" if "pdf" in kinds else (host_name(pdf) or "other")] += 1

    def duplicate(self, where: str, title: str, venue: str, authors: Sequence[str], abstract: str) -> bool:
        """Whether the record is an exact duplicate of one before it (skip it); a suspected
        duplicate is noted and kept."""
        repeats = self.check.check(where, title, venue, authors, abstract)
        if any(r.exact for r in repeats):
            self.skipped.append(f"{where}: {repeats[0].message()}; skipped")
            return True
        self.kept.extend(f"{where}: {r.message()}" for r in repeats)
        return False

    def summary_lines(self) -> list[str]:
        lines = self.names.summary_lines()
        lines.extend(self.texts.summary_lines(listed))
        if self.debris:
            lines.append(f"PDF debris repaired in {len(self.debris_texts):,} texts: {debris.describe(self.debris)}:")
            lines.extend(listed(self.debris_texts))
        if self.pdfs or self.no_pdf:
            lines.append(f"Papers with a PDF: {sum(self.pdfs.values()):,} ("
                         + ", ".join(f"{host} {n:,}" for host, n in self.pdfs.most_common())
                         + f"); without one (\"Find PDF\"): {self.no_pdf:,}.")
        if self.skipped:
            lines.append(f"Duplicates skipped ({len(self.skipped):,}; same title, venue and authors):")
            lines.extend(listed(self.skipped))
        if self.kept:
            lines.append(f"Likely duplicates kept ({len(self.kept):,}; the build warns about them, "
                         f"`papershelf check` lists them):")
            lines.extend(listed(self.kept))
        return lines
