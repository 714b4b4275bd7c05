"""The command line: exit codes, messages, and that a failed build leaves the old site alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import __version__
from generator.cli import main

from .conftest import SEEDS
from .sitecheck import files_of


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def snapshot(folder: Path) -> dict[str, bytes]:
    return files_of(folder, manifest=True)


def test_version_and_help():
    assert run("--version").output.strip() == f"papershelf, version {__version__}"
    for args in (["--help"], ["build", "--help"], ["check", "--help"], ["import", "seeds", "--help"]):
        result = run(*args)
        assert result.exit_code == 0 and "Usage:" in result.output


def test_build_then_check(content, tmp_path):
    out = tmp_path / "site"
    result = run("build", "--content", str(content.root), "--output", str(out))
    assert result.exit_code == 0, result.output
    assert "Built" in result.output and (out / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html").is_file()
    result = run("check", "--content", str(content.root))
    assert result.exit_code == 0 and "OK: 2 papers, 1 venues" in result.output


def test_quiet_build_prints_nothing(content, tmp_path):
    result = run("build", "--quiet", "--content", str(content.root), "--output", str(tmp_path / "site"))
    assert result.exit_code == 0 and result.output == ""


def test_bad_content_exits_1_without_traceback_and_keeps_the_previous_site(content, tmp_path):
    out = tmp_path / "site"
    assert run("build", "--content", str(content.root), "--output", str(out)).exit_code == 0
    before = snapshot(out)
    content.add_paper("broken", "---\ntitle: [oops\n---\n")
    content.add_paper("bad-venue", venue="nowhere-2099", title="Elsewhere")
    result = run("build", "--content", str(content.root), "--output", str(out))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "papers/broken.md:2: invalid YAML" in result.output
    assert "papers/bad-venue.md:4: venue: unknown venue 'nowhere-2099'" in result.output
    assert snapshot(out) == before
    # nothing left beside the site but the build cache, which keeps what the valid files parsed to
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".papershelf-cache") == ["content", "site"]


def test_a_second_build_with_nothing_changed_says_so_and_writes_nothing(content, tmp_path):
    out = tmp_path / "site"
    first = run("build", "--content", str(content.root), "--output", str(out), "--jobs", "2")
    assert first.exit_code == 0 and "files changed" in first.output
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    second = run("build", "--content", str(content.root), "--output", str(out))
    assert second.exit_code == 0 and "Site is up to date" in second.output
    assert "Rendering pages" not in first.output + second.output  # no progress bar off a terminal
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_progress_bar_for_large_builds_only():
    from generator.cli import ProgressBar

    small, large = ProgressBar(), ProgressBar()
    small.update(10, ProgressBar.MIN_PAGES - 1)
    assert small.bar is None
    large.update(10, ProgressBar.MIN_PAGES)
    assert large.bar is not None and large.shown == 10
    large.close()
    assert large.bar is None


def test_check_writes_nothing(content, tmp_path):
    content.add_paper("bad", title="Bad", extra="presentation: keynote")
    result = run("check", "--content", str(content.root))
    assert result.exit_code == 1 and "presentation: expected one of" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]


def test_refuses_to_overwrite_a_folder_it_did_not_write(content, tmp_path):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    result = run("build", "--content", str(content.root), "--output", str(precious))
    assert result.exit_code == 1 and "did not write" in result.output
    assert (precious / "thesis.tex").read_text() == "years of work"


def test_missing_content_folder(tmp_path):
    result = run("build", "--content", str(tmp_path / "nope"), "--output", str(tmp_path / "site"))
    assert result.exit_code == 1 and "content folder not found" in result.output


@pytest.mark.slow
@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared seeds not available")
def test_import_seeds_command_reproduces_the_committed_catalog(tmp_path):
    from .conftest import REPO

    target = tmp_path / "content"
    target.mkdir()
    (target / "tags.toml").write_bytes((REPO / "content" / "tags.toml").read_bytes())
    seeds = sorted(str(p) for p in SEEDS.glob("*.txt"))
    result = run("import", "seeds", *seeds, "--metadata", str(SEEDS / "metadata"), "--content", str(target))
    assert result.exit_code == 0, result.output
    committed = snapshot(REPO / "content" / "papers")
    assert snapshot(target / "papers") == committed
    assert len(committed) == 76
    again = run("import", "seeds", *seeds, "--metadata", str(SEEDS / "metadata"), "--content", str(target))
    assert again.exit_code == 0 and snapshot(target / "papers") == committed


def test_import_refuses_a_file_without_header(tmp_path):
    seed = tmp_path / "bad.txt"
    seed.write_text("Just an abstract with no venue header.\n")
    (tmp_path / "content").mkdir()
    result = run("import", "seeds", str(seed), "--content", str(tmp_path / "content"))
    assert result.exit_code == 1 and "bad.txt" in result.output
    assert list((tmp_path / "content").iterdir()) == []


IMPORTS = Path(__file__).parent / "importers" / "data"


@pytest.mark.parametrize("command, source, label", [
    ("bibtex", Path(__file__).parent / "fixtures" / "bibtex" / "wild.bib", "BibTeX"),
    ("csl", IMPORTS / "csl" / "zotero.json", "CSL-JSON"),
    ("openreview", IMPORTS / "openreview" / "iclr2024-submissions.json", "OpenReview"),
    ("arxiv", IMPORTS / "arxiv" / "feed.xml", "arXiv"),
])
def test_each_import_format_writes_papers_that_build_and_a_rerun_changes_nothing(content, tmp_path, command, source,
                                                                                label):
    first = run("import", command, str(source), "--content", str(content.root))
    assert first.exit_code == 0, first.output
    assert f"from 1 {label} file: " in first.output and " created" in first.output
    papers = snapshot(content.root)
    second = run("import", command, str(source), "--content", str(content.root))
    assert second.exit_code == 0 and " 0 created, 0 updated," in second.output, second.output
    assert snapshot(content.root) == papers
    built = run("build", "--content", str(content.root), "--output", str(tmp_path / "site"), "--quiet")
    assert built.exit_code == 0, built.output


def test_an_import_error_exits_1_with_the_file_named_and_writes_nothing(content, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('[{"id": "a", "title": "T", "type": "paper-conference",\n "issued": 2024}]', encoding="utf-8")
    before = snapshot(content.root)
    result = CliRunner().invoke(main, ["import", "csl", str(broken), "--content", str(content.root)])
    assert result.exit_code == 1 and "broken.json" in result.output and "Traceback" not in result.output
    assert snapshot(content.root) == before
