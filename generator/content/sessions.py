"""A reading group's sessions: ``content/sessions/<id>.md`` (issue 34).

Front matter: ``date`` (YYYY-MM-DD, required), ``time`` ("16:00", optional, in site.toml's
``timezone``), ``title``, ``papers`` (paper ids, one or more), ``presenters`` (names),
``place`` (text or an http(s) URL) and ``links`` (slides, recording, notes…: a mapping of
kind to http(s) URL, as papers' links); the body holds the discussion's notes in the
Markdown and LaTeX of abstracts. Checked as papers are: every problem names file, line and
field (an unknown paper, a bad date or time, a time without a time zone in site.toml).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any, Iterable

from ..errors import Problems
from . import schema
from .frontmatter import FrontMatter
from .schema import Field, Invalid

SESSION_LINK_KINDS = ("slides", "recording", "video", "notes", "code", "page")
SESSION_LINK_LABELS = {"slides": "Slides", "recording": "Recording", "video": "Video", "notes": "Notes",
                       "code": "Code", "page": "Page"}


@dataclass(frozen=True, slots=True)
class SessionLink:
    kind: str  # one of SESSION_LINK_KINDS
    url: str

    @property
    def label(self) -> str:
        return SESSION_LINK_LABELS[self.kind]


@dataclass(frozen=True, slots=True)
class Session:
    id: str  # file name and URL segment: sessions/<id>/
    date: datetime.date
    papers: tuple[str, ...]  # paper slugs, in the order given
    time: datetime.time | None = None  # in the site's time zone; None: an all-day event
    title: str = ""  # may contain $math$; "" when not given (pages then name the papers)
    presenters: tuple[str, ...] = ()
    place: str = ""  # text or an http(s) URL
    links: tuple[SessionLink, ...] = ()
    notes: str = ""  # Markdown with LaTeX
    source: str = ""  # file path relative to the content folder


_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


def session_date(value: Any) -> datetime.date:
    if isinstance(value, datetime.datetime) or not (isinstance(value, (datetime.date, str))):
        raise Invalid(f"expected a date such as 2024-05-14, {_shown(value)}")
    date = schema.optional_date(value)
    if date is None:
        raise Invalid("expected a date such as 2024-05-14, found an empty value")
    return date


def _shown(value: Any) -> str:
    return f"found {value!r}" if isinstance(value, (str, int, float)) else f"found {type(value).__name__}"


def session_time(value: Any) -> datetime.time | None:
    """"16:00" (24-hour, in the site's time zone). YAML reads an unquoted 16:00 as the number
    960 (base 60): such a value gets the hint to quote it."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        raise Invalid(f'expected a time such as "16:00" in quotes (unquoted, YAML reads 16:00 as a number), '
                      f"found {value!r}")
    match = _TIME.match(value.strip()) if isinstance(value, str) else None
    if not match:
        raise Invalid(f'expected a time such as "16:00" (24-hour, HH:MM), {_shown(value)}')
    return datetime.time(int(match.group(1)), int(match.group(2)))


def paper_ids(value: Any) -> tuple[str, ...]:
    ids = schema.slug_list(value)
    if not ids:
        raise Invalid("expected one or more paper ids (file names in content/papers/ without .md)")
    return ids


def session_links(value: Any) -> tuple[SessionLink, ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise Invalid(f"expected a mapping such as 'slides: https://…', {_shown(value)}")
    out, bad = [], []
    for kind, url in value.items():
        if not isinstance(kind, str) or kind not in SESSION_LINK_KINDS:
            bad.append(f"unknown link kind {kind!r}; expected one of {', '.join(SESSION_LINK_KINDS)}")
            continue
        if url is None or url == "":
            continue
        try:
            out.append(SessionLink(kind, schema.http_url(url)))
        except Invalid as exc:
            bad.append(f"{kind}: {exc}")
    if bad:
        raise Invalid("; ".join(bad), tuple(bad))
    return tuple(sorted(out, key=lambda link: SESSION_LINK_KINDS.index(link.kind)))


SESSION_FIELDS = (
    Field("date", session_date, required=True, doc="The day of the session, YYYY-MM-DD."),
    Field("time", session_time, doc='When it starts, "16:00", in site.toml\'s timezone; none: all day.'),
    Field("title", schema.optional_line_text, default="", doc="What the session is called; default: its papers."),
    Field("papers", paper_ids, required=True, doc="Ids of the papers discussed (content/papers/<id>.md)."),
    Field("presenters", schema.name_list, default=(), doc="Who presents."),
    Field("place", schema.optional_text, default="", doc="Where: a room, or a URL (a video call)."),
    Field("links", session_links, default=(), doc="Slides, recording, notes…: kind to http(s) URL."),
)


def read_sessions(files: Iterable[tuple[Any, str, FrontMatter]], problems: Problems, *, papers: Iterable[str],
                  timezone: str, known: bool = True) -> tuple[Session, ...]:
    """The valid sessions of ``files`` ((path, label, front matter) of each session file),
    by date, time and id; problems go to ``problems``. ``papers``: the catalog's paper slugs
    (``known``: False when some paper files were invalid, so that an unknown id is not also
    reported for a paper whose own file has problems)."""
    slugs = set(papers)
    sessions = []
    for path, label, fm in files:
        clean, ok = schema.check_fields(fm.data, SESSION_FIELDS, file=label, line_of=fm.line_of, problems=problems)
        for slug in clean.get("papers", ()):
            if slug not in slugs and known:
                problems.add(label, f"unknown paper {slug!r}: no file papers/{slug}.md", line=fm.line_of("papers"),
                             field="papers")
                ok = False
        if clean.get("time") is not None and not timezone:
            problems.add(label, "a session's time needs the site's time zone: add timezone = \"Europe/Berlin\" (an IANA "
                                "name) to site.toml", line=fm.line_of("time"), field="time")
            ok = False
        if not ok:
            continue
        sessions.append(Session(id=path.stem, notes=fm.body.strip(), source=label, **clean))
    return tuple(sorted(sessions, key=lambda s: (s.date, s.time or datetime.time(0), s.id)))
