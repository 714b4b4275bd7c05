"""Metadata in a paper page's head: Highwire Press tags (``highwire_tags``), schema.org JSON-LD
(``json_ld``, written by ``json_for_script``) and the ``Meta`` name/content pairs."""

from __future__ import annotations

import json
from dataclasses import dataclass

from markupsafe import Markup

from ...content.model import SiteConfig
from ...derive.views import AuthorRef, PaperView
from ...derive.urls import SiteUrls, paper_page, venue_page
from .links import arxiv_id
from .plain import one_line, text_as_shown


@dataclass(frozen=True, slots=True)
class Meta:
    name: str
    content: str


def highwire_tags(view: PaperView, page_url: str) -> tuple[Meta, ...]:
    """``citation_*`` tags (Google Scholar, Zotero), in the order Scholar documents them."""
    tags = [Meta("citation_title", text_as_shown(view.paper.title))]
    for name, ref in zip(view.paper.authors, view.authors):  # names as the paper gives them
        tags.append(Meta("citation_author", one_line(name)))
        if ref.profile and ref.profile.orcid_url:  # authors.toml
            tags.append(Meta("citation_author_orcid", ref.profile.orcid_url))
    tags.append(Meta("citation_publication_date", str(view.venue.year)))
    tags.append(Meta("citation_conference_title", one_line(view.venue.full_name)))
    if view.pdf_url:  # the pdf link, else derived from the OpenReview or arXiv link
        tags.append(Meta("citation_pdf_url", view.pdf_url))
    tags.append(Meta("citation_abstract_html_url", page_url))
    arxiv = next((arxiv_id(link.url) for link in view.links if link.kind == "arxiv"), None)
    if arxiv:
        tags.append(Meta("citation_arxiv_id", arxiv))
    if view.tags:
        tags.append(Meta("citation_keywords", "; ".join(t.name for t in view.tags)))
    return tuple(tags)


_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # json.dumps(data, these options)


def json_for_script(data: object) -> Markup:
    """JSON for a ``<script type="application/ld+json">`` element.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` … (they only occur inside JSON strings,
    where the escapes mean the same), so no content can end the script element or open an
    HTML comment; U+2028/U+2029 are escaped for old JavaScript parsers.
    """
    text = _COMPACT_JSON.encode(data)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return Markup(text)


def json_ld(view: PaperView, urls: SiteUrls, config: SiteConfig) -> dict[str, object]:
    """schema.org ``ScholarlyArticle`` data of a paper: each thing once (its URL as ``url``,
    the start of its abstract as ``description``; the page shows the whole abstract), so the
    page carries no second copy of it."""
    page = urls.absolute(paper_page(view.slug))
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "name": text_as_shown(view.paper.title),
    }
    if page:
        data["url"] = page
    if view.paper.authors:
        data["author"] = [_person(name, ref, urls) for name, ref in zip(view.paper.authors, view.authors)]
    data["datePublished"] = str(view.venue.year)
    event: dict[str, object] = {"@type": "PublicationEvent", "name": one_line(view.venue.full_name)}
    if urls.absolute_base:
        event["url"] = urls.absolute(venue_page(view.venue.id))
    data["publication"] = event
    if view.description:  # the page shows the whole abstract; this is its start, as in the meta tags
        data["description"] = one_line(view.description)
    if view.tags:
        data["keywords"] = [t.name for t in view.tags]
    if config.language:
        data["inLanguage"] = config.language
    external = [link.url for link in view.links]
    if external:
        data["sameAs"] = external
    if view.pdf_url:
        data["encoding"] = {"@type": "MediaObject", "contentUrl": view.pdf_url, "encodingFormat": "application/pdf"}
    return data


def _person(name: str, ref: AuthorRef, urls: SiteUrls) -> dict[str, object]:
    """An author of the paper: the name as the paper gives it and, from authors.toml, their
    ORCID record and homepage (``sameAs``). (Their page here is linked from the page itself.)"""
    person: dict[str, object] = {"@type": "Person", "name": one_line(name)}
    if ref.profile and ref.profile.same_as:
        person["sameAs"] = list(ref.profile.same_as)
    return person
