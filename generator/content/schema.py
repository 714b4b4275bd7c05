"""Declarative schemas for every input: one ``Field`` per front-matter or config key.

Each field has a checker that returns the cleaned value or raises ``Invalid`` with what
was expected. ``check_fields`` applies a schema to one file's mapping and reports every
problem (file, line, field) instead of stopping at the first.
"""

from __future__ import annotations

import datetime
import functools
import ipaddress
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit

from ..errors import Problems
from .frontmatter import type_name
from .characters import FORBIDDEN_IN_TEXT, describe_char
from . import citation_fields, tracks
from .model import LINK_KINDS, PRESENTATIONS
from .slugs import author_key, is_valid_slug


class Invalid(ValueError):
    """A value that does not fit its field; the message says what was expected.

    A list or mapping with several bad items raises one ``Invalid`` whose ``messages``
    holds one message per item ("item 2: ...", "code: ..."), each reported on its own.
    """

    def __init__(self, message: str, messages: tuple[str, ...] = ()):
        super().__init__(message)
        self.messages = messages or (message,)


def _raise_all(messages: list[str]) -> None:
    if messages:
        raise Invalid("; ".join(messages), tuple(messages))


@dataclass(frozen=True)
class Field:
    name: str
    check: Callable[[Any], Any]
    required: bool = False
    default: Any = None
    doc: str = ""


def _found(value: Any) -> str:
    shown = repr(value) if isinstance(value, str) else type_name(value)
    if isinstance(value, str) and len(shown) > 60:
        shown = shown[:57] + "…'"
    return f"found {shown}"


def text(value: Any) -> str:
    if not isinstance(value, str):
        hint = " (put it in quotes)" if isinstance(value, (int, float, bool, datetime.date)) else ""
        raise Invalid(f"expected text, {_found(value)}{hint}")
    value = value.strip()
    if not value:
        raise Invalid("expected text, found an empty value")
    bad = FORBIDDEN_IN_TEXT.search(value)
    if bad:
        raise Invalid(f"text must not contain {describe_char(bad.group())}")
    return value


# The escapes of double-quoted YAML and TOML strings that LaTeX walks into: "\theta" is a
# tab and "heta", "\nabla" a line break and "abla", "\alpha" U+0007 and "lpha".
_QUOTES_HINT = (" (in double quotes a backslash starts an escape: \"\\theta\" is a tab and 'heta';"
                " put text with LaTeX in single quotes: '$\\theta$')")


_LINE_BREAK = re.compile(r"\r\n|[\n\r\u2028\u2029]")


def line_text(value: Any) -> str:
    """Text shown on one line (titles, names). A title written over several lines (a YAML
    block scalar) is joined with spaces; but a tab, or a line break inside a formula or
    right after ``$ { ( \\``, is what a backslash in double quotes made ("\\theta", "\\nabla",
    "\\Lambda"), and is refused with a hint."""
    try:
        value = text(value)
    except Invalid as exc:
        if "control character" in str(exc):
            raise Invalid(f"{exc}{_QUOTES_HINT}") from None
        raise
    if "\t" in value:
        raise Invalid(f"expected text on one line, found a tab in {value!r}{_QUOTES_HINT}")
    breaks = list(_LINE_BREAK.finditer(value))
    for found in breaks:
        before = value[:found.start()]
        if before.count("$") % 2 or before[-1:] in ("$", "{", "(", "\\"):
            raise Invalid(f"expected text on one line, found a line break in {value!r}{_QUOTES_HINT}")
    return " ".join(value.split()) if breaks else value


def optional_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str) and not value.strip():
        return ""
    return text(value)


def year(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"expected a year such as 2024, {_found(value)}")
    if not 1000 <= value <= 9999:
        raise Invalid(f"expected a four-digit year, found {value}")
    return value


# Characters that are never valid in a URL as written in HTML (RFC 3986 and the URL
# standard): whitespace, controls, quotes, angle brackets, braces and the like.
_URL_BAD_CHAR = re.compile(r"[\x00-\x20\x7f-\x9f\"<>\\^`{|}]")
_HOST = re.compile(r"^[\w-]+(?:\.[\w-]+)*\.?$")
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _valid_host(host: str | None) -> bool:
    if not host:
        return False
    if ":" in host:  # IPv6, written in brackets
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return False
        return True
    return bool(_HOST.match(host))


