"""Known conference series (the data in ``series.toml``, shipped in the package): NeurIPS,
ICML, ICLR, CVPR, ACL … — how records name them, and what their venues are called.

* ``find_series(text)``: the series a record's container names ("Advances in Neural
  Information Processing Systems 32", "Proc. of ICML 2019", "Findings of EMNLP 2020"), and
  which part of it: the main conference, its ``findings`` volume (ACL's family) or its joint
  ``workshops`` proceedings; a named workshop, a track or a tutorial is no part of a series
  (it is a venue of its own, named after itself).
* ``Series.venue(year, part)``: what a venue of the series is — id ``neurips-2019`` (parts:
  ``findings-emnlp-2020``, ``cvpr-2023-workshops``), name "NeurIPS 2019", full name the
  proceedings' ("Advances in Neural Information Processing Systems 32", "Proceedings of the
  36th International Conference on Machine Learning"), URL.
* ``series_of(venue)``: the series and part of a venue (a ``Venue`` or its id), by the id the
  importers give (``neurips-2019``, ``findings-acl-2022``, ``cvpr-2023-workshops``); None for
  any other venue. For the venue table by series and year and a BibTeX ``booktitle`` of the
  proceedings' name (``SeriesVenue.proceedings``).
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .words import ascii_lower

TABLE = "series.toml"
MAIN, FINDINGS, WORKSHOPS = "main", "findings", "workshops"

# A container that names one of these is not the main conference (the part decides what it is).
_PART_WORDS = re.compile(r"\b(workshops?|findings|tracks?|tutorials?|symposium|symposia|demos?|demonstrations?|"
                         r"student research|doctoral|competitions?|challenges?|companion|extended abstracts?|"
                         r"adjunct|short papers|asia)\b", re.IGNORECASE)  # "SIGGRAPH Asia" is another conference
# Words a container of a series' generic workshop or findings volume may hold besides the series' names.
_FILLER = frozenset("proceedings proc of the in on and ieee cvf acm rsj isca conference annual international "
                    "workshops workshop findings association for computational linguistics volume vol part".split())
# Capitalised words that name no other conference: an acronym outside these and the series' own
# ("ICMLA" in "… Conference on Machine Learning and Applications (ICMLA)") means another conference.
_NEUTRAL_CAPS = frozenset("IEEE CVF ACM RSJ SIAM PMLR ISCA AAAI LNCS LNAI HLT IJCNLP ECAI USA UK EU SIG JMLR "
                          "AI ML NLP CV II III IV VI VII VIII IX XI XII XIII XIV XV XVI XVII XVIII XIX XX".split())
_CAPS = re.compile(r"(?<![\w])[A-Z][A-Z0-9]*[A-Z](?=\d\d(?:\d\d)?(?![\w])|(?![\w]))")  # "CVPR", "CVPR2024" -> "CVPR"
# IEEE's catalogue numbers: "Proceedings 1999 IEEE … (Cat. No PR00149)", "(Cat. No.02CH37292)".
_CATALOGUE = re.compile(r"\(\s*cat\.?\s*no[^)]*\)?", re.IGNORECASE)
_ROMAN = (("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90), ("L", 50), ("XL", 40),
          ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))


def ordinal(n: int) -> str:
    """``1`` → "1st", ``22`` → "22nd", ``13`` → "13th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def roman(n: int) -> str:
    """``15`` → "XV"."""
    out = []
    for letters, value in _ROMAN:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def normalized(text: str) -> str:
    """Lower-case words of ``text``: accents folded, punctuation a space, "proceedings of the",
    ordinals, years and other numbers dropped (how series names are compared)."""
    text = ascii_lower(text)
    text = re.sub(r"[^\w\s]+|_", " ", text)
    text = re.sub(r"\b(\d+(st|nd|rd|th)|\d+|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                  r"proceedings|proc|of the|the)\b", " ", text)
    return " ".join(text.split())


@dataclass(frozen=True)
class SeriesVenue:
    """A venue of a series: one year, one part (see the module docstring)."""

    series: "Series"
    year: int
    part: str  # MAIN, FINDINGS or WORKSHOPS
    id: str
    name: str  # "NeurIPS 2019", "Findings of EMNLP 2020", "CVPR 2023 Workshops"
    proceedings: str  # the proceedings' name: a venue's full name, a BibTeX booktitle
    url: str | None


@dataclass(frozen=True)
class Series:
    id: str
    short: str
    full_name: str
    acronyms: tuple[str, ...]
    names: tuple[str, ...]  # normalized, longest first
    proceedings: str
    number_base: int | None = None
    step: int = 1
    numbered_from: int | None = None
    proceedings_before: str | None = None
    url: str | None = None
    findings: str | None = None
    workshops: str | None = None
    field: str | None = None  # the research field of its papers ("vision", "language"): tag hints

    def number(self, year: int) -> int | None:
        """The year's volume or edition (NeurIPS 2019: 32), None where the series has no numbering."""
        if self.number_base is None or (self.numbered_from is not None and year < self.numbered_from):
            return None
        number, rest = divmod(year - self.number_base, self.step)
        return number if number >= 1 and not rest else None

    def proceedings_of(self, year: int) -> str:
        """The name of the year's proceedings (see the module docstring)."""
        number = self.number(year)
        numbered = any(f"{{{k}}}" in self.proceedings for k in ("number", "ordinal", "roman"))
        if numbered and number is None:
            template = self.proceedings_before or f"Proceedings of the {self.full_name} {{year}}"
        else:
            template = self.proceedings
        return template.format(year=year, number=number, ordinal=ordinal(number or 0), roman=roman(number or 0))

    def venue(self, year: int, part: str = MAIN) -> SeriesVenue:
        """The venue of ``year``'s ``part`` (MAIN, or FINDINGS / WORKSHOPS where the series has them)."""
        if part == FINDINGS and self.findings:
            return SeriesVenue(self, year, part, f"findings-{self.id}-{year}", f"Findings of {self.short} {year}",
                               self.findings.format(year=year), None)
        if part == WORKSHOPS and self.workshops:
            return SeriesVenue(self, year, part, f"{self.id}-{year}-workshops", f"{self.short} {year} Workshops",
                               self.workshops.format(year=year), None)
        return SeriesVenue(self, year, MAIN, f"{self.id}-{year}", f"{self.short} {year}", self.proceedings_of(year),
                           self.url.format(year=year) if self.url else None)


