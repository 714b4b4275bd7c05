"""The preview server's watcher: file events below the sources, bursts as one batch,
hidden and version-control files ignored, folders that appear or vanish noticed; and its
file handler, which sends a file as one read although a rebuild may replace it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from generator import serve
from generator.serve import Rebuilder, Watcher


class Batches:
    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.event = threading.Event()

    def __call__(self, paths: list[str]) -> None:
        self.batches.append(paths)
        self.event.set()

    def wait(self, count: int, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while len(self.batches) < count and time.monotonic() < end:
            time.sleep(0.02)
        assert len(self.batches) >= count, self.batches


def watching(tmp_path: Path, roots: list[Path]) -> tuple[Watcher, Batches]:
    seen = Batches()
    watcher = Watcher(roots, seen)
    watcher.start()
    time.sleep(0.3)  # the watch is set up in its thread
    return watcher, seen


def test_a_burst_of_saves_is_one_batch_naming_the_files(tmp_path):
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    watcher, seen = watching(tmp_path, [content])
    try:
        for i in range(3):
            (content / "papers" / f"p{i}.md").write_text("x")
        seen.wait(1)
        time.sleep(0.5)  # nothing more arrives later
        # A batch ends after 50 ms of quiet: only a writer paused that long (a loaded
        # machine) splits the burst.
        assert len(seen.batches) <= 2
        assert sorted(Path(p).name for b in seen.batches for p in b) == ["p0.md", "p1.md", "p2.md"]
    finally:
        watcher.close()


def test_hidden_files_and_other_folders_are_not_changes(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / ".git").mkdir()
    elsewhere = tmp_path / "site"
    elsewhere.mkdir()
    watcher, seen = watching(tmp_path, [content])
    try:
        (content / ".paper.md.swp").write_text("x")
        (content / ".git" / "index").write_text("x")
        (elsewhere / "index.html").write_text("x")
        time.sleep(0.6)
        assert seen.batches == []
        (content / "site.toml").write_text("x")
        seen.wait(1)
        assert [Path(p).name for p in seen.batches[0]] == ["site.toml"]
    finally:
        watcher.close()


def test_a_source_folder_that_appears_or_vanishes_is_a_change_and_then_watched(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    overrides = tmp_path / "templates"
    watcher, seen = watching(tmp_path, [content, overrides])
    try:
        overrides.mkdir()
        seen.wait(1)
        assert str(overrides) in seen.batches[0]
        time.sleep(0.5)  # the watch restarted with the new folder in it
        (overrides / "base.html").write_text("x")
        end = time.monotonic() + 10
        while not any(p.endswith("base.html") for b in seen.batches for p in b) and time.monotonic() < end:
            time.sleep(0.02)
        assert any(p.endswith("base.html") for b in seen.batches for p in b), seen.batches
        count = len(seen.batches)
        (overrides / "base.html").unlink()
        overrides.rmdir()
        seen.wait(count + 1)
    finally:
        watcher.close()


def test_close_stops_the_thread(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    watcher, _seen = watching(tmp_path, [content, tmp_path / "missing"])
    watcher.close()
    watcher.thread.join(timeout=5)
    assert not watcher.thread.is_alive()


def test_changes_during_a_rebuild_queue_exactly_one_more(monkeypatch):
    started: list[float] = []
    gate = threading.Event()

    def slow_build(options, quiet, *, serving=True, built=None, reuse=None):
        started.append(time.monotonic())
        gate.wait(5)
        return True

    monkeypatch.setattr(serve, "run_build", slow_build)
    rebuilder = Rebuilder(options=None, quiet=True)
    rebuilder.changed(["a"])
    time.sleep(0.1)
    for name in "bcd":  # while the first build runs
        rebuilder.changed([name])
    gate.set()
    end = time.monotonic() + 5
    while (rebuilder.running or len(started) < 2) and time.monotonic() < end:
        time.sleep(0.02)
    time.sleep(0.2)
    assert len(started) == 2 and not rebuilder.running
    rebuilder.changed(["e"])
    time.sleep(0.3)
    assert len(started) == 3


def test_a_file_replaced_while_it_is_sent_is_sent_as_it_was_read(tmp_path):
    from unittest import mock

    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
    from tornado.web import Application

    handler_class = serve._site_file_handler()
    request = HTTPServerRequest(start_line=RequestStartLine("GET", "/a.html", "HTTP/1.1"),
                                headers=HTTPHeaders(Host="127.0.0.1"), connection=mock.Mock())
    handler = handler_class(Application(), request, path=str(tmp_path))
    page = tmp_path / "a.html"
    page.write_bytes(b"the page before the rebuild")
    handler.absolute_path = str(page)
    size = handler.get_content_size()  # what tornado announces as Content-Length
    page.write_bytes(b"after")  # a rebuild swaps the site in
    assert size == len(b"the page before the rebuild")
    assert handler.get_content(handler.absolute_path) == b"the page before the rebuild"
    assert handler.get_content(handler.absolute_path, 4, 8) == b"page"  # a range request


def test_when_file_events_fail_the_watcher_polls(tmp_path, monkeypatch, capsys):
    """A system out of file watches (inotify's limits) must not leave the preview deaf."""
    import watchfiles

    real = watchfiles.watch

    def limited(*paths, force_polling=None, **kwargs):
        if not force_polling:
            raise OSError(28, "OS file watch limit reached")
        return real(*paths, force_polling=force_polling, poll_delay_ms=50, **kwargs)

    monkeypatch.setattr(watchfiles, "watch", limited)
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    watcher, seen = watching(tmp_path, [content])
    try:
        time.sleep(0.3)
        (content / "papers" / "p.md").write_text("x")
        seen.wait(1)
        assert any(path.endswith("p.md") for path in seen.batches[0])
    finally:
        watcher.close()
    assert "polling them instead" in capsys.readouterr().err
