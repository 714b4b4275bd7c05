"""Tracks of a venue: the volumes its papers are published in (issue 36).

A conference publishes its papers in several proceedings: ACL 2022 has its main volumes
(Long Papers, Short Papers), Findings (a separate publication: never cited as the main
conference), System Demonstrations, an Industry Track, a Student Research Workshop … A paper
says its track (``track: findings``); a venue file may list its tracks (``tracks:``) with
their names and the proceedings' exact titles; a track it does not list, of the standard
ones below, gets its name and a proceedings title made from the venue's.

* ``STANDARD``: the track ids every venue knows (``main``, ``long``, ``short``, ``findings``,
  ``demo``, ``industry``, ``srw``, ``tutorial``, ``workshop``, ``journal``), in the order
  a table of contents gives them.
* ``Track``: one track of one venue: id, name ("Findings"), badge word ("Findings": the
  paper's badge reads "ACL 2022 Findings"; none for the main volumes), proceedings title.
* ``venue_tracks(venue, proceedings)``: every track of a venue, declared ones first.
* ``track_from_anthology(id)`` and ``track_from_title(text)``: what importers read a track
  from (an ACL Anthology id such as ``2022.findings-acl.91`` or ``P19-1001``; a
  proceedings title such as "… (Volume 2: Short Papers)").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

MAIN = "main"
MAIN_VOLUMES = ("main", "long", "short")


@dataclass(frozen=True, slots=True)
class Track:
    id: str  # "findings"
    name: str  # "Findings", "Long Papers"
    badge: str  # added to the venue's name on a paper's badge ("ACL 2022 Findings"); "" for main volumes
    proceedings: str  # the exact title of its proceedings (a BibTeX booktitle)
    declared: bool = False  # listed in the venue file

    @property
    def is_main(self) -> bool:
        """Part of the main conference's proceedings (main, long, short papers; or a track
        whose badge is the venue's name alone): first in a table of contents."""
        return self.id in MAIN_VOLUMES or not self.badge


# id -> (name, badge word, proceedings title made from the main proceedings' title ``{main}``,
# the venue's short name ``{name}`` and the series' Findings or workshops title when known).
STANDARD: dict[str, tuple[str, str, str]] = {
    "main": ("Main Conference", "", "{main}"),
    "long": ("Long Papers", "", "{main} (Volume 1: Long Papers)"),
    "short": ("Short Papers", "Short", "{main} (Volume 2: Short Papers)"),
    "findings": ("Findings", "Findings", "{findings}"),
    "demo": ("System Demonstrations", "Demo", "{main}: System Demonstrations"),
    "industry": ("Industry Track", "Industry", "{main}: Industry Track"),
    "srw": ("Student Research Workshop", "SRW", "{main}: Student Research Workshop"),
    "tutorial": ("Tutorial Abstracts", "Tutorials", "{main}: Tutorial Abstracts"),
    "workshop": ("Workshops", "Workshop", "{workshops}"),
    "journal": ("Journal Papers", "Journal", "{main}: Journal Papers"),
    "datasets": ("Datasets and Benchmarks Track", "Datasets & Benchmarks", "{main} Datasets and Benchmarks Track"),
}


def _standard(tid: str, main: str, name: str, findings: str | None, workshops: str | None) -> Track:
    label, badge, template = STANDARD[tid]
    title = template.format(main=main, findings=findings or f"Findings of the Association for Computational "
                                                            f"Linguistics: {name}",
                            workshops=workshops or f"{main} Workshops")
    return Track(tid, label, badge, title)


def venue_tracks(declared: Iterable[Mapping[str, str]], main: str, name: str, *, findings: str | None = None,
                 workshops: str | None = None) -> dict[str, Track]:
    """Every track of a venue whose main proceedings are titled ``main`` and whose short name
    is ``name``: the declared ones (mappings with ``id`` and optional ``name``, ``badge``,
    ``proceedings``) in their order, then the standard ones not declared."""
    tracks: dict[str, Track] = {}
    for item in declared:
        tid = item["id"]
        base = _standard(tid, main, name, findings, workshops) if tid in STANDARD else \
            Track(tid, item.get("name") or tid.replace("-", " ").capitalize(), item.get("name") or tid, main)
        tracks[tid] = Track(tid, item.get("name") or base.name,
                            item["badge"] if item.get("badge") is not None else base.badge,
                            item.get("proceedings") or base.proceedings, True)
    for tid in STANDARD:
        if tid not in tracks:
            tracks[tid] = _standard(tid, main, name, findings, workshops)
    return tracks


