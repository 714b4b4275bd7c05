"""The venue of each imported record (``Venues.choose``): ``--venue ID`` for every record;
else its container's name (BibTeX ``booktitle``, CSL ``container-title``, an OpenReview
venue, ...) and year:

1. an existing venue (or one planned by this import) with that name — short or full,
   ignoring "Proceedings of the", ordinals and the year — and that year;
2. else a venue of a known series (``content.series``: NeurIPS, ICML, CVPR …, by acronym or
   name): ``neurips-2019`` "NeurIPS 2019", its full name the proceedings' ("Advances in
   Neural Information Processing Systems 32"); a series' Findings volume or joint workshop
   proceedings is a venue of its own (``findings-emnlp-2020``, ``cvpr-2023-workshops``);
3. else a new venue named after the container (a named workshop, a journal …).

New venues are planned as ``PlannedVenue`` values with their file text. A container and
year are decided once per import (an archive has ~250 of them for 100,000 records), and the
catalog's venues are looked up by name through an index, not one by one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from typing import Sequence

from ..content.model import Venue
from ..content.series import MAIN, find_series, normalized, series_of, table
from ..content import frontmatter
from ..content.tracks import MAIN as MAIN_TRACK, STANDARD, anthology_id, main_title, track_from_title
from ..content.slugs import MAX_LENGTH, slugify
from .common import clean_line, venue_file_text

_PREPRINT_SERVERS = frozenset({"arxiv", "biorxiv", "medrxiv", "chemrxiv", "psyarxiv", "ssrn", "techrxiv"})


def _planned_location(text: str) -> str | None:
    found = re.search(r"^location: (.*)$", text, re.MULTILINE)
    return found.group(1).strip("'\"") if found else None


def _full_title(container: str) -> bool:
    """Whether a container is a proceedings' title in full ("Proceedings of the 20th Workshop
    on Biomedical Language Processing"), not a short name ("ICML 2024", "Proc. of ICML")."""
    return bool(re.match(r"(?i)(proceedings|actes) (of|de) ", container)) and len(container.split()) >= 6


def venue_key(name: str, year: int) -> str:
    """A venue's name as compared with a container's: ``series.normalized`` less the year
    ("'24" too) and anything in parentheses."""
    text = re.sub(r"\(.*?\)", " ", name)
    text = re.sub(rf"\b{year}\b|'{str(year)[2:]}\b", " ", text)
    return normalized(text)


def venue_id(name: str, year: int) -> str:
    """The id of a new venue named ``name`` (which names its year): its slug, always with the
    year: a name too long for a slug is cut before the year, not the year off it (two years
    of a long-named workshop are two venues)."""
    vid = slugify(name) or f"venue-{year}"
    if str(year) not in vid.split("-"):
        vid = f"{slugify(name, MAX_LENGTH - 5) or 'venue'}-{year}"
    return vid


@dataclass
class PlannedVenue:
    """A venue file to create: its id, names, year and file text."""

    id: str
    name: str
    full_name: str
    year: int
    text: str


