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
from pathlib import Path

from .errors import OutputError
from .options import LUNR_JS, BuildOptions, BuildReport, Sources, find_asset, theme_folder
from .write.freshness import fingerprint
from .write.manifest import MARKER, still_as_built
from .write.writer import remove_stale_folders

__all__ = ["build", "check_output_folder", "BuildOptions", "BuildReport", "MARKER"]

def build(options: BuildOptions) -> BuildReport:
    report = BuildReport()
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        report.seconds[stage] = report.seconds.get(stage, 0.0) + now - clock
        clock = now

    templates = theme_folder("templates", options.templates)
    static = theme_folder("static", options.static)
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
