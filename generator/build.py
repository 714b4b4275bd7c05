"""``build()``: the whole pipeline, top to bottom.

First: is there anything to do? A build whose inputs (content, templates, static files,
the generator, the base URL) have the fingerprint the output's manifest records, over an
output nobody touched since, returns at once. Otherwise ``pipeline.generate``: read and
validate content → catalog → derived data → citations → search index, exports (BibTeX,
RIS, feeds, sitemap, papers.json) and pages, rendered by worker processes on a large
site → write atomically. Nothing is written until the content has been read and checked
in full; the output folder changes only once every file was written, and then only the
files that changed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .freshness import fingerprint
from .writer import MARKER, OutputError, remove_stale_folders, still_as_built

PROJECT_ROOT = Path(__file__).resolve().parent.parent
LUNR_JS = Path("node_modules") / "lunr" / "lunr.min.js"


@dataclass(frozen=True)
class BuildOptions:
    content: Path = Path("content")
    output: Path = Path("site")
    base_url: str | None = None  # overrides site.toml
    templates: Path | None = None  # default: <project>/templates
    static: Path | None = None  # default: <project>/static
    jobs: int | None = None  # worker processes; None: one per core for large sites, else 1
    progress: Callable[[int, int], None] | None = None  # (pages done, pages in all), while rendering


@dataclass(frozen=True)
class Sources:
    """Where templates, static files and lunr.js come from for this build."""

    templates: Path
    static: Path
    lunr_js: Path


@dataclass
class BuildReport:
    papers: int = 0
    pages: int = 0
    bytes_written: int = 0  # size of the whole site
    files_changed: int = 0  # files written or removed in the output folder
    up_to_date: bool = False  # nothing had changed: the output was left alone
    seconds: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # worth telling the person building

    def summary(self) -> str:
        total = sum(self.seconds.values())
        if self.up_to_date:
            return f"Site is up to date: no content, template or static file changed ({total:.2f}s)"
        stages = ", ".join(f"{name} {secs:.2f}s" for name, secs in self.seconds.items())
        return (f"Built {self.pages} pages for {self.papers} papers "
                f"({self.bytes_written / 1e6:.1f} MB, {self.files_changed} file{'s' if self.files_changed != 1 else ''} changed) "
                f"in {total:.2f}s ({stages})")


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
    inputs = fingerprint([options.content, templates, static, lunr_js], [options.base_url])
    if still_as_built(Path(options.output), inputs):
        remove_stale_folders(Path(options.output).resolve())
        report.up_to_date = True
        lap("check")
        return report
    lap("check")

    # Imported here: a build with nothing to do needs none of the pipeline (0.3 s of imports).
    from .pipeline import generate

    generate(options, Sources(templates, static, lunr_js), inputs, report, lap)
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
