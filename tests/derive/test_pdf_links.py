"""A paper's PDF (derive.urls.pdf_url): the pdf link as written, else derived from the
OpenReview forum, else from the arXiv abstract; a title search for a paper without one
(derive.urls.scholar_search, encoded as the page's JavaScript encodes it); and where the PDF
goes: citation_pdf_url, JSON-LD, RIS, the search's display records."""

from __future__ import annotations

import json

import pytest

from generator.content.loader import load_catalog
from generator.derive import urls
from generator.derive.views import derive
from generator.outputs.citations import CitationIndex
from generator.outputs.render import reading_list_record

from ..conftest import paper_md


@pytest.mark.parametrize("url, pdf", [
    ("https://arxiv.org/abs/2305.18436", "https://arxiv.org/pdf/2305.18436"),
    ("https://arxiv.org/abs/2305.18436v3", "https://arxiv.org/pdf/2305.18436v3"),
    ("http://www.arxiv.org/abs/1706.03762/", "https://arxiv.org/pdf/1706.03762"),
    ("https://export.arxiv.org/abs/hep-th/9901001", "https://arxiv.org/pdf/hep-th/9901001"),
    ("https://arxiv.org/abs/math.GT/0309136v1", "https://arxiv.org/pdf/math.GT/0309136v1"),
    ("https://arxiv.org/pdf/2305.18436v2.pdf", "https://arxiv.org/pdf/2305.18436v2"),
    ("https://arxiv.org/abs/2305.18436?context=cs", "https://arxiv.org/pdf/2305.18436"),
    ("https://arxiv.org/list/cs.LG/recent", None),
    ("https://arxiv.org/abs/", None),
    ("https://arxiv.org.evil.example/abs/2305.18436", None),
    ("https://example.org/abs/2305.18436", None),
])
def test_the_pdf_of_an_arxiv_link(url, pdf):
    assert urls.arxiv_pdf(url) == pdf


@pytest.mark.parametrize("url, pdf", [
    ("https://openreview.net/forum?id=bTMMNT7IdW", "https://openreview.net/pdf?id=bTMMNT7IdW"),
    ("https://openreview.net/forum?id=bTMMNT7IdW&noteId=xyz", "https://openreview.net/pdf?id=bTMMNT7IdW"),
    ("https://openreview.net/pdf?id=H1-_x9", "https://openreview.net/pdf?id=H1-_x9"),
    ("https://openreview.net/group?id=ICLR.cc/2024/Conference", None),
    ("https://openreview.net/forum", None),
    ("https://openreview.net/forum?id=a&id=b", None),
    ("https://openreview.net/forum?id=%3Cscript%3E", None),
    ("https://example.org/forum?id=bTMMNT7IdW", None),
])
def test_the_pdf_of_an_openreview_link(url, pdf):
    assert urls.openreview_pdf(url) == pdf


ARXIV = "https://arxiv.org/abs/2305.18436"
FORUM = "https://openreview.net/forum?id=bTMMNT7IdW"


@pytest.mark.parametrize("links, pdf", [
    ({"pdf": "https://example.org/paper.pdf", "openreview": FORUM, "arxiv": ARXIV}, "https://example.org/paper.pdf"),
    ({"openreview": FORUM, "arxiv": ARXIV}, "https://openreview.net/pdf?id=bTMMNT7IdW"),
    ({"arxiv": ARXIV, "code": "https://github.com/x/y"}, "https://arxiv.org/pdf/2305.18436"),
    ({"openreview": "https://openreview.net/group?id=x", "arxiv": ARXIV}, "https://arxiv.org/pdf/2305.18436"),
    ({"venue_page": "https://iclr.cc/virtual/2024/poster/1", "code": "https://github.com/x/y"}, None),
    # a DOI whose publisher has a rule (the ACL Anthology's), after the landing page's
    ({"doi": "https://doi.org/10.18653/v1/2022.acl-long.1", "arxiv": ARXIV},
     "https://aclanthology.org/2022.acl-long.1.pdf"),
    ({"venue_page": "https://proceedings.mlr.press/v97/x19a.html", "doi": "https://doi.org/10.18653/v1/2022.acl-long.1"},
     "https://proceedings.mlr.press/v97/x19a/x19a.pdf"),
    ({"doi": "https://doi.org/10.1109/ICRA.2019.8793485", "arxiv": ARXIV}, "https://arxiv.org/pdf/2305.18436"),
    ({}, None),
])
def test_an_explicit_pdf_link_wins_then_openreview_then_arxiv(links, pdf):
    assert urls.pdf_url(links) == pdf


