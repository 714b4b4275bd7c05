"""Integration: the committed catalog, built (once a session, see conftest), and what a reader would get."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator.build import build
from generator.options import BuildOptions

from .conftest import REPO, SEEDS
from .sitecheck import page_text, parse_page

CONTENT = REPO / "content"


def front_matter(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


PAPERS = {p.stem: front_matter(p) for p in sorted((CONTENT / "papers").glob("*.md"))}


def page_of(site: Path, slug: str) -> Path:
    """A bundled paper's page: papers/<venue>/<slug>/index.html."""
    return site / "papers" / PAPERS[slug]["venue"] / slug / "index.html"


@pytest.fixture(scope="module")
def site(bundled_site) -> Path:
    """The committed catalog built for "/" (the session's shared build: read-only)."""
    return bundled_site


@pytest.fixture(scope="module")
def subpath_site(bundled_build) -> Path:
    return bundled_build("/catalog/").path


def listed_papers(page: Path, base: str = "/") -> set[str]:
    """Slugs of the papers a list page links to from its paper list items."""
    html = page.read_text(encoding="utf-8")
    items = re.findall(r'<h3(?: class="paper-item-title")?><a [^>]*href="' + re.escape(base) + r'papers/[a-z0-9-]+/([a-z0-9-]+)/"',
                       html)
    return set(items)


def test_committed_catalog_has_the_seed_papers():
    assert len(PAPERS) == 76
    assert sum(1 for fm in PAPERS.values() if fm.get("provisional")) == 3
    assert sum(1 for fm in PAPERS.values() if fm.get("authors")) == 73
    assert sorted(p.stem for p in (CONTENT / "venues").glob("*.md")) == ["iclr-2024", "icml-2024"]


def test_page_counts(site):
    assert len(list((site / "papers").glob("*/*/index.html"))) == 76  # in their venues' folders
    assert len(list((site / "venues").glob("*/index.html"))) == 2
    assert len(list((site / "tags").glob("*/index.html"))) >= 8
    # a page for each author (up to 20,000 papers: author_page_min_papers), in a bucket
    from collections import Counter

    from generator.content.slugs import author_key

    papers_of = Counter(author_key(a) for fm in PAPERS.values() for a in fm.get("authors") or [])
    with_page = set(papers_of)
    assert min(papers_of.values()) == 1
    assert {p.parent.name for p in (site / "authors").glob("*/*/index.html")} == with_page
    for page in ("index.html", "venues/index.html", "tags/index.html", "authors/index.html",
                 "papers/index.html", "search/index.html", "404.html"):
        assert (site / page).is_file(), page


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared seeds not available")
def test_every_seed_abstract_is_on_its_paper_page(site):
    bodies = {slug: (CONTENT / "papers" / f"{slug}.md").read_text(encoding="utf-8").split("---\n", 2)[2].strip()
              for slug in PAPERS}
    # The importer joins words that PDF extraction broke at a line end ("explic- itly"):
    # abstracts are matched with every hyphen (and the space after it) left out.
    def key(text: str) -> str:
        return re.sub(r"-\s*", "", text)

    by_body = {key(body): slug for slug, body in bodies.items()}
    seen = 0
    for seed in sorted(SEEDS.glob("*.txt")):
        paragraphs = [p.strip() for p in seed.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]
        for abstract in paragraphs:
            slug = by_body.get(key(abstract))
            assert slug, f"no paper file holds the abstract starting {abstract[:60]!r}"
            text = page_text(page_of(site, slug))
            # The words of the abstract outside math and markup are all on the page.
            words = re.findall(r"(?<![\\$\w])[A-Za-z]{4,}(?![\w}])", re.sub(r"\$[^$]*\$|\\\w+\{[^}]*\}|\(http[^)]*\)", " ", abstract))
            missing = [w for w in words if w not in text]
            assert not missing, f"{slug}: {missing[:5]}"
            seen += 1
    assert seen == 76


def test_paper_page_shows_its_fields(site):
    fm = PAPERS["lets-verify-step-by-step"]
    page = page_of(site, "lets-verify-step-by-step")
    text = page_text(page)
    assert fm["title"] in text
    for author in fm["authors"]:
        assert author in text
    anchors = [href for href, _ in parse_page(page).anchors]
    for url in fm["links"].values():
        assert url in anchors
    assert "ICLR 2024" in text


