"""``build()``: the whole pipeline, top to bottom.

read and validate content → catalog → derived data → search index → citations and
exports (BibTeX, RIS, feeds, sitemap, papers.json) → render → write atomically. Nothing
is written until the content has been read and checked in full; the output folder is
replaced only when every page was rendered.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import TemplateError

from .citations import CitationIndex
from .derive import derive
from .exports import build_exports
from .exports import notes as export_notes
from .loader import load_catalog
from .pages import plan_pages
from .render import make_environment, render_page, site_globals
from .search_index import build_search
from .writer import OutputError, atomic_output

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MARKER = ".papershelf-site"
LUNR_JS = Path("node_modules") / "lunr" / "lunr.min.js"


@dataclass(frozen=True)
class BuildOptions:
    content: Path = Path("content")
    output: Path = Path("site")
    base_url: str | None = None  # overrides site.toml
    templates: Path | None = None  # default: <project>/templates
    static: Path | None = None  # default: <project>/static


@dataclass
class BuildReport:
    papers: int = 0
    pages: int = 0
    bytes_written: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # worth telling the person building

    def summary(self) -> str:
        total = sum(self.seconds.values())
        stages = ", ".join(f"{name} {secs:.2f}s" for name, secs in self.seconds.items())
        return (f"Built {self.pages} pages for {self.papers} papers "
                f"({self.bytes_written / 1e6:.1f} MB) in {total:.2f}s ({stages})")


def find_asset(relative: Path) -> Path:
    """Front-end files installed by npm, looked up in the working folder and the project."""
    for root in (Path.cwd(), PROJECT_ROOT):
        candidate = root / relative
        if candidate.is_file():
            return candidate
    raise OutputError(f"{relative} not found: run 'npm ci' (or 'make setup') first")


def build(options: BuildOptions) -> BuildReport:
    report = BuildReport()
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        report.seconds[stage] = report.seconds.get(stage, 0.0) + now - clock
        clock = now

    templates = options.templates or PROJECT_ROOT / "templates"
    static = options.static or PROJECT_ROOT / "static"
    lunr_js = find_asset(LUNR_JS)
    check_output_folder(options.output, options.content)

    catalog = load_catalog(options.content, base_url=options.base_url)
    lap("load")
    site = derive(catalog)
    lap("derive")
    search = build_search(site)
    lap("search index")
    citations = CitationIndex(site)
    exports = build_exports(site, citations)
    report.notes.extend(export_notes(citations))
    lap("exports")

    env = make_environment(templates)
    globals_ = site_globals(site, citations)
    with atomic_output(options.output) as out:
        for page in plan_pages(site):
            try:
                html = render_page(env, page, globals_)
            except TemplateError as exc:
                raise OutputError(f"template error while rendering /{page.url}: {exc}") from exc
            out.write_text(page.output_path, html)
            report.pages += 1
        for path, text in search.items():
            out.write_text(path, text)
        for path, text in exports.items():
            out.write_text(path, text)
        out.copy_tree(static, "static")
        out.copy_file(lunr_js, "static/vendor/lunr.min.js")
        out.write_text(MARKER, "Written by Papershelf; the whole folder is replaced on every build.\n")
        report.bytes_written = out.bytes_written
        lap("render and write")
    report.papers = len(catalog.papers)
    return report


def check_output_folder(output: Path, content: Path) -> None:
    """Refuse to replace a folder that Papershelf did not write (a typo must not eat files)."""
    output = Path(output).resolve()
    content = Path(content).resolve()
    if output == content or output in content.parents or content in output.parents:
        raise OutputError(f"the output folder {output} must not contain or be inside the content folder")
    if output.is_dir() and any(output.iterdir()) and not (output / MARKER).exists():
        raise OutputError(
            f"{output} already holds files that Papershelf did not write; "
            "choose another --output or remove that folder first"
        )
