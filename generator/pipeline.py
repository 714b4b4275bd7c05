"""The build pipeline proper, run by ``build.build`` when its inputs changed.

load and validate → derive → citations (computed before any worker forks, so all share
them) → tasks: search index, exports, pages in chunks → one ``SiteWriter`` staging folder
→ ``atomic_output`` moves what changed into the output. ``refresh_static``: when only
static files changed, just those are copied.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

import jinja2
from jinja2 import TemplateError

from .cache import BuildCache, cache_used, generator_version
from .outputs.assets import served
from .outputs.citations import CitationIndex
from .content.model import Catalog
from .derive.urls import PAPERS
from .derive.people import merge_note
from .derive.views import SiteData, derive
from .outputs.catalog import catalog_exports, catalog_files
from .outputs.exports import iter_exports
from .outputs.exports import notes as export_notes
from .content.loader import load_catalog
from .outputs.page_keys import PageKeys
from .outputs.pages import Page, plan_pages
from .parallel import Task, default_jobs, frozen_heap, jobs_chosen, run_tasks
from .outputs.render import make_environment, render_page, site_globals
from .outputs.search import build_search, stored_files
from .outputs.list_data import build_list_data
from .errors import OutputError
from .options import LUNR_JS_OUTPUT, BuildOptions, BuildReport, Sources
from .write.freshness import Inputs
from .write.staging import SiteWriter
from .write.writer import Unkept, atomic_folder, atomic_output

STATIC = "static"  # the site's folder of static files: nothing else is written below it
PAGES_PER_TASK = 400  # pages a worker renders per task: small enough to balance two cores
SHOWN_CONTENT_WARNINGS = 20  # a build lists this many of the loader's warnings; `papershelf check` all


def content_warnings(catalog: Catalog) -> list[str]:
    """The loader's warnings as a build shows them: the first ``SHOWN_CONTENT_WARNINGS``, then a count."""
    shown = list(catalog.warnings[:SHOWN_CONTENT_WARNINGS])
    more = len(catalog.warnings) - len(shown)
    if more:
        shown.append(f"… and {more:,} more warnings about the content: `papershelf check` lists them all")
    return shown


def catch_all_note(catalog: Catalog) -> str | None:
    """How many papers have the catch-all tag as their only tag, when any do: a taxonomy that
    leaves many there does not fit the catalog (issue 28)."""
    fallback = next((tag for tag in catalog.tags.values() if tag.fallback), None)
    alone = sum(1 for paper in catalog.papers if paper.tags == (fallback.id,)) if fallback else 0
    if not alone:
        return None
    return (f"{alone:,} of {len(catalog.papers):,} papers ({alone / len(catalog.papers):.0%}) have only the catch-all "
            f"tag {fallback.name!r} ({fallback.id}); phrases in tags.toml, or a tag of their own, would place them")


@dataclass(frozen=True)
class Derived:
    """What a build computed before rendering: kept by ``build --serve`` (``serve.fast``) to
    render an edited paper's page again without deriving the whole catalog."""

    catalog: Catalog
    site: SiteData
    citations: CitationIndex
    globals: dict[str, Any]  # ``site_globals`` of the build
    inputs: str = ""  # the fingerprint of the content it was derived from (``Inputs.content``)
    env: jinja2.Environment | None = None  # the templates the build rendered with (None before rendering)


def prepare(options: BuildOptions, report: BuildReport, lap: Callable[[str], None], inputs: str = "") -> Derived:
    """load and validate → derive → citations: everything the outputs are made from;
    ``inputs``: the content's fingerprint, kept with it."""
    cache = BuildCache(options.cache) if options.cache is not None else None
    try:
        with jobs_chosen(options.jobs), cache_used(cache):
            catalog = load_catalog(options.content, base_url=options.base_url)
            lap("load")
            site = derive(catalog)
    finally:
        if cache is not None:  # what was computed is right whether or not the content was
            cache.save()
    with jobs_chosen(options.jobs):
        report.warnings.extend(content_warnings(catalog))
        report.warnings.extend(site.warnings)  # texts shown as plain text: a bug to report, not hide
        lap("derive")
        citations = CitationIndex(site)
        for view in site.papers:  # before the workers fork, so they share one computed index
            citations.for_paper(view)
        report.notes.extend(export_notes(citations))
        report.notes.extend(filter(None, [catch_all_note(catalog)]))
        report.notes.extend(filter(None, [merge_note(site.merges)]))
        lap("citations")
    return Derived(catalog, site, citations, site_globals(site, citations), inputs)


