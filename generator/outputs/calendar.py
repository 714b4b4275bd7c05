"""``sessions/sessions.ics``: the reading group's sessions as an iCalendar file (RFC 5545),
written with the ``icalendar`` library, for Google Calendar, Outlook and Apple Calendar to
subscribe to (issue 34).

One ``VEVENT`` a session: a stable ``UID`` (the session's id at the site's host), the start
in the site's time zone (``DTSTART;TZID=Europe/Berlin``, with the zone's ``VTIMEZONE``,
summer and winter time included), ``DURATION`` of ``SESSION_LENGTH``; a session without a
time is an all-day event (``DTSTART;VALUE=DATE`` and the next day as ``DTEND``). The summary is
the session's title, the description names its papers (titles and authors), presenters and
page, ``URL`` is its page (when ``base_url`` is absolute: a calendar needs a whole URL) and
``LOCATION`` its place. Deterministic: ``DTSTAMP`` is the session's own day, never the time of
the build.
"""

from __future__ import annotations

import datetime
from urllib.parse import urlsplit

from icalendar import Calendar, Event

from ..content.model import SiteConfig
from ..derive.sessions import SessionData, SessionView, zone
from ..derive.urls import SiteUrls

SESSION_LENGTH = datetime.timedelta(hours=1)  # what a calendar shows of a session with a start time
PRODID = "-//Papershelf//Reading group sessions//EN"


def session_uid(session_id: str, urls: SiteUrls) -> str:
    """A UID that stays the same from build to build: the id at the site's host and path."""
    site = urlsplit(urls.absolute_base).netloc + urls.base_path if urls.absolute_base else urls.base_path
    return f"session-{session_id}@{site.strip('/').replace('/', '.') or 'papershelf'}"


def calendar_ics(sessions: SessionData, config: SiteConfig, urls: SiteUrls) -> str:
    """The iCalendar text of every session."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"{config.title}: sessions")
    if config.timezone:
        calendar.add("x-wr-timezone", config.timezone)
    for view in sessions.sessions:
        calendar.add_component(_event(view, config, urls))
    if config.timezone:
        calendar.add_missing_timezones()
    return calendar.to_ical().decode("utf-8")


def _event(view: SessionView, config: SiteConfig, urls: SiteUrls) -> Event:
    event = Event()
    event.add("uid", session_uid(view.id, urls))
    event.add("dtstamp", datetime.datetime.combine(view.date, datetime.time(0), datetime.timezone.utc))
    if view.time is None:
        event.add("dtstart", view.date)
        event.add("dtend", view.date + datetime.timedelta(days=1))
    else:
        event.add("dtstart", datetime.datetime.combine(view.date, view.time, zone(config)))
        event.add("duration", SESSION_LENGTH)
    event.add("summary", view.title_plain)
    page = urls.absolute(view.url)
    lines = []
    for paper in view.papers:
        authors = ", ".join(a.name for a in paper.authors)
        lines.append(f"• {paper.title_plain}" + (f" ({authors})" if authors else ""))
    if view.presenters:
        lines.append("Presented by " + ", ".join(view.presenters))
    lines.append(page or urls.path(view.url))
    event.add("description", "\n".join(lines))
    if page:
        event.add("url", page)
    if view.place:
        event.add("location", view.place)
    return event
