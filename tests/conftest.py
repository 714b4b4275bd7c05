"""Shared fixtures: small content folders written per test, the bundled catalog built and
derived once per session; and the check of the markers that let a run leave out the slow or
tool-bound tests (``tests/markers.py``: written on the tests, checked as they run).

The bundled catalog (``content/``) is built once per base URL (``bundled_build``) and loaded and
derived once per base URL (``bundled_views``) for the whole session. Tests share these: they
must not change them. A test that needs to change a built site copies it first
(``shutil.copytree``); the builds are checked at the end of the session and a change fails it.

One thing only makes the suite cheaper, and changes no result: the Nu checker's JVM runs on its
quick JIT tier (``tests/markers.py``, whose wrapper of ``java`` adds the options).
"""

from __future__ import annotations

import fcntl
import hashlib
import html
import os
import pickle
import re
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urlsplit

import pytest
from hypothesis import settings

from . import markers

# CI runs the property tests on a fixed seed so a landing never depends on luck; local runs
# keep exploring new examples.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Text functions raise instead of falling back to escaped text (generator.text's strict mode),
# here and in every build a test starts in a subprocess: a crash in the LaTeX or math code
# must fail a test, not hide behind the fallback readers get.
os.environ["PAPERSHELF_STRICT_TEXT"] = "1"


# The tools' wrappers go first on PATH now, before any test module or conftest (such as
# tests/browser/conftest.py, which looks Chromium up on PATH) is imported.
markers.install_wrappers()


def pytest_configure(config):
    markers.pytest_configure(config)


REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"

TAGS_TOML = """\
[graph-learning]
name = "Graph learning"
description = "Learning on graphs."
phrases = ["graph neural network", "graph"]

[optimization]
name = "Optimization"
description = "Algorithms that minimise things."
phrases = ["gradient descent", "convergence"]

[machine-learning]
name = "Machine learning"
description = "Everything else."
phrases = []
fallback = true
"""

VENUE_MD = """\
---
name: "TEST 2024"
full_name: "Test Conference on Learning 2024"
year: 2024
url: "https://example.org/test-2024"
---
A venue for tests.
"""


def paper_md(title: str = "A Paper on Graphs", *, authors=("Ada Lovelace", "Alan Turing"), venue="test-2024",
             tags=("graph-learning",), body="We study graph neural networks.", extra: str = "") -> str:
    lines = ["---", f"title: {title!r}" if "'" not in title else f'title: "{title}"']
    lines.append("authors: [" + ", ".join(f'"{a}"' for a in authors) + "]")
    lines.append(f"venue: {venue}")
    lines.append("tags: [" + ", ".join(tags) + "]")
    if extra:
        lines.append(textwrap.dedent(extra).strip())
    lines += ["---", "", body, ""]
    return "\n".join(lines)


def bibtex_balanced(value: str) -> bool:
    """Braces balance the way BibTeX counts them: every brace counts, escaped or not."""
    depth = 0
    for char in value:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def record_slug(record: dict) -> str:
    """The paper of a search record (search/docs/<n>.json): its "s", else the slug the page
    derives from its title (a record leaves "s" out when the two are the same)."""
    from generator.outputs.search.shards import title_slug

    return record["s"] if "s" in record else title_slug(record["t"])


def page_pdf_url(site: Path, url: str) -> str | None:
    """The PDF a paper's page names (its citation_pdf_url, which a search result that fetched
    the page offers: static/js/search.js), from ``site``'s page at ``url`` (a view's ``url``)."""
    text = (site / url / "index.html").read_text(encoding="utf-8")
    found = re.findall(r'<meta name="citation_pdf_url" content="([^"]*)">', text)
    assert len(found) <= 1, url
    return html.unescape(found[0]) if found else None


class ContentDir:
    """A throwaway content folder: ``add_paper`` and friends write files into it."""

    def __init__(self, root: Path):
        self.root = root
        (root / "papers").mkdir(parents=True)
        (root / "venues").mkdir()
        (root / "site.toml").write_text('title = "Test shelf"\ndescription = "For tests."\n', encoding="utf-8")
        (root / "tags.toml").write_text(TAGS_TOML, encoding="utf-8")
        (root / "venues" / "test-2024.md").write_text(VENUE_MD, encoding="utf-8")

    def add_paper(self, slug: str, text: str | None = None, **kwargs) -> Path:
        path = self.root / "papers" / f"{slug}.md"
        path.write_text(text if text is not None else paper_md(**kwargs), encoding="utf-8")
        return path

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