def _series(sid: str, raw: dict[str, Any]) -> Series:
    known = {"short", "full_name", "acronyms", "names", "proceedings", "number_base", "step", "numbered_from",
             "proceedings_before", "url", "findings", "workshops", "field"}
    if set(raw) - known or not all(isinstance(raw.get(k), str) for k in ("short", "full_name", "proceedings")):
        raise ValueError(f"{TABLE}: [{sid}] needs short, full_name and proceedings, and only {sorted(known)}")
    names = {normalized(n) for n in (raw["full_name"], *raw.get("names", ()))} - {""}
    return Series(sid, raw["short"], raw["full_name"], tuple(raw.get("acronyms", (raw["short"],))),
                  tuple(sorted(names, key=len, reverse=True)), raw["proceedings"], raw.get("number_base"),
                  raw.get("step", 1), raw.get("numbered_from"), raw.get("proceedings_before"), raw.get("url"),
                  raw.get("findings"), raw.get("workshops"), raw.get("field"))


def parse_table(text: str) -> dict[str, Series]:
    """The series of ``text`` (the TOML of ``series.toml``), by id."""
    return {sid: _series(sid, raw) for sid, raw in tomllib.loads(text).items()}


@functools.cache
def table() -> dict[str, Series]:
    """The shipped series, by id, in table order."""
    return parse_table(resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8"))


@functools.cache
def _acronyms() -> tuple[re.Pattern[str], dict[str, Series]]:
    owners = {}
    for series in table().values():
        for acronym in series.acronyms:
            owners.setdefault(acronym, series)
            owners.setdefault(acronym.upper(), series)
    alternatives = "|".join(sorted(map(re.escape, owners), key=len, reverse=True))
    # An acronym is a whole word, or written with its year: "CVPR2024", "ICLR24".
    return re.compile(rf"(?<![\w])({alternatives})(?=\d\d(?:\d\d)?(?![\w])|(?![\w]))"), owners


@functools.lru_cache(maxsize=4096)
def find_series(text: str) -> tuple[Series, str] | None:
    """(series, part) named by a record's container ``text`` (see the module docstring), or None."""
    text = _CATALOGUE.sub(" ", text)
    norm = f" {normalized(text)} "
    best: tuple[int, Series] | None = None
    for series in table().values():
        score = next((len(name) for name in series.names if f" {name} " in norm), 0)
        if score and (best is None or score > best[0]):
            best = (score, series)
    pattern, owners = _acronyms()
    named = [owners[m.group(1)] for m in pattern.finditer(text)]
    if best is None and named:
        best = (0, named[0])
    if best is None:
        return None
    series = best[1]
    others = {word for word in _CAPS.findall(text) if word not in _NEUTRAL_CAPS
              and owners.get(word) is not series and word.upper() not in {a.upper() for a in series.acronyms}}
    if others and series not in named:
        return None  # "(ICMLA)": another conference whose long name holds this one's
    part_words = {m.group(1).lower() for m in _PART_WORDS.finditer(text)}
    if not part_words:
        return series, MAIN
    rest = set(norm.split()) - _FILLER - {w.lower() for a in series.acronyms for w in normalized(a).split()}
    rest -= {word for name in series.names for word in name.split()}
    if part_words <= {"findings"} and series.findings and not rest:
        return series, FINDINGS
    if part_words <= {"workshop", "workshops"} and series.workshops and not rest:
        return series, WORKSHOPS
    return None


def series_of(venue: Any) -> SeriesVenue | None:
    """The series venue of ``venue`` (a ``Venue``, or a venue id) by its id: ``neurips-2019``,
    ``findings-acl-2022``, ``cvpr-2023-workshops``; None for a venue of no known series."""
    vid = venue if isinstance(venue, str) else getattr(venue, "id", "")
    match = re.fullmatch(r"(findings-)?([a-z0-9]+)-(\d{4})(-workshops)?", vid)
    if not match or (match.group(1) and match.group(4)):
        return None
    series = table().get(match.group(2))
    if series is None:
        return None
    part = FINDINGS if match.group(1) else WORKSHOPS if match.group(4) else MAIN
    found = series.venue(int(match.group(3)), part)
    return found if found.id == vid else None


def full_name_of(venue: Any) -> str:
    """A venue's full name as citations give it (a BibTeX ``booktitle``): its own, unless that
    only repeats its short name ("RSS 2025") and the venue is of a known series, whose
    proceedings' name it then is."""
    if venue.full_name.strip() != venue.name.strip():
        return venue.full_name
    found = series_of(venue)
    return found.proceedings if found is not None else venue.full_name