def test_provisional_papers_say_so(site):
    for slug, fm in PAPERS.items():
        text = page_text(page_of(site, slug))
        assert ("Provisional entry" in text) == bool(fm.get("provisional")), slug


def test_math_becomes_mathml(site):
    html = page_of(site, "statistically-optimal-k-means-clustering-via-nonnegative-low-rank-semidefinite").read_text(
        encoding="utf-8")
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1)
    assert "<math" in heading and "$K$" not in heading
    abstract = html.split('<section class="abstract">', 1)[1].split("</section>", 1)[0]
    assert "<math" in abstract and "$K$" not in abstract
    # The BibTeX on the page keeps the LaTeX source, protected in braces.
    assert "{$K$}" in html or "$K$" in html.split("@inproceedings", 1)[-1]


@pytest.mark.parametrize("kind", ["venues", "tags"])
def test_each_venue_and_tag_page_lists_exactly_its_papers(site, kind):
    key = "venue" if kind == "venues" else "tags"
    ids = {p.name for p in (site / kind).iterdir() if p.is_dir()}
    assert ids
    for id_ in ids:
        expected = {slug for slug, fm in PAPERS.items()
                    if (fm[key] == id_ if key == "venue" else id_ in (fm.get("tags") or []))}
        assert listed_papers(site / kind / id_ / "index.html") == expected, id_


def test_each_author_page_lists_exactly_their_papers(site):
    from generator.content.slugs import author_key
    from generator.derive.urls import author_page

    expected: dict[str, set[str]] = {}
    for slug, fm in PAPERS.items():
        for name in fm.get("authors") or []:
            expected.setdefault(author_key(name), set()).add(slug)
    for author_slug, slugs in expected.items():
        page = site / author_page(author_slug) / "index.html"
        assert listed_papers(page) == slugs, author_slug  # everyone has a page (up to 20,000 papers)


def test_pages_under_a_subpath_link_with_its_prefix(subpath_site):
    """(Every link of both builds resolves: tests/outputs/test_site_integrity.py runs the link checker.)"""
    html = (subpath_site / "index.html").read_text(encoding="utf-8")
    assert 'href="/catalog/static/css/site.css"' in html
    assert not re.search(r'(href|src|action)="/(?!catalog/)', html)


def test_search_index_loads_and_finds_distinctive_words(site):
    from .outputs.search_engine import SearchEngine, site_search_files

    files = site_search_files(site)
    engine = SearchEngine(files)
    assert set(engine.refs.values()) == set(PAPERS)
    cases = {
        "metagenomic binning": "encoding-unitig-level-assembly-graphs-with-heterophilous-constraints-for",
        "watermark": "an-unforgeable-publicly-verifiable-watermark-for-large-language-models",
        "tactile": "difftactile-a-physics-based-differentiable-tactile-simulator-for-contact-rich",
        "Schulman": "lets-verify-step-by-step",
    }
    for query, slug in cases.items():
        slugs = engine.search(query).slugs
        assert slugs and slugs[0] == slug, (query, slugs[:3])


def test_lunr_js_is_copied_into_the_site(site):
    js = (site / "static" / "vendor" / "lunr.min.js").read_text(encoding="utf-8")
    assert "2.3.9" in js


def test_no_page_loads_anything_from_another_host(site):
    for html in site.rglob("*.html"):
        for tag, attr, url in parse_page(html).links:
            if tag in ("script", "link", "img", "iframe", "source") and attr in ("src", "href"):
                assert not re.match(r"(https?:)?//", url), f"{html}: {url}"


def test_the_build_reports_the_catch_all_share(content, tmp_path):
    """Papers whose only tag is the catch-all are counted in a note (issue 28); none, no note."""
    out = tmp_path / "site"
    assert not any("catch-all" in note for note in build(BuildOptions(content=content.root, output=out)).notes)
    content.add_paper("misc-one", title="Miscellany One", tags=("machine-learning",), body="Something else.")
    content.add_paper("misc-two", title="Miscellany Two", tags=("machine-learning", "optimization"), body="More.")
    notes = [n for n in build(BuildOptions(content=content.root, output=out)).notes if "catch-all" in n]
    assert notes == ["1 of 4 papers (25%) have only the catch-all tag 'Machine learning' (machine-learning); "
                     "phrases in tags.toml, or a tag of their own, would place them"]
