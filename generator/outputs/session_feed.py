"""``sessions/feed.xml``: an Atom feed of the reading group's sessions (issue 34), newest
first, written with ElementTree as the catalog's feeds are (``exports``); only with an
absolute ``base_url`` (a feed needs whole URLs). An entry is a session: its title, its day
(``published`` and ``updated``: builds stay byte-identical), its presenters as authors, and
as content its time, place, papers (linked) and notes."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET

from markupsafe import Markup, escape

from .. import __version__
from ..content.model import SiteConfig
from ..derive.sessions import SessionData, SessionView
from ..derive.urls import SESSIONS, SESSIONS_FEED, SiteUrls

ATOM_NS = "http://www.w3.org/2005/Atom"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold."""
    return _NOT_XML.sub("", text)


FEED_SESSIONS = 50  # the newest sessions in the feed


def _add(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items()})
    if text is not None:
        element.text = xml_text(text)
    return element


def _stamp(day: datetime.date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def sessions_feed(sessions: SessionData, config: SiteConfig, urls: SiteUrls) -> str:
    assert urls.absolute_base is not None, "feeds need an absolute base URL"
    newest = sorted(sessions.sessions, key=lambda v: (v.date, v.time or datetime.time(0), v.id), reverse=True)
    newest = newest[:FEED_SESSIONS]
    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: config.language})
    _add(feed, "id", urls.absolute(SESSIONS))
    _add(feed, "title", f"Sessions · {config.title}", type="text")
    _add(feed, "updated", _stamp(max(v.date for v in newest)))
    _add(feed, "link", rel="self", type="application/atom+xml", href=urls.absolute(SESSIONS_FEED) or "")
    _add(feed, "link", rel="alternate", type="text/html", href=urls.absolute(SESSIONS) or "")
    _add(_add(feed, "author"), "name", config.owner or config.title)
    _add(feed, "generator", "Papershelf", version=__version__)
    for view in newest:
        feed.append(_entry(view, urls))
    ET.indent(feed, space="  ")
    return ET.tostring(feed, encoding="unicode", xml_declaration=True) + "\n"


def _entry(view: SessionView, urls: SiteUrls) -> ET.Element:
    page = urls.absolute(view.url) or ""
    entry = ET.Element("entry")
    _add(entry, "id", page)
    _add(entry, "title", f"{view.date.isoformat()}: {view.title_plain}", type="text")
    _add(entry, "link", rel="alternate", type="text/html", href=page)
    _add(entry, "published", _stamp(view.date))
    _add(entry, "updated", _stamp(view.date))
    for name in view.presenters:
        _add(_add(entry, "author"), "name", name)
    for link in view.links:
        _add(entry, "link", rel="related", href=link.url, title=link.label)
    _add(entry, "content", str(_content(view, urls)), type="html")
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
