"""The build cache (generator/cache.py): parsed front matter and rendered paper texts kept
across builds by a hash of their inputs. A cached build writes exactly what a build without
the cache writes; only the work for what changed is done again; a broken, foreign or
damaged cache file never fails a build; ``--no-cache`` and ``papershelf clean``."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import cache as build_cache
from generator.build import BuildOptions, build
from generator.cli import main
from generator.content import loader
from generator.derive import views
from generator.text.fallbacks import set_strict

from .conftest import REPO
from .sitecheck import files_of


@pytest.fixture
def calls(monkeypatch):
    """How often a front matter was parsed and a paper's text rendered, by label / source."""
    seen: dict[str, list[str]] = {"parse": [], "text": []}
    parse, text = loader._parse_text, views.paper_text

    def counted_parse(item):
        seen["parse"].append(item[1])
        return parse(item)

    def counted_text(paper):
        seen["text"].append(paper.slug)
        return text(paper)

    monkeypatch.setattr(loader, "_parse_text", counted_parse)
    monkeypatch.setattr(views, "paper_text", counted_text)
    return seen


def cold(content, tmp_path) -> dict[str, bytes]:
    out = tmp_path / "cold"
    shutil.rmtree(out, ignore_errors=True)
    build(BuildOptions(content=content.root, output=out))  # no cache
    return files_of(out)


def test_a_second_build_parses_and_renders_only_what_changed(content, tmp_path, calls):
    folder = tmp_path / "cache"
    options = BuildOptions(content=content.root, output=tmp_path / "site", cache=folder)
    build(options)
    assert sorted(calls["text"]) == ["a-paper-on-graphs", "fast-convergence"]
    assert len(calls["parse"]) == 3  # two papers and the venue
    calls["parse"].clear(), calls["text"].clear()

    build(BuildOptions(content=content.root, output=tmp_path / "fresh", cache=folder))  # a fresh output
    assert calls == {"parse": [], "text": []}
    assert files_of(tmp_path / "fresh") == files_of(tmp_path / "site")

    content.add_paper("fast-convergence", title="Fast Convergence, Revised", authors=("Alan Turing",),
                      tags=("optimization",), body="Gradient descent converges at rate $O(1/t^2)$.")
    build(options)
    assert calls == {"parse": ["papers/fast-convergence.md"], "text": ["fast-convergence"]}
    assert files_of(tmp_path / "site") == cold(content, tmp_path)


def test_entries_of_papers_gone_are_dropped(content, tmp_path):
    folder = tmp_path / "cache"
    options = BuildOptions(content=content.root, output=tmp_path / "site", cache=folder)
    build(options)
    with sqlite3.connect(build_cache.cache_file(folder)) as db:
        before = dict(db.execute("SELECT kind, count(*) FROM entries GROUP BY kind").fetchall())
    (content.root / "papers" / "fast-convergence.md").unlink()
    build(options)
    with sqlite3.connect(build_cache.cache_file(folder)) as db:
        after = dict(db.execute("SELECT kind, count(*) FROM entries GROUP BY kind").fetchall())
    assert before == {"front matter": 3, "paper text": 2, "related papers": 1, "topics": 1}
    # the new lists and topics only
    assert after == {"front matter": 2, "paper text": 1, "related papers": 1, "topics": 1}


@pytest.mark.parametrize("damage", ["garbage file", "empty file", "foreign database", "damaged entries"])
def test_a_broken_cache_is_never_a_failed_build(content, tmp_path, calls, damage):
    folder = tmp_path / "cache"
    options = BuildOptions(content=content.root, output=tmp_path / "site", cache=folder)
    path = build_cache.cache_file(folder)
    if damage == "damaged entries":
        build(options)
        with sqlite3.connect(path) as db:
            db.execute("UPDATE entries SET value = x'80049501'")  # a pickle cut short
        shutil.rmtree(tmp_path / "site")
    else:
        folder.mkdir()
        if damage == "garbage file":
            path.write_bytes(b"not a database at all\n" * 100)
        elif damage == "empty file":
            path.write_bytes(b"")
        else:
            with sqlite3.connect(path) as db:
                db.execute("CREATE TABLE entries (something TEXT)")
    calls["parse"].clear(), calls["text"].clear()
    build(options)
    assert len(calls["text"]) == 2  # every entry a miss, computed afresh
    assert files_of(tmp_path / "site") == cold(content, tmp_path)
    calls["text"].clear()
    build(BuildOptions(content=content.root, output=tmp_path / "again", cache=folder))
    assert calls["text"] == []  # the file works again


