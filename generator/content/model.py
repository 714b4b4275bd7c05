"""The catalog model: typed, immutable, validated on the way in (see ``loader``).

Everything after loading reads these objects and never changes them. Text fields hold
the source as written (Markdown with LaTeX); rendering to HTML or plain text is derived
data (see ``text`` and ``derive``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from .hosts import host_name

PRESENTATIONS = ("oral", "spotlight", "poster")
LINK_KINDS = ("pdf", "openreview", "arxiv", "code", "project", "venue_page", "doi")
LINK_LABELS = {
    "pdf": "PDF",
    "openreview": "OpenReview",
    "arxiv": "arXiv",
    "code": "Code",
    "project": "Project page",
    "venue_page": "Venue page",
    "doi": "DOI",
}


@dataclass(frozen=True, slots=True)
class SiteConfig:
    title: str
    description: str = ""
    base_url: str = "/"  # always ends with "/"; absolute URL or path
    language: str = "en"
    owner: str = ""
    # Authors with fewer papers get no page of their own (1: everyone); None: the default
    # (``derive.people.page_threshold``: everyone up to 20,000 papers, else 2).
    author_page_min_papers: int | None = None
    timezone: str = ""  # IANA name ("Europe/Berlin") sessions' times are in (issue 34); "" when not given
    repo_url: str = ""  # the catalog's repository (MkDocs' name): "Edit this page", "Report a problem"
    edit_uri: str = ""  # its content folder's edit path below repo_url, or an absolute URL ("edit/main/content/")


@dataclass(frozen=True, slots=True)
class Tag:
    id: str
    name: str
    description: str
    phrases: tuple[str, ...] = ()  # lower-case phrases that suggest the tag (importers)
    # Conference series (series.toml ids: "acl", "cvpr") whose papers get this tag when no
    # phrase of any tag matches them: the venue says the field (importers).
    series: tuple[str, ...] = ()
    fallback: bool = False  # the catch-all (exactly one tag of a taxonomy)
    # Research fields the tag belongs to ("vision"): its ``field`` and its series' fields.
    fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Venue:
    id: str
    name: str  # short name, "ICLR 2024"
    full_name: str  # "International Conference on Learning Representations 2024"
    year: int
    url: str | None = None
    location: str | None = None
    dates: str | None = None
    description: str = ""  # Markdown body
    source: str = ""  # file path relative to the content folder
    # The tracks the venue file lists (``content.tracks``): (id, name, badge, proceedings), "" where
    # not given; ``tracks.tracks_of(venue)`` gives every track, the standard ones too.
    tracks: tuple[tuple[str, str, str | None, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Link:
    kind: str  # one of LINK_KINDS
    url: str

    @property
    def label(self) -> str:
        """What the link says: its kind's label; a landing page is named by its host when
        the host is known ("PMLR", "IEEE Xplore": ``hosts.toml``)."""
        if self.kind == "venue_page":
            return host_name(self.url) or LINK_LABELS[self.kind]
        return LINK_LABELS[self.kind]


@dataclass(frozen=True, slots=True)
class Paper:
    slug: str  # file name and URL segment
    title: str  # may contain $math$ and text-mode LaTeX
    authors: tuple[str, ...]
    venue: str  # venue id
    tags: tuple[str, ...]
    abstract: str  # Markdown with LaTeX
    presentation: str | None = None
    links: tuple[Link, ...] = ()
    provisional: bool = False
    added: datetime.date | None = None
    source: str = ""  # file path relative to the content folder
    # Its track of the venue (``content.tracks``: "findings", "long", …); None: the main conference.
    track: str | None = None
    # Citation fields, where the record has them (issue 36); the DOI is ``links.doi``.
    pages: str | None = None  # "1149–1162"
    editors: tuple[str, ...] = ()  # of the proceedings
    publisher: str | None = None
    address: str | None = None  # the publisher's or the conference's place, as the record gives it
    month: int | None = None  # 1–12
    # Free-form front-matter data for custom templates (``paper.extra.x``); not validated.
    # A plain dict (workers pickle papers), left out of equality and hashing.
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Person:
    """Someone ``authors.toml`` describes: every spelling of the name (``name`` and ``aliases``)
    is one author, shown as ``name`` on one author page."""

    name: str
    orcid: str | None = None  # "0000-0002-1825-0097", checksum checked
    homepage: str | None = None  # http(s) URL
    affiliation: str | None = None
    aliases: tuple[str, ...] = ()  # other spellings found in papers
    line: int | None = None  # of the person's table in authors.toml, for notes
    # Merge and split rules (``content.people``): spellings that are someone else; for a
    # numbered person ("Jie Zhou 0001", dblp's convention) the papers, co-authors and venues
    # that tell their papers from a namesake's; each rule field's line in the file.
    distinct: tuple[str, ...] = ()
    number: str | None = None
    papers: tuple[str, ...] = ()
    coauthors: tuple[str, ...] = ()
    venues: tuple[str, ...] = ()
    rule_lines: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True, slots=True)
class Catalog:
    site: SiteConfig
    venues: Mapping[str, Venue]  # id -> venue, sorted by (year desc, name)
    tags: Mapping[str, Tag]  # id -> tag, in taxonomy order
    papers: tuple[Paper, ...]  # sorted by slug
    people: tuple[Person, ...] = ()  # authors.toml, in file order
    warnings: tuple[str, ...] = ()  # what the loader found suspect but builds (suspected duplicates, …)
    sessions: tuple[Any, ...] = ()  # the reading group's sessions (``sessions.Session``), by date and time

    def __post_init__(self) -> None:
        object.__setattr__(self, "venues", MappingProxyType(dict(self.venues)))
        object.__setattr__(self, "tags", MappingProxyType(dict(self.tags)))
