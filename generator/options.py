"""What a build is asked to do (``BuildOptions``), where its theme comes from (``Theme``, and
``Sources`` for one build), and what it reports back (``BuildReport``): shared by the CLI, the
server, ``build`` and the pipeline, so none of them needs to import another for these."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

PACKAGE = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE.parent
# lunr.js 2.3.9 as npm ships it (node_modules/lunr/lunr.min.js, byte for byte: a test compares
# them), so that a build needs no Node; the site serves it as static/vendor/lunr.min.js.
LUNR_JS = PACKAGE / "vendor" / "lunr.min.js"
LUNR_JS_OUTPUT = "vendor/lunr.min.js"  # below static/: the site's copy, which a catalog may override


@dataclass(frozen=True)
class BuildOptions:
    content: Path = Path("content")
    output: Path = Path("site")
    base_url: str | None = None  # overrides site.toml
    templates: Path | None = None  # the theme's templates; default: the packaged theme's
    static: Path | None = None  # the theme's static files; default: the packaged theme's
    jobs: int | None = None  # worker processes; None: one per core for large sites, else 1
    progress: Callable[[int, int], None] | None = None  # (pages done, pages in all), while rendering
    cache: Path | None = None  # the build cache's folder (``cache``); None: no cache


@dataclass(frozen=True)
class Sources:
    """Where templates, static files and lunr.js come from for this build: one folder each."""

    templates: Path
    static: Path
    lunr_js: Path


@dataclass(frozen=True)
class Theme:
    """The theme of one build as layers, the first one winning file by file: the catalog's own
    ``templates/`` and ``static/`` (beside its content folder), then the theme's.

    ``overrides`` lists the catalog's folders whether they exist or not: a build's inputs and
    the server's watched folders include them, so creating one is a change like any other."""

    templates: tuple[Path, ...]
    static: tuple[Path, ...]
    lunr_js: Path
    overrides: tuple[Path, ...]

    @property
    def inputs(self) -> list[Path]:
        """Every folder and file of the theme, overrides included: what a build reads."""
        return list(dict.fromkeys([*self.templates, *self.static, self.lunr_js, *self.overrides]))

    @property
    def template_inputs(self) -> list[Path]:
        """The templates' folders, the catalog's own ``templates/`` included even when missing."""
        return list(dict.fromkeys([*self.templates, *(o for o in self.overrides if o.name == "templates")]))

    @property
    def static_inputs(self) -> list[Path]:
        """What the site's ``static/`` is copied from: the static folders (the catalog's own
        included even when missing) and lunr.js."""
        return list(dict.fromkeys([*self.static, self.lunr_js, *(o for o in self.overrides if o.name == "static")]))


def packaged_theme(name: str) -> Path:
    """The ``templates`` or ``static`` folder of the default theme: inside the package when
    installed from a wheel (``generator/theme/``), else the checkout's (beside ``generator/``)."""
    packaged = PACKAGE / "theme" / name
    return packaged if packaged.is_dir() else PROJECT_ROOT / name


def theme_folder(name: str, chosen: Path | None = None) -> Path:
    """The theme's ``templates`` or ``static`` folder: the one chosen, else the packaged one."""
    return Path(chosen) if chosen is not None else packaged_theme(name)


def project_folder(content: Path) -> Path:
    """The catalog's project folder: the one that holds its content folder."""
    return Path(os.path.abspath(content)).parent


def theme_of(options: BuildOptions) -> Theme:
    """The layers of ``options``'s theme. A catalog folder that is the theme's own folder (the
    repository's catalog beside its templates/ and static/) is no override."""
    project = project_folder(options.content)
    layers: dict[str, tuple[Path, ...]] = {}
    overrides: list[Path] = []
    for name in ("templates", "static"):
        base = Path(os.path.abspath(theme_folder(name, getattr(options, name))))
        own = project / name
        if _same_folder(own, base):
            layers[name] = (base,)
        else:
            layers[name] = (own, base) if own.is_dir() else (base,)
            overrides.append(own)
    return Theme(layers["templates"], layers["static"], LUNR_JS, tuple(overrides))


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):
        return False


@dataclass
class BuildReport:
    papers: int = 0
    pages: int = 0
    pages_kept: int = 0  # pages an earlier build rendered from the same inputs, kept as they were
    bytes_written: int = 0  # size of the whole site
    files_changed: int = 0  # files written or removed in the output folder
    up_to_date: bool = False  # nothing had changed: the output was left alone
    static_only: bool = False  # only static files had changed: nothing else was built again
    content: str = ""  # the fingerprint of the content the build saw (``freshness.Inputs.content``)
    seconds: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # worth telling the person building
    warnings: list[str] = field(default_factory=list)  # something went wrong in the output: always shown

    def summary(self) -> str:
        total = sum(self.seconds.values())
        if self.up_to_date:
            return f"Site is up to date: no content, template or static file changed ({total:.2f}s)"
        stages = ", ".join(f"{name} {secs:.2f}s" for name, secs in self.seconds.items())
        if self.static_only:
            return (f"Copied the static files ({self.files_changed} file{'s' if self.files_changed != 1 else ''} "
                    f"changed; pages, search files and exports unchanged) in {total:.2f}s ({stages})")
        kept = f" ({self.pages - self.pages_kept} rendered, the rest as before)" if self.pages_kept else ""
        return (f"Built {self.pages} pages{kept} for {self.papers} paper{'s' if self.papers != 1 else ''} "
                f"({self.bytes_written / 1e6:.1f} MB, {self.files_changed} file{'s' if self.files_changed != 1 else ''} changed) "
                f"in {total:.2f}s ({stages})")
