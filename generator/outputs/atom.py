"""What the Atom feeds share (``exports``' of the catalog, venues and tags, ``session_feed``'s
of the sessions): the namespaces, text XML 1.0 can hold, an element added with its text and
attributes, a day's timestamp."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET

ATOM_NS = "http://www.w3.org/2005/Atom"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (control characters and the like)."""
    return text if text.isprintable() else _NOT_XML.sub("", text)


def sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    """A new child ``tag`` of ``parent`` with ``text`` and ``attrs`` (made XML-safe)."""
    element = ET.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items()})
    if text is not None:
        element.text = xml_text(text)
    return element


def timestamp(day: datetime.date) -> str:
    """A day as an Atom date (its midnight UTC: builds stay byte-identical)."""
    return f"{day.isoformat()}T00:00:00Z"
