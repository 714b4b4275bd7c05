"""Atomic output: the old site survives any failure, and no temporary folder is left behind."""

from __future__ import annotations

import pytest

from generator.errors import OutputError
from generator.write.manifest import MARKER, read_manifest
from generator.write.writer import atomic_output


def leftovers(parent):
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def test_success_replaces_the_whole_folder(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "stale.html").write_text("old")
    with atomic_output(out) as w:
        w.write_text("index.html", "new")
        w.write_text("papers/a/index.html", "paper")
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        MARKER, "index.html", "papers/a/index.html"]
    assert sorted(read_manifest(out).files) == ["index.html", "papers/a/index.html"]
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_failure_keeps_the_previous_site_byte_for_byte(tmp_path, error):
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_bytes(b"previous \xe2\x9c\x93")
    with pytest.raises(type(error)):
        with atomic_output(out) as w:
            w.write_text("index.html", "half")
            raise error
    assert (out / "index.html").read_bytes() == b"previous \xe2\x9c\x93"
    assert [p.name for p in out.iterdir()] == ["index.html"]
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("bad", ["../escape.html", "/etc/passwd", "a/../../b", ""])
def test_paths_cannot_leave_the_output(tmp_path, bad):
    with pytest.raises(OutputError):
        with atomic_output(tmp_path / "site") as w:
            w.write_text(bad, "x")
    assert not (tmp_path / "escape.html").exists()
    assert not (tmp_path / "site").exists()


def test_the_same_path_cannot_be_written_twice(tmp_path):
    with pytest.raises(OutputError, match="same output file: tags/x/index.html"):
        with atomic_output(tmp_path / "site") as w:
            w.write_text("tags/x/index.html", "one")
            w.write_text("tags/x/index.html", "two")


def write_site(out, files):
    with atomic_output(out, fingerprint="test") as w:
        for path, text in files.items():
            w.write_text(path, text)


def site_files(out):
    return {p.relative_to(out).as_posix(): p.read_text() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != MARKER}


@pytest.mark.parametrize("before, after", [
    ({"static/x": "file", "index.html": "i"}, {"static/x/y.css": "now a folder", "index.html": "i"}),
    ({"static/x/y.css": "folder", "index.html": "i"}, {"static/x": "now a file", "index.html": "i"}),
    ({"img/Logo.png": "old", "a/b/c.html": "deep"}, {"img/logo.png": "new", "a.html": "flat"}),
])
def test_an_update_reaches_exactly_the_new_files(tmp_path, before, after):
    out = tmp_path / "site"
    write_site(out, before)
    write_site(out, after)
    assert site_files(out) == after
    assert not (out / "a" / "b").exists() or "a/b/c.html" in after  # emptied folders go
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("where", ["writing a changed file", "swapping the folder in"])
@pytest.mark.parametrize("before, after", [
    ({"static/x": "file", "index.html": "i", "same.html": "s"},
     {"static/x/y.css": "now a folder", "index.html": "new", "same.html": "s"}),
    ({"static/x/y.css": "folder", "index.html": "i", "same.html": "s"},
     {"static/x": "now a file", "index.html": "new", "same.html": "s"}),
])
def test_a_failing_update_leaves_the_previous_site(tmp_path, monkeypatch, before, after, where):
    import generator.write.staging as staging
    import generator.write.writer as writer

    out = tmp_path / "site"
    write_site(out, before)

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if where == "swapping the folder in":
        monkeypatch.setattr(writer, "_exchange", fail)
    else:
        monkeypatch.setattr(staging, "open", fail, raising=False)  # where files are written
    with pytest.raises(OutputError, match="No space left"):
        write_site(out, after)
    assert site_files(out) == before
    assert leftovers(tmp_path) == []


def file_ids(out):
    return {p.relative_to(out).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*")
            if p.is_file() and p.name != MARKER}


