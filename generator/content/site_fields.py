"""site.toml's fields: ``schema.SITE_FIELDS`` and those of issue 34, the sessions' time zone
and the repository that edit links point to (MkDocs' ``repo_url`` and ``edit_uri``)."""

from __future__ import annotations

import re
import zoneinfo
from typing import Any

from .schema import SITE_FIELDS as BASE_FIELDS
from .schema import Field, Invalid, http_url, optional_http_url, text


def timezone(value: Any) -> str:
    """An IANA time zone name ("Europe/Berlin", "America/New_York", "UTC"); "" when not given."""
    if value is None or value == "":
        return ""
    name = text(value)
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise Invalid(f"expected an IANA time zone such as 'Europe/Berlin' or 'America/New_York', found {name!r}") \
            from None
    return name


def edit_uri(value: Any) -> str:
    """A path below ``repo_url`` ("edit/main/content/"), or an http(s) URL."""
    if value is None or value == "":
        return ""
    value = text(value)
    if re.match(r"(?i)https?://", value):
        return http_url(value)
    try:
        http_url("https://example.org/" + value.lstrip("/"))  # valid as a URL's path and query
    except Invalid:
        raise Invalid(f"expected a path such as 'edit/main/content/' or an http(s) URL, found {value!r}") from None
    return value


def repo_url(value: Any) -> str:
    return optional_http_url(value) or ""


SITE_FIELDS = BASE_FIELDS + (
    Field("timezone", timezone, default="", doc="IANA time zone of the sessions' times, e.g. 'Europe/Berlin'."),
    Field("repo_url", repo_url, default="", doc="The catalog's repository: 'Edit this page', 'Report a problem'."),
    Field("edit_uri", edit_uri, default="", doc="The content folder's edit path below repo_url, or a URL."),
)
