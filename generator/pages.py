"""The page plan: which pages the site has, at which URL, with which template and data.

URLs are stable: ``/papers/<slug>/``, ``/venues/<id>/``, ``/tags/<id>/``,
``/authors/<slug>/`` and the index pages; each is written as ``<url>index.html``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from .derive import SiteData


@dataclass(frozen=True)
class Page:
    url: str  # relative to the site root, "" for the home page, ending in "/" or ".html"
    template: str
    title: str  # plain text for <title>
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def output_path(self) -> str:
        return self.url + "index.html" if self.url == "" or self.url.endswith("/") else self.url


def plan_pages(site: SiteData) -> Iterator[Page]:
    yield Page("", "index.html", site.catalog.site.title, {"home": True})
    for paper in site.papers:
        yield Page(paper.url, "paper.html", paper.title_plain, {"paper": paper})
    yield Page("venues/", "venues.html", "Venues")
    for venue in site.venues:
        yield Page(venue.ref.url, "venue.html", venue.ref.name, {"venue": venue})
    yield Page("tags/", "tags.html", "Tags")
    for tag in site.tags:
        yield Page(tag.ref.url, "tag.html", tag.ref.name, {"tag": tag})
    yield Page("authors/", "authors.html", "Authors")
    for author in site.authors:
        yield Page(author.ref.url, "author.html", author.ref.name, {"author": author})
    yield Page("papers/", "papers.html", "All papers")
    yield Page("search/", "search.html", "Search")
    yield Page("404.html", "404.html", "Page not found")