def generate(options: BuildOptions, sources: Sources, inputs: Inputs, report: BuildReport,
             lap: Callable[[str], None], keep: Callable[[Derived], None] | None = None,
             reuse: Derived | None = None, output_content: str = "") -> None:
    """Build the site of ``options.content`` into ``options.output``; fills in ``report``.
    ``inputs``: the fingerprints of the inputs, kept in the output's manifest; ``keep``, if
    given, receives the build's ``Derived`` data once the new site is in place; ``reuse``:
    data derived from this very content (its ``inputs`` are ``inputs.content``) by an earlier
    build, rendered again instead of deriving it anew. When the output, too, was built from
    this content (``output_content``, its manifest's), its search files and exports, which
    no template shapes, are kept as they are."""
    if reuse is not None and reuse.inputs == inputs.content:
        derived = reuse
        report.warnings.extend(content_warnings(derived.catalog))
        report.warnings.extend(derived.site.warnings)  # said again, as a build that derived would
        report.notes.extend(export_notes(derived.citations))
        report.notes.extend(filter(None, [catch_all_note(derived.catalog)]))
        report.notes.extend(filter(None, [merge_note(derived.site.merges)]))
        lap("reuse")
    else:
        derived = prepare(options, report, lap, inputs.content)
    catalog, site, citations, globals_ = derived.catalog, derived.site, derived.citations, derived.globals

    env = make_environment(sources.templates)
    pages = list(plan_pages(site))
    total = len(pages)
    keys = PageKeys(env, globals_, citations, globals_["paper_items"].ranks,
                    f"{generator_version()} jinja2 {jinja2.__version__}")
    # without the cache, every page is rendered afresh too
    render_pages = PageRenderer(env, keys, globals_, keep_pages=options.cache is not None).task
    done = 0

    def progress(units: int) -> None:
        nonlocal done
        done += units
        if options.progress is not None:
            options.progress(done, total)

    # The first page of all papers lists the catalog's files with their sizes: it is rendered
    # once they are written, by the task that writes them.
    listing = [page for page in pages if page.url == PAPERS]
    rest = [page for page in pages if page.url != PAPERS]

    def exports(out: SiteWriter) -> int:
        for path, data in iter_exports(site, citations):
            write_data(out, path, data)
        sizes = {}
        for path, data in catalog_exports(site, citations):
            out.write_bytes(path, data)
            sizes[path] = len(data)
        globals_["catalog_files"] = catalog_files(site, sizes)
        return render_pages(listing)(out)

    jobs = options.jobs if options.jobs is not None else default_jobs(total)
    with frozen_heap(), atomic_output(options.output, fingerprint=inputs.token) as out:
        tasks: list[Task] = [_write_files(lambda: stored_files(build_search(site))), exports]
        tasks.append(_write_files(lambda: build_list_data(site)))  # lists sorted in the browser: outputs.list_data
        if derived is reuse and output_content == inputs.content:
            page_paths = {page.output_path for page in pages}
            if out.keep_previous(lambda path: path not in page_paths and not path.startswith(STATIC + "/")):
                # the search files and exports of the same content, as they are
                globals_["catalog_files"] = catalog_files(site, {path: r.size for path, r in out.previous.items()})
                tasks = [render_pages(listing)]
        tasks += [render_pages(rest[i:i + PAGES_PER_TASK]) for i in range(0, len(rest), PAGES_PER_TASK)]
        run_tasks(tasks, out, jobs, progress)
        copy_static(out, sources)
        lap("search, exports, render and write")
    lap("swap in")
    report.pages = total
    report.pages_kept = out.pages_kept
    report.bytes_written = out.bytes_written
    report.files_changed = out.files_changed
    report.papers = len(catalog.papers)
    if keep is not None:
        keep(replace(derived, env=env))


class PageRenderer:
    """Renders pages into the site being written, keeping each page that the current output
    holds as rendered from the same inputs (its render key: ``outputs.page_keys``)."""

    def __init__(self, env, keys: PageKeys, globals_: dict[str, Any], keep_pages: bool):
        self.env, self.keys, self.globals, self.keep_pages = env, keys, globals_, keep_pages

    def task(self, chunk: list[Page]) -> Task:
        """A task rendering the pages of ``chunk``; it returns how many it did."""
        def task(out: SiteWriter) -> int:
            for page in chunk:
                key = self.keys.key(page)
                if self.keep_pages and key is not None and out.keep_page(page.output_path, key):
                    continue
                try:
                    html = render_page(self.env, page, self.globals)
                except TemplateError as exc:
                    raise OutputError(f"template error while rendering /{page.url}: {exc}") from exc
                out.write_text(page.output_path, html, key or "")
            return len(chunk)
        return task


def _write_files(make: Callable[[], Iterable[tuple[str, str | bytes]]]) -> Task:
    def task(out: SiteWriter) -> int:
        for path, data in make():
            write_data(out, path, data)
        return 0
    return task


def copy_static(out: SiteWriter, sources: Sources) -> None:
    """The site's ``static/``: the static files as served (``assets.served``) and lunr.js."""
    out.copy_tree(sources.static, STATIC, served)
    out.copy_file(sources.lunr_js, f"{STATIC}/{LUNR_JS_OUTPUT}")


def refresh_static(options: BuildOptions, sources: Sources, inputs: str, report: BuildReport,
                   lap: Callable[[str], None]) -> bool:
    """Only static files changed since the output was built: copy them again and keep every
    other file of the output as it is. The output's ``static/`` is exchanged whole for the
    new one (``atomic_folder``); where that is not possible, every other file is hard-linked
    into a new site, swapped in whole as any build's. ``inputs``: the fingerprint for the
    manifest. False, with nothing changed, when some other file of the output is not as its
    manifest lists (then a full build)."""

    def copy(out: SiteWriter) -> None:
        copy_static(out, sources)
        lap("static files")

    try:
        with atomic_folder(options.output, STATIC, inputs) as out:
            copy(out)
    except Unkept:
        try:
            with atomic_output(options.output, fingerprint=inputs) as out:
                if not out.keep_previous(lambda path: not path.startswith(STATIC + "/")):
                    raise Unkept("the output is not what its manifest lists")
                copy(out)
        except Unkept:
            return False
    lap("swap in")
    report.static_only = True
    report.bytes_written = out.bytes_written
    report.files_changed = out.files_changed
    return True


def write_data(out: SiteWriter, path: str, data: str | bytes) -> None:
    """A file of the site: text (UTF-8), or bytes (the gzip files of the search and exports)."""
    if isinstance(data, bytes):
        out.write_bytes(path, data)
    else:
        out.write_text(path, data)
