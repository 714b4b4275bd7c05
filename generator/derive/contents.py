"""A venue's papers as a table of contents (issue 36): by track (the main volumes first), each
track in its proceedings' order where the papers say it (their ACL Anthology number, else
their first page), else by title; titles compare without leading punctuation and quotes
(``title_order_key``: '"Is it…"' sorts under I, not before A).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..content.citation_fields import first_page
from ..content.model import Venue
from ..content.tracks import MAIN, Track, anthology_id, track_order, tracks_of

# Leading characters a title's place in an index ignores: punctuation, quotes, brackets, spaces.
_LEADING = re.compile(r"^[\W_]+")


def title_order_key(title: str) -> str:
    """A title as an index sorts it: case folded, leading punctuation and quotes (`"`, `(`,
    `‘`, `“`, `¿`, `…`) left out; a title of nothing else keeps them."""
    folded = title.casefold()
    stripped = _LEADING.sub("", folded)
    return stripped or folded


@dataclass(frozen=True, slots=True)
class TrackContents:
    """One track's papers on a venue page."""

    track: Track
    papers: tuple[Any, ...]  # views.PaperView, in the proceedings' order
    ordered_by: str  # "anthology", "pages" or "title": what the order follows

    @property
    def heading(self) -> str:
        return self.track.name

    @property
    def proceedings(self) -> str:
        return self.track.proceedings


def track_names(catalog, venue_refs: Mapping) -> dict[tuple[str, str], tuple[str, str]]:
    """(name, proceedings) of each (venue, track) a paper names, other than the main conference:
    the venue's name with the track's badge ("ACL 2022 Findings"; the main volumes' none), and
    the track's proceedings' title: what a paper's badge and citations say (``views.VenueRef``)."""
    names: dict[tuple[str, str], tuple[str, str]] = {}
    for paper in catalog.papers:
        if paper.track and (paper.venue, paper.track) not in names:
            track = tracks_of(catalog.venues[paper.venue])[paper.track]
            base = venue_refs[paper.venue].name
            names[(paper.venue, paper.track)] = (f"{base} {track.badge}" if track.badge else base, track.proceedings)
    return names


def paper_place(view: Any) -> tuple:
    """Where a paper stands in its proceedings: (0, volume, number) by its Anthology id, else
    (1, first page), else (2,); the title decides ties and the rest."""
    for link in view.links:
        if link.kind in ("venue_page", "doi", "pdf"):
            found = anthology_id(link.url)
            if found is not None:
                return (0, found.volume, found.number)
    page = first_page(view.paper.pages)
    if page is not None:
        return (1, "", page)
    return (2, "", 0)


def venue_contents(venue: Venue, papers: Sequence[Any]) -> tuple[TrackContents, ...]:
    """The table of contents of ``venue`` (see the module docstring); () when its papers name
    no track and no place (the venue page is then its list by title, as before)."""
    places = [paper_place(p) for p in papers]
    if not any(p.paper.track for p in papers) and all(place[0] == 2 for place in places):
        return ()
    tracks = tracks_of(venue)
    order = track_order(tracks)
    groups: dict[str, list[tuple[tuple, int, Any]]] = {}
    for i, (p, place) in enumerate(zip(papers, places)):
        groups.setdefault(p.paper.track or MAIN, []).append((place, p.title_rank, p))
    out = []
    for tid in sorted(groups, key=lambda t: order.get(t, len(order))):
        entries = sorted(groups[tid], key=lambda e: (e[0], e[1]))
        kinds = {e[0][0] for e in entries}
        ordered_by = "anthology" if kinds == {0} else "pages" if kinds <= {0, 1} and 1 in kinds else \
            "title" if kinds == {2} else "mixed"
        out.append(TrackContents(tracks[tid], tuple(e[2] for e in entries), ordered_by))
    return tuple(out)


def order_words(contents: Sequence[TrackContents]) -> str:
    """What a venue page's range line says of its order."""
    kinds = {c.ordered_by for c in contents}
    by = "by track" if len(contents) > 1 else ""
    if kinds == {"title"}:
        then = "by title"
    elif kinds <= {"anthology", "pages"}:
        then = "in the proceedings' order"
    else:
        then = "in the proceedings' order where known, else by title"
    return f"{by}, {then}" if by else then

