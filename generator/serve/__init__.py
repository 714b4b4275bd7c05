"""``build --serve``: preview on 127.0.0.1 with live reload.

An edit of existing papers' files takes the fast path first (``fast``): their pages are
rendered again from the last good build's data and written into the served site, and the
browsers reload; the full rebuild follows as for any change, and makes the site what a
cold build makes. A change of templates alone renders the last build's data again (no
loading or deriving); of static files alone, copies them (``build``).

Sources (content, the theme's templates and static files, and the catalog's own
``templates/`` and ``static/`` overrides, even before they exist) are watched through the
operating system's file events (``watchfiles``; it polls by itself where events are not
available), so an idle preview costs nothing and a save is noticed within ``STEP_MS``: a
burst of saves arrives as one batch, rebuilt once, off the server's event loop so the last
good site keeps being served meanwhile. A failed rebuild prints the error and changes
nothing. Browsers reload when told to (``ReloadSignal``; livereload watches nothing
itself): once per change, as ``fast`` describes.
"""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import click

from ..build import build, content_inputs
from ..errors import ContentError, OutputError
from ..options import BuildOptions, BuildReport, theme_of
from ..write.freshness import VERSION_CONTROL
from ..write.manifest import MARKER
from .fast import FastPath

STEP_MS = 50  # a batch of file events ends after this long without another one
ROOTS_SECONDS = 0.5  # how often to look whether a watched folder appeared or vanished


class Rebuilder:
    """Rebuilds on request: at most one at a time, one more queued if changes arrive meanwhile.

    With ``fast``, each batch of changes is offered to the fast path first, and each rebuild
    tells it what it built (or that it failed)."""

    def __init__(self, options: BuildOptions, quiet: bool, fast: FastPath | None = None):
        self.options = options
        self.quiet = quiet
        self.fast = fast
        self.pending = False
        self.running = False
        self.lock = threading.Lock()
        self.executor = ThreadPoolExecutor(max_workers=1)

    def changed(self, paths: list[str]) -> None:
        if not self.quiet and paths:
            click.echo(f"Changed: {os.path.relpath(paths[0])}"
                       + (f" and {len(paths) - 1} more" if len(paths) > 1 else ""))
        if self.fast is not None:
            self.fast.changed(paths)
        with self.lock:
            if self.running:
                self.pending = True
                return
            self.running = True
        self.executor.submit(self._rebuild)

    def _rebuild(self) -> None:
        while True:
            try:
                self._build_once()
            finally:
                with self.lock:
                    again, self.pending = self.pending, False
                    self.running = again
            if not again:
                return

    def _build_once(self) -> None:
        seq = self.fast.build_started() if self.fast is not None else 0
        content = content_inputs(self.options) if self.fast is not None else ""
        built: list[tuple[BuildReport, object]] = []
        snapshot = self.fast.snapshot if self.fast is not None else None
        ok = run_build(self.options, self.quiet, built=lambda report, derived: built.append((report, derived)),
                       reuse=snapshot.derived if snapshot is not None else None)
        if self.fast is None:
            return
        if ok:
            report, derived = built[0] if built else (None, None)
            self.fast.build_done(seq, report, derived)  # type: ignore[arg-type]
        else:
            self.fast.build_failed(content, seq)


class Watcher:
    """Calls ``on_change`` with the changed paths below ``roots`` (skipping version-control
    folders and hidden files, as the build's fingerprint does) after each burst of saves.

    Missing roots are watched for their arrival by a cheap existence check every
    ``ROOTS_SECONDS``, and the event watch restarts whenever the set of existing roots
    changes (the arrival is a change too)."""

    def __init__(self, roots: list[Path], on_change: Callable[[list[str]], None]):
        self.roots = [Path(os.path.abspath(r)) for r in roots]
        self.on_change = on_change
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="papershelf-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.stop.set()

    def _existing(self) -> tuple[Path, ...]:
        return tuple(r for r in self.roots if r.is_dir() or r.is_file())

    def _wanted(self, path: str) -> bool:
        for root in self.roots:
            try:
                rel = Path(path).relative_to(root)
            except ValueError:
                continue
            return not any(part in VERSION_CONTROL or part.startswith(".") for part in rel.parts)
        return False

    def _run(self) -> None:
        import watchfiles

        existing = self._existing()
        appeared: list[str] = []  # roots that came or went, told once the watch covers them
        polling = None  # None: file events where the system has them (watchfiles decides)
        while not self.stop.is_set():
            if existing:
                # The watch also wakes every ROOTS_SECONDS without changes, to look at the roots.
                # Its first wake comes once it watches: a file written into a new folder before
                # then is in the rebuild that the folder's arrival starts only now.
                try:
                    for changes in watchfiles.watch(*existing, watch_filter=lambda _c, p: self._wanted(p),
                                                    step=STEP_MS, stop_event=self.stop, force_polling=polling,
                                                    rust_timeout=int(ROOTS_SECONDS * 1000), yield_on_timeout=True,
                                                    raise_interrupt=False, ignore_permission_denied=True):
                        paths = appeared + sorted({path for _change, path in changes})
                        appeared = []
                        if paths:
                            self.on_change(paths)
                        if self._existing() != existing:
                            break
                except (OSError, RuntimeError) as exc:  # e.g. the system's limit of file watches
                    if polling:
                        raise
                    click.echo(f"Warning: watching the sources for changes failed ({exc}); polling them instead",
                               err=True)
                    polling = True
                    continue
            else:
                self.stop.wait(ROOTS_SECONDS)
            now = self._existing()
            appeared += [str(r) for r in sorted(set(now) ^ set(existing))]
            existing = now
            if appeared and not existing and not self.stop.is_set():
                self.on_change(appeared)  # nothing left to watch: no wake to wait for
                appeared = []


