"""``sessions/feed.xml``: an Atom feed of the reading group's sessions (issue 34), newest
first, written with ElementTree and the catalog's feeds' helpers (``atom``, as ``exports``);
only with an absolute ``base_url`` (a feed needs whole URLs). An entry is a session: its title, its day
(``published`` and ``updated``: builds stay byte-identical), its presenters as authors, and
as content its time, place, papers (linked) and notes."""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET

from markupsafe import Markup, escape

from .. import __version__
from ..content.model import SiteConfig
from ..derive.sessions import SessionData, SessionView
from ..derive.urls import SESSIONS, SESSIONS_FEED, SiteUrls
from .atom import ATOM_NS, XML_LANG, sub, timestamp

FEED_SESSIONS = 50  # the newest sessions in the feed


def sessions_feed(sessions: SessionData, config: SiteConfig, urls: SiteUrls) -> str:
    assert urls.absolute_base is not None, "feeds need an absolute base URL"
    newest = sorted(sessions.sessions, key=lambda v: (v.date, v.time or datetime.time(0), v.id), reverse=True)
    newest = newest[:FEED_SESSIONS]
    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: config.language})
    sub(feed, "id", urls.absolute(SESSIONS))
    sub(feed, "title", f"Sessions · {config.title}", type="text")
    sub(feed, "updated", timestamp(max(v.date for v in newest)))
    sub(feed, "link", rel="self", type="application/atom+xml", href=urls.absolute(SESSIONS_FEED) or "")
    sub(feed, "link", rel="alternate", type="text/html", href=urls.absolute(SESSIONS) or "")
    sub(sub(feed, "author"), "name", config.owner or config.title)
    sub(feed, "generator", "Papershelf", version=__version__)
    for view in newest:
        feed.append(_entry(view, urls))
    ET.indent(feed, space="  ")
    return ET.tostring(feed, encoding="unicode", xml_declaration=True) + "\n"


def _entry(view: SessionView, urls: SiteUrls) -> ET.Element:
    page = urls.absolute(view.url) or ""
    entry = ET.Element("entry")
    sub(entry, "id", page)
    sub(entry, "title", f"{view.date.isoformat()}: {view.title_plain}", type="text")
    sub(entry, "link", rel="alternate", type="text/html", href=page)
    sub(entry, "published", timestamp(view.date))
    sub(entry, "updated", timestamp(view.date))
    for name in view.presenters:
        sub(sub(entry, "author"), "name", name)
    for link in view.links:
        sub(entry, "link", rel="related", href=link.url, title=link.label)
    sub(entry, "content", str(_content(view, urls)), type="html")
    return entry


def _content(view: SessionView, urls: SiteUrls) -> Markup:
    when = view.date_label + (f", {view.time_label}" if view.time_label else "")
    parts = [Markup("<p>{}{}</p>").format(when, Markup(" · {}").format(view.place) if view.place else "")]
    items = Markup("").join(Markup('<li><a href="{}">{}</a></li>').format(urls.absolute(p.url) or "", p.title_html)
                            for p in view.papers)
    parts.append(Markup("<ul>{}</ul>").format(items))
    if view.notes_html:
        parts.append(view.notes_html)
    return Markup("\n").join(parts) if parts else escape("")