def track_order(tracks: Mapping[str, Track]) -> dict[str, int]:
    """Position of each track in a table of contents: main volumes first (main, long, short),
    then the others as declared, then the standard ones."""
    ids = list(tracks)
    main_first = [t for t in ids if tracks[t].is_main] + [t for t in ids if not tracks[t].is_main]
    return {tid: i for i, tid in enumerate(main_first)}


# --------------------------------------------------------------------------- the content's fields

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Unreadable(ValueError):
    """A ``track`` or ``tracks`` value that does not fit (``messages``: one per bad item)."""

    def __init__(self, message: str, messages: tuple[str, ...] = ()):
        super().__init__(message)
        self.messages = messages or (message,)


def _line(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or "\n" in value.strip():
        raise Unreadable(f"{what}: expected text on one line, found {value!r}")
    return " ".join(value.split())


def read_track(value: Any) -> str | None:
    """A paper's ``track``: a track id ("findings"), None when not given."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _ID.match(value):
        raise Unreadable(f"expected a track id such as 'findings' or 'long', found {value!r}")
    return value


def read_tracks(value: Any) -> tuple[tuple[str, str, str | None, str], ...]:
    """A venue's ``tracks``: a list of mappings with ``id`` and optional ``name``, ``badge``,
    ``proceedings``, as (id, name, badge, proceedings) with "" where not given (badge: None)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise Unreadable(f"expected a list of tracks (- id: findings), found {type(value).__name__}")
    out: list[tuple[str, str, str | None, str]] = []
    bad: list[str] = []
    for i, item in enumerate(value, 1):
        try:
            if not isinstance(item, dict) or set(item) - {"id", "name", "badge", "proceedings"}:
                raise Unreadable("expected a mapping of id, name, badge and proceedings")
            tid = item.get("id")
            if not isinstance(tid, str) or not _ID.match(tid):
                raise Unreadable(f"id: expected a track id such as 'findings', found {tid!r}")
            if any(t[0] == tid for t in out):
                raise Unreadable(f"track {tid!r} is listed twice")
            badge = None if item.get("badge") is None else _line(item["badge"], "badge")
            out.append((tid, _line(item.get("name"), "name"), badge, _line(item.get("proceedings"), "proceedings")))
        except Unreadable as exc:
            bad.append(f"item {i}: {exc}")
    if bad:
        raise Unreadable("; ".join(bad), tuple(bad))
    return tuple(out)


# --------------------------------------------------------------------------- reading tracks

# An Anthology volume name after the venue code: "2022.acl-long", "2022.findings-acl", "2021.naacl-main".
_NEW_ID = re.compile(r"(?<![\w.])(\d{4})\.([a-z0-9]+)-([a-z0-9]+)\.(\d+)(?![\w])")
_OLD_ID = re.compile(r"(?<![\w])([A-Z])(\d{2})-(\d)(\d{3})(?![\w])")
_VOLUME_TRACKS = {"long": "long", "short": "short", "main": "main", "demo": "demo", "demos": "demo",
                  "industry": "industry", "srw": "srw", "tutorial": "tutorial", "tutorials": "tutorial"}
# Old-style ids (P19-1001): the letter of ACL, NAACL, EMNLP, EACL…; volume 1 long (main), 2 short,
# 3 student research workshop, 4 demos (ACL's usual layout since 2010; good enough to order and file).
_OLD_VOLUME = {"1": "long", "2": "short", "3": "srw", "4": "demo"}
_OLD_CONFERENCES = frozenset("PNDEC")


@dataclass(frozen=True, slots=True)
class AnthologyId:
    venue: str  # the Anthology's venue code: "acl", "naacl", "emnlp"
    track: str | None  # a standard track id, None when the volume is not one
    number: int  # the paper's number in its volume
    volume: str  # "acl-long", "findings-acl", "P19-1"
    volume_year: str = ""  # "2022" (new-style ids)


def anthology_id(text: str) -> AnthologyId | None:
    """The ACL Anthology id in ``text`` (a URL, a DOI ``10.18653/v1/2022.acl-long.75``, an id):
    its venue, track and number; None when there is none."""
    found = _NEW_ID.search(text)
    if found:
        first, second, number = found.group(2), found.group(3), int(found.group(4))
        if first == "findings":
            return AnthologyId(second, "findings", number, f"{first}-{second}", found.group(1))
        if first in ("tacl", "cl"):
            return AnthologyId(first, "journal", number, f"{first}-{second}", found.group(1))
        return AnthologyId(first, _VOLUME_TRACKS.get(second), number, f"{first}-{second}", found.group(1))
    found = _OLD_ID.search(text)
    if found and found.group(1) in _OLD_CONFERENCES and (
            "aclanthology" in text or "aclweb" in text or "10.3115/" in text or text.strip() == found.group(0)):
        letter, volume, number = found.group(1), found.group(3), int(found.group(4))
        return AnthologyId(letter, _OLD_VOLUME.get(volume), number, f"{letter}{found.group(2)}-{volume}")
    return None


_TITLE_TRACKS = (
    (re.compile(r"^\s*findings\b|\bfindings of\b|\(findings\)", re.IGNORECASE), "findings"),  # "ACL (Findings)": dblp
    (re.compile(r"\blong papers\b", re.IGNORECASE), "long"),
    (re.compile(r"\bshort papers\b", re.IGNORECASE), "short"),
    (re.compile(r"\b(system )?demonstrations?\b|\bdemo(s| track| papers)\b", re.IGNORECASE), "demo"),
    (re.compile(r"\bindustry( track| papers)?\b|\bindustrial track\b", re.IGNORECASE), "industry"),
    (re.compile(r"\bstudent research workshop\b", re.IGNORECASE), "srw"),
    (re.compile(r"\btutorial abstracts\b|\btutorials\b", re.IGNORECASE), "tutorial"),
    (re.compile(r"\bdatasets and benchmarks\b", re.IGNORECASE), "datasets"),
)


@functools.lru_cache(maxsize=4096)
def track_from_title(text: str) -> str | None:
    """The standard track a proceedings title names ("Findings of …", "(Volume 2: Short
    Papers)", "…: System Demonstrations", "…: Industry Track", "…: Student Research
    Workshop"); None for a main volume or anything else."""
    for pattern, tid in _TITLE_TRACKS:
        if pattern.search(text):
            return tid
    return None


def main_title(text: str) -> str:
    """A track's proceedings title without its track part: the main proceedings' title
    ("Proceedings of the 60th Annual Meeting of the ACL (Volume 1: Long Papers)" →
    "Proceedings of the 60th Annual Meeting of the ACL")."""
    text = re.sub(r"\s*\((?:Volume|Vol\.?)\s*\d+\s*:[^)]*\)\s*$", "", text)
    text = re.sub(r"\s*[:,-]\s*(?:System Demonstrations|Industry Track|Industry Papers|Student Research Workshop|"
                  r"Tutorial Abstracts|Demo(?:nstration)?s?(?: Track)?)\s*$", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s*[:,-]?\s*(?:\(\w+ \d{4}\)\s*)?Datasets and Benchmarks(?: Track)?\s*$", "", text, flags=re.IGNORECASE)
    return text.strip()


def tracks_of(venue) -> dict[str, Track]:
    """Every track of a ``Venue`` (``venue_tracks``), its main proceedings' title the venue's
    citation name (``series.full_name_of``), Findings and workshops titled as its series'
    (``series.toml``) where it has them."""
    from .series import FINDINGS, WORKSHOPS, full_name_of, series_of, table
    main = full_name_of(venue)
    found = series_of(venue)
    findings = workshops = None
    if found is not None and found.part not in (FINDINGS, WORKSHOPS):
        series = table()[found.series.id]
        findings = series.findings.format(year=venue.year) if series.findings else None
        workshops = series.workshops.format(year=venue.year) if series.workshops else None
    declared = [{"id": tid, "name": name, "badge": badge, "proceedings": proceedings}
                for tid, name, badge, proceedings in venue.tracks]
    return _cached_tracks(tuple(map(lambda d: tuple(d.items()), declared)), main, venue.name, findings, workshops)


@functools.lru_cache(maxsize=4096)
def _cached_tracks(declared, main, name, findings, workshops) -> dict[str, Track]:
    return venue_tracks([dict(d) for d in declared], main, name, findings=findings, workshops=workshops)