def test_another_generator_version_or_strict_text_misses(content, tmp_path, calls, monkeypatch):
    """Texts cached while falling back to plain text was allowed are not used when it is an
    error (the tests run strict: PAPERSHELF_STRICT_TEXT=1): no cached fallback hides one."""
    folder = tmp_path / "cache"
    previous = set_strict(False)
    try:
        build(BuildOptions(content=content.root, output=tmp_path / "site", cache=folder))
    finally:
        set_strict(previous)
    calls["text"].clear()
    build(BuildOptions(content=content.root, output=tmp_path / "strict", cache=folder))
    assert len(calls["text"]) == 2
    calls["text"].clear()
    monkeypatch.setattr(build_cache, "_version", "another generator")
    build(BuildOptions(content=content.root, output=tmp_path / "other", cache=folder))
    assert len(calls["text"]) == 2


def test_builds_at_once_share_one_cache(content, tmp_path):
    """Two processes building different outputs with one cache file: both sites right."""
    for i in range(12):
        content.add_paper(f"paper-{i}", title=f"Paper number {i}", authors=(f"Author {i}",), body=f"Abstract {i}.")
    folder = tmp_path / "cache"
    script = ("import sys; from pathlib import Path; from generator.build import BuildOptions, build; "
              "build(BuildOptions(content=Path(sys.argv[1]), output=Path(sys.argv[2]), cache=Path(sys.argv[3])))")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(content.root), str(tmp_path / f"site{i}"), str(folder)],
                              cwd=REPO) for i in range(3)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    expected = cold(content, tmp_path)
    assert all(files_of(tmp_path / f"site{i}") == expected for i in range(3))


def test_the_fast_path_beside_a_rebuild_uses_no_cache(tmp_path):
    """The cache in use belongs to the thread running the build: another thread sees none."""
    seen = []
    with build_cache.cache_used(build_cache.BuildCache(tmp_path)):
        thread = threading.Thread(target=lambda: seen.append(build_cache._current.get()))
        thread.start()
        thread.join()
        assert build_cache._current.get() is not None
    assert seen == [None] and build_cache._current.get() is None


def test_the_cli_caches_beside_the_content_unless_told_not_to(content, tmp_path):
    runner = CliRunner()
    default = tmp_path / ".papershelf-cache"
    result = runner.invoke(main, ["build", "--content", str(content.root), "--output", str(tmp_path / "a"), "-q",
                                  "--no-cache"])
    assert result.exit_code == 0 and not default.exists()
    result = runner.invoke(main, ["build", "--content", str(content.root), "--output", str(tmp_path / "b"), "-q"])
    assert result.exit_code == 0 and build_cache.cache_file(default).is_file()
    result = runner.invoke(main, ["clean", "--content", str(content.root)])
    assert result.exit_code == 0 and "Removed the build cache" in result.output and not default.exists()
    assert "No build cache" in runner.invoke(main, ["clean", "--content", str(content.root)]).output
    elsewhere = tmp_path / "elsewhere"
    result = runner.invoke(main, ["build", "--content", str(content.root), "--output", str(tmp_path / "c"), "-q",
                                  "--cache-dir", str(elsewhere)])
    assert result.exit_code == 0 and build_cache.cache_file(elsewhere).is_file() and not default.exists()
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(main, ["clean", "--cache-dir", str(precious)])
    assert result.exit_code == 1 and "does not look like a build cache" in result.output
    assert (precious / "notes.txt").is_file()
    assert runner.invoke(main, ["clean", "--cache-dir", str(elsewhere)]).exit_code == 0 and not elsewhere.exists()
    for inside in (content.root / ".cache", tmp_path / "d" / "cache"):  # the content's or the output's
        result = runner.invoke(main, ["build", "--content", str(content.root), "--output", str(tmp_path / "d"),
                                      "-q", "--cache-dir", str(inside)])
        assert result.exit_code == 1 and "must not be inside" in result.output and not inside.exists()


def test_related_papers_are_computed_again_only_when_texts_or_tags_change(content, tmp_path, monkeypatch):
    computed = []
    real = views.related_indices
    monkeypatch.setattr(views, "related_indices", lambda *a, **k: computed.append(1) or real(*a, **k))
    options = BuildOptions(content=content.root, output=tmp_path / "site", cache=tmp_path / "cache")
    build(options)
    assert len(computed) == 1
    content.add_paper("a-paper-on-graphs", authors=("Grace Hopper",))  # authors only: the same lists
    build(options)
    assert len(computed) == 1
    assert files_of(tmp_path / "site") == cold(content, tmp_path)
    computed.clear()
    content.add_paper("a-paper-on-graphs", authors=("Grace Hopper",), tags=("optimization",))
    build(options)
    assert len(computed) == 1
    assert files_of(tmp_path / "site") == cold(content, tmp_path)