def run_build(options: BuildOptions, quiet: bool, *, serving: bool = True,
              built: Callable[[BuildReport, object], None] | None = None, reuse: object = None) -> bool:
    """Build once; on failure print the error (``serving``: a previous site is still served).
    ``built`` receives the report and the pipeline's ``Derived`` data (None when the output
    was up to date or only static files changed) of a successful build; ``reuse``: the last
    build's ``Derived``, rendered again when only templates changed since."""
    still = "; still serving the last good site" if serving else ""
    derived: list[object] = []
    try:
        report = build(options, keep=derived.append, reuse=reuse)  # type: ignore[arg-type]
    except (ContentError, OutputError) as exc:
        click.echo(click.style(f"Build failed{still}.\n", fg="red") + str(exc), err=True)
        return False
    except Exception as exc:  # a template bug while editing templates must not stop the server
        click.echo(click.style(f"Build failed (unexpected error){still}: ", fg="red")
                   + f"{type(exc).__name__}: {exc}", err=True)
        return False
    if not quiet:
        click.echo(report.summary())
        for note in report.notes:
            click.echo(click.style("Note: ", bold=True) + note)
    for warning in report.warnings:  # the page being edited may show its text wrongly
        click.echo(click.style("Warning: ", fg="yellow", bold=True) + warning, err=True)
    if built is not None:
        built(report, derived[0] if derived else None)
    return True


def _site_file_handler() -> type:
    """livereload's file handler, answering unknown paths with the site's own 404.html (as
    Netlify and GitHub Pages do) instead of the server's bare error page, and sending each
    file as one read of it."""
    from livereload.handlers import StaticFileHandler

    class SiteFileHandler(StaticFileHandler):
        def get_content_size(self) -> int:
            # One read gives both the length and the body: tornado stats the file for its
            # Content-Length and opens it again for the body, and a rebuild swapping the site
            # in between sent a body shorter or longer than announced.
            body = Path(self.absolute_path).read_bytes()
            self.get_content = lambda _path, start=None, end=None: body[start:end]
            return len(body)

        def write_error(self, status_code: int, **kwargs) -> None:
            page = Path(self.root) / "404.html"
            if status_code == 404 and page.is_file():
                self.set_header("Content-Type", "text/html; charset=UTF-8")
                self.finish(page.read_bytes())
            else:
                super().write_error(status_code, **kwargs)

    return SiteFileHandler


def _reload_signal():
    """A livereload watcher that watches nothing: ``reload()``, from any thread, reloads
    every connected browser at once (livereload's own watcher polls every 0.8 s)."""
    from livereload.handlers import LiveReloadHandler
    from livereload.watcher import Watcher as LiveWatcher

    class ReloadSignal(LiveWatcher):
        loop = None

        def start(self, callback) -> bool:  # livereload calls it as the server starts
            from tornado.ioloop import IOLoop

            self.loop = IOLoop.current()
            return True  # no polling

        def reload(self) -> None:
            if self.loop is not None:
                self.loop.add_callback(LiveReloadHandler.reload_waiters, "*")

    return ReloadSignal()


def _prime(fast: FastPath, seq: int) -> None:
    try:
        fast.prime(seq)
    except Exception:  # noqa: BLE001 - no fast path until a rebuild succeeds; the rebuild reports
        pass


def serve(options: BuildOptions, *, port: int, quiet: bool = False) -> None:
    from livereload import Server

    output = Path(options.output).resolve()
    had_site = (output / MARKER).is_file()
    signal = _reload_signal()
    fast = FastPath(options, signal.reload, quiet)
    seq = fast.build_started()
    ok = run_build(options, quiet, serving=had_site, built=lambda report, derived: fast.build_done(seq, report, derived))
    if not ok and not had_site:
        sys.exit(1)  # nothing to serve: the error is printed above

    # Missing folders too: creating the catalog's own templates/ or static/ is a change,
    # which the next build picks up as an override.
    roots = [Path(options.content), *theme_of(options).inputs]
    rebuilder = Rebuilder(options, quiet, fast)
    if ok and fast.snapshot is None:  # the site was up to date: derive for the fast path meanwhile
        rebuilder.executor.submit(_prime, fast, seq)
    watcher = Watcher(roots, rebuilder.changed)

    server = Server(watcher=signal)
    server.SFH = _site_file_handler()
    watcher.start()
    click.echo(f"Serving {output} on http://127.0.0.1:{port}/ (Ctrl-C to stop)")
    try:
        server.serve(host="127.0.0.1", port=port, root=str(output), restart_delay=0)
    except OSError as exc:
        click.echo(f"Error: cannot serve on port {port}: {exc.strerror}", err=True)
        sys.exit(1)
    finally:
        watcher.close()
        rebuilder.executor.shutdown(wait=False, cancel_futures=True)
