"""``build()``: the whole pipeline, top to bottom.

First: is there anything to do? A build whose inputs (content, the theme's templates and
static files with the catalog's own overrides, the generator, the base URL) have the
fingerprint the output's manifest records, over an output nobody touched since, returns at
once. When only static files changed, ``pipeline.refresh_static`` copies them and keeps
every other file of the output. Otherwise ``pipeline.generate``: read and validate content → catalog → derived data →
citations → search index, exports (BibTeX, feeds, sitemap, the yearly catalog files and papers.json) and pages,
rendered by worker processes on a large site → write atomically. Nothing is written until
the content has been read and checked in full; the output folder changes only once every
file was written, and then only the files that changed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from .errors import OutputError
from .derive.sessions import clock_inputs
from .options import LUNR_JS_OUTPUT, BuildOptions, BuildReport, Sources, Theme, theme_of
from .write.freshness import VERSION_CONTROL, Inputs, build_inputs, content_fingerprint
from .write.manifest import MARKER, built_from, still_as_built
from .write.writer import remove_stale_folders

if TYPE_CHECKING:
    from .pipeline import Derived

__all__ = ["build", "check_output_folder", "theme_sources", "BuildOptions", "BuildReport", "MARKER"]

def build(options: BuildOptions, keep: Callable[[Derived], None] | None = None,
          reuse: Derived | None = None) -> BuildReport:
    """Build the site; ``keep`` (``build --serve``) receives what the pipeline derived when it
    ran (not when the output was up to date). ``reuse``: what an earlier build in this
    process derived (``build --serve``'s last one), used instead of deriving again when the
    content is still what it was derived from (a template change)."""
    report = BuildReport()
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        report.seconds[stage] = report.seconds.get(stage, 0.0) + now - clock
        clock = now

    theme = theme_of(options)
    check_output_folder(options.output, options.content)
    if options.cache is not None:
        check_cache_folder(options.cache, options.content, options.output)
    inputs = inputs_of(options, theme)
    report.content = inputs.content
    if still_as_built(Path(options.output), inputs.token):
        remove_stale_folders(Path(options.output).resolve())
        report.up_to_date = True
        lap("check")
        return report
    lap("check")

    # Imported here: a build with nothing to do needs none of the pipeline (0.3 s of imports).
    from .pipeline import generate, refresh_static

    before = built_from(Path(options.output))
    with theme_sources(theme) as sources:
        if before is not None and (before.content, before.templates) == (inputs.content, inputs.templates):
            if refresh_static(options, sources, inputs.token, report, lap):
                return report
        generate(options, sources, inputs, report, lap, keep, reuse, before.content if before else "")
    return report


def inputs_of(options: BuildOptions, theme: Theme) -> Inputs:
    """The fingerprints of what a build of ``options`` reads (``freshness.Inputs``)."""
    return build_inputs(options.content, theme.template_inputs, theme.static_inputs,
                        [options.base_url, *clock_inputs(options.content)])


def content_inputs(options: BuildOptions) -> str:
    """``inputs_of(options).content`` alone: what the derived data depend on."""
    return content_fingerprint(options.content, [options.base_url, *clock_inputs(options.content)])


@contextmanager
def theme_sources(theme: Theme) -> Iterator[Sources]:
    """One templates folder and one static folder for the pipeline: the theme's own when the
    catalog overrides nothing; else the layers merged file by file (the catalog's winning)
    into a temporary folder, removed after the build. A catalog's ``static/vendor/lunr.min.js``
    replaces the packaged lunr.js."""
    if len(theme.templates) == 1 and len(theme.static) == 1:
        yield Sources(theme.templates[0], theme.static[0], theme.lunr_js)
        return
    with tempfile.TemporaryDirectory(prefix="papershelf-theme-") as folder:
        merged = Path(folder)
        templates = merge_layers(theme.templates, merged / "templates", links_out=True)
        static = merge_layers(theme.static, merged / "static", links_out=False)
        lunr_js = theme.lunr_js
        if (static / LUNR_JS_OUTPUT).is_file():  # the pipeline writes lunr.js there itself
            lunr_js = merged / "lunr.min.js"
            os.replace(static / LUNR_JS_OUTPUT, lunr_js)
        yield Sources(templates, static, lunr_js)


def merge_layers(layers: tuple[Path, ...], target: Path, *, links_out: bool) -> Path:
    """Copy (hard-link where possible) every file of ``layers`` into ``target``, a file of an
    earlier layer hiding the same path in later ones. Links are followed; ``links_out`` False
    skips links that lead out of their layer (as the static copy into the site does)."""
    target.mkdir(parents=True, exist_ok=True)
    for layer in layers:
        root = os.path.realpath(layer)
        seen: set[str] = set()
        for folder, dirs, files in os.walk(layer, followlinks=True):
            real_folder = os.path.realpath(folder)
            if real_folder in seen:  # a link back up the tree
                dirs[:] = []
                continue
            seen.add(real_folder)
            dirs[:] = sorted(d for d in dirs if d not in VERSION_CONTROL)
            rel_folder = os.path.relpath(folder, layer)
            for name in sorted(files):
                source = os.path.realpath(os.path.join(folder, name))
                if not os.path.isfile(source) or not (links_out or source.startswith(root + os.sep)):
                    continue
                _place(source, target / rel_folder / name)
    return target


def _place(source: str, dest: Path) -> None:
    """``source`` at ``dest``, unless an earlier layer put something there (or a file where
    ``dest`` needs a folder)."""
    if os.path.lexists(dest):
        return
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        return
    try:
        os.link(source, dest)
    except OSError:  # another device, or no hard links here
        try:
            shutil.copyfile(source, dest)
        except OSError as exc:
            raise OutputError(f"cannot read the theme file {source}: {exc.strerror or exc}") from exc


def check_cache_folder(cache: Path, content: Path, output: Path) -> None:
    """Refuse a build cache inside the content or the output folder: its writes would be
    changes of the content (a rebuild after each build) or files of the site."""
    cache = Path(cache).resolve()
    for folder, what in ((Path(content).resolve(), "content"), (Path(output).resolve(), "output")):
        if cache == folder or folder in cache.parents:
            raise OutputError(f"the build cache {cache} must not be inside the {what} folder {folder}")


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