@pytest.fixture
def content(tmp_path: Path) -> ContentDir:
    c = ContentDir(tmp_path / "content")
    c.add_paper("a-paper-on-graphs")
    c.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                tags=("optimization",), body="Gradient descent converges at rate $O(1/t)$.")
    return c


# ----------------------------------------------------------------- the bundled catalog, once

CONTENT = REPO / "content"
ABSOLUTE_BASE = "https://example.org/shelf/"  # where feeds and the sitemap need an absolute base URL


@dataclass(frozen=True)
class BuiltSite:
    """The bundled catalog built for ``base_url``: ``path`` is the output folder, ``root`` the
    folder to serve as a host's "/" so that the site answers under the base URL's path (the
    same as ``path`` for "/"), ``report`` what the build returned."""

    base_url: str
    path: Path
    root: Path
    report: object


def _digest(folder: Path) -> str:
    """Every file below ``folder``, hidden ones included: names and bytes."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(folder.rglob("*")):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0")
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def _session_folder(tmp_path_factory) -> Path:
    """A folder of this session that every pytest-xdist worker sees (the parent of their own
    temporary folders); without xdist, this process's."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (made if missing) for the block: one process at a time."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def bundled_build(tmp_path_factory) -> Callable[[str], BuiltSite]:
    """``bundled_build(base_url="/")``: the committed catalog built for ``base_url``, once a session.

    Read-only: copy the folder (``shutil.copytree(built.path, ...)``) to change anything.
    The output folder is named after the base URL's path ("/catalog/" builds into
    ``<root>/catalog``) and is alone in its parent folder, so a test can also check that a
    build leaves nothing beside its output. Under pytest-xdist the workers share each
    build: the first to need it builds it, the others wait for it and read the same folder.
    """
    from generator.build import BuildOptions, build

    built: dict[str, BuiltSite] = {}
    digests: dict[str, str] = {}
    shared = _session_folder(tmp_path_factory)

    def get(base_url: str = "/") -> BuiltSite:
        if base_url not in built:
            folder = shared / f"bundled-build-{hashlib.blake2b(base_url.encode(), digest_size=6).hexdigest()}"
            root = folder / "root"
            segments = [s for s in urlsplit(base_url).path.split("/") if s]
            out = root.joinpath(*segments) if segments else root / "site"
            with _locked(folder.with_suffix(".lock")):
                done = folder / "report.pickle"
                if not done.is_file():
                    root.mkdir(parents=True)
                    report = build(BuildOptions(content=CONTENT, output=out, base_url=base_url))
                    done.write_bytes(pickle.dumps(report))
                report = pickle.loads(done.read_bytes())
            built[base_url] = BuiltSite(base_url, out, root if segments else out, report)
            digests[base_url] = _digest(out)
        return built[base_url]

    yield get
    changed = [base for base, site in built.items() if _digest(site.path) != digests[base]]
    assert not changed, f"a test changed the shared build(s) of the bundled catalog for {changed}; copy it instead"


@pytest.fixture(scope="session")
def bundled_site(bundled_build) -> Path:
    """The output folder of the committed catalog built for "/" (read-only)."""
    return bundled_build("/").path


@pytest.fixture(scope="session")
def bundled_views():
    """``bundled_views(base_url="/")``: ``derive(load_catalog(content/, base_url=...))``, once a session.

    Read-only (the views are frozen dataclasses; their dicts and lists must not be changed
    either: the session ends by checking them against a fresh derive)."""
    from generator.content.loader import load_catalog
    from generator.derive.views import derive

    derived: dict[str | None, object] = {}

    def get(base_url: str | None = None):
        if base_url not in derived:
            derived[base_url] = derive(load_catalog(CONTENT, base_url=base_url))
        return derived[base_url]

    yield get
    changed = [base for base, views in derived.items() if views != derive(load_catalog(CONTENT, base_url=base))]
    assert not changed, f"a test changed the shared derived catalog for base URL(s) {changed}"
