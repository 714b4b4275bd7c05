"""Papers given twice: one key for titles and abstracts (loader and importers alike); an exact
duplicate is an error, a suspected one a warning naming both files, and the site builds."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator.build import build
from generator.cli import main
from generator.content.duplicates import DuplicateCheck, abstract_key, authors_key, title_key
from generator.content.loader import load_catalog
from generator.errors import ContentError
from generator.options import BuildOptions

from ..conftest import paper_md

ABSTRACT = ("We propose a method for learning representations of graphs that scales to millions of nodes while "
            "keeping the accuracy of full-batch training on every benchmark we tried.")


def venue(content, vid: str, year: int = 2024) -> None:
    content.write(f"venues/{vid}.md", f"---\nname: {vid.upper()}\nfull_name: Full {vid}\nyear: {year}\n---\n")


def test_one_key_folds_accents_case_punctuation_and_emphasis():
    assert title_key("Café Nets") == title_key("Cafe nets") == title_key("*Café* Nets!")
    assert title_key("C++ for ML") != title_key("C for ML")
    assert abstract_key("Café " + ABSTRACT) == abstract_key("CAFE,  " + ABSTRACT.replace(" ", "\n"))
    assert abstract_key("TBD.") == ""  # short bodies may repeat
    assert authors_key(["José García", "Ada"]) == authors_key(["Jose Garcia", "ada"])


def test_the_check_tells_exact_from_suspected():
    check = DuplicateCheck()
    assert check.check("a", "Graphs", "v1", ["Ada"], ABSTRACT) == []
    [exact] = check.check("b", "graphs!", "v1", ["ada"], "")
    assert exact.exact and exact.other == "a"
    [workshop] = check.check("c", "Graphs", "w1", ["Ada"], "Short.")
    assert not workshop.exact and workshop.reason == "same title and authors at another venue"
    [other_authors] = check.check("d", "Graphs", "v1", ["Bo"], "")
    assert other_authors.reason == "same title and venue, other authors"
    [abstract] = check.check("e", "Other", "v2", ["Cy"], ABSTRACT)
    assert abstract.reason == "same abstract" and abstract.other == "a"


def test_suspected_duplicates_warn_name_both_files_and_build(content, tmp_path):
    venue(content, "icml-2024")
    venue(content, "iclr-2024-workshop-x")
    content.add_paper("graphs-at-scale", paper_md(title="Graph Representations at Scale", body=ABSTRACT))
    content.add_paper("scalable-graphs", paper_md(title="Scalable Graph Representations", body=ABSTRACT,
                                                  venue="icml-2024"))
    content.add_paper("workshop-version", paper_md(title="Fast Convergence of Gradient Descent",
                                                   authors=("Alan Turing",), venue="iclr-2024-workshop-x"))
    catalog = load_catalog(content.root)
    assert len(catalog.papers) == 5
    assert catalog.warnings == (
        "papers/scalable-graphs.md: likely the same paper as papers/graphs-at-scale.md (same abstract); "
        "is this the same paper twice?",
        "papers/workshop-version.md: likely the same paper as papers/fast-convergence.md (same title and "
        "authors at another venue); is this the same paper twice?",
    )
    report = build(BuildOptions(content=content.root, output=tmp_path / "site"))
    assert report.warnings[:2] == list(catalog.warnings)
    page = (tmp_path / "site" / "papers" / "icml-2024" / "scalable-graphs" / "index.html").read_text(encoding="utf-8")
    assert "same paper" not in page and "duplicate" not in page.lower()

    result = CliRunner().invoke(main, ["check", "--content", str(content.root)])
    assert result.exit_code == 0
    assert "OK: 5 papers" in result.output and "2 warnings" in result.output
    assert "papers/workshop-version.md: likely the same paper as papers/fast-convergence.md" in result.output


def test_an_exact_duplicate_stays_an_error(content):
    content.add_paper("again", paper_md(title="A paper on *graphs*", body=""))  # no abstract: no other paper
    content.add_paper("edited", paper_md(title="A Paper on Graphs", body="Another abstract."))  # a likely one
    with pytest.raises(ContentError) as info:
        load_catalog(content.root)
    assert [str(p) for p in info.value.problems] == [
        "papers/again.md:2: title: the same paper (same title, venue and authors) is already in "
        "papers/a-paper-on-graphs.md"]
    content.add_paper("again", paper_md(title="A paper on *graphs*", body="We  study graph NEURAL networks."))
    with pytest.raises(ContentError) as info:
        load_catalog(content.root)
    assert len(info.value.problems) == 1  # the same abstract, but for case and spacing: the same paper


def test_a_venue_id_page_is_refused(content):
    venue(content, "page")
    with pytest.raises(ContentError) as info:
        load_catalog(content.root)
    assert [str(p) for p in info.value.problems] == [
        "venues/page.md:1: 'page' cannot be a venue id: papers/page/ is taken by the pages of the list of all "
        "papers; rename the file (and the papers' venue)"]