def test_a_title_search_is_a_scholar_query_of_the_encoded_title():
    assert urls.scholar_search("On K-means (fast)") == "https://scholar.google.com/scholar?q=On%20K-means%20(fast)"


def catalog_views(content, **papers):
    for slug, links in papers.items():
        extra = "links:\n" + "".join(f"  {k}: {v!r}\n" for k, v in links.items()) if links else ""
        content.add_paper(slug, paper_md(title=f"The {slug} paper", body=f"About {slug}.", extra=extra))
    site = derive(load_catalog(content.root))
    return site, {v.slug: v for v in site.papers}


def test_views_carry_the_pdf_the_title_search_and_the_other_links(content):
    site, views = catalog_views(content, explicit={"pdf": "https://example.org/x.pdf", "arxiv": ARXIV},
                                derived={"arxiv": ARXIV, "code": "https://github.com/x/y"},
                                none={"code": "https://github.com/x/y"})
    explicit, derived, none = views["explicit"], views["derived"], views["none"]
    assert explicit.pdf_url == "https://example.org/x.pdf" and explicit.find_url is None
    assert [link.kind for link in explicit.more_links] == ["arxiv"]  # the pdf link is shown first, once
    assert derived.pdf_url == "https://arxiv.org/pdf/2305.18436" and derived.find_url is None
    assert [link.kind for link in derived.more_links] == ["arxiv", "code"]
    assert none.pdf_url is None
    assert none.find_url == "https://scholar.google.com/scholar?q=The%20none%20paper"
    assert site.find_pattern == "https://scholar.google.com/scholar?q={query}"
    assert site.find_pattern.format(query="The%20none%20paper") == none.find_url


def test_the_pdf_goes_into_highwire_ris_and_reading_list_records(content):
    # (a search result reads the paper's citation_pdf_url from its page: tests/browser/test_search.py)
    site, views = catalog_views(content, derived={"openreview": FORUM}, none={})
    index = CitationIndex(site)
    derived, none = views["derived"], views["none"]
    pdf = "https://openreview.net/pdf?id=bTMMNT7IdW"

    meta = [(m.name, m.content) for m in index.for_paper(derived).meta_names]
    assert ("citation_pdf_url", pdf) in meta
    assert "encoding" not in json.loads(str(index.for_paper(derived).json_ld))  # said once: citation_pdf_url
    assert f"L1  - {pdf}" in index.for_paper(derived).ris
    assert reading_list_record(derived)["f"] == pdf

    assert "citation_pdf_url" not in [m.name for m in index.for_paper(none).meta_names]
    assert "encoding" not in json.loads(str(index.for_paper(none).json_ld))
    assert "L1  -" not in index.for_paper(none).ris
    assert "f" not in reading_list_record(none)


def test_every_bundled_paper_with_an_arxiv_openreview_or_pmlr_link_has_a_pdf(bundled_views):
    site = bundled_views()
    pmlr = 0
    for view in site.papers:
        kinds = {link.kind for link in view.links}
        landing = next((link.url for link in view.links if link.kind == "venue_page"), "")
        pmlr += landing.startswith("https://proceedings.mlr.press/") and "pdf" not in kinds
        if kinds & {"pdf", "arxiv", "openreview"} or landing.startswith("https://proceedings.mlr.press/"):
            assert view.pdf_url and view.pdf_url.startswith(("https://arxiv.org/pdf/", "https://openreview.net/pdf?id=",
                                                             "https://proceedings.mlr.press/v235/")), view.slug
            assert view.find_url is None
        else:
            assert view.pdf_url is None and view.find_url == urls.scholar_search(view.title_plain), view.slug
    assert pmlr > 0  # ICML 2024's papers: the PDF by PMLR's rule (content/hosts.toml)
    # The six papers of the seeds without any link get a title search instead of nothing.
    assert sum(1 for v in site.papers if not v.links and v.find_url) == 6
