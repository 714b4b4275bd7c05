"""``papershelf import bibtex``: BibTeX entries to paper files, and back again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import ContentError
from generator.import_bibtex import bib_text_to_content, decode_url, import_bibtex
from generator.import_seeds import CREATED, KEPT_EDITED, UNCHANGED, UPDATED
from generator.loader import load_catalog
from generator.text import plain_text

from .conftest import REPO, ContentDir

FIXTURES = Path(__file__).parent / "fixtures" / "bibtex"
WILD = FIXTURES / "wild.bib"


def read(path: Path) -> tuple[dict, str]:
    _, head, body = path.read_text(encoding="utf-8").split("---\n", 2)
    return yaml.safe_load(head), body.strip()


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def empty(tmp_path) -> ContentDir:
    """A content folder with the test taxonomy and no venues or papers."""
    content = ContentDir(tmp_path / "content")
    (content.root / "venues" / "test-2024.md").unlink()
    content.write("site.toml", 'title = "Imported"\nbase_url = "https://example.org/shelf/"\n')
    return content


# --------------------------------------------------------------------------- reading entries


def test_import_reads_titles_authors_venues_links_abstracts_and_tags(empty):
    report = import_bibtex([WILD], empty.root)
    assert [p.status for p in report.papers] == [CREATED] * 3
    assert sorted(report.venues_created) == ["icml-2024", "journal-of-made-up-results-2024", "neurips-2023"]
    catalog = load_catalog(empty.root)  # what was written builds
    papers = {p.slug: p for p in catalog.papers}

    graphs = papers["graph-neural-networks-for-bert-style-pretraining-a-latex-story"]
    assert graphs.title == "Graph Neural Networks for BERT-style Pre\u2013training: a {\\LaTeX} Story"
    assert graphs.authors == ("Kurt Gödel", "Ludwig van der Berg", "D. E. Knuth")  # "and others" left out
    assert graphs.venue == "icml-2024"  # "Proceedings of the 41st International Conference on Machine Learning"
    assert dict((link.kind, link.url) for link in graphs.links) == {
        "pdf": "https://proceedings.mlr.press/v235/goedel24a/goedel24a.pdf",
        "arxiv": "https://arxiv.org/abs/2401.01234",
        "venue_page": "https://proceedings.mlr.press/v235/goedel24a.html",
    }
    assert graphs.tags == ("graph-learning",)  # from keywords; the unknown keyword is ignored
    assert graphs.abstract.split("\n\n") == [
        "We study graph neural networks with 95% accuracy & more.\nThe rate is $O(n \\log n)$ for graphs "
        "with $|E| = m$ edges.",
        "A second paragraph with \\emph{emphasis}.",
    ]

    diffusion = papers["diffusion-models-in-uber-space"]
    assert diffusion.authors == ("Hans Müller Jr.", "José García", "Google DeepMind")
    assert diffusion.venue == "neurips-2023"  # "Advances in Neural Information Processing Systems"
    assert plain_text(diffusion.title) == "Diffusion Models in Über-Space"
    assert [(link.kind, link.url) for link in diffusion.links] == [("venue_page", "https://doi.org/10.5555/12345.678")]

    journal = papers["fast-convergence-of-gradient-descent-revisited"]
    assert journal.venue == "journal-of-made-up-results-2024"
    assert [(link.kind, link.url) for link in journal.links] == [("code", "https://github.com/ada/convergence")]
    assert journal.tags == ("optimization",)  # suggested from the taxonomy
    venue = catalog.venues["journal-of-made-up-results-2024"]
    assert (venue.full_name, venue.year) == ("Journal of Made-Up Results 2024", 2024)
    assert catalog.venues["icml-2024"].full_name == "International Conference on Machine Learning 2024"
    assert any("and others" in w for w in report.warnings)


@pytest.mark.parametrize("raw, expected", [
    ("{BERT}: Pre-training of {Deep} Transformers", "BERT: Pre-training of Deep Transformers"),
    ("{{}\\LaTeX{} and {\\em Deep}}", "\\LaTeX{} and {\\em Deep}"),
    ("\\emph{x} and {G}{\\\"o}del", "\\emph{x} and G{\\\"o}del"),
    ("Q\\&A \\textless{}b\\textgreater{} 5\\% x\\_y \\$5", "Q&A <b> 5% x\\_y \\$5"),
    ("A--B---C {-}- and A* search", "A\u2013B\u2014C {-}- and A\\* search"),
    ("{$x^2$} \\url{https://x.org/a_b} and \\url{https://x.org/b}c", "$x^2$ https://x.org/a_b and \\url{https://x.org/b}c"),
    ("  many\n   spaces\t here ", "many spaces here"),
])
def test_titles_lose_protective_braces_and_keep_latex(raw, expected):
    assert bib_text_to_content(raw, title=True) == expected


def test_urls_are_unescaped():
    assert decode_url("\\url{https://x.org/a\\_b\\%20c}") == "https://x.org/a_b%20c"
    assert decode_url(" https://x.org/~u ") == "https://x.org/~u"


def test_existing_venue_is_matched_by_name_and_year(content, tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("@inproceedings{k, title = {New Graph Paper}, booktitle = {Proceedings of the Test Conference "
                   "on Learning}, year = {2024}}\n", encoding="utf-8")
    report = import_bibtex([bib], content.root)
    assert report.venues_created == [] and report.papers[0].slug == "new-graph-paper"
    assert read(content.root / "papers" / "new-graph-paper.md")[0]["venue"] == "test-2024"


def test_venue_option_puts_every_entry_there(content):
    report = import_bibtex([FIXTURES / "misc.bib"], content.root, venue="test-2024")
    fm, _ = read(content.root / "papers" / f"{report.papers[0].slug}.md")
    assert fm["venue"] == "test-2024" and fm["links"] == {"arxiv": "https://arxiv.org/abs/2402.05678"}
    assert report.venues_created == []


def test_a_paper_already_in_the_catalog_is_matched_to_its_file(content, tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("@inproceedings{k, title = {A Paper on {G}raphs}, author = {Ada Lovelace and Alan Turing},"
                   " booktitle = {Test Conference on Learning 2024}, year = 2024}\n", encoding="utf-8")
    report = import_bibtex([bib], content.root)
    assert report.papers[0].slug == "a-paper-on-graphs"
    assert report.papers[0].status == KEPT_EDITED  # it differs (tags, abstract): kept unless --force
    assert not (content.root / "papers" / "a-paper-on-graphs-2.md").exists()


def test_a_url_into_the_catalogs_own_site_is_not_a_link(empty, tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("@inproceedings{k, title = {Own}, booktitle = {Some Venue}, year = 2024,"
                   " url = {https://example.org/shelf/papers/own/}}\n", encoding="utf-8")
    import_bibtex([bib], empty.root)
    assert "links" not in read(empty.root / "papers" / "own.md")[0]


def test_the_same_paper_twice_in_a_file_is_imported_once(empty, tmp_path):
    bib = tmp_path / "x.bib"
    entry = "@inproceedings{{{key}, title = {{Same Title}}, booktitle = {{Some Venue}}, year = 2024}}\n"
    bib.write_text(entry.format(key="a") + entry.format(key="b"), encoding="utf-8")
    report = import_bibtex([bib], empty.root)
    assert len(report.papers) == 1 and any("imported once" in w for w in report.warnings)


# --------------------------------------------------------------------------- idempotence


def test_importing_twice_changes_nothing_and_edits_are_kept_unless_forced(empty):
    import_bibtex([WILD], empty.root)
    before = tree(empty.root)
    again = import_bibtex([WILD], empty.root)
    assert {p.status for p in again.papers} == {UNCHANGED} and tree(empty.root) == before
    assert sorted(again.venues_existing) == ["icml-2024", "journal-of-made-up-results-2024", "neurips-2023"]
    edited = empty.root / "papers" / "diffusion-models-in-uber-space.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nA note added by hand.\n", encoding="utf-8")
    kept = import_bibtex([WILD], empty.root)
    assert kept.statuses["diffusion-models-in-uber-space"] == KEPT_EDITED
    assert "A note added by hand." in edited.read_text(encoding="utf-8")
    forced = import_bibtex([WILD], empty.root, force=True)
    assert forced.statuses["diffusion-models-in-uber-space"] == UPDATED
    assert tree(empty.root) == before


# --------------------------------------------------------------------------- refused input


@pytest.mark.parametrize("name, message", [
    ("broken.bib", "cannot read this entry"),
    ("broken.bib", "duplicate entry key 'fine'"),
    ("no-title.bib", "has no title"),
    ("misc.bib", "pass --venue ID"),
])
def test_bad_input_is_refused_and_nothing_is_written(empty, name, message):
    before = tree(empty.root)
    with pytest.raises(ContentError) as caught:
        import_bibtex([FIXTURES / name], empty.root)
    assert message in str(caught.value)
    assert all(p.file.endswith(name) and p.line for p in caught.value.problems)
    assert tree(empty.root) == before


def test_refused_files(empty, tmp_path):
    latin1 = tmp_path / "latin1.bib"
    latin1.write_bytes("@misc{k, title = {Caf\u00e9}}\n".encode("latin-1"))
    empty_file = tmp_path / "empty.bib"
    empty_file.write_text("% nothing here\n", encoding="utf-8")
    for path, message in [(latin1, "not UTF-8"), (empty_file, "no BibTeX entries"),
                          (tmp_path / "missing.bib", "not found")]:
        with pytest.raises(ContentError, match=message):
            import_bibtex([path], empty.root)
    with pytest.raises(ContentError, match="unknown venue 'nowhere'"):
        import_bibtex([WILD], empty.root, venue="nowhere")
    assert not list((empty.root / "papers").iterdir())


def test_cli(empty):
    runner = CliRunner()
    result = runner.invoke(main, ["import", "bibtex", str(WILD), "--content", str(empty.root)])
    assert result.exit_code == 0, result.output
    assert "3 created" in result.output and "Venues created" in result.output
    result = runner.invoke(main, ["import", "bibtex", str(FIXTURES / "no-title.bib"), "--content", str(empty.root)])
    assert result.exit_code == 1 and "has no title" in result.output


# --------------------------------------------------------------------------- import → export → import


@pytest.mark.parametrize("base_url", ["https://example.org/shelf/", "/"])
def test_import_export_import_keeps_every_field(empty, tmp_path, base_url):
    import_bibtex([WILD], empty.root)
    out = tmp_path / "site"
    build(BuildOptions(content=empty.root, output=out, base_url=base_url))
    second = ContentDir(tmp_path / "second")
    (second.root / "venues" / "test-2024.md").unlink()
    shutil.copy(empty.root / "site.toml", second.root / "site.toml")
    report = import_bibtex([out / "papers.bib"], second.root)
    assert {p.status for p in report.papers} == {CREATED}
    first_files = {k: v for k, v in tree(empty.root).items() if k.startswith(("papers/", "venues/"))}
    second_files = {k: v for k, v in tree(second.root).items() if k.startswith(("papers/", "venues/"))}
    assert second_files == first_files


def test_importing_the_committed_catalogs_export_gives_back_its_papers(tmp_path):
    content = REPO / "content"
    out = tmp_path / "site"
    build(BuildOptions(content=content, output=out, base_url="https://example.org/shelf/"))
    target = ContentDir(tmp_path / "imported")
    (target.root / "venues" / "test-2024.md").unlink()
    shutil.copy(content / "tags.toml", target.root / "tags.toml")
    # The same site: its page URLs in the .bib are recognised as such, not taken for links.
    target.write("site.toml", 'title = "Again"\nbase_url = "https://example.org/shelf/"\n')
    report = import_bibtex([out / "papers.bib"], target.root)
    assert len(report.papers) == len(list((content / "papers").glob("*.md")))
    imported = {p.slug: p for p in load_catalog(target.root).papers}
    for original in load_catalog(content).papers:
        paper = imported[original.slug]
        assert plain_text(paper.title) == plain_text(original.title)
        assert paper.authors == original.authors
        assert paper.venue == original.venue
        assert paper.tags == original.tags
        assert paper.links == original.links
        assert paper.presentation == original.presentation
        assert " ".join(plain_text(paper.abstract).split()) == " ".join(
            plain_text(original.abstract.replace("---", "\u2014").replace("--", "\u2013")).split())
    venues = load_catalog(target.root).venues
    assert {v.id: (v.full_name, v.year) for v in venues.values()} == \
        {v.id: (v.full_name, v.year) for v in load_catalog(content).venues.values()}
