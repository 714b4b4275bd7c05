"""The loader reads a content folder into a typed catalog and reports every problem at once."""

from __future__ import annotations

import dataclasses

import pytest

from generator.errors import ContentError
from generator.content.loader import PaperChecks, duplicate_keys, load_catalog, read_paper
from generator.errors import Problems
from generator.content.model import Link

from ..conftest import paper_md


def problems_of(content_root, **kwargs) -> list[str]:
    with pytest.raises(ContentError) as info:
        load_catalog(content_root, **kwargs)
    return [str(p) for p in info.value.problems]


def test_reads_a_valid_catalog(content):
    catalog = load_catalog(content.root)
    assert catalog.site.title == "Test shelf"
    assert catalog.site.base_url == "/"
    assert [p.slug for p in catalog.papers] == ["a-paper-on-graphs", "fast-convergence"]
    paper = catalog.papers[0]
    assert paper.title == "A Paper on Graphs"
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert paper.venue == "test-2024"
    assert paper.tags == ("graph-learning",)
    assert paper.abstract == "We study graph neural networks."
    assert paper.source == "papers/a-paper-on-graphs.md"
    assert list(catalog.venues) == ["test-2024"]
    assert catalog.venues["test-2024"].full_name == "Test Conference on Learning 2024"
    assert "graph-learning" in catalog.tags


def test_catalog_is_immutable(content):
    catalog = load_catalog(content.root)
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalog.papers[0].title = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        catalog.venues["x"] = None  # type: ignore[index]


def test_links_presentation_and_provisional(content):
    content.add_paper("linked", title="Linked", extra="""
        presentation: oral
        provisional: true
        links:
          code: https://github.com/example/code
          arxiv: https://arxiv.org/abs/2401.00001
        """)
    paper = next(p for p in load_catalog(content.root).papers if p.slug == "linked")
    assert paper.presentation == "oral"
    assert paper.provisional is True
    # Links come in the canonical kind order, whatever order the file used.
    assert paper.links == (Link("arxiv", "https://arxiv.org/abs/2401.00001"), Link("code", "https://github.com/example/code"))


