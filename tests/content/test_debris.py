"""PDF-extraction debris (content/debris.py): "(cid:173)" soft hyphens joined, TeX ligatures
restored, unknown codes dropped; the build repairs what a hand-written file carries (with a
warning) so that "(cid:" never reaches a page."""

from __future__ import annotations

from generator.build import build
from generator.content.debris import DROPPED, LIGATURES, SOFT_HYPHENS, repair
from generator.content.loader import load_catalog
from generator.options import BuildOptions

from ..conftest import paper_md


def test_soft_hyphens_ligatures_and_unknown_codes():
    assert repair("an improve(cid:173) ment of") == ("an improvement of", {SOFT_HYPHENS: 1})
    assert repair("self(cid:173)\nsupervised") == ("selfsupervised", {SOFT_HYPHENS: 1})
    assert repair("im\u00ad portant") == ("important", {SOFT_HYPHENS: 1})
    assert repair("e(cid:14)cient and (cid:12)nd the (cid:13)ow") == ("efficient and find the flow", {LIGATURES: 3})
    assert repair("a (cid:3) b (cid:0)c") == ("a b c", {DROPPED: 2})
    assert repair("nothing to do") == ("nothing to do", {})


def test_a_hand_written_file_with_debris_builds_warned_and_repaired(content, tmp_path):
    content.add_paper("debris", paper_md(title="E(cid:14)cient Graphs",
                                         body="An improve(cid:173) ment of (cid:3) graphs."))
    catalog = load_catalog(content.root)
    paper = next(p for p in catalog.papers if p.slug == "debris")
    assert (paper.title, paper.abstract) == ("Efficient Graphs", "An improvement of graphs.")
    assert catalog.warnings == ("papers/debris.md: PDF debris (cid:…) in the title or abstract, repaired on the "
                                "pages (1 soft hyphens joined, 1 ligatures restored, 1 unknown codes dropped); "
                                "fix the file",)
    build(BuildOptions(content=content.root, output=tmp_path / "site"))
    for page in (tmp_path / "site").rglob("*"):
        if page.is_file():
            assert b"(cid:" not in page.read_bytes(), page
