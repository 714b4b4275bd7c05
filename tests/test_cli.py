"""The command line: exit codes, messages, and that a failed build leaves the old site alone."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import __version__
from generator.cli import main

from .conftest import SEEDS


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def wait_for(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except OSError as exc:
            last = exc
        time.sleep(0.05)
    raise AssertionError(f"timed out; last error: {last}")


class Output:
    """Collects a process's output lines in a thread, so a test can wait for a line."""

    def __init__(self, stream):
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line)

    def count(self, needle: str) -> int:
        return sum(needle in line for line in list(self.lines))

    def text(self) -> str:
        self.thread.join(timeout=10)
        return "".join(self.lines)


@pytest.mark.slow
def test_serve_rebuilds_on_change_and_survives_a_bad_edit(content, tmp_path):
    port = free_port()
    out = tmp_path / "site"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "build", "--serve", "--port", str(port),
         "--content", str(content.root), "--output", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
    )
    output = Output(proc.stdout)
    page = f"http://127.0.0.1:{port}/papers/test-2024/a-paper-on-graphs/"
    try:
        assert "A Paper on Graphs" in wait_for(lambda: fetch(page))
        # Several quick saves: one rebuild, showing the last one.
        for i in range(3):
            content.add_paper("a-paper-on-graphs", title=f"Edited Title {i}")
            time.sleep(0.05)
        assert wait_for(lambda: "Edited Title 2" in fetch(page))
        # A broken edit: the error is reported and the last good page is still served.
        failed = output.count("Build failed")
        # saved as editors do, by renaming a complete file into place: a rebuild that read a
        # half-written file would report that file's error (a loaded machine saw it), not this one
        broken = tmp_path / "broken.tmp"
        broken.write_text("---\ntitle: [broken\n---\n", encoding="utf-8")
        os.replace(broken, content.root / "papers" / "a-paper-on-graphs.md")
        wait_for(lambda: output.count("Build failed") > failed)
        assert "Edited Title 2" in fetch(page)
        content.add_paper("a-paper-on-graphs", title="Fixed Again")
        assert wait_for(lambda: "Fixed Again" in fetch(page))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = output.text()
    assert "Build failed; still serving the last good site." in text
    assert "papers/a-paper-on-graphs.md:2: invalid YAML" in text
    assert text.count("Edited Title") == 0  # titles are not echoed; builds are
    # No rebuild storm: the first build, then at most one rebuild a save (three quick saves
    # are usually one batch, but on a loaded machine the watcher may see them one by one).
    assert text.count("Built ") <= 1 + 3 + 1, text


def test_serve_binds_to_loopback_only(content, tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "build", "--serve", "--port", str(port),
         "--content", str(content.root), "--output", str(tmp_path / "site")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: fetch(f"http://127.0.0.1:{port}/"))
        listening = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
        lines = [l for l in listening.splitlines() if f":{port} " in l]
        assert lines and all("127.0.0.1:" in l for l in lines), lines
        # An unknown path gets the site's own 404 page, with status 404, as on a static host.
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no/such/page/", timeout=10)
        assert info.value.code == 404
        body = info.value.read().decode("utf-8")
        assert "<h1>Page not found</h1>" in body and 'class="site-header"' in body
    finally:
        proc.terminate()
        proc.wait(timeout=10)
