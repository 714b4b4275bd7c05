"""What the pages show of the reading group's sessions (issue 34): a view per session, the
upcoming ones (soonest first) and the past ones by year (newest first), each paper's sessions.

"Upcoming" is decided here at build time: a session is upcoming until the end of its day in
the site's time zone (``until``, an instant in UTC that the pages carry, so that
static/js/sessions.js corrects the split from the visitor's clock). The build's day is
today's, or that of ``SOURCE_DATE_EPOCH`` when set (reproducible builds, tests).
"""

from __future__ import annotations

import datetime
import os
import zoneinfo
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from markupsafe import Markup

from ..content.model import SiteConfig
from ..content.sessions import Session, SessionLink
from ..content.schema import is_http_url
from ..text import excerpt, plain_text, render_abstract, render_title
from .urls import session_page

HOME_AHEAD = 4  # the home page carries the next few sessions, so a week-old site still shows the right one


@dataclass(frozen=True, slots=True)
class SessionView:
    id: str
    title_html: Markup
    title_plain: str
    notes_html: Markup
    notes_plain: str
    description: str  # plain text for meta tags
    papers: tuple  # PaperView, in the session's order
    presenters: tuple[str, ...]
    place: str
    place_url: str | None  # the place when it is an http(s) URL
    place_label: str  # what the pages call the place: "Online" for a URL, else the place
    links: tuple[SessionLink, ...]
    date: datetime.date
    time: datetime.time | None
    date_label: str  # "Tuesday, 14 May 2024"
    time_label: str  # "16:00 CEST", "" for an all-day session
    start: str  # ISO 8601 for <time datetime>: "2024-05-14T16:00+02:00" or "2024-05-14"
    until: str  # the instant (UTC) it stops being upcoming: the end of its day in the site's zone
    upcoming: bool  # at build time
    source: str

    @property
    def url(self) -> str:
        return session_page(self.id)

    @property
    def year(self) -> int:
        return self.date.year


@dataclass(frozen=True, slots=True)
class HomeSession:
    """A session the home page carries, ``hidden`` unless it is the one shown without script."""

    session: SessionView
    hidden: bool


@dataclass(frozen=True, slots=True)
class SessionYear:
    year: int
    sessions: tuple[SessionView, ...]  # newest first


@dataclass(frozen=True, slots=True)
class SessionData:
    sessions: tuple[SessionView, ...]  # by date and time
    upcoming: tuple[SessionView, ...]  # soonest first
    past: tuple[SessionYear, ...]  # newest year first, each newest first
    today: datetime.date  # the build's day in the site's time zone
    of_paper: Mapping[str, tuple[SessionView, ...]] = field(default_factory=dict)

    def of(self, slug: str) -> tuple[SessionView, ...]:
        """The sessions that discussed (or will discuss) a paper, by date."""
        return self.of_paper.get(slug, ())

    @property
    def home(self) -> tuple[HomeSession, ...]:
        """What the home page carries: the last past session and the next ``HOME_AHEAD``, all
        but ``shown_on_home`` hidden (static/js/sessions.js shows the first not yet over, else
        the last)."""
        last = self.past[0].sessions[:1] if self.past else ()
        shown = self.shown_on_home
        return tuple(HomeSession(s, s is not shown) for s in last + self.upcoming[:HOME_AHEAD])

    @property
    def shown_on_home(self) -> SessionView | None:
        """The session the home page shows without script: the next one, else the last one."""
        return self.upcoming[0] if self.upcoming else (self.past[0].sessions[0] if self.past else None)


def zone(config: SiteConfig) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(config.timezone or "UTC")


def build_day(config: SiteConfig) -> datetime.date:
    """Today in the site's time zone, or the day of ``SOURCE_DATE_EPOCH`` there."""
    return build_now().astimezone(zone(config)).date()