@pytest.mark.parametrize("hard_links", [True, False])
def test_unchanged_files_are_kept_as_they_were_not_rewritten(tmp_path, monkeypatch, hard_links):
    """An update swaps in a whole folder, but unchanged files in it are the old ones: hard
    links to them (same inode and mtime); where links fail, they are written again."""
    import generator.write.writer as writer

    out = tmp_path / "site"
    write_site(out, {"a/index.html": "same", "b.html": "old", "c.html": "same too"})
    before = file_ids(out)
    if not hard_links:
        def no_links(*args, **kwargs):
            raise OSError(1, "Operation not permitted")
        monkeypatch.setattr(writer.os, "link", no_links)
    write_site(out, {"a/index.html": "same", "b.html": "new", "c.html": "same too"})
    after = file_ids(out)
    assert site_files(out) == {"a/index.html": "same", "b.html": "new", "c.html": "same too"}
    for path in ("a/index.html", "c.html"):
        assert (after[path] == before[path]) == hard_links
    assert after["b.html"] != before["b.html"]
    manifest = read_manifest(out)
    assert {p: (r.size, r.mtime_ns) for p, r in manifest.files.items()} == \
        {p: ((out / p).stat().st_size, (out / p).stat().st_mtime_ns) for p in manifest.files}
    assert leftovers(tmp_path) == []


def test_an_unchanged_file_deleted_or_edited_during_the_build_is_written_afresh(tmp_path):
    out = tmp_path / "site"
    write_site(out, {"gone.html": "same", "edited.html": "same too", "b.html": "old"})
    with atomic_output(out, fingerprint="test") as w:
        (out / "gone.html").unlink()  # after the output was scanned, before the writer links it
        (out / "edited.html").write_text("someone's edit")
        for path, text in {"gone.html": "same", "edited.html": "same too", "b.html": "new"}.items():
            w.write_text(path, text)
    assert site_files(out) == {"gone.html": "same", "edited.html": "same too", "b.html": "new"}
    manifest = read_manifest(out)
    assert {p: (r.size, r.mtime_ns) for p, r in manifest.files.items()} == \
        {p: ((out / p).stat().st_size, (out / p).stat().st_mtime_ns) for p in manifest.files}


@pytest.mark.parametrize("mode", [0o750, 0o2775, 0o700])
def test_the_output_keeps_its_permissions_across_builds(tmp_path, mode):
    import os
    import stat

    out = tmp_path / "site"
    write_site(out, {"index.html": "i"})
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o755  # a first build
    os.chmod(out, mode)
    write_site(out, {"index.html": "changed", "new/page.html": "p"})
    assert stat.S_IMODE(os.stat(out).st_mode) == mode
    if mode & stat.S_ISGID:  # what is written inside takes the folder's group
        assert os.stat(out / "new").st_gid == os.stat(out).st_gid


def test_a_swap_cut_short_without_renameat2_is_undone_by_the_next_build(tmp_path):
    """Killed between moving the old site aside and the new one in: the output is missing
    and the old site waits in .site.old-<pid>-…; the next build puts it back first."""
    import subprocess
    import sys

    from generator.write.writer import remove_stale_folders

    out = tmp_path / "site"
    write_site(out, {"index.html": "the old site"})
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    aside = tmp_path / f".site.old-{dead.pid}-abc123"
    out.rename(aside)
    remove_stale_folders(out)
    assert (out / "index.html").read_text() == "the old site" and not aside.exists()


def test_keeping_the_previous_files_is_all_or_nothing(tmp_path):
    """``keep_previous`` links every wanted file or, if one changed since the output was
    scanned, none: nothing of the others stays claimed, linked or counted."""
    from generator.write.manifest import read_manifest, scan_output
    from generator.write.staging import SiteWriter

    out = tmp_path / "site"
    with atomic_output(out, fingerprint="test") as w:
        for name in ("a.json", "b.json", "c.json", "page.html"):
            w.write_text(name, name * 100)
    manifest = read_manifest(out)
    on_disk = scan_output(out)
    intact = {p: r for p, r in manifest.files.items() if on_disk.get(p) == (r.size, r.mtime_ns)}
    staging = tmp_path / "staging"
    staging.mkdir()
    writer = SiteWriter(staging, intact, out, tuple(manifest.files))
    (out / "c.json").write_text("edited after the scan", encoding="utf-8")
    assert not writer.keep_previous(lambda path: path.endswith(".json"))
    assert writer.records == {} and writer.written == {} and writer.bytes_written == 0
    assert not any(p.is_file() for p in staging.rglob("*"))
    writer.write_text("a.json", "new")  # the caller writes them itself: no path is taken
    assert writer.keep_previous(lambda path: path == "b.json") and set(writer.records) == {"a.json", "b.json"}
