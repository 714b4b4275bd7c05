"""Link targets: only http, https and mailto URLs become links; external ones get
``rel="noopener"``."""

from __future__ import annotations

import re

_SAFE_HREF = re.compile(r"(?:https?://[^\s/?#\\]|mailto:[^\s])", re.IGNORECASE)
_HTTP_HREF = re.compile(r"https?:", re.IGNORECASE)
URL_CTRL = re.compile(r"[\x00-\x20\x7f-\x9f]")


def check_href(href: str) -> str | None:
    """``href`` if it is an http(s) or mailto URL, else None (already normalised)."""
    if href and _SAFE_HREF.match(href) and not URL_CTRL.search(href):
        return href
    return None


def link_attrs(href: str, title: str | None = None) -> dict[str, str | int | float]:
    attrs: dict[str, str | int | float] = {"href": href}
    if title:
        attrs["title"] = title
    if _HTTP_HREF.match(href):
        attrs["rel"] = "noopener"
    return attrs