def test_extra_front_matter_reaches_custom_templates(content, tmp_path):
    import shutil
    from pathlib import Path

    from generator.build import BuildOptions, build

    content.add_paper("extra", title="With Extra", extra="""
        extra:
          reading_group: "2024-05-03"
          slides: {url: "https://example.org/s.pdf"}
        """)
    paper = next(p for p in load_catalog(content.root).papers if p.slug == "extra")
    assert paper.extra == {"reading_group": "2024-05-03", "slides": {"url": "https://example.org/s.pdf"}}
    templates = tmp_path / "templates"
    shutil.copytree(Path(__file__).resolve().parents[2] / "templates", templates)
    page = templates / "paper.html"
    head, _, tail = page.read_text(encoding="utf-8").rpartition("{% endblock %}")
    page.write_text(head + "{% if paper.extra.reading_group is defined %}<p id=rg>Discussed"
                    " {{ paper.extra.reading_group }}, <a href=\"{{ paper.extra.slides.url }}\">slides</a></p>"
                    "{% endif %}{% endblock %}" + tail, encoding="utf-8")
    build(BuildOptions(content=content.root, output=tmp_path / "site", templates=templates))
    html = (tmp_path / "site" / "papers" / "test-2024" / "extra" / "index.html").read_text(encoding="utf-8")
    assert '<p id=rg>Discussed 2024-05-03, <a href="https://example.org/s.pdf">slides</a></p>' in html
    other = (tmp_path / "site" / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html").read_text(encoding="utf-8")
    assert "id=rg" not in other


def test_base_url_override_is_normalised(content):
    assert load_catalog(content.root, base_url="/catalog").site.base_url == "/catalog/"
    assert load_catalog(content.root, base_url="https://example.org/c/").site.base_url == "https://example.org/c/"


def test_bad_base_url_is_reported(content):
    assert any("--base-url" in p and "base_url" in p for p in problems_of(content.root, base_url="javascript:alert(1)"))


@pytest.mark.parametrize(
    "extra, expected",
    [
        ("presentation: keynote", "papers/bad.md:6: presentation: expected one of oral, spotlight, poster, found 'keynote'"),
        ("links:\n  code: javascript:alert(1)", "papers/bad.md:6: links: code: expected an http(s) URL, found 'javascript:alert(1)'"),
        ("links:\n  homepage: https://x.org", "papers/bad.md:6: links: unknown link kind 'homepage'"),
        ("provisional: maybe", "papers/bad.md:6: provisional: expected true or false, found 'maybe'"),
        ("subtitle: x", "papers/bad.md:6: subtitle: unknown field"),
    ],
)
def test_ill_typed_fields_name_file_line_and_field(content, extra, expected):
    content.add_paper("bad", title="Bad", extra=extra)
    assert any(p.startswith(expected) for p in problems_of(content.root)), problems_of(content.root)


def test_missing_title_and_unknown_refs(content):
    content.add_paper("no-title", "---\nauthors: []\nvenue: nowhere-2024\ntags: [made-up]\n---\nBody\n")
    problems = problems_of(content.root)
    assert "papers/no-title.md:5: title: required field is missing" in problems
    assert any(p.startswith("papers/no-title.md:3: venue: unknown venue 'nowhere-2024'") for p in problems)
    # A missing title stops the paper from being checked further, so collect per-field problems:
    content.add_paper("unknown-refs", "---\ntitle: T\nvenue: nowhere-2024\ntags: [made-up]\n---\n")
    problems = problems_of(content.root)
    assert any(p.startswith("papers/unknown-refs.md:3: venue: unknown venue 'nowhere-2024'") for p in problems)
    assert any(p.startswith("papers/unknown-refs.md:4: tags: unknown tag 'made-up'") for p in problems)


def test_title_must_be_text(content):
    content.add_paper("number-title", "---\ntitle: 1984\nvenue: test-2024\n---\n")
    assert "papers/number-title.md:2: title: expected text, found a number (put it in quotes)" in problems_of(content.root)


def test_every_problem_is_reported_not_just_the_first(content):
    content.add_paper("broken-yaml", "---\ntitle: [unclosed\nvenue: test-2024\n---\n")
    content.add_paper("never-closed", "---\ntitle: Open\n")
    content.add_paper("empty", "")
    (content.root / "papers" / "latin1.md").write_bytes("---\ntitle: Caf\xe9\nvenue: test-2024\n---\n".encode("latin-1"))
    problems = problems_of(content.root)
    assert any(p.startswith("papers/broken-yaml.md:") and "invalid YAML" in p for p in problems)
    assert "papers/never-closed.md:1: front matter opened with '---' on line 1 is never closed" in problems
    assert "papers/empty.md: the file is empty" in problems
    assert any(p.startswith("papers/latin1.md:2: not UTF-8 text") for p in problems)
    assert len(problems) == 4


def test_bad_file_names_and_duplicates(content):
    content.add_paper("Bad_Name")
    content.add_paper("copy-of-graphs")  # same title and venue as a-paper-on-graphs
    (content.root / "papers" / "notes.txt").write_text("x")
    problems = problems_of(content.root)
    assert any(p.startswith("papers/Bad_Name.md: file name must be an id") for p in problems)
    assert any(p.startswith("papers/notes.txt: not a Markdown file") for p in problems)
    assert any(p.startswith("papers/copy-of-graphs.md:2: title: the same paper") for p in problems)


def test_titles_that_differ_in_symbols_are_different_papers(content):
    content.add_paper("cpp", title="C++ for ML", body="About C++.")
    content.add_paper("c", title="C for ML", body="About C.")
    content.add_paper("a-star", title="A* Search Revisited", body="Heuristics.")
    content.add_paper("a", title="A Search Revisited", body="Search.")
    content.add_paper("k-means", title="$K$-Means: A Study", body="Clusters.")
    content.add_paper("kmeans-again", title="k-means, a study", body="")
    content.add_paper("deep", title="Deep Learning for X", body="Deep.")
    content.add_paper("emphasised", title="*Deep* Learning for X", body="Deep.")
    problems = problems_of(content.root)
    assert len(problems) == 2
    assert problems[0].startswith("papers/emphasised.md:2: title: the same paper")  # emphasis is not a symbol
    assert problems[1].startswith("papers/kmeans-again.md:2: title: the same paper")


def test_venue_and_site_problems(content):
    content.write("venues/bad-venue.md", "---\nname: X\nfull_name: X\nyear: next\nurl: ftp://x.org\n---\n")
    content.write("site.toml", 'title = "ok"\nbase_url = 3\n')
    problems = problems_of(content.root)
    assert "venues/bad-venue.md:4: year: expected a year such as 2024, found 'next'" in problems
    assert "venues/bad-venue.md:5: url: expected an http(s) URL, found 'ftp://x.org'" in problems
    assert any(p.startswith("site.toml:2: base_url:") for p in problems)


def test_broken_toml_names_the_line(content):
    content.write("site.toml", 'title = "ok"\ndescription = "unterminated\n')
    problems = problems_of(content.root)
    assert len(problems) == 1 and problems[0].startswith("site.toml:2: invalid TOML")


def test_yaml_aliases_are_refused(content):
    content.add_paper("alias", '---\ntitle: &t "T"\nvenue: test-2024\nauthors: [*t]\n---\n')
    assert any("anchors and aliases are not allowed" in p for p in problems_of(content.root))


def test_paper_md_helper_round_trips_quotes(content):
    content.add_paper("quoted", paper_md(title="It's: a test"))
    assert any(p.title == "It's: a test" for p in load_catalog(content.root).papers)


ABSTRACT = ("We show that message passing on sparse graphs converges when every node averages the "
            "messages of its neighbours, and we bound the rate by the spectral gap of the graph.")


def read_one(content, slug, checks):
    problems, warnings = Problems(), []
    paper = read_paper(content.root / "papers" / f"{slug}.md", problems, checks, root=content.root.resolve(),
                       warnings=warnings)
    return paper, [str(p) for p in problems.items], warnings


def test_read_paper_reads_one_file_as_the_folder_is_read(content):
    """The preview's read of a saved paper: the paper the load makes, the problems it names."""
    catalog = load_catalog(content.root)
    checks = PaperChecks(catalog.venues, catalog.tags, catalog.people)
    assert read_one(content, "a-paper-on-graphs", checks) == (catalog.papers[0], [], [])
    content.add_paper("a-paper-on-graphs", venue="nips-2031", tags=("no-such-tag",))
    paper, problems, _ = read_one(content, "a-paper-on-graphs", PaperChecks(catalog.venues, catalog.tags))
    assert paper is None and problems == problems_of(content.root) and len(problems) == 2
    content.add_paper("a-paper-on-graphs", "---\ntitle: [broken\n---\n")
    paper, problems, _ = read_one(content, "a-paper-on-graphs", checks)
    assert paper is None and problems == problems_of(content.root)


def test_read_paper_applies_the_duplicate_rule_to_the_papers_seen(content):
    """Against the papers seen before (``PaperChecks.seen``): a repeated abstract is a warning,
    as in the load; the same title, venue, authors and abstract an error."""
    content.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                      tags=("optimization",), body=ABSTRACT)
    catalog = load_catalog(content.root)
    other = catalog.papers[1]
    content.add_paper("a-paper-on-graphs", title="Averaging Messages", body=ABSTRACT)
    warned = load_catalog(content.root).warnings
    checks = PaperChecks(catalog.venues, catalog.tags)
    checks.seen(other)
    paper, problems, warnings = read_one(content, "a-paper-on-graphs", checks)
    assert paper is not None and paper.title == "Averaging Messages" and not problems
    # The same warning as the load's, on the file read last (the load reads them in name order).
    assert warnings == ["papers/a-paper-on-graphs.md: likely the same paper as papers/fast-convergence.md "
                        "(same abstract); is this the same paper twice?"]
    assert list(warned) == ["papers/fast-convergence.md: likely the same paper as papers/a-paper-on-graphs.md "
                            "(same abstract); is this the same paper twice?"]
    assert read_one(content, "a-paper-on-graphs", PaperChecks(catalog.venues, catalog.tags))[2] == []  # none seen
    content.add_paper("a-paper-on-graphs", title=other.title, authors=other.authors, tags=other.tags, body=ABSTRACT)
    checks = PaperChecks(catalog.venues, catalog.tags)
    checks.seen(other, duplicate_keys(other))
    paper, problems, _ = read_one(content, "a-paper-on-graphs", checks)
    assert paper is None
    assert problems == ["papers/a-paper-on-graphs.md:2: title: the same paper (same title, venue and authors) "
                        "is already in papers/fast-convergence.md"]
