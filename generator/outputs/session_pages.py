"""The files of the reading group's sessions (issue 34): the calendar (``calendar``) and the
Atom feed (``session_feed``), and the links to them of ``sessions/`` (its pages are planned
by ``pages.session_pages``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..derive.sessions import SessionData
from ..derive.urls import SESSIONS_CALENDAR, SESSIONS_FEED, SiteUrls
from ..derive.views import SiteData
from .calendar import calendar_ics
from .session_feed import sessions_feed


@dataclass(frozen=True, slots=True)
class Subscription:
    """A link of the sessions page: the calendar file, the same as webcal://, the feed."""

    label: str
    href: str  # relative to the site root, or a whole URL (webcal://)
    type: str  # MIME type
    relative: bool = True  # whether the templates put ``base`` before ``href``


def subscriptions(urls: SiteUrls) -> tuple[Subscription, ...]:
    """The calendar (and, with an absolute base, its webcal:// address, which Apple
    Calendar and Outlook subscribe to, and the Atom feed)."""
    found = [Subscription("Calendar (.ics)", SESSIONS_CALENDAR, "text/calendar")]
    whole = urls.absolute(SESSIONS_CALENDAR)
    if whole:
        found.append(Subscription("Subscribe in your calendar app", "webcal://" + whole.split("://", 1)[1],
                                  "text/calendar", relative=False))
        found.append(Subscription("Atom feed", SESSIONS_FEED, "application/atom+xml"))
    return tuple(found)


def session_files(sessions: SessionData | None, site: SiteData, urls: SiteUrls) -> Iterator[tuple[str, str]]:
    """The calendar, always; the feed with an absolute base URL."""
    if sessions is None:
        return
    config = site.catalog.site
    yield SESSIONS_CALENDAR, calendar_ics(sessions, config, urls)
    if urls.absolute_base:
        yield SESSIONS_FEED, sessions_feed(sessions, config, urls)