@dataclass
class Venues:
    """The venues of a catalog, and those an import plans (``planned``), by name and year."""

    existing: dict[str, Venue]
    planned: dict[str, PlannedVenue] = field(default_factory=dict)
    _by_name: dict[tuple[int, str], str] = field(default_factory=dict)
    _decided: dict[tuple[str, int], str] = field(default_factory=dict)
    # venue id -> track id -> the proceedings' title the records give (written to the venue file)
    track_titles: dict[str, dict[str, str]] = field(default_factory=dict)
    _tracked: dict[tuple, tuple[str | None, str | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for venue in self.existing.values():
            self._index(venue.id, venue.name, venue.full_name, venue.year)

    def _index(self, vid: str, name: str, full_name: str, year: int) -> None:
        for label in (full_name, name):
            self._by_name.setdefault((year, venue_key(label, year)), vid)

    def _taken(self, vid: str) -> bool:
        return vid in self.existing or vid in self.planned

    def choose(self, container: str | None, year: int | None, location: str | None, forced: str | None,
               warnings: list[str], where: str) -> str | None:
        """The venue id for a record (see the module docstring), planning a new venue when
        there is none yet; None when there is no container name or year to take it from (the
        caller reports that, in its format's terms)."""
        if forced is not None:
            if year is not None and year != self.existing[forced].year:
                warnings.append(f"{where}: year {year} differs from the year of venue {forced!r} "
                                f"({self.existing[forced].year}); the venue is used")
            return forced
        if container is None or not container.strip() or year is None:
            return None
        decided = self._decided.get((container, year))
        if decided is None:
            decided = self._decided[(container, year)] = self._decide(container, year, location)
        return decided

    def choose_track(self, container: str | None, year: int | None, location: str | None, forced: str | None,
                     warnings: list[str], where: str, urls: Sequence[str] = (),
                     hints: Sequence[str] = ()) -> tuple[str | None, str | None]:
        """(venue id, track id or None for the main conference) of a record (issue 36): the
        track its ACL Anthology id says (``2022.findings-acl.91``, ``2022.acl-short.3``), else
        the one its container names ("Findings of …", "(Volume 2: Short Papers)", "…: System
        Demonstrations") or its ``hints`` (CSL collection-title, genre); the venue is the
        conference's (``acl-2022``), not one named after the track's volume. A container that
        is the name of a venue of the catalog (a Findings volume imported as a venue of its
        own before) keeps going there."""
        aid = next((found for found in map(anthology_id, urls) if found is not None), None)
        key = (container, year, location, forced, tuple(hints), aid and (aid.venue, aid.track, aid.volume_year))
        if forced is not None:  # (its warnings are each record's)
            return self._choose_track(container, year, location, forced, warnings, where, aid, hints)
        if key not in self._tracked:  # an archive has a few hundred containers for 100,000 records
            self._tracked[key] = self._choose_track(container, year, location, forced, warnings, where, aid, hints)
        return self._tracked[key]

    def _choose_track(self, container: str | None, year: int | None, location: str | None, forced: str | None,
                      warnings: list[str], where: str, aid, hints: Sequence[str]) -> tuple[str | None, str | None]:
        track = aid.track if aid is not None and aid.track else None
        if track is None:
            track = next((t for t in map(track_from_title, [container or "", *hints]) if t), None)
        if track == "journal" and (aid is None or aid.venue not in table()):
            track = None  # a TACL paper imported as such: its journal is its venue
        if forced is not None:
            vid = self.choose(container, year, location, forced, warnings, where)
            return vid, self._note_track(vid, track, container)
        if year is None and aid is not None:
            year = int(aid.volume_year) if aid.volume_year else None
        if container is None or not container.strip() or year is None:
            if aid is not None and year is not None and aid.venue in table():
                vid = self._series_venue(table()[aid.venue], year, location)
                return vid, self._note_track(vid, track, container)
            return self.choose(container, year, location, forced, warnings, where), None
        clean = clean_line(container.replace("{", "").replace("}", ""))
        named = self._by_name.get((year, venue_key(clean, year)))
        if named is not None:  # the container is a venue of the catalog, by its own name
            title = next((t for t in (container, *hints) if t and track_from_title(t) == track), container)
            return named, self._note_track(named, track, title, named_by_container=track_from_title(clean) == track)
        if track is None or track == MAIN_TRACK:
            vid = self.choose(container, year, location, forced, warnings, where)
            return vid, None
        known = find_series(clean)
        # The proceedings' title that names the track (a CSL item's container-title when its
        # event name is the container), for the venue file.
        title = next((t for t in (container, *hints) if t and track_from_title(t) == track), container)
        if aid is not None and aid.venue in table():
            vid = self._series_venue(table()[aid.venue], year, location)
        elif known is not None:  # "Findings of EMNLP 2020", or the conference's own name (a CSL event)
            vid = self._series_venue(known[0], year, location)
        elif track in ("findings", "workshop"):  # a Findings volume of no known series: a venue of its own
            return self.choose(container, year, location, forced, warnings, where), None
        else:
            vid = self.choose(main_title(clean) or clean, year, location, forced, warnings, where)
        return vid, self._note_track(vid, track, title)

    def _series_venue(self, series, year: int, location: str | None) -> str:
        venue = series.venue(year, MAIN)
        if not self._taken(venue.id):
            self._plan(venue.id, venue.name, venue.proceedings, year, venue.url, location,
                       f"Papers presented at {venue.name}, the {series.full_name}.")
        return venue.id

    def _note_track(self, vid: str | None, track: str | None, container: str | None,
                    named_by_container: bool = False) -> str | None:
        """The track to file a paper of venue ``vid`` under (None: the main conference), and
        its proceedings' title (``container``) noted for the venue file (``tracks_to_write``)."""
        if vid is None or track is None or track == MAIN_TRACK:
            return None
        existing = self.existing.get(vid)
        if named_by_container and existing is not None:
            # A venue that is itself the track's volume ("Findings of ACL 2022" imported as a venue).
            if (track_from_title(existing.full_name) == track or track_from_title(existing.name) == track
                    or series_of(existing) is not None and series_of(existing).part != MAIN):
                return None
        planned = self.planned.get(vid)
        if named_by_container and planned is not None and track_from_title(planned.full_name) == track:
            return None
        titles = self.track_titles.setdefault(vid, {})
        title = clean_line(container.replace("{", "").replace("}", "")) if container else ""
        # Only a proceedings' title in full names the track's proceedings ("Findings of ACL",
        # an arXiv journal_ref's, is a mention: the build's own title is better).
        full = track_from_title(title) == track and len(normalized(title).split()) >= 5
        if not titles.get(track):
            titles[track] = title if full else ""
        return track

    def _decide(self, container: str, year: int, location: str | None) -> str:
        container = clean_line(container.replace("{", "").replace("}", ""))
        found = self._by_name.get((year, venue_key(container, year)))
        if found is not None:
            return found
        known = find_series(container)
        if known is not None:
            series, part = known
            venue = series.venue(year, part)
            # The proceedings' title as the records give it in full ("…: Main Volume", "… and the
            # 11th International Joint Conference on Natural Language Processing"): what citations name.
            # (less dblp's ", ICML 2024, Vienna, Austria")
            titled = re.sub(r",\s*[A-Z][\w-]*\s*'?\d{2,4}\b.*$", "", container)
            spelled = f" {normalized(titled)} "  # the series' name spelled out in it, not only its acronym
            full = titled if (part == MAIN and _full_title(titled)
                              and any(f" {n} " in spelled for n in series.names)) else venue.proceedings
            planned = self.planned.get(venue.id)
            if planned is not None and planned.full_name == venue.proceedings != full:
                location = location or _planned_location(planned.text)  # a later record names it in full
                del self.planned[venue.id]
            elif self._taken(venue.id):
                return venue.id
            about = f"the {series.full_name}" if part == MAIN else venue.proceedings
            return self._plan(venue.id, venue.name, full, year, venue.url, location,
                              f"Papers presented at {venue.name}, {about}.")
        name = container if str(year) in container else f"{container} {year}"
        full = container if _full_title(container) else name  # a booktitle has no year added
        vid = venue_id(name, year)
        if vid in self.existing or (vid in self.planned and self.planned[vid].year != year):
            # Another venue already has this id (a different name or year): do not mix them.
            n = 2
            while self._taken(f"{vid[:75]}-{n}"):
                n += 1
            vid = f"{vid[:75]}-{n}"
        elif vid in self.planned:
            return vid
        description = (f"Preprints posted on {container} in {year}." if container.casefold() in _PREPRINT_SERVERS
                       else f"Papers presented at {name}.")
        return self._plan(vid, name, full, year, None, location, description)

    def _plan(self, vid: str, name: str, full_name: str, year: int, url: str | None, location: str | None,
              description: str) -> str:
        location = clean_line(location) if location else None
        self.planned[vid] = PlannedVenue(vid, name, full_name, year,
                                         venue_file_text(name, full_name, year, url, location, description))
        self._index(vid, name, full_name, year)
        return vid


def tracks_entries(titles: dict[str, str]) -> list[dict[str, str]]:
    """The ``tracks:`` items of a venue file for the tracks of ``titles`` (track id → the
    proceedings' title the records give), in a table of contents' order."""
    order = list(STANDARD)
    items = []
    for tid in sorted(titles, key=lambda t: (order.index(t) if t in order else len(order), t)):
        item = {"id": tid, "name": STANDARD[tid][0] if tid in STANDARD else tid.replace("-", " ").capitalize()}
        if titles[tid]:
            item["proceedings"] = titles[tid]
        items.append(item)
    return items


def with_tracks(text: str, items: list[dict[str, str]]) -> str | None:
    """A venue file's ``text`` with a ``tracks:`` list of ``items`` added to its front matter;
    None when it has one already (or no front matter): a curator's list is not rewritten."""
    if not items or not text.startswith("---\n"):
        return None
    end = text.find("\n---", 3)
    if end < 0 or re.search(r"^tracks\s*:", text[:end], re.MULTILINE):
        return None
    block = frontmatter.dump({"tracks": items}, "")[4:-4]  # between the fences
    return text[:end + 1] + block + text[end + 1:]
