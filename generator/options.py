"""What a build is asked to do (``BuildOptions``), where its theme comes from (``Sources``),
and what it reports back (``BuildReport``): shared by the CLI, the server, ``build`` and the
pipeline, so none of them needs to import another for these."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import OutputError

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
    warnings: list[str] = field(default_factory=list)  # something went wrong in the output: always shown

    def summary(self) -> str:
        total = sum(self.seconds.values())
        if self.up_to_date:
            return f"Site is up to date: no content, template or static file changed ({total:.2f}s)"
        stages = ", ".join(f"{name} {secs:.2f}s" for name, secs in self.seconds.items())
        return (f"Built {self.pages} pages for {self.papers} papers "
                f"({self.bytes_written / 1e6:.1f} MB, {self.files_changed} file{'s' if self.files_changed != 1 else ''} changed) "
                f"in {total:.2f}s ({stages})")


def theme_folder(name: str, chosen: Path | None = None) -> Path:
    """The ``templates`` or ``static`` folder a build uses: the one chosen, else the checkout's
    (beside ``generator/``), else the working folder's (the tool installed from a wheel and
    run in a checkout: the theme is not packaged yet)."""
    if chosen is not None:
        return Path(chosen)
    beside = PROJECT_ROOT / name
    return beside if beside.is_dir() else Path.cwd() / name


def find_asset(relative: Path) -> Path:
    """Front-end files installed by npm, looked up in the working folder and the project."""
    for root in (Path.cwd(), PROJECT_ROOT):
        candidate = root / relative
        if candidate.is_file():
            return candidate
    raise OutputError(f"{relative} not found: run 'npm ci' (or 'make setup') first")
