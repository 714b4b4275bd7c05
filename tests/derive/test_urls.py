"""The site's paths and URLs (generator/derive/urls.py): every page kind and file, at the
root (``/``), under a sub-path (``/catalog/``) and at an absolute base URL; papers in their
venue's folder, authors in buckets, no folder wider than a host allows (issue 25)."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET

import pytest

from generator.content.loader import load_catalog
from generator.content.model import SiteConfig
from generator.derive.views import derive, paper_list
from generator.derive import urls as U
from generator.derive.browse import author_letters
from generator.outputs.citations import CitationIndex, best_link
from generator.outputs.exports import build_exports, sitemap_pages
from generator.outputs.pages import AUTHORS_PAGE_SIZE, PAGE_SIZE, list_pages, plan_pages, reading_list_shards

from ..conftest import REPO, ContentDir

CONTENT = REPO / "content"
ROOT, SUB, ABSOLUTE = "/", "/catalog/", "https://example.org/shelf/"


# --------------------------------------------------------------------------- paths


def test_page_paths_of_every_kind():
    assert U.HOME == ""
    assert (U.PAPERS, U.VENUES, U.TAGS, U.AUTHORS) == ("papers/", "venues/", "tags/", "authors/")
    assert (U.READING_LIST, U.SEARCH, U.NOT_FOUND) == ("reading-list/", "search/", "404.html")
    assert U.paper_page("iclr-2024", "graph-nets") == "papers/iclr-2024/graph-nets/"
    assert U.venue_page("iclr-2024") == "venues/iclr-2024/"
    assert U.tag_page("graph-learning") == "tags/graph-learning/"
    assert U.author_page("ada-lovelace") == "authors/ad/ada-lovelace/"
    assert U.author_path("ada-lovelace") == "ad/ada-lovelace"
    assert U.author_page_at("ad/ada-lovelace") == U.author_page("ada-lovelace")
    assert U.reading_list_data(0) == "reading-list/data/0.json"
    assert U.reading_list_data(12) == "reading-list/data/12.json"


def test_letter_and_year_pages():
    assert U.author_letter_page("a") == "authors/a/" and U.author_letter_page(U.OTHER_LETTER) == "authors/0/"
    assert U.list_page(U.author_letter_page("s"), 2) == "authors/s/page/2/"
    for letter in U.LETTERS + U.OTHER_LETTER:  # one character: never an author's bucket (two) nor "page"
        assert len(U.author_letter_page(letter).split("/")[1]) == 1
    for bad in ("", "ab", "A", "-", "_"):
        with pytest.raises(ValueError):
            U.author_letter_page(bad)
    assert U.YEARS == "years/" and U.year_page(2019) == "years/2019/"
    assert U.series_row("neurips") == "venues/#series-neurips"


def test_pages_of_a_list():
    assert U.list_page("tags/x/", 1) == "tags/x/"
    assert U.list_page("tags/x/", 2) == "tags/x/page/2/"
    assert U.list_page(U.PAPERS, 10) == "papers/page/10/"
    assert U.list_page(U.AUTHORS, 3) == "authors/page/3/"
    assert U.in_list("papers/", U.PAPERS) and U.in_list("papers/page/4/", U.PAPERS)
    # a paper's page is under papers/ but is not a page of the list of all papers
    assert not U.in_list("papers/page-rank/x/", U.PAPERS) and not U.in_list("papers/x/y/", U.PAPERS)
    assert not U.in_list("", U.PAPERS) and not U.in_list("tags/papers/", U.PAPERS)


@pytest.mark.parametrize("url, folder, output, section", [
    ("", True, "index.html", ""),
    ("papers/", True, "papers/index.html", "papers"),
    ("papers/v/x/", True, "papers/v/x/index.html", "papers"),
    ("tags/x/page/2/", True, "tags/x/page/2/index.html", "tags"),
    ("reading-list/data/3.json", False, "reading-list/data/3.json", "reading-list"),
    ("404.html", False, "404.html", ""),
])
def test_page_files_and_sections(url, folder, output, section):
    assert U.is_folder(url) is folder
    assert U.output_path(url) == output
    assert U.section(url) == section


@pytest.mark.parametrize("slug, bucket", [
    ("ada-lovelace", "ad"), ("li-wei", "li"), ("a-b-c", "ab"), ("x", "x_"), ("x-1", "x1"), ("7-of-9", "7o"),
    ("page", "pa"), ("zz", "zz"),
])
def test_an_author_bucket_is_the_first_two_letters_or_digits(slug, bucket):
    assert U.author_bucket(slug) == bucket
    assert U.author_page(slug) == f"authors/{bucket}/{slug}/"
    # two characters: never a one-character letter page of the index, nor its page/ folder
    assert len(bucket) == 2


def test_file_paths():
    assert U.venue_bib_path("iclr-2024") == "venues/iclr-2024/iclr-2024.bib"
    assert U.venue_feed_path("iclr-2024") == "venues/iclr-2024/feed.xml"
    assert U.tag_feed_path("graph-learning") == "tags/graph-learning/feed.xml"
    assert (U.catalog_bib(2024), U.catalog_json(1999)) == ("papers-2024.bib.gz", "papers-1999.json.gz")
    assert (U.CATALOG_FEED, U.PAPERS_JSON) == ("feed.xml", "papers.json")
    assert (U.SITEMAP, U.ROBOTS, U.sitemap_part(2)) == ("sitemap.xml", "robots.txt", "sitemap-2.xml.gz")


# --------------------------------------------------------------------------- URLs


@pytest.mark.parametrize("base_url, base_path, absolute_base", [
    (ROOT, "/", None),
    (SUB, "/catalog/", None),
    (ABSOLUTE, "/shelf/", "https://example.org/shelf/"),
    ("https://example.org/", "/", "https://example.org/"),
    ("http://localhost:8000/a/b/", "/a/b/", "http://localhost:8000/a/b/"),
])
def test_site_urls_from_the_base_url(base_url, base_path, absolute_base):
    urls = U.SiteUrls.from_config(SiteConfig(title="t", base_url=base_url))
    assert (urls.base_path, urls.absolute_base) == (base_path, absolute_base)
    assert urls.path(U.HOME) == base_path
    assert urls.path(U.paper_page("v", "x")) == f"{base_path}papers/v/x/"
    assert urls.path(U.catalog_bib(2024)) == f"{base_path}papers-2024.bib.gz"
    if absolute_base is None:
        assert urls.absolute(U.paper_page("v", "x")) is None and urls.absolute(U.HOME) is None
        assert urls.best(U.paper_page("v", "x")) == f"{base_path}papers/v/x/"
        assert urls.best(U.HOME) == base_path
    else:
        assert urls.absolute(U.paper_page("v", "x")) == f"{absolute_base}papers/v/x/"
        assert urls.best(U.paper_page("v", "x")) == f"{absolute_base}papers/v/x/"
        assert urls.best(U.HOME) == absolute_base
        assert urls.absolute(U.tag_feed_path("t")) == f"{absolute_base}tags/t/feed.xml"


@pytest.mark.parametrize("given, base_path, absolute_base", [
    ("/", "/", None),
    ("/catalog", "/catalog/", None),
    ("https://Example.ORG/shelf", "/shelf/", "https://example.org/shelf/"),
])
def test_site_urls_of_a_loaded_catalog(given, base_path, absolute_base):
    """The base URL as the build reads it (a missing final slash added, the host lower-cased)."""
    catalog = load_catalog(CONTENT, base_url=given)
    urls = U.SiteUrls.from_config(catalog.site)
    assert (urls.base_path, urls.absolute_base) == (base_path, absolute_base)


# --------------------------------------------------------------------------- the site's own


@pytest.fixture(scope="module")
def bundled(bundled_views):
    return bundled_views(ABSOLUTE)


def test_views_give_the_templates_the_same_page_paths(bundled):
    """derive.views makes the ``url`` the templates link to; it must be where the pages are written."""
    assert bundled.papers and bundled.venues and bundled.tags and bundled.authors
    for paper in bundled.papers:
        assert paper.url == U.paper_page(paper.venue.id, paper.slug)
        assert paper.venue.url == U.venue_page(paper.venue.id)
        assert [t.url for t in paper.tags] == [U.tag_page(t.id) for t in paper.tags]
        # an author with a page links to it; one without none (author_page_min_papers)
        assert [a.url for a in paper.authors] == [U.author_page(a.slug) if a.has_page else None for a in paper.authors]
    for venue in bundled.venues:
        assert venue.ref.url == U.venue_page(venue.ref.id)
    for tag in bundled.tags:
        assert tag.ref.url == U.tag_page(tag.ref.id)
    for author in bundled.authors:
        assert author.ref.has_page and author.ref.url == U.author_page(author.ref.slug)


def test_every_page_of_the_plan_is_at_its_path(bundled):
    pages = list(plan_pages(bundled))
    by_url = {page.url: page for page in pages}
    assert len(by_url) == len(pages), "two pages at one path"

    def pages_of(list_url: str, count: int, size: int = PAGE_SIZE) -> set[str]:
        return {U.list_page(list_url, n) for n in range(1, max(1, -(-count // size)) + 1)}

    expected = {U.HOME, U.VENUES, U.TAGS, U.READING_LIST, U.SEARCH, U.NOT_FOUND}
    expected |= {U.paper_page(v.venue.id, v.slug) for v in bundled.papers}
    expected |= pages_of(U.PAPERS, len(bundled.papers))
    expected.add(U.AUTHORS)
    for letter, people in author_letters(bundled.authors).items():
        expected |= pages_of(U.author_letter_page(letter), len(people), AUTHORS_PAGE_SIZE)
    years = {v.ref.year for v in bundled.venues}
    expected |= {U.YEARS} | {U.year_page(y) for y in years}  # (a year of fewer than PAGE_SIZE papers here)
    assert all(len([p for p in bundled.papers if p.venue.year == y]) <= PAGE_SIZE for y in years)
    for venue in bundled.venues:
        expected |= pages_of(U.venue_page(venue.ref.id), len(venue.papers))
    for tag in bundled.tags:
        expected |= pages_of(U.tag_page(tag.ref.id), len(tag.papers))
    for author in bundled.authors:
        expected |= pages_of(U.author_page(author.ref.slug), len(author.papers))
    expected |= {U.reading_list_data(n) for n in range(len(reading_list_shards(bundled)))}
    expected |= {U.TOPICS, U.TRENDS}
    for topic in bundled.topics.topics:
        expected |= pages_of(U.topic_page(topic.ref.id), len(topic.papers))
    if bundled.sessions is not None:  # the reading group's sessions (issue 34)
        expected |= {U.SESSIONS} | {U.session_page(s.id) for s in bundled.sessions.sessions}
    assert set(by_url) == expected
    assert by_url[U.HOME].template == "index.html" and by_url[U.NOT_FOUND].template == "404.html"
    assert by_url[U.reading_list_data(0)].template == "reading_list_data.json"
    for page in pages:
        assert page.output_path == U.output_path(page.url) and page.section == U.section(page.url)
    assert by_url[bundled.papers[0].url].output_path.endswith("/index.html")


def test_a_long_list_is_paginated_at_its_page_paths(bundled):
    pages = list(list_pages(U.PAPERS, "papers.html", "All papers", paper_list(bundled.papers), size=10))
    count = -(-len(bundled.papers) // 10)
    assert count > 2
    assert [page.url for page in pages] == ["papers/"] + [f"papers/page/{n}/" for n in range(2, count + 1)]
    second = pages[1].context["pagination"]
    assert (second.base_url, second.prev_url, second.next_url) == ("papers/", "papers/", "papers/page/3/")
    assert [link.url for link in second.links if link][:3] == ["papers/", "papers/page/2/", "papers/page/3/"]


@pytest.mark.parametrize("base_url", [ROOT, SUB, ABSOLUTE])
def test_citation_urls_come_from_the_builder(base_url, bundled_views):
    site = bundled_views(base_url)
    index = CitationIndex(site)
    urls = U.SiteUrls.from_config(site.catalog.site)
    base_path = "/shelf/" if base_url == ABSOLUTE else base_url
    for view in site.papers[:20]:
        citation = index.for_paper(view)
        if base_url == ABSOLUTE:
            assert citation.page_url == f"{ABSOLUTE}papers/{view.venue.id}/{view.slug}/"
            assert citation.url in (best_link(view), citation.page_url)  # the paper's own page first
        else:
            assert citation.page_url == f"{base_path}papers/{view.venue.id}/{view.slug}/"
            assert citation.url != citation.page_url  # a path is not a citable URL: an external link or None
        assert citation.page_url == urls.best(view.url) == citation.canonical


@pytest.mark.parametrize("base_url", [SUB, ABSOLUTE])
def test_export_files_are_at_their_paths(tmp_path, base_url):
    content = ContentDir(tmp_path / "content")
    content.add_paper("a-paper-on-graphs")
    content.add_paper("fast-convergence", title="Fast Convergence", tags=("optimization",))
    site = derive(load_catalog(content.root, base_url=base_url))
    files = build_exports(site, CitationIndex(site))
    expected = {U.catalog_bib(2024), U.catalog_json(2024), U.PAPERS_JSON, U.ROBOTS}
    expected |= {U.venue_bib_path(v.ref.id) for v in site.venues}  # a tag has none: one copy of each entry
    if base_url == ABSOLUTE:
        expected |= {U.CATALOG_FEED, U.SITEMAP, U.sitemap_part(1)}
        expected |= {U.venue_feed_path(v.ref.id) for v in site.venues} | {U.tag_feed_path(t.ref.id) for t in site.tags}
    assert set(files) == expected
    if base_url != ABSOLUTE:
        assert "Sitemap:" not in files[U.ROBOTS]
        return
    assert f"Sitemap: {ABSOLUTE}sitemap.xml" in files[U.ROBOTS]
    index = [e.text for e in ET.fromstring(files[U.SITEMAP]).iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert index == [ABSOLUTE + U.sitemap_part(1)]
    locs = [e.text for e in ET.fromstring(gzip.decompress(files[U.sitemap_part(1)])).iter(
        "{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs == [ABSOLUTE + url for url, _ in sitemap_pages(site)]
    assert f"{ABSOLUTE}papers/test-2024/fast-convergence/" in locs and ABSOLUTE in locs
    assert not any(loc.endswith(".html") or loc.endswith(".json") for loc in locs)
    feed = ET.fromstring(files[U.tag_feed_path("optimization")])
    atom = "{http://www.w3.org/2005/Atom}"
    assert feed.find(f"{atom}id").text == f"{ABSOLUTE}tags/optimization/"
    links = {link.get("rel"): link.get("href") for link in feed.findall(f"{atom}link")}
    assert links == {"self": f"{ABSOLUTE}tags/optimization/feed.xml", "alternate": f"{ABSOLUTE}tags/optimization/"}
