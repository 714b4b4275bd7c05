"""The ``papershelf`` command line: new, build, clean, check, import.

Content problems and output problems are printed as messages with exit status 1;
a traceback means a bug in Papershelf, never a problem with the content.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from . import __version__
from .errors import ContentError, OutputError

CONTENT_OPTION = click.option(
    "--content", type=click.Path(file_okay=False, path_type=Path), default=Path("content"),
    show_default=True, help="The catalog folder.",
)


CACHE_DIR_OPTION = click.option(
    "--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="The build cache's folder (default: .papershelf-cache beside the content folder).",
)


def _fail(message: str) -> None:
    click.echo(click.style("Error: ", fg="red", bold=True) + message, err=True)
    sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="papershelf")
def main() -> None:
    """Papershelf: build a static site from a catalog of research papers."""


@main.command("new")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Write into a folder that is not empty (files of the same names are replaced).")
def new_command(folder: Path, force: bool) -> None:
    """Start a catalog in FOLDER: content/ with an example paper, and deploy files.

    Then `cd FOLDER` and `papershelf build --serve`.
    """
    from .scaffold import new_catalog

    try:
        written = new_catalog(folder, force=force)
    except OutputError as exc:
        _fail(str(exc))
    click.echo(f"Wrote a new catalog in {folder} ({len(written)} files). Next:")
    click.echo(f"  cd {click.format_filename(folder)}")
    click.echo("  papershelf build --serve")


@main.command()
@CONTENT_OPTION
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), default=Path("site"),
              show_default=True, help="Where to write the site (changed only when the build succeeds).")
@click.option("--base-url", default=None,
              help="Where the site will live, e.g. /catalog/ or https://example.org/catalog/ "
                   "(default: base_url in site.toml).")
@click.option("--serve", is_flag=True, help="Serve the site on 127.0.0.1 and rebuild on changes.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port for --serve.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
              help="Worker processes for rendering (default: one per core on large sites).")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
@CACHE_DIR_OPTION
@click.option("--no-cache", is_flag=True, help="Parse and render every paper afresh, without reading or "
              "writing the build cache.")
def build(content: Path, output: Path, base_url: str | None, serve: bool, port: int, jobs: int | None,
          quiet: bool, cache_dir: Path | None, no_cache: bool) -> None:
    """Build the site from CONTENT into OUTPUT.

    Only files whose contents changed are written; when no input changed since the last
    build, nothing is done. Parsed and rendered papers are kept in the build cache (by
    default .papershelf-cache/ beside CONTENT), so the next build redoes only what changed.
    """
    from .build import build as run_build
    from .cache import default_folder
    from .options import BuildOptions

    bar = ProgressBar() if not quiet and sys.stderr.isatty() else None
    cache = None if no_cache else (cache_dir or default_folder(content))
    options = BuildOptions(content=content, output=output, base_url=base_url, jobs=jobs,
                           progress=bar.update if bar else None, cache=cache)
    if serve:
        # The preview server serves the output folder at its root, so links must start at "/".
        # Rebuilds run beside the server's thread, where forking workers is not safe (a lock
        # held by the other thread stays held in the child): one process unless --jobs says.
        options = replace(options, base_url="/", jobs=jobs or 1, progress=None)
        from .serve import serve as run_server

        run_server(options, port=port, quiet=quiet)
        return
    try:
        report = run_build(options)
    except (ContentError, OutputError) as exc:
        if bar:
            bar.close()
        _fail(str(exc))
    if bar:
        bar.close()
    if not quiet:
        click.echo(report.summary())
        for note in report.notes:
            click.echo(click.style("Note: ", bold=True) + note)
    for warning in report.warnings:  # even with --quiet: the site shows something wrongly
        click.echo(click.style("Warning: ", fg="yellow", bold=True) + warning, err=True)


class ProgressBar:
    """A progress bar on the terminal for builds of many pages (none for small sites or pipes)."""

    MIN_PAGES = 1000

    def __init__(self) -> None:
        self.bar = None
        self.shown = 0

    def update(self, done: int, total: int) -> None:
        if total < self.MIN_PAGES:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label="Rendering pages", file=sys.stderr,
                                         show_pos=True, show_eta=True)
            self.bar.__enter__()
        self.bar.update(done - self.shown)
        self.shown = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@main.command()
@CONTENT_OPTION
@CACHE_DIR_OPTION
def clean(content: Path, cache_dir: Path | None) -> None:
    """Remove the build cache (the next build parses and renders every paper afresh)."""
    import shutil

    from .cache import FOLDER, cache_file, default_folder

    folder = cache_dir or default_folder(content)
    if not folder.is_dir():
        click.echo(f"No build cache at {folder}.")
        return
    if folder.name != FOLDER and not cache_file(folder).is_file():
        _fail(f"{folder} does not look like a build cache (no {cache_file(folder).name}); not removing it")
    shutil.rmtree(folder)
    click.echo(f"Removed the build cache {folder}.")


@main.command()
@CONTENT_OPTION
@click.option("--base-url", default=None, help="Check this base URL too.")
def check(content: Path, base_url: str | None) -> None:
    """Validate the catalog without writing anything."""
    from .content.loader import load_catalog

    try:
        catalog = load_catalog(content, base_url=base_url)
    except ContentError as exc:
        _fail(str(exc))
    click.echo(f"OK: {len(catalog.papers)} papers, {len(catalog.venues)} venues, {len(catalog.tags)} tags"
               + (f"; {len(catalog.warnings):,} warnings." if catalog.warnings else "."))
    for warning in catalog.warnings:  # every one: the build shows only the first few
        click.echo(click.style("Warning: ", fg="yellow", bold=True) + warning, err=True)
    from .derive.people import people_report

    merges, homonyms = people_report(catalog.papers, catalog.people, catalog.venues)  # issue 36: who is one person
    for merge in merges:
        click.echo("Merged: " + merge)
    for homonym in homonyms:
        click.echo("Two people? " + homonym)


@main.group("import")
def import_() -> None:
    """Add papers to the catalog from other formats."""


@import_.command("seeds")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--metadata", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of <seed>.json records with titles, authors and links.")
@CONTENT_OPTION
@click.option("--force", is_flag=True, help="Overwrite paper files that were edited since the last import.")
def import_seeds_command(files: tuple[Path, ...], metadata: Path | None, content: Path, force: bool) -> None:
    """Import abstracts from seed text files (a venue header, one abstract per paragraph)."""
    from .importers.seeds import import_seeds

    try:
        report = import_seeds(list(files), content, metadata, force=force)
    except ContentError as exc:
        _fail(str(exc))
    click.echo(report.summary())


def _record_import(name: str, module: str, function: str, venue_from: str, summary: str) -> None:
    """``papershelf import NAME FILE... [--venue ID] [--content DIR] [--force]`` for a record
    format (``generator.importers.records``): the same options and output for every one."""

    @import_.command(name, help=f"{summary}\n\nWithout --venue, each paper's venue comes from {venue_from}.")
    @click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
    @click.option("--venue", default=None, metavar="ID",
                  help="Put every paper in this venue (an id from content/venues/).")
    @CONTENT_OPTION
    @click.option("--force", is_flag=True, help="Overwrite paper files that were edited since the last import.")
    def command(files: tuple[Path, ...], venue: str | None, content: Path, force: bool) -> None:
        from importlib import import_module

        run = getattr(import_module(f".importers.{module}", __package__), function)
        try:
            report = run(list(files), content, venue=venue, force=force)
        except ContentError as exc:
            _fail(str(exc))
        click.echo(report.summary())


_record_import("bibtex", "bibtex", "import_bibtex", "its booktitle or journal and year",
               "Import papers from BibTeX files: one paper file per entry.")
_record_import("csl", "csl", "import_csl", "its container-title (or event-title) and issued year",
               "Import papers from CSL-JSON files (Zotero's 'CSL JSON' export, Crossref, doi.org).")
_record_import("openreview", "openreview", "import_openreview", "the note's venue and venueid",
               "Import the accepted papers of OpenReview API responses (JSON notes, API v1 or v2); "
               "rejected and withdrawn submissions are skipped.")
_record_import("arxiv", "arxiv", "import_arxiv", "its journal reference, else arXiv and the year",
               "Import papers from arXiv API responses (Atom XML from export.arxiv.org/api/query).")


@main.command("add")
@click.argument("ids", nargs=-1, required=True)
@click.option("--venue", default=None, metavar="ID", help="Put every paper in this venue (an id from content/venues/).")
@CONTENT_OPTION
@click.option("--force", is_flag=True, help="Overwrite paper files that were edited since the last import.")
@click.option("--session", "session_date", default=None, metavar="DATE",
              help="Put the papers on the session of DATE (YYYY-MM-DD; its file is created if needed).")
def add_command(ids: tuple[str, ...], venue: str | None, content: Path, force: bool, session_date: str | None) -> None:
    """Fetch papers by arXiv id, DOI or OpenReview forum id/URL and add them to the catalog.

    Needs the network (arXiv's API, doi.org, OpenReview's API); nothing is written if any fails.
    """
    from .importers.fetch import add_papers
    from .importers.sessions import attach_papers, session_day
    from .errors import Problems

    if session_date is not None:  # a wrong date stops the run before any request
        problems = Problems()
        session_day(session_date, problems, "papershelf add --session")
        try:
            problems.raise_if_any()
        except ContentError as exc:
            _fail(str(exc))
    try:
        report = add_papers(list(ids), content, venue=venue, force=force)
        click.echo(report.summary())
        if session_date is not None and report.papers:
            path, created = attach_papers(content, session_date, [p.slug for p in report.papers])
            click.echo(f"{'Wrote' if created else 'Added the papers to'} the session {path}.")
    except ContentError as exc:
        _fail(str(exc))


@main.group("session")
def session_group() -> None:
    """The reading group's sessions (content/sessions/)."""


@session_group.command("add")
@click.argument("date")
@click.option("--paper", "papers", multiple=True, metavar="ID", help="A paper discussed (repeat for more).")
@click.option("--presenter", "presenters", multiple=True, metavar="NAME", help="Who presents (repeat for more).")
@click.option("--time", "start", default=None, metavar="HH:MM", help="When it starts, in site.toml's timezone.")
@click.option("--title", default="", help="What the session is called (default: its papers' titles).")
@CONTENT_OPTION
def session_add_command(date: str, papers: tuple[str, ...], presenters: tuple[str, ...], start: str | None,
                        title: str, content: Path) -> None:
    """Write content/sessions/DATE.md (DATE: YYYY-MM-DD); refuses one that exists."""
    from .importers.sessions import add_session

    try:
        path = add_session(content, date, list(papers), list(presenters), start, title)
    except ContentError as exc:
        _fail(str(exc))
    click.echo(f"Wrote {path}: add the notes below its front matter.")


if __name__ == "__main__":  # pragma: no cover
    main()
