"""Exports of a built site: the catalog's yearly gzip files and papers.json, venues' .bib
files, Atom feeds, sitemap, robots.txt, and the metadata in the pages (meta tags, canonical,
JSON-LD, BibTeX, feed links)."""

from __future__ import annotations

import datetime
import gzip
import html
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import bibtexparser
import pytest
import yaml
from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts

from generator.content import hosts
from generator.outputs.citations import bibtex_keyword
from generator.outputs import catalog as catalog_module, exports
from generator.build import BuildOptions, build
from generator.outputs.citations import BEST_LINK_ORDER, CitationIndex
from generator.derive.views import derive
from generator.importers.bibtex import bib_text_to_content
from generator.content.loader import load_catalog
from generator.outputs.pages import plan_pages
from generator.text import plain_text

from ..conftest import ABSOLUTE_BASE, REPO, ContentDir, bibtex_balanced

CONTENT = REPO / "content"
BASE = ABSOLUTE_BASE
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def front_matter(path: Path) -> tuple[dict, str]:
    _, head, body = path.read_text(encoding="utf-8").split("---\n", 2)
    return yaml.safe_load(head), body.strip()


PAPERS = {p.stem: front_matter(p) for p in sorted((CONTENT / "papers").glob("*.md"))}
VENUES = {p.stem: front_matter(p)[0] for p in sorted((CONTENT / "venues").glob("*.md"))}


def page_of(slug: str) -> str:
    """A bundled paper's page below the site root: in its venue's folder."""
    return f"papers/{PAPERS[slug][0]['venue']}/{slug}/"


