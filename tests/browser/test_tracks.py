"""Tracks and complete citations in Chromium (issue 36): a catalog of Anthology-shaped records
(Findings, long, short, demo, SRW, industry; BibTeX and CSL-JSON) built from ``papershelf new``.
Each paper page's references (APA, Chicago, ACL) and RIS, made in the page by static/js/cite.js,
are the formatter's for what the catalog says (the track's proceedings, pages, DOI, editors,
publisher); a venue page is a table of contents, its tracks named with their proceedings."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.content.loader import load_catalog
from generator.derive.views import derive

from .conftest import StaticServer
from .test_cite_styles import expected

pytestmark = [pytest.mark.browser, pytest.mark.node, pytest.mark.slow]

TRACKS = Path(__file__).parents[1] / "importers" / "data" / "tracks"


@pytest.fixture(scope="module")
def tracks_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("tracks-browser") / "cat"
    runner = CliRunner()
    for args in (["new", str(root)],
                 ["import", "bibtex", str(TRACKS / "anthology.bib"), "--content", str(root / "content")],
                 ["import", "csl", str(TRACKS / "anthology-csl.json"), "--content", str(root / "content")],
                 ["build", "--content", str(root / "content"), "--output", str(root / "site")]):
        result = runner.invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    srv = StaticServer(root / "site")
    yield derive(load_catalog(root / "content")), srv
    srv.close()


def test_each_page_cites_its_track_with_every_field(browser, tracks_site):
    site, srv = tracks_site
    views = [v for v in site.papers if v.venue.id in ("acl-2022", "naacl-2022")]
    assert len(views) == 11
    context = browser.new_context()
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        for view, (ref, styles, ris) in zip(views, expected(site, views)):
            page.goto(srv.url("/" + view.url))
            assert page.evaluate("PapershelfCite.fromDocument(document)") == ref, view.slug
            shown = page.evaluate("""() => ['apa', 'chicago', 'acl', 'ris'].map(
                id => document.getElementById('cite-' + id).textContent)""")
            assert shown == [s["text"] for s in styles] + [ris], view.slug
            assert page.locator(".paper-meta .badge-venue").inner_text() == view.venue.name
        findings = next(v for v in views if v.title_plain.startswith("Does BERT"))
        page.goto(srv.url("/" + findings.url))
        apa = page.locator("#cite-apa").inner_text()
        assert ("In S. Muresan, P. Nakov, & A. Villavicencio (Eds.), Findings of the Association for Computational "
                "Linguistics: ACL 2022 (pp. 1149–1162). Association for Computational Linguistics. "
                "https://doi.org/10.18653/v1/2022.findings-acl.91") in apa
        assert page.locator("#cite-acl i").inner_text() == \
            "Findings of the Association for Computational Linguistics: ACL 2022"
        assert "pages 1149–1162, Dublin, Ireland." in page.locator("#cite-acl").inner_text()
    finally:
        context.close()
    assert not errors, errors


def test_a_venue_page_reads_as_a_table_of_contents(browser, tracks_site):
    _, srv = tracks_site
    context = browser.new_context(viewport={"width": 320, "height": 900})
    try:
        page = context.new_page()
        page.goto(srv.url("/venues/acl-2022/"))
        assert [h.inner_text().split("\n")[0].rsplit(" ", 2)[0] for h in page.locator(".group-heading").all()] == [
            "Long Papers", "Short Papers", "Findings", "System Demonstrations", "Student Research Workshop"]
        assert page.locator(".paper-item h3").first.inner_text() == "Alpha Parsing"
        badges = page.locator(".paper-item .badge-venue").all_inner_texts()
        assert badges.count("ACL 2022 Findings") == 2 and badges.count("ACL 2022") == 2
        link = page.get_by_role("link", name="Findings", exact=True)
        link.click()
        page.wait_for_url("**#group-findings")
        assert page.locator("#group-findings").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        context.close()


SHOWN = """els => els.map(li => [li.dataset.slug,
    li.querySelector('.badge-venue').textContent.trim(), li.querySelector('.badge-venue').getAttribute('href'),
    new URLSearchParams(li.querySelector('.Z3988').title).get('rft.btitle')])"""


def test_search_and_the_reading_list_badge_a_paper_as_its_track(browser, tracks_site, tmp_path):
    """A Findings paper is "ACL 2022 Findings" in search results and on the reading list (its
    COinS the Findings' proceedings), never the main conference; the venue filter still finds
    it as of acl-2022, and its badge still opens the venue's page."""
    from .test_reading_list_share import open_shared
    from .test_search import open_search, results_for, search

    site, srv = tracks_site
    acl = [v for v in site.papers if v.venue.id == "acl-2022"]
    findings = next(v for v in acl if v.title_plain.startswith("Does BERT"))
    assert findings.venue.track == "findings" and findings.venue.name == "ACL 2022 Findings"

    def want(view):
        return [view.slug, view.venue.name, f"/venues/{view.venue.id}/", view.venue.full_name]

    context = browser.new_context()
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        open_search(page, srv)
        assert search(page, "Does BERT know ThingTalk")[0] == findings.slug
        page.wait_for_selector(f'#search-results > li[data-slug="{findings.slug}"] .badge-venue')
        badge = page.locator(f'#search-results > li[data-slug="{findings.slug}"] .badge-venue')
        assert badge.inner_text() == "ACL 2022 Findings"
        assert page.eval_on_selector_all("#search-results > li", SHOWN)[0] == want(findings)
        page.locator("#search-results > li").first.screenshot(path=str(tmp_path / "search-findings.png"))
        # every paper of the venue by the venue filter, each badged as its own track
        open_search(page, srv, "venue=acl-2022")
        slugs = results_for(page, "")
        assert set(slugs) == {v.slug for v in acl}
        by_slug = {v.slug: v for v in acl}
        assert page.eval_on_selector_all("#search-results > li", SHOWN) == [want(by_slug[s]) for s in slugs]
        # the reading list (a shared link) says the same
        open_shared(page, srv, [v.slug for v in acl])
        page.wait_for_function(f"document.querySelectorAll('#rl-items > li .badge-venue').length === {len(acl)}")
        shown = page.eval_on_selector_all("#rl-items > li", SHOWN)
        assert sorted(shown) == sorted(want(v) for v in acl)
    finally:
        context.close()
    assert not errors, errors
