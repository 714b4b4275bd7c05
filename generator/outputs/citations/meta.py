"""Metadata in a paper page's head: Highwire Press tags (``highwire_tags``, for Google Scholar
and Zotero), schema.org JSON-LD (``json_ld``, written by ``json_for_script``, for search
engines) and the ``Meta`` name/content pairs. Each says a thing once: no OpenGraph or Twitter
tags (link previews take the page's <title>), no meta description (the abstract is on the
page), no second copy of the abstract, the tags or the page's URL. The page's script formats
its references (APA, Chicago, ACL, RIS: ``static/js/cite.js``) from these two and the BibTeX
key."""

from __future__ import annotations

import json
from dataclasses import dataclass

from markupsafe import Markup

from ...content.citation_fields import doi_of
from ...derive.views import AuthorRef, PaperView
from ...derive.urls import SiteUrls, paper_page, venue_page
from .links import BEST_LINK_ORDER, arxiv_id
from .names import citation_name, split_at_last_word
from .plain import one_line, text_as_shown


@dataclass(frozen=True, slots=True)
class Meta:
    name: str
    content: str


def highwire_tags(view: PaperView) -> tuple[Meta, ...]:
    """``citation_*`` tags (Google Scholar, Zotero), in the order Scholar documents them. The
    page's own URL is its canonical link (not said again as ``citation_abstract_html_url``)."""
    tags = [Meta("citation_title", text_as_shown(view.paper.title))]
    for name, ref in zip(view.paper.authors, view.authors):  # names as the paper gives them
        tags.append(Meta("citation_author", one_line(name)))
        if ref.profile and ref.profile.orcid_url:  # authors.toml
            tags.append(Meta("citation_author_orcid", ref.profile.orcid_url))
    paper = view.paper
    for name in paper.editors:
        tags.append(Meta("citation_editor", one_line(name)))
    tags.append(Meta("citation_publication_date", _date(view, "/")))
    tags.append(Meta("citation_conference_title", one_line(view.venue.full_name)))  # the track's proceedings
    if paper.publisher:
        tags.append(Meta("citation_publisher", one_line(paper.publisher)))
    if paper.pages:
        first, _, last = paper.pages.partition("–")
        tags.append(Meta("citation_firstpage", first))
        if last:
            tags.append(Meta("citation_lastpage", last))
    doi = next((doi_of(link.url) for link in view.links if link.kind == "doi"), None)
    if doi:
        tags.append(Meta("citation_doi", doi))
    if view.pdf_url:  # the pdf link, else derived from the OpenReview or arXiv link
        tags.append(Meta("citation_pdf_url", view.pdf_url))
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


def json_ld(view: PaperView, urls: SiteUrls, location: str | None = None) -> dict[str, object]:
    """schema.org ``ScholarlyArticle`` data of a paper: its URL (``url``, when absolute), title,
    authors, year, proceedings (with where the venue took place) and its pages elsewhere
    (``sameAs``, the best one to cite first: ``links.BEST_LINK_ORDER``). Not the abstract (the
    page shows it), the tags (``citation_keywords`` and the page's links), the language
    (``<html lang>``) nor the PDF (``citation_pdf_url``)."""
    page = urls.absolute(paper_page(view.venue.id, view.slug))
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "name": text_as_shown(view.paper.title),
    }
    if page:
        data["url"] = page
    if view.paper.authors:
        data["author"] = [_person(name, ref) for name, ref in zip(view.paper.authors, view.authors)]
    paper = view.paper
    if paper.editors:
        data["editor"] = [{"@type": "Person", "name": one_line(name)} for name in paper.editors]
    data["datePublished"] = _date(view, "-")
    if paper.pages:
        data["pagination"] = paper.pages
    if paper.publisher:
        data["publisher"] = {"@type": "Organization", "name": one_line(paper.publisher)}
    # the track's proceedings (derive.views: "Findings of the Association for Computational Linguistics: ACL 2022")
    event: dict[str, object] = {"@type": "PublicationEvent", "name": one_line(view.venue.full_name)}
    if urls.absolute_base:
        event["url"] = urls.absolute(venue_page(view.venue.id))
    if paper.address or location:
        event["location"] = one_line(paper.address or location)
    data["publication"] = event
    order = {kind: i for i, kind in enumerate(BEST_LINK_ORDER)}
    external = [link.url for link in sorted(view.links, key=lambda link: order.get(link.kind, len(order)))]
    if external:
        data["sameAs"] = external
    return data


def _date(view: PaperView, separator: str) -> str:
    """The year, and the month where the paper gives it ("2022/05", "2022-05")."""
    month = view.paper.month
    return f"{view.venue.year}{separator}{month:02d}" if month else str(view.venue.year)


def _person(name: str, ref: AuthorRef) -> dict[str, object]:
    """An author of the paper: the name as the paper gives it; its parts as a citation reads
    them (``names.citation_name``) where they are not "given names, then the family name"
    (``split_at_last_word``: a particle, a suffix, a one-word name); from authors.toml, their
    ORCID record and homepage (``sameAs``)."""
    shown = one_line(name)
    person: dict[str, object] = {"@type": "Person", "name": shown}
    parts = citation_name(name)
    if parts != split_at_last_word(shown):
        if parts.given:
            person["givenName"] = parts.given
        person["familyName"] = " ".join(p for p in (parts.particle, parts.family) if p)
        if parts.suffix:
            person["honorificSuffix"] = parts.suffix
    if ref.profile and ref.profile.same_as:
        person["sameAs"] = list(ref.profile.same_as)
    return person
