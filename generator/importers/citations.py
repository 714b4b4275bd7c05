"""What an import writes of a record's track and citation fields (issue 36): the paper's
``track``, ``pages``, ``editors``, ``publisher``, ``address``, ``month`` (``citation_data``),
and the ``tracks:`` of an existing venue file (``add_tracks``) where the records give a track's
proceedings a title other than the one the build would make."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..content import citation_fields
from ..content.model import Venue
from ..content.tracks import tracks_of
from .common import clean_line
from .repairs import Repairs
from .venues import tracks_entries, with_tracks


def citation_data(record: Any, track: str | None, repairs: Repairs, warnings: list[str]) -> dict:
    """A record's (``records.Record``) track and citation fields as front matter (``common.paper_data``): pages as
    a range ("1149–1162"), the month as a number; what cannot be read is left out with a warning."""
    data: dict = {"track": track}
    if record.pages:
        data["pages"] = citation_fields.pages(record.pages)
        if data["pages"] is None:
            warnings.append(f"{record.where}: pages {record.pages!r} is not a readable page range; left out")
    if record.month:
        data["month"] = citation_fields.month(record.month)
    if record.editors:
        data["editors"] = repairs.authors(record.editors, record.where)
    for name in ("publisher", "address"):
        value = getattr(record, name)
        if value and value.strip():
            data[name] = clean_line(value.replace("{", "").replace("}", ""))
    return data


def add_tracks(venue: Venue, titles: dict[str, str], target: Path, warnings: list[str],
                actions: list[tuple[Path, bytes]]) -> None:
    """Name in an existing venue file the tracks the records give a proceedings' title other
    than the one the build would make (``content.tracks``): a ``tracks:`` list added to a file
    that has none; for a file that has one, a warning saying what to add."""
    known = tracks_of(venue)
    declared = {t[0] for t in venue.tracks}
    needed = {tid: title for tid, title in titles.items()
              if tid not in declared and title and (tid not in known or known[tid].proceedings != title)}
    if not needed:
        return
    try:
        text = target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    changed = with_tracks(text, tracks_entries(needed))
    if changed is None:
        for tid, title in needed.items():
            warnings.append(f"venues/{venue.id}.md: tracks: add '{tid}' (proceedings: {title!r}): its papers "
                            f"are cited with {known[tid].proceedings if tid in known else 'the venue name'!r}")
        return
    actions.append((target, changed.encode("utf-8")))