def http_url(value: Any) -> str:
    """An absolute http(s) URL that is safe and valid in an ``href``."""
    if not isinstance(value, str):
        raise Invalid(f"expected an http(s) URL, {_found(value)}")
    return _checked_url(value.strip())


@functools.lru_cache(maxsize=4096)  # an importer checks each link as it reads it and as it writes it
def _checked_url(value: str) -> str:
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    except ValueError:
        raise Invalid(f"expected an http(s) URL, {_found(value)}") from None
    scheme = parts.scheme.lower()
    if (
        scheme not in ("http", "https")
        or not value.lower().startswith(scheme + "://")
        or not _valid_host(parts.hostname)
        or _URL_BAD_CHAR.search(value)
        or _PERCENT.search(value)
        or FORBIDDEN_IN_TEXT.search(value)
    ):
        raise Invalid(f"expected an http(s) URL, {_found(value)}")
    return value


def is_http_url(value: str) -> bool:
    try:
        http_url(value)
    except Invalid:
        return False
    return True


def optional_http_url(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return http_url(value)


def name_list(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        hint = ' (write authors: ["First Author", "Second Author"])' if isinstance(value, str) else ""
        raise Invalid(f"expected a list of names, {_found(value)}{hint}")
    names: list[str] = []
    seen: dict[str, tuple[int, str]] = {}  # author key -> (item number, name) of its first listing
    bad: list[str] = []
    for i, item in enumerate(value, 1):
        try:
            name = line_text(item)
        except Invalid as exc:
            bad.append(f"item {i}: {exc}")
            continue
        key = author_key(name)
        if key in seen:
            first, other = seen[key]
            if other == name:
                bad.append(f"item {i}: {name!r} is listed twice")
            else:
                bad.append(f"item {i}: {name!r} is the same author as {other!r} (item {first}): names that"
                           " differ only in accents, case or punctuation share one author page")
        else:
            seen[key] = (i, name)
            names.append(name)
    _raise_all(bad)
    return tuple(names)


def slug_list(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        hint = f" (write tags: [{value.strip()}])" if isinstance(value, str) and is_valid_slug(value.strip()) else ""
        raise Invalid(f"expected a list of ids, {_found(value)}{hint}")
    ids: list[str] = []
    bad: list[str] = []
    for i, item in enumerate(value, 1):
        if not isinstance(item, str) or not is_valid_slug(item):
            bad.append(f"item {i}: expected an id like 'graph-learning', {_found(item)}")
        elif item not in ids:
            ids.append(item)
    _raise_all(bad)
    return tuple(ids)


def slug(value: Any) -> str:
    if not isinstance(value, str) or not is_valid_slug(value):
        raise Invalid(f"expected an id like 'iclr-2024', {_found(value)}")
    return value


def presentation(value: Any) -> str | None:
    if value is None:
        return None
    if value not in PRESENTATIONS:
        raise Invalid(f"expected one of {', '.join(PRESENTATIONS)}, {_found(value)}")
    return value


def links(value: Any) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise Invalid(f"expected a mapping such as 'arxiv: https://…', {_found(value)}")
    out = []
    bad: list[str] = []
    for kind, url in value.items():
        if not isinstance(kind, str) or kind not in LINK_KINDS:
            bad.append(f"unknown link kind {kind!r}; expected one of {', '.join(LINK_KINDS)}")
            continue
        if url is None or url == "":
            continue
        try:
            out.append((kind, http_url(url) if kind != "doi" else doi_link(url)))
        except Invalid as exc:
            bad.append(f"{kind}: {exc}")
    _raise_all(bad)
    return tuple(sorted(out, key=lambda pair: LINK_KINDS.index(pair[0])))


_DOI_LINK = re.compile(r"^https?://(?:dx\.)?doi\.org/10\.\d{4,9}/\S+$", re.IGNORECASE)


def doi_link(value: Any) -> str:
    """A ``doi`` link: a doi.org URL of a DOI (``https://doi.org/10.1145/3292500.3330701``)."""
    url = http_url(value)
    if not _DOI_LINK.match(url):
        raise Invalid(f"expected a DOI as a doi.org URL (https://doi.org/10.…), {_found(value)}")
    return url


_ORCID = re.compile(r"^(?:https?://(?:www\.)?orcid\.org/)?(\d{4})-(\d{4})-(\d{4})-(\d{3}[0-9X])/?$", re.IGNORECASE)


def orcid_check_digit(digits: str) -> str:
    """The check character of an ORCID iD's first 15 digits (ISO 7064 MOD 11-2)."""
    total = 0
    for digit in digits:
        total = (total + int(digit)) * 2
    result = (12 - total % 11) % 11
    return "X" if result == 10 else str(result)


def orcid(value: Any) -> str | None:
    """An ORCID iD, ``0000-0002-1825-0097`` (its https://orcid.org/ URL is fine too), checksum checked."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise Invalid(f"expected an ORCID iD such as '0000-0002-1825-0097', {_found(value)}")
    match = _ORCID.match(value.strip())
    if not match:
        raise Invalid(f"expected an ORCID iD such as '0000-0002-1825-0097' (four groups of four digits, "
                      f"the last may be X), {_found(value)}")
    ident = "-".join(match.groups()).upper()
    expected = orcid_check_digit(ident.replace("-", "")[:15])
    if ident[-1] != expected:
        raise Invalid(f"{ident!r} is not a valid ORCID iD: its last character should be {expected!r} "
                      "(a typo in the digits?)")
    return ident


def optional_line_text(value: Any) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return line_text(value)


def alias_list(value: Any) -> tuple[str, ...]:
    """Other spellings of a person's name (``authors.toml``): a list of names, each once."""
    if isinstance(value, str):
        raise Invalid(f'expected a list of names, {_found(value)} (write aliases = ["{value.strip()}"])')
    return name_list(value)


def flag(value: Any) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Invalid(f"expected true or false, {_found(value)}")
    return value


def optional_date(value: Any) -> datetime.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise Invalid(f"expected a date such as 2024-05-07, {_found(value)}")


def extra(value: Any) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Invalid(f"expected a mapping, {_found(value)}")
    return value


_BASE_URL = re.compile(
    r"^(?:https?://(?P<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{1,5}))?)?"
    r"/(?:[A-Za-z0-9._~!$&'()*+,;=:@%-]+/)*$"
)


_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def _valid_base_host(host: str, port: str | None) -> bool:
    """A DNS name of valid labels or an IPv6 address in brackets, and a port up to 65535."""
    if port is not None and not 0 < int(port) <= 65535:
        return False
    if host.startswith("["):
        return _valid_host(host[1:-1])
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    return all(_LABEL.match(label) for label in labels)


def base_url(value: Any) -> str:
    """'/' (default), a path such as '/catalog/', or an absolute http(s) URL; ends with '/'.

    The path may hold only characters that are valid in a URL as written (no quotes,
    spaces or angle brackets) and no '.' or '..' segments.
    """
    if value is None or value == "":
        return "/"
    if not isinstance(value, str):
        raise Invalid(f"expected a URL path such as '/catalog/', {_found(value)}")
    value = value.strip()
    given = value
    if not value.endswith("/"):
        value += "/"
    scheme = re.match(r"(?i)https?://", value)
    if scheme:  # scheme and host are case-insensitive: written the usual way
        rest = value[scheme.end():]
        host, slash, path = rest.partition("/")
        value = scheme.group().lower() + host.lower() + slash + path
    match = _BASE_URL.match(value)
    path = value.split("://", 1)[1] if "://" in value else value
    segments = path.split("/")[1:-1]
    if (
        not match
        or any(seg in (".", "..") for seg in segments)
        or _PERCENT.search(value)
        or (match.group("host") is not None and not _valid_base_host(match.group("host"), match.group("port")))
    ):
        raise Invalid(f"expected '/', a path such as '/catalog/' or an http(s) URL, {_found(given)}")
    return value


def language(value: Any) -> str:
    value = text(value) if value is not None else "en"
    if not re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*", value):
        raise Invalid(f"expected a language tag such as 'en' or 'en-GB', {_found(value)}")
    return value


def page_threshold(value: Any) -> int | None:
    """A whole number of papers, 1 or more (TOML integers only: not 2.0, not "2", not true);
    None when not given (the default depends on the catalog's size)."""
    if value is None:
        return None
    if type(value) is not int or value < 1:
        found = f"found {value}" if type(value) is int else _found(value)
        raise Invalid(f"expected a whole number of papers, 1 or more, {found}")
    return value


SITE_FIELDS = (
    Field("title", line_text, required=True, doc="The site's name, shown in every page header."),
    Field("description", optional_text, default="", doc="One or two sentences for the home page and meta tags."),
    Field("base_url", base_url, default="/", doc="Where the site lives: '/', '/catalog/' or 'https://host/path/'."),
    Field("language", language, default="en", doc="Language tag for <html lang>."),
    Field("owner", optional_text, default="", doc="Who curates the catalog (footer)."),
    Field("author_page_min_papers", page_threshold, default=None,
          doc="Authors with at least this many papers get a page of their own (1: everyone; "
              "default 1 up to 20,000 papers, else 2)."),
)

# Ids no venue may have: a paper's page is papers/<venue>/<slug>/, and papers/page/<n>/ are
# the pages of the list of all papers (issue 25).
RESERVED_VENUE_IDS = frozenset({"page"})

VENUE_FIELDS = (
    Field("name", line_text, required=True, doc="Short name, e.g. 'ICLR 2024'."),
    Field("full_name", line_text, required=True, doc="Full name, used in citations."),
    Field("year", year, required=True, doc="Year of the venue."),
    Field("url", optional_http_url, doc="The venue's web site."),
    Field("location", optional_text, default=None, doc="Where it took place."),
    Field("dates", optional_text, default=None, doc="When it took place, as text."),
    Field("tracks", tracks.read_tracks, default=(), doc="Its tracks: id, name, badge, proceedings (content.tracks)."),
)

PAPER_FIELDS = (
    Field("title", line_text, required=True, doc="Title as published; may contain $math$."),
    Field("authors", name_list, default=(), doc="Author names in order; empty when unknown."),
    Field("venue", slug, required=True, doc="Id of a venue in content/venues/."),
    Field("tags", slug_list, default=(), doc="Ids of tags in content/tags.toml."),
    Field("presentation", presentation, doc="oral, spotlight or poster."),
    Field("links", links, default=(), doc="Mapping of link kind to http(s) URL."),
    Field("provisional", flag, default=False, doc="True when title and authors are not known."),
    Field("added", optional_date, doc="When the paper joined the catalog (YYYY-MM-DD); orders 'recently added'."),
    Field("extra", extra, default={}, doc="Free-form data for custom templates; not validated."),
    Field("track", tracks.read_track, doc="Its track of the venue: findings, long, short, … (content.tracks)."),
    Field("pages", citation_fields.read_pages, doc="Page range in the proceedings, '1149–1162'."),
    Field("editors", name_list, default=(), doc="Editors of the proceedings."),
    Field("publisher", optional_line_text, doc="Publisher of the proceedings."),
    Field("address", optional_line_text, doc="Publisher's or conference's place, as cited."),
    Field("month", citation_fields.read_month, doc="Month of publication, 1-12 or its name."),
)


# ``authors.toml``: one table per person, named by the name shown (see ``content.people``).
PERSON_FIELDS = (
    Field("orcid", orcid, doc="ORCID iD, '0000-0002-1825-0097' or its https://orcid.org/ URL."),
    Field("homepage", optional_http_url, doc="The person's web page (http or https)."),
    Field("affiliation", optional_line_text, doc="Where they work, as shown on their author page."),
    Field("aliases", alias_list, default=(), doc="Other spellings of the name in papers; one author page for all."),
)


def check_fields(
    data: Mapping[str, Any],
    fields: tuple[Field, ...],
    *,
    file: str,
    line_of: Callable[[str], int | None],
    problems: Problems,
    prefix: str = "",
) -> tuple[dict[str, Any], bool]:
    """Apply a schema; return the values that passed, and whether every field did."""
    known = {f.name for f in fields}
    clean: dict[str, Any] = {}
    ok = True
    for key in data:
        if key not in known:
            problems.add(file, f"unknown field; expected one of {', '.join(sorted(known))}",
                         line=line_of(key), field=prefix + key)
            ok = False
    for f in fields:
        if f.name not in data or data[f.name] is None:
            if f.required:
                what = "required field is empty" if f.name in data else "required field is missing"
                problems.add(file, what, line=line_of(f.name), field=prefix + f.name)
                ok = False
                continue
            clean[f.name] = f.check(None) if f.default is None else f.default
            continue
        try:
            clean[f.name] = f.check(data[f.name])
        except ValueError as exc:  # Invalid, or the ValueError of a checker of citation_fields, tracks
            for message in getattr(exc, "messages", (str(exc),)):
                problems.add(file, message, line=line_of(f.name), field=prefix + f.name)
            ok = False
    return clean, ok
