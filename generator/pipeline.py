"""The build pipeline proper, run by ``build.build`` when its inputs changed.

load and validate → derive → citations (computed before any worker forks, so all share
them) → tasks: search index, exports, pages in chunks → one ``SiteWriter`` staging folder
→ ``atomic_output`` moves what changed into the output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from jinja2 import TemplateError

from .outputs.citations import CitationIndex
from .content.model import Catalog
from .derive.views import SiteData, derive
from .outputs.exports import iter_exports
from .outputs.exports import notes as export_notes
from .content.loader import load_catalog
from .outputs.pages import Page, plan_pages
from .parallel import Task, default_jobs, frozen_heap, jobs_chosen, run_tasks
from .outputs.render import make_environment, render_page, site_globals
from .outputs.search import build_search
from .errors import OutputError
from .options import BuildOptions, BuildReport, Sources
from .write.staging import SiteWriter
from .write.writer import atomic_output

PAGES_PER_TASK = 400  # pages a worker renders per task: small enough to balance two cores


@dataclass(frozen=True)
class Derived:
    """What a build computed before rendering: kept by ``build --serve`` (``serve.fast``) to
    render an edited paper's page again without deriving the whole catalog."""

    catalog: Catalog
    site: SiteData
    citations: CitationIndex
    globals: dict[str, Any]  # ``site_globals`` of the build


def prepare(options: BuildOptions, report: BuildReport, lap: Callable[[str], None]) -> Derived:
    """load and validate → derive → citations: everything the outputs are made from."""
    with jobs_chosen(options.jobs):
        catalog = load_catalog(options.content, base_url=options.base_url)
        lap("load")
        site = derive(catalog)
        report.warnings.extend(site.warnings)  # texts shown as plain text: a bug to report, not hide
        lap("derive")
        citations = CitationIndex(site)
        for view in site.papers:  # before the workers fork, so they share one computed index
            citations.for_paper(view)
        report.notes.extend(export_notes(citations))
        lap("citations")
    return Derived(catalog, site, citations, site_globals(site, citations))


def generate(options: BuildOptions, sources: Sources, inputs: str, report: BuildReport,
             lap: Callable[[str], None], keep: Callable[[Derived], None] | None = None) -> None:
    """Build the site of ``options.content`` into ``options.output``; fills in ``report``.
    ``inputs``: the fingerprint of the inputs, kept in the output's manifest; ``keep``, if
    given, receives the build's ``Derived`` data once the new site is in place."""
    templates, static, lunr_js = sources.templates, sources.static, sources.lunr_js
    derived = prepare(options, report, lap)
    catalog, site, citations, globals_ = derived.catalog, derived.site, derived.citations, derived.globals

    env = make_environment(templates)
    pages = list(plan_pages(site))
    total = len(pages)
    done = 0

    def progress(units: int) -> None:
        nonlocal done
        done += units
        if options.progress is not None:
            options.progress(done, total)

    def render_pages(chunk: list[Page]) -> Task:
        def task(out: SiteWriter) -> int:
            for page in chunk:
                try:
                    html = render_page(env, page, globals_)
                except TemplateError as exc:
                    raise OutputError(f"template error while rendering /{page.url}: {exc}") from exc
                out.write_text(page.output_path, html)
            return len(chunk)
        return task

    def write_files(make: Callable[[], Iterable[tuple[str, str]]]) -> Task:
        def task(out: SiteWriter) -> int:
            for path, text in make():
                out.write_text(path, text)
            return 0
        return task

    tasks: list[Task] = [write_files(lambda: build_search(site).items()),
                         write_files(lambda: iter_exports(site, citations))]
    tasks += [render_pages(pages[i:i + PAGES_PER_TASK]) for i in range(0, total, PAGES_PER_TASK)]
    jobs = options.jobs if options.jobs is not None else default_jobs(total)
    with frozen_heap(), atomic_output(options.output, fingerprint=inputs) as out:
        run_tasks(tasks, out, jobs, progress)
        out.copy_tree(static, "static")
        out.copy_file(lunr_js, "static/vendor/lunr.min.js")
        lap("search, exports, render and write")
    lap("swap in")
    report.pages = total
    report.bytes_written = out.bytes_written
    report.files_changed = out.files_changed
    report.papers = len(catalog.papers)
    if keep is not None:
        keep(derived)