def gunzip(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def catalog_bib(site: Path) -> str:
    """Every paper's full entry: the catalog's yearly files, newest year first."""
    return "\n".join(gunzip(path) for path in sorted(site.glob("papers-*.bib.gz"), reverse=True))


# The committed catalog built and derived once a session (see conftest): read-only here.


@pytest.fixture(scope="module")
def site(bundled_build) -> Path:
    return bundled_build(BASE).path


@pytest.fixture(scope="module")
def path_site(bundled_build):
    built = bundled_build("/catalog/")
    return built.path, built.report


@pytest.fixture(scope="module")
def catalog(bundled_views):
    return bundled_views(BASE)


class HeadParser(HTMLParser):
    """<meta>, <link> and JSON-LD of a page, and COinS spans."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: list[tuple[str, str, str]] = []  # (attribute, name, content)
        self.links: list[dict[str, str]] = []
        self.json_ld: list[str] = []
        self.coins: list[str] = []
        self._in_ld = False

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "meta" and "content" in a:
            for attr in ("name", "property"):
                if attr in a:
                    self.meta.append((attr, a[attr], a["content"]))
        elif tag == "link":
            self.links.append(a)
        elif tag == "script" and a.get("type") == "application/ld+json":
            self._in_ld = True
            self.json_ld.append("")
        elif tag == "span" and "Z3988" in a.get("class", "").split():
            self.coins.append(a.get("title", ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_ld = False

    def handle_data(self, data):
        if self._in_ld:
            self.json_ld[-1] += data


def head(path: Path) -> HeadParser:
    parser = HeadParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def parse_bib(path: Path | str, names: bool = False):
    """A .bib file, or BibTeX text, read by bibtexparser."""
    middleware = [SeparateCoAuthors(), SplitNameParts()] if names else []
    text = path if isinstance(path, str) else path.read_text(encoding="utf-8")
    library = bibtexparser.parse_string(text, append_middleware=middleware)
    assert not library.failed_blocks, (path, [str(b.error) for b in library.failed_blocks])
    return library


def normalized(text: str) -> str:
    """Plain text with LaTeX dashes as the importer reads them, for comparisons."""
    text = text.replace("---", "\u2014").replace("--", "\u2013")
    return " ".join(plain_text(text).split())


# --------------------------------------------------------------------------- BibTeX and RIS


def page_block(site: Path, slug: str, block: str, venue: str | None = None) -> str:
    """The text of a paper page's BibTeX block (``<pre id="cite-bibtex">``)."""
    text = (site / (f"papers/{venue}/{slug}/" if venue else page_of(slug)) / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<pre [^>]*id="cite-' + block + r'"[^>]*><code>(.*?)</code></pre>', text, re.S)
    assert found, (slug, block)
    return html.unescape(found.group(1))


def test_every_bib_file_parses_with_balanced_braces(site):
    bibs = sorted(site.rglob("*.bib"))
    # Each venue's, plain; the catalog's, gzip, a file a year: no file per paper (its page has
    # its entry), none per tag (one copy of each entry: its papers are in the venues' files).
    assert len(bibs) == len(VENUES) and not list((site / "tags").rglob("*.bib"))
    assert [p.name for p in site.glob("*.bib*")] == ["papers-2024.bib.gz"]
    assert not list((site / "papers").rglob("*.bib")) and not list(site.rglob("*.ris"))
    for path in [*bibs, catalog_bib(site)]:
        text = path if isinstance(path, str) else path.read_text(encoding="utf-8")
        library = parse_bib(path)
        assert len(library.entries) == text.count("@inproceedings{"), path
        for entry in library.entries:
            for name, field in entry.fields_dict.items():
                assert bibtex_balanced(field.value), (path, name, field.value)


def test_each_paper_bib_round_trips_its_front_matter(site, catalog):
    index = CitationIndex(catalog)
    entries = {e.key: e for e in parse_bib(catalog_bib(site), names=True).entries}
    for slug, (fm, body) in PAPERS.items():
        view = next(v for v in catalog.papers if v.slug == slug)
        entry = entries[index.for_paper(view).key]  # the catalog's files hold the full entries
        fields = {k: f.value for k, f in entry.fields_dict.items()}
        assert entry.entry_type == "inproceedings"
        assert entry.key == index.for_paper(view).key
        assert normalized(bib_text_to_content(fields["title"], title=True)) == normalized(fm["title"]), slug
        authors = [parts.merge_first_name_first for parts in fields.get("author", [])]
        assert authors == (fm.get("authors") or []), slug
        assert fields["booktitle"] == VENUES[fm["venue"]]["full_name"]
        assert fields["year"] == str(VENUES[fm["venue"]]["year"])
        links = fm.get("links") or {}
        own = next((links[kind] for kind in BEST_LINK_ORDER if kind in links), None)
        assert fields["url"] == (own or f"{BASE}{page_of(slug)}")  # the paper's own page first
        links = fm.get("links") or {}
        for kind, url in links.items():
            if kind == "arxiv" and "eprint" in fields:
                assert url == "https://arxiv.org/abs/" + fields["eprint"] and fields["archiveprefix"] == "arXiv"
            else:
                assert fields[kind] == url, (slug, kind)
        assert fields.get("presentation") == fm.get("presentation")
        tag_names = {t.id: t.name for t in catalog.catalog.tags.values()}
        # One keyword per tag, comma-separated; a comma inside a tag name is written " / ".
        assert fields["keywords"].replace("\\&", "&") == ", ".join(bibtex_keyword(tag_names[t]) for t in fm.get("tags") or [])
        if body:
            assert normalized(bib_text_to_content(fields["abstract"], title=False)) == normalized(body), slug


def test_bulk_bib_files_hold_exactly_their_papers(site, catalog):
    index = CitationIndex(catalog)
    keys = {v.slug: index.for_paper(v).key for v in catalog.papers}
    whole = [e.key for e in parse_bib(catalog_bib(site)).entries]
    assert whole == sorted(keys.values())  # each paper once (one year here), by key
    # A venue's file holds its papers' entries as the paper pages show them.
    shown = {keys[s]: page_block(site, s, "bibtex") for s in PAPERS}
    lists = [(site / "venues" / venue / f"{venue}.bib", {s for s, (fm, _) in PAPERS.items() if fm["venue"] == venue})
             for venue in VENUES]
    for path, slugs in lists:
        expected = sorted(keys[s] for s in slugs)
        assert [e.key for e in parse_bib(path).entries] == expected, path
        assert path.read_text(encoding="utf-8") == "\n".join(shown[k] for k in expected), path


def test_paper_pages_hold_no_formatted_reference_nor_ris(site):
    """APA, Chicago, ACL and RIS are made in the browser from the page's metadata
    (static/js/cite.js; tests/outputs/test_citation_styles.py, tests/browser/test_cite_styles.py)."""
    for slug in PAPERS:
        text = (site / page_of(slug) / "index.html").read_text(encoding="utf-8")
        assert 'id="cite-ris"' not in text and 'id="cite-apa"' not in text and "TY  - CPAPER" not in text
        assert "need JavaScript" in text  # said where they would be


# --------------------------------------------------------------------------- feeds


def feed_entries(path: Path) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{ATOM}feed"
    return root.findall(f"{ATOM}entry")


def newest(catalog, keep) -> list[str]:
    """Page URLs of the papers a feed holds: the newest ``FEED_LIMIT`` of those ``keep`` takes."""
    return [f"{BASE}{v.url}" for v in exports.feed_order(v for v in catalog.papers if keep(v))]


def test_feeds_parse_and_list_what_they_should(site, catalog):
    root = ET.parse(site / "feed.xml").getroot()
    assert root.findtext(f"{ATOM}id") == BASE
    self_link = [link.get("href") for link in root.findall(f"{ATOM}link") if link.get("rel") == "self"]
    assert self_link == [f"{BASE}feed.xml"]
    expected = newest(catalog, lambda v: True)
    assert len(expected) == min(len(PAPERS), exports.FEED_LIMIT)
    assert [e.findtext(f"{ATOM}id") for e in feed_entries(site / "feed.xml")] == expected
    for venue in VENUES:
        entries = feed_entries(site / "venues" / venue / "feed.xml")
        expected = newest(catalog, lambda v: v.venue.id == venue)
        assert [e.findtext(f"{ATOM}id") for e in entries] == expected and expected
    for tag_dir in [d for d in (site / "tags").iterdir() if d.is_dir()]:
        entries = feed_entries(tag_dir / "feed.xml")
        expected = newest(catalog, lambda v: tag_dir.name in [t.id for t in v.tags])
        assert [e.findtext(f"{ATOM}id") for e in entries] == expected, tag_dir.name


def test_feed_entries_carry_title_authors_and_dates(site):
    by_id = {e.findtext(f"{ATOM}id"): e for e in feed_entries(site / "feed.xml")}
    assert by_id
    for slug, (fm, _) in PAPERS.items():
        entry = by_id.get(f"{BASE}{page_of(slug)}")
        if entry is None:  # not among the newest
            continue
        assert entry.findtext(f"{ATOM}title") == plain_text(fm["title"])
        names = [a.findtext(f"{ATOM}name") for a in entry.findall(f"{ATOM}author")]
        assert names == (fm.get("authors") or [])
        year = VENUES[fm["venue"]]["year"]
        expected = (fm.get("added") or datetime.date(year, 1, 1)).isoformat()
        assert entry.findtext(f"{ATOM}updated") == f"{expected}T00:00:00Z"
        assert entry.find(f"{ATOM}content").get("type") == "html"
        assert entry.find(f"{ATOM}summary") is None  # the content is the abstract: no second copy
    root = ET.parse(site / "feed.xml").getroot()
    newest = max(e.findtext(f"{ATOM}updated") for e in root.findall(f"{ATOM}entry"))
    assert root.findtext(f"{ATOM}updated") == newest
    assert root.find(f"{ATOM}author/{ATOM}name").text  # for entries without authors


def test_exports_are_the_same_on_every_build(site, tmp_path):
    again = tmp_path / "again"
    build(BuildOptions(content=CONTENT, output=again, base_url=BASE))
    names = ["feed.xml", "sitemap.xml", "sitemap-1.xml.gz", "papers.json", "papers-2024.bib.gz", "papers-2024.json.gz", "robots.txt",
             "venues/iclr-2024/feed.xml", "venues/iclr-2024/iclr-2024.bib"]
    for name in names:
        assert (again / name).read_bytes() == (site / name).read_bytes(), name


def test_feed_limit_keeps_the_newest_papers(content, monkeypatch):
    for day in range(1, 8):
        content.add_paper(f"paper-{day}", title=f"Paper number {day}", extra=f"added: 2024-03-0{day}")
    monkeypatch.setattr(exports, "FEED_LIMIT", 3)
    site = derive(load_catalog(content.root, base_url=BASE))
    files = exports.build_exports(site, CitationIndex(site))
    ids = [e.findtext(f"{ATOM}id") for e in ET.fromstring(files["feed.xml"]).findall(f"{ATOM}entry")]
    assert ids == [f"{BASE}papers/test-2024/paper-{d}/" for d in (7, 6, 5)]
    assert ET.fromstring(files["feed.xml"]).findtext(f"{ATOM}updated") == "2024-03-07T00:00:00Z"


# --------------------------------------------------------------------------- sitemap, robots, json


def test_sitemap_lists_every_page_with_absolute_urls(site):
    """sitemap.xml is an index (at any size: its URL never changes) of gzip sitemaps."""
    index = ET.parse(site / "sitemap.xml").getroot()
    assert index.tag == f"{SITEMAP}sitemapindex"
    assert [s.findtext(f"{SITEMAP}loc") for s in index.findall(f"{SITEMAP}sitemap")] == [f"{BASE}sitemap-1.xml.gz"]
    root = ET.fromstring(gzip.decompress((site / "sitemap-1.xml.gz").read_bytes()))
    locs = [u.findtext(f"{SITEMAP}loc") for u in root.findall(f"{SITEMAP}url")]
    pages = {BASE + p.relative_to(site).parent.as_posix() + "/" for p in site.rglob("index.html")}
    pages = {p.replace(f"{BASE}./", BASE) for p in pages}
    assert sorted(locs) == sorted(pages)
    assert len(locs) == len(set(locs))
    lastmods = {u.findtext(f"{SITEMAP}loc"): u.findtext(f"{SITEMAP}lastmod") for u in root.findall(f"{SITEMAP}url")}
    for slug, (fm, _) in PAPERS.items():
        assert lastmods[f"{BASE}{page_of(slug)}"] == (fm["added"].isoformat() if fm.get("added") else None)


def test_robots_names_the_sitemap(site):
    lines = (site / "robots.txt").read_text(encoding="utf-8").splitlines()
    assert "User-agent: *" in lines and f"Sitemap: {BASE}sitemap.xml" in lines


def test_papers_json_holds_every_front_matter_field(site, catalog):
    data = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert data["format"] == "papershelf-catalog" and data["version"] == 2
    # The index names the yearly files, with their sizes; each holds that year's papers.
    (year,) = data["files"]
    assert year["year"] == 2024 and year["papers"] == len(PAPERS)
    for kind in ("bibtex", "json"):
        path = site / year[kind].removeprefix(BASE)
        assert path.name == f"papers-2024.{'bib' if kind == 'bibtex' else 'json'}.gz"
        assert year[f"{kind}_bytes"] == path.stat().st_size
    part = json.loads(gunzip(site / "papers-2024.json.gz"))
    assert (part["format"], part["version"], part["year"]) == ("papershelf-catalog", 2, 2024)
    assert "papers" not in data
    papers = {p["slug"]: p for p in part["papers"]}
    assert set(papers) == set(PAPERS)
    for slug, (fm, body) in PAPERS.items():
        record = papers[slug]
        assert record["title"] == fm["title"]
        assert record["authors"] == (fm.get("authors") or [])
        assert record["venue"] == fm["venue"]
        assert record["tags"] == (fm.get("tags") or [])
        assert record["presentation"] == fm.get("presentation")
        assert record["links"] == (fm.get("links") or {})
        assert record["provisional"] == bool(fm.get("provisional"))
        assert record["added"] == (fm["added"].isoformat() if fm.get("added") else None)
        assert record["abstract"] == body
        # Nothing that follows from the rest: the page is the site's URL and the slug's.
        assert not {"page", "year", "title_text", "abstract_text", "bibtex", "ris"} & set(record)
        assert (site / page_of(slug) / "index.html").is_file() and data["site"]["url"] == BASE
    assert {v["id"]: v["full_name"] for v in data["venues"]} == {k: v["full_name"] for k, v in VENUES.items()}
    assert [(t["id"], t["name"]) for t in data["tags"]] == [(t.id, t.name) for t in catalog.catalog.tags.values()]
    for record in data["venues"]:
        assert (site / record["bibtex"].removeprefix(BASE)).is_file()
    assert not any("bibtex" in t for t in data["tags"])


# --------------------------------------------------------------------------- pages


def test_each_paper_page_has_meta_tags_matching_its_front_matter(site):
    for slug, (fm, _) in PAPERS.items():
        page = head(site / page_of(slug) / "index.html")
        names = [(n, c) for attr, n, c in page.meta if attr == "name"]
        props = dict((n, c) for attr, n, c in page.meta if attr == "property")
        values = lambda key: [c for n, c in names if n == key]  # noqa: E731
        assert values("citation_title") == [plain_text(fm["title"])]
        assert values("citation_author") == (fm.get("authors") or [])
        assert values("citation_conference_title") == [VENUES[fm["venue"]]["full_name"]]
        assert values("citation_publication_date") == [str(VENUES[fm["venue"]]["year"])]
        assert values("citation_abstract_html_url") == []  # the canonical link says it
        links = fm.get("links") or {}  # the pdf link, the landing page's by its host, the OpenReview forum's, arXiv's
        pdf = (links.get("pdf") or hosts.pdf_of(links.get("venue_page", ""))
               or links.get("openreview", "").replace("/forum?id=", "/pdf?id=")
               or links.get("arxiv", "").replace("/abs/", "/pdf/"))
        assert values("citation_pdf_url") == ([pdf] if pdf else [])
        # the link preview (issue 34): its title and the page's URL; the description is the abstract's start
        assert props["og:title"] == plain_text(fm["title"]) and props["og:url"] == f"{BASE}{page_of(slug)}"
        assert props["og:type"] == "article" and values("twitter:card") == ["summary"]
        canonical = [link["href"] for link in page.links if link.get("rel") == "canonical"]
        assert canonical == [f"{BASE}{page_of(slug)}"]
        (ld,) = page.json_ld
        data = json.loads(ld)
        assert data["@type"] == "ScholarlyArticle" and data["name"] == plain_text(fm["title"])
        assert [a["name"] for a in data.get("author", [])] == (fm.get("authors") or [])
        assert data["datePublished"] == str(VENUES[fm["venue"]]["year"])
        assert data["publication"]["name"] == VENUES[fm["venue"]]["full_name"]
        assert data["url"] == f"{BASE}{page_of(slug)}"


def test_paper_pages_offer_their_bib_and_ris_as_files(site, catalog):
    """The Cite section's BibTeX is saved as a file by cite.js, named by the key (and the RIS
    it makes, tests/outputs/test_citations.py)."""
    index = CitationIndex(catalog)
    for view in catalog.papers:
        text = (site / view.url / "index.html").read_text(encoding="utf-8")
        key = index.for_paper(view).key
        assert f'id="cite-bibtex" tabindex="0" data-copy="BibTeX" data-download="{key}.bib"' in text
        assert '<script src="/shelf/static/js/cite.js" defer></script>' in text
        assert f"/{view.slug}/{view.slug}." not in text  # no link to a file per paper
    assert (site / "static" / "js" / "cite.js").is_file()


def test_lists_export_as_a_whole_for_reference_managers(site):
    """Zotero saves a whole venue from its BibTeX file, which the list's every page links, and
    the catalog from its yearly files (gzip, their sizes said), which the first page of all
    papers lists and its other pages and each tag's pages link; the items carry no COinS
    (750 bytes each, on ~10 lists per paper)."""
    for venue in VENUES:
        folder = site / "venues" / venue
        titles = {e.fields_dict["title"].value for e in parse_bib(folder / f"{venue}.bib").entries}
        assert len(titles) == sum(1 for fm, _ in PAPERS.values() if fm["venue"] == venue)
        for page in [folder / "index.html", *sorted(folder.glob("page/*/index.html"))]:
            text = page.read_text(encoding="utf-8")
            assert f'href="/shelf/venues/{venue}/{venue}.bib" type="application/x-bibtex" download' in text, page
            assert not head(page).coins, page
    first = (site / "papers" / "index.html").read_text(encoding="utf-8")
    size = (site / "papers-2024.bib.gz").stat().st_size
    label = catalog_module.size_label(size)
    assert (f'<a href="/shelf/papers-2024.bib.gz" type="application/gzip" download>BibTeX 2024 '
            f'({len(PAPERS)} entries, {label} gzip)</a>') in first
    assert '<a href="/shelf/papers-2024.json.gz" type="application/gzip" download>JSON 2024 (' in first
    others = [*sorted((site / "papers").glob("page/*/index.html")), *sorted((site / "tags").glob("*/index.html"))]
    assert others
    for page in others:
        assert 'href="/shelf/papers/#downloads"' in page.read_text(encoding="utf-8"), page


def test_feed_links_in_page_heads(site):
    home = [link for link in head(site / "index.html").links if link.get("rel") == "alternate"]
    assert [link["href"] for link in home] == ["/shelf/feed.xml"]
    for venue in VENUES:
        links = [link["href"] for link in head(site / "venues" / venue / "index.html").links
                 if link.get("rel") == "alternate" and link.get("type") == "application/atom+xml"]
        assert links == ["/shelf/feed.xml", f"/shelf/venues/{venue}/feed.xml"]
        for href in links:
            assert (site / href.removeprefix("/shelf/")).is_file()


def test_download_links_of_venue_tag_and_catalog_pages(site, catalog):
    index = CitationIndex(catalog)
    seen = set()
    for page in plan_pages(catalog):
        files = catalog_module.catalog_files(catalog, {p.name: p.stat().st_size for p in site.glob("papers-*.gz")})
        links = exports.page_downloads(page, index, files)
        if page.url.startswith("venues/") and page.url.count("/") == 2:
            assert any(link.type == "application/x-bibtex" for link in links), page.url
        if page.url == "papers/":
            assert [link.type for link in links].count("application/gzip") == 2  # one year
        for link in links:
            path = link.url.split("#")[0]
            assert (site / path).is_file() or (site / path / "index.html").is_file(), link.url
            seen.add(link.url)
    assert {"papers-2024.bib.gz", "papers-2024.json.gz", "papers.json", "feed.xml", "papers/#downloads"} <= seen


# --------------------------------------------------------------------------- base_url is a path


def test_with_a_path_base_there_are_no_feeds_or_sitemap_and_the_build_says_so(path_site):
    out, report = path_site
    assert not (out / "sitemap.xml").exists() and not (out / "feed.xml").exists()
    assert not list(out.rglob("feed.xml"))
    assert "Sitemap:" not in (out / "robots.txt").read_text(encoding="utf-8")
    assert any("sitemap.xml" in note and "base_url" in note for note in report.notes)
    page = head(out / page_of("lets-verify-step-by-step") / "index.html")
    assert [link["href"] for link in page.links if link.get("rel") == "canonical"] == \
        [f"/catalog/{page_of('lets-verify-step-by-step')}"]
    assert not [link for link in page.links if link.get("type") == "application/atom+xml"]
    assert "url" not in json.loads(page.json_ld[0])  # a path is no page's URL
    bib = bibtexparser.parse_string(page_block(out, "lets-verify-step-by-step", "bibtex"))
    assert bib.entries[0].fields_dict["url"].value == "https://arxiv.org/abs/2305.20050"
    data = json.loads((out / "papers.json").read_text(encoding="utf-8"))
    assert data["site"]["url"] == "/catalog/"


def test_cli_prints_the_note(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main

    result = CliRunner().invoke(main, ["build", "--content", str(CONTENT), "--output", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert "Note:" in result.output and "sitemap.xml" in result.output


# --------------------------------------------------------------------------- hostile content


HOSTILE_TITLE = 'Closing </script><!-- & "quotes" {braces} 100% $x^2$ \\ end'
TAGGED_TITLE = "<b>Bold</b> & </script><script>alert(1)</script> 'q'"


@pytest.fixture
def hostile(tmp_path) -> Path:
    content = ContentDir(tmp_path / "content")
    content.write("site.toml", 'title = "Shelf </script> & \\"q\\""\nbase_url = "https://example.org/x/"\n')
    content.add_paper("script", title=HOSTILE_TITLE, authors=("José Ñúñez", "Zoë O'Brien & Co", "张伟"),
                      body='Abstract </script> & % {unbalanced $a<b$ "q" ]]> --> <!-- \x0b end')
    content.add_paper("nobody", title="Nobody {knows} who \\& why", authors=(), body="")
    content.add_paper("and-name", title="Simon and Garfunkel", authors=("Simon and Garfunkel", "A, B, C, D"))
    content.add_paper("tagged", title=TAGGED_TITLE, body="Tags.")
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    return out


def test_hostile_content_gives_valid_exports(hostile):
    for path in hostile.rglob("*.bib"):
        for entry in parse_bib(path).entries:
            assert all(bibtex_balanced(f.value) for f in entry.fields)
    for path in list(hostile.rglob("feed.xml")) + [hostile / "sitemap.xml"]:
        ET.parse(path)
    ET.fromstring(gunzip(hostile / "sitemap-1.xml.gz"))
    json.loads((hostile / "papers.json").read_text(encoding="utf-8"))
    json.loads(gunzip(hostile / "papers-2024.json.gz"))
    for entry in parse_bib(gunzip(hostile / "papers-2024.bib.gz")).entries:
        assert all(bibtex_balanced(f.value) for f in entry.fields)
    text = (hostile / "papers" / "test-2024" / "script" / "index.html").read_text(encoding="utf-8")
    for block in re.findall(r'<script type="application/ld\+json">(.*?)</script>', text, re.S):
        assert "<" not in block
        data = json.loads(block)
        assert data["author"][1]["name"] == "Zoë O'Brien & Co"
    page = head(hostile / "papers" / "test-2024" / "script" / "index.html")
    names = [(n, c) for attr, n, c in page.meta if attr == "name"]
    assert [c for n, c in names if n == "citation_author"] == ["José Ñúñez", "Zoë O'Brien & Co", "张伟"]
    assert dict(names)["citation_title"] == 'Closing </script><!-- & "quotes" {braces} 100% x^2 end'
    # Titles are named as the page shows them: text that looks like a tag is text.
    tagged = (hostile / "papers" / "test-2024" / "tagged" / "index.html").read_text(encoding="utf-8")
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", tagged, re.S).group(1)
    shown = " ".join(html.unescape(re.sub(r"<[^>]+>", "", h1)).split())  # as a browser shows the heading
    assert shown == TAGGED_TITLE
    page = head(hostile / "papers" / "test-2024" / "tagged" / "index.html")
    assert [c for _, n, c in page.meta if n == "citation_title"] == [shown]
    assert json.loads(page.json_ld[0])["name"] == shown
    def page_entry(slug: str, names: bool = False):
        middleware = [SeparateCoAuthors(), SplitNameParts()] if names else []
        library = bibtexparser.parse_string(page_block(hostile, slug, "bibtex", "test-2024"),
                                            append_middleware=middleware)
        assert not library.failed_blocks
        return library.entries[0]

    entry = page_entry("script", names=True)
    assert [p.merge_first_name_first for p in entry.fields_dict["author"].value] == \
        ["José Ñúñez", "Zoë O'Brien \\& Co", "张伟"]
    assert entry.key == "nunez2024closing"
    nobody = page_entry("nobody")
    assert "author" not in nobody.fields_dict and nobody.key == "anon2024nobody"
    duo = page_entry("and-name", names=True)
    assert len(duo.fields_dict["author"].value) == 2  # "Simon and Garfunkel" stays one name


# --------------------------------------------------------------------------- fast writers


def _elementtree_document(root: ET.Element) -> str:
    """How the exports wrote XML documents before writing some parts as text."""
    ET.indent(root, space="  ")
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def hostile_site(content: ContentDir):
    content.add_paper("script", title=HOSTILE_TITLE, authors=("José Ñúñez", "Zoë O'Brien & Co"),
                      body='Abstract </script> & % {unbalanced $a<b$ "q" ]]> --> <!-- \x0b end',
                      extra="added: 2024-05-07\nlinks:\n  pdf: https://x.org/p.pdf?a=1&b=2")
    content.add_paper("tagged", title=TAGGED_TITLE, body="Tags.", extra="added: 2024-05-08")
    content.add_paper("nobody", title="Nobody", authors=(), body="")
    return derive(load_catalog(content.root, base_url=BASE))


def test_feeds_and_sitemap_equal_one_elementtree_document(content):
    """Entries serialized once for every feed, and sitemap URLs written as text, give the
    same bytes as one ElementTree document."""
    site = hostile_site(content)
    citations = CitationIndex(site)
    views = exports.feed_order(site.papers)
    for count in (0, 1, len(views)):
        kwargs = dict(title="T & <t>", subtitle="S", feed_path="feed.xml", page_path="", views=views[:count])
        text = exports.atom_feed(site, citations, **kwargs)
        root = ET.fromstring(exports.atom_feed(site, citations, **{**kwargs, "views": []}))
        assert len(root.findall(f"{ATOM}entry")) == 0
        whole = ET.Element("feed", {"xmlns": exports.ATOM_NS, exports.XML_LANG: site.catalog.site.language})
        for child in list(root):  # the header again, without the namespace ElementTree added on reading
            whole.append(exports_element(child))
        for view in views[:count]:
            whole.append(exports._entry(view, citations))
        assert text == _elementtree_document(whole)
    pages = exports.sitemap_pages(site) + [("a&b<c>/", None)]
    reference = ET.Element("urlset", {"xmlns": exports.SITEMAP_NS})
    for rel, lastmod in pages:
        url = ET.SubElement(reference, "url")
        ET.SubElement(url, "loc").text = BASE + rel
        if lastmod is not None:
            ET.SubElement(url, "lastmod").text = lastmod.isoformat()
    assert exports._urlset(pages, citations.urls) == _elementtree_document(reference)
    assert exports._urlset([], citations.urls) == _elementtree_document(ET.Element("urlset", {"xmlns": exports.SITEMAP_NS}))


def exports_element(element: ET.Element) -> ET.Element:
    """A copy of a parsed element with the Atom namespace taken off its tags."""
    copy = ET.Element(element.tag.replace(ATOM, ""), dict(element.attrib))
    copy.text = element.text
    for child in element:
        copy.append(exports_element(child))
    return copy


def test_papers_json_is_what_json_dumps_writes(content):
    site = hostile_site(content)
    files = dict(catalog_module.catalog_exports(site, CitationIndex(site)))
    # deterministic gzip: no time, no file name in the header
    assert files["papers-2024.json.gz"][4:8] == b"\0\0\0\0" and not files["papers-2024.json.gz"][3] & 0x08
    text = gzip.decompress(files["papers-2024.json.gz"]).decode("utf-8")
    data = json.loads(text)
    # Compact JSON, a paper a line: the head on the first line, then each paper, then "]}".
    lines = text.split("\n")
    papers = data.pop("papers")
    compact = {"ensure_ascii": False, "separators": (",", ":")}
    assert lines[0] == json.dumps(data, **compact)[:-1] + ',"papers":['
    assert lines[1:-2] == [json.dumps(p, **compact) + ("," if i < len(papers) - 1 else "") for i, p in enumerate(papers)]
    assert lines[-2:] == ["]}", ""] and len(papers) > 1
    assert catalog_module._paper_lines_json({"a": 1}, []) == '{"a":1,"papers":[]}\n'
