"""The preview server's watcher: file events below the sources, bursts as one batch,
hidden and version-control files ignored, folders that appear or vanish noticed; and its
file handler, which sends a file as one read although a rebuild may replace it."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

from generator import serve
from generator.serve import Rebuilder, Watcher


PROBE = "watch-probe-"  # files the tests write to see the watcher at work; left out of the batches


class Batches:
    """What the watcher reported, batch by batch, without the probes (``until_watched``,
    ``all_told``), whose arrival is kept apart."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.probes: set[str] = set()
        self.probed: set[str] = set()  # the folders probes are written in
        self.changed = threading.Condition()

    def __call__(self, paths: list[str]) -> None:
        with self.changed:
            probes = {p for p in paths if Path(p).name.startswith(PROBE)}
            # (polling, the folder a probe is written in changes too)
            rest = [p for p in paths if p not in probes and not (p in self.probed and Path(p).is_dir())]
            self.probes.update(probes)
            if rest:
                self.batches.append(rest)
            self.changed.notify_all()

    def wait(self, done, timeout: float = 10.0) -> None:
        """Until ``done(batches)`` holds (at most ``timeout`` s)."""
        with self.changed:
            assert self.changed.wait_for(lambda: done(self.batches), timeout), self.batches

    def named(self, name: str) -> bool:
        return any(Path(p).name == name for batch in self.batches for p in batch)


def probe(folder: Path, seen: Batches, timeout: float = 10.0) -> None:
    """Write probe files into ``folder`` until the watcher reports one: from then on it sees
    every change below ``folder``, and has reported every change made before the probe
    (file events arrive in the order of the changes)."""
    deadline = time.monotonic() + timeout
    seen.probed.add(str(folder))
    n = 0
    while True:
        path = folder / f"{PROBE}{time.monotonic_ns()}-{n}"
        path.write_text("x")
        with seen.changed:
            if seen.changed.wait_for(lambda: str(path) in seen.probes, 0.1):
                return
        assert time.monotonic() < deadline, f"the watcher reported no change in {folder}"
        n += 1


until_watched = all_told = probe  # the same step, for the two things it shows


def watching(roots: list[Path]) -> tuple[Watcher, Batches]:
    """A watcher of ``roots``, started, its watch of the first root set up."""
    seen = Batches()
    watcher = Watcher(roots, seen)
    watcher.start()
    until_watched(roots[0], seen)
    return watcher, seen


def test_a_burst_of_saves_is_one_batch_naming_the_files(tmp_path):
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    watcher, seen = watching([content])
    try:
        for i in range(3):
            (content / "papers" / f"p{i}.md").write_text("x")
        seen.wait(lambda batches: all(seen.named(f"p{i}.md") for i in range(3)))
        all_told(content, seen)  # nothing more arrives later
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
    watcher, seen = watching([content])
    try:
        (content / ".paper.md.swp").write_text("x")
        (content / ".git" / "index").write_text("x")
        (elsewhere / "index.html").write_text("x")
        all_told(content, seen)
        assert seen.batches == []
        (content / "site.toml").write_text("x")
        seen.wait(lambda batches: len(batches) >= 1)
        assert [Path(p).name for p in seen.batches[0]] == ["site.toml"]
    finally:
        watcher.close()


def test_a_source_folder_that_appears_or_vanishes_is_a_change_and_then_watched(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    overrides = tmp_path / "templates"
    watcher, seen = watching([content, overrides])
    try:
        overrides.mkdir()
        seen.wait(lambda batches: any(str(overrides) in b for b in batches))
        until_watched(overrides, seen)  # the watch restarted with the new folder in it
        (overrides / "base.html").write_text("x")
        seen.wait(lambda batches: seen.named("base.html"))
        count = len(seen.batches)
        shutil.rmtree(overrides)
        seen.wait(lambda batches: any(str(overrides) in b for b in batches[count:]))
    finally:
        watcher.close()


def test_close_stops_the_thread(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    watcher, _seen = watching([content, tmp_path / "missing"])  # (its watch is running)
    watcher.close()
    watcher.thread.join(timeout=5)
    assert not watcher.thread.is_alive()


def test_changes_during_a_rebuild_queue_exactly_one_more(monkeypatch):
    started: list[str] = []
    running = threading.Event()
    gate = threading.Event()

    def slow_build(*args, **kwargs):
        started.append("build")
        running.set()
        assert gate.wait(10)
        return True

    monkeypatch.setattr(serve, "run_build", slow_build)
    rebuilder = Rebuilder(options=None, quiet=True)

    def idle() -> None:
        """Once a no-op queued now has run, the rebuilder's one worker has finished what it had."""
        rebuilder.executor.submit(lambda: None).result(timeout=10)

    try:
        rebuilder.changed(["a"])
        assert running.wait(10)
        for name in "bcd":  # while the first build runs
            rebuilder.changed([name])
        gate.set()
        idle()
        assert len(started) == 2 and not rebuilder.running
        rebuilder.changed(["e"])
        idle()
        assert len(started) == 3 and not rebuilder.running
    finally:
        gate.set()
        rebuilder.executor.shutdown(wait=True)


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
    watcher, seen = watching([content])
    try:
        (content / "papers" / "p.md").write_text("x")
        seen.wait(lambda batches: len(batches) >= 1)
        assert any(path.endswith("p.md") for path in seen.batches[0]), seen.batches
    finally:
        watcher.close()
    assert "polling them instead" in capsys.readouterr().err
