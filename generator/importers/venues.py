"""The venue of each imported record (``choose_venue``): ``--venue ID`` for every record;
else its container's name (BibTeX ``booktitle``, CSL ``container-title``, an OpenReview
venue, ...) and year: an existing venue with that name (short or full, ignoring
"Proceedings of the", ordinals and the year) and year; else a known conference (the seed
importer's list: ICLR, ICML, NeurIPS, …, by acronym or full name) as ``<acronym>-<year>``;
else a new venue named after the container, planned as a ``PlannedVenue`` with its file text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..content.model import Venue
from ..content.slugs import slugify
from .common import KNOWN_VENUES, clean_line, venue_file_text

_ORDINAL = re.compile(r"\b(\d+(st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b")
_NOT_THE_MAIN_CONFERENCE = re.compile(r"\b(workshops?|findings|tracks?|tutorials?|symposium)\b", re.IGNORECASE)
_PREPRINT_SERVERS = frozenset({"arxiv", "biorxiv", "medrxiv", "chemrxiv", "psyarxiv", "ssrn", "techrxiv"})
_PROCEEDINGS = re.compile(r"^(proceedings|proc)\.?\s+(of\s+)?(the\s+)?")


def _venue_norm(name: str, year: int | None = None) -> str:
    text = unicodedata.normalize("NFKD", name).casefold()
    text = re.sub(r"[^\w\s/]+", " ", text)
    text = " ".join(text.split())
    text = _PROCEEDINGS.sub("", text)
    text = _ORDINAL.sub(" ", text)
    if year is not None:
        text = re.sub(rf"\b{year}\b|'{str(year)[2:]}\b", " ", text)
    text = re.sub(r"\b(19|20|21)\d\d\b", " ", text)
    text = re.sub(r"\(.*?\)", " ", text)
    return " ".join(text.split())


def _known_venue(container: str) -> tuple[str, str, str | None] | None:
    """(short name, full name, URL template) of a known conference named in ``container``."""
    norm = " " + _venue_norm(container) + " "
    best: tuple[int, tuple[str, str, str | None]] | None = None
    for key, known in KNOWN_VENUES.items():
        short, full, _ = known
        full_norm = _venue_norm(full)
        tail = full_norm.rsplit("conference on ", 1)[-1]
        candidates = [full_norm] + ([tail] if len(tail.split()) >= 4 else [])
        score = max((len(c) for c in candidates if f" {c} " in norm), default=0)
        if not score and re.search(rf"(?<![\w-]){re.escape(short)}(?![\w-])", container):
            score = len(short)  # the acronym as a word, in its own capitals: "ICML"
        if score and (best is None or score > best[0]):
            best = (score, known)
    return best[1] if best else None


@dataclass
class PlannedVenue:
    """A venue file to create: its id, names, year and file text."""

    id: str
    name: str
    full_name: str
    year: int
    text: str


def choose_venue(container: str | None, year: int | None, location: str | None, forced: str | None,
                 venues: dict[str, Venue], new_venues: dict[str, PlannedVenue], warnings: list[str],
                 where: str) -> str | None:
    """The venue id for a record (see the module docstring), planning a new venue in
    ``new_venues`` when there is none yet; None when there is no container name or year to
    take it from (the caller reports that, in its format's terms)."""
    if forced is not None:
        if year is not None and year != venues[forced].year:
            warnings.append(f"{where}: year {year} differs from the year of venue {forced!r} "
                            f"({venues[forced].year}); the venue is used")
        return forced
    if container is None or not container.strip() or year is None:
        return None
    container = clean_line(container.replace("{", "").replace("}", ""))
    norm = _venue_norm(container, year)
    candidates = [(v.id, v.name, v.full_name, v.year) for v in venues.values()]
    candidates += [(v.id, v.name, v.full_name, v.year) for v in new_venues.values()]
    for vid, name, full_name, venue_year in candidates:
        if venue_year == year and norm in (_venue_norm(full_name, year), _venue_norm(name, year)):
            return vid
    # A workshop, track or Findings volume of a known conference is a venue of its own.
    known = None if _NOT_THE_MAIN_CONFERENCE.search(container) else _known_venue(container)
    if known is not None:
        short, full, url_template = known
        vid = slugify(f"{short} {year}")
        if vid in venues or vid in new_venues:
            return vid
        name, full_name = f"{short} {year}", f"{full} {year}"
        url = url_template.format(year=year) if url_template else None
        description = f"Papers presented at {name}, the {full}."
    else:
        name = full_name = container if str(year) in container else f"{container} {year}"
        vid = slugify(full_name) or f"venue-{year}"
        if vid in venues:
            # Another venue already has this id (a different name): do not mix them.
            n = 2
            while f"{vid[:75]}-{n}" in venues or f"{vid[:75]}-{n}" in new_venues:
                n += 1
            vid = f"{vid[:75]}-{n}"
        url = None
        description = (f"Preprints posted on {container} in {year}." if container.casefold() in _PREPRINT_SERVERS
                       else f"Papers presented at {name}.")
    if vid not in new_venues:
        location = clean_line(location) if location else None
        new_venues[vid] = PlannedVenue(vid, name, full_name, year,
                                        venue_file_text(name, full_name, year, url, location, description))
    return vid