def build_now() -> datetime.datetime:
    """The build's instant (UTC): now, or ``SOURCE_DATE_EPOCH`` when set (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
    return datetime.datetime.now(datetime.timezone.utc)


def clock_inputs(content: Path) -> list[str]:
    """What a build of a catalog with sessions depends on besides its files: the day (the
    upcoming/past split), as the days it is anywhere on Earth (UTC-12 to UTC+14), so that a
    build with nothing else changed still runs when a session's day has ended. [] without
    ``sessions/``: other catalogs' no-change builds stay no-ops whatever the date."""
    if not (Path(content) / "sessions").is_dir():
        return []
    now = build_now()
    return ["sessions"] + [(now + datetime.timedelta(hours=h)).date().isoformat() for h in (-12, 14)]


def start_of(session: Session, config: SiteConfig) -> datetime.datetime | None:
    """The session's start as an aware datetime in the site's zone; None for an all-day session."""
    if session.time is None:
        return None
    return datetime.datetime.combine(session.date, session.time, zone(config))


def derive_sessions(sessions: Sequence[Session], papers: Sequence, config: SiteConfig,
                    today: datetime.date | None = None) -> SessionData | None:
    """The sessions' views; ``papers``: the catalog's PaperViews. None without sessions."""
    if not sessions:
        return None
    today = build_day(config) if today is None else today
    by_slug = {p.slug: p for p in papers}
    views = tuple(_view(s, by_slug, config, today) for s in sessions)
    past: dict[int, list[SessionView]] = {}
    for view in reversed(views):
        if not view.upcoming:
            past.setdefault(view.year, []).append(view)
    of_paper: dict[str, list[SessionView]] = {}
    for view in views:
        for paper in view.papers:
            of_paper.setdefault(paper.slug, []).append(view)
    return SessionData(
        sessions=views,
        upcoming=tuple(v for v in views if v.upcoming),
        past=tuple(SessionYear(year, tuple(found)) for year, found in past.items()),
        today=today,
        of_paper={slug: tuple(found) for slug, found in of_paper.items()},
    )


def _view(session: Session, by_slug: Mapping, config: SiteConfig, today: datetime.date) -> SessionView:
    papers = tuple(by_slug[slug] for slug in session.papers if slug in by_slug)
    if session.title:
        title_html, title_plain = Markup(render_title(session.title)), plain_text(session.title)
    else:
        title_html = Markup(" · ").join(p.title_html for p in papers)
        title_plain = " · ".join(p.title_plain for p in papers)
    notes_plain = plain_text(session.notes) if session.notes else ""
    tz = zone(config)
    start = start_of(session, config)
    end_of_day = datetime.datetime.combine(session.date + datetime.timedelta(days=1), datetime.time(0), tz)
    until = end_of_day.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    when = f"{_date_label(session.date)}" + (f", {start:%H:%M} {start.tzname()}" if start else "")
    description = f"{when}. " + (excerpt(notes_plain, 160) if notes_plain else
                                 "Papers: " + "; ".join(p.title_plain for p in papers))
    return SessionView(
        id=session.id,
        title_html=title_html,
        title_plain=title_plain,
        notes_html=Markup(render_abstract(session.notes)) if session.notes else Markup(""),
        notes_plain=notes_plain,
        description=excerpt(description, 200),
        papers=papers,
        presenters=session.presenters,
        place=session.place,
        place_url=session.place if is_http_url(session.place) else None,
        place_label="Online" if is_http_url(session.place) else session.place,
        links=session.links,
        date=session.date,
        time=session.time,
        date_label=_date_label(session.date),
        time_label=f"{start:%H:%M} {start.tzname()}" if start else "",
        start=start.isoformat(timespec="minutes") if start else session.date.isoformat(),
        until=until,
        upcoming=session.date >= today,
        source=session.source,
    )


def _date_label(day: datetime.date) -> str:
    """"Tuesday, 14 May 2024" (English, whatever the machine's locale)."""
    days = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    months = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December")
    return f"{days[day.weekday()]}, {day.day} {months[day.month - 1]} {day.year}"
