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
