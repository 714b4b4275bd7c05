"""``build --serve``: preview on 127.0.0.1 with live reload.

Sources (content, the theme's templates and static files, and the catalog's own
``templates/`` and ``static/`` overrides, even before they exist) are polled by our own
watcher, and a burst of saves is debounced into one rebuild, run off the server's event
loop so the last good site keeps being served meanwhile. A failed rebuild prints the error
and changes nothing. livereload only watches the marker file that every successful build
rewrites, so browsers reload exactly once per successful build.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from .build import build
from .errors import ContentError, OutputError
from .options import BuildOptions, theme_of
from .write.freshness import snapshot
from .write.manifest import MARKER

POLL_SECONDS = 0.3
QUIET_SECONDS = 0.4  # wait until changes stop for this long before rebuilding


class Rebuilder:
    """Debounced rebuilds: at most one at a time, one more queued if changes arrive meanwhile."""

    def __init__(self, options: BuildOptions, roots: list[Path], quiet: bool):
        self.options = options
        self.roots = roots
        self.quiet = quiet
        self.state = snapshot(roots)
        self.last_change = 0.0
        self.pending = False
        self.running = False
        self.lock = threading.Lock()
        self.executor = ThreadPoolExecutor(max_workers=1)

    def poll(self) -> None:
        new = snapshot(self.roots)
        if new != self.state:
            changed = sorted(set(new.items()) ^ set(self.state.items()))
            self.state = new
            self.last_change = time.monotonic()
            self.pending = True
            if not self.quiet and changed:
                click.echo(f"Changed: {os.path.relpath(changed[0][0])}"
                           + (f" and {len(changed) - 1} more" if len(changed) > 1 else ""))
        if self.pending and not self.running and time.monotonic() - self.last_change >= QUIET_SECONDS:
            self.pending = False
            self.running = True
            self.executor.submit(self._rebuild)

    def _rebuild(self) -> None:
        try:
            run_build(self.options, self.quiet)
        finally:
            self.running = False


def run_build(options: BuildOptions, quiet: bool, *, serving: bool = True) -> bool:
    """Build once; on failure print the error (``serving``: a previous site is still served)."""
    still = "; still serving the last good site" if serving else ""
    try:
        report = build(options)
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
    return True


def _site_file_handler() -> type:
    """livereload's file handler, answering unknown paths with the site's own 404.html (as
    Netlify and GitHub Pages do) instead of the server's bare error page."""
    from livereload.handlers import StaticFileHandler

    class SiteFileHandler(StaticFileHandler):
        def write_error(self, status_code: int, **kwargs) -> None:
            page = Path(self.root) / "404.html"
            if status_code == 404 and page.is_file():
                self.set_header("Content-Type", "text/html; charset=UTF-8")
                self.finish(page.read_bytes())
            else:
                super().write_error(status_code, **kwargs)

    return SiteFileHandler


def serve(options: BuildOptions, *, port: int, quiet: bool = False) -> None:
    from livereload import Server
    from tornado import ioloop

    output = Path(options.output).resolve()
    had_site = (output / MARKER).is_file()
    ok = run_build(options, quiet, serving=had_site)
    if not ok and not had_site:
        sys.exit(1)  # nothing to serve: the error is printed above

    # Missing folders too (a missing one snapshots as one entry): creating the catalog's own
    # templates/ or static/ is a change, which the next build picks up as an override.
    roots = [Path(options.content), *theme_of(options).inputs]
    rebuilder = Rebuilder(options, roots, quiet)

    server = Server()
    server.SFH = _site_file_handler()
    # Reload browsers when a build succeeds (it writes a new marker file); sources are ours to watch.
    server.watch(str(output / MARKER))
    ioloop.PeriodicCallback(rebuilder.poll, POLL_SECONDS * 1000).start()
    click.echo(f"Serving {output} on http://127.0.0.1:{port}/ (Ctrl-C to stop)")
    try:
        server.serve(host="127.0.0.1", port=port, root=str(output), restart_delay=0)
    except OSError as exc:
        click.echo(f"Error: cannot serve on port {port}: {exc.strerror}", err=True)
        sys.exit(1)
    finally:
        rebuilder.executor.shutdown(wait=False, cancel_futures=True)
