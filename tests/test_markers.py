"""The markers are written on the tests and checked as they run (tests/markers.py): a test
that runs a tool, or uses a fixture that needs one, without its marker fails, saying exactly
what to add. Checked here on a small suite of examples, run by pytest in a subprocess."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from . import markers
from .conftest import REPO

EXAMPLES = '''
import subprocess

import pytest

from tests.markers import needs


def run_node():
    subprocess.run(["node", "-e", ""], check=True)


@pytest.fixture(scope="module")
@needs("browser")
def declared():
    return "starts nothing itself: the declaration is what counts"


@pytest.fixture
def indirect(declared):
    return declared


@pytest.fixture(scope="module")
def undeclared():
    run_node()


def test_runs_node_unmarked():
    run_node()


@pytest.mark.node
def test_runs_node_marked():
    run_node()


def test_uses_a_fixture_that_needs_the_browser_unmarked(indirect):
    pass


@pytest.mark.browser
def test_uses_a_fixture_that_needs_the_browser_marked(indirect):
    pass


@pytest.mark.node
def test_its_module_fixture_runs_node_undeclared(undeclared):
    pass


def test_needs_nothing():
    pass
'''


@pytest.fixture(scope="module")
def outcome(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """{test name: (outcome, what pytest printed about it)} of the examples' run."""
    folder = tmp_path_factory.mktemp("markers")
    (folder / "conftest.py").write_text('pytest_plugins = ["tests.markers"]\n', encoding="utf-8")
    (folder / "test_examples.py").write_text(EXAMPLES, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:hypothesispytest", "-rA",
                           "--tb=short", "test_examples.py"], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=120)
    found = {}
    for name in re.findall(r"^def (test_\w+)", EXAMPLES, re.M):
        states = re.findall(rf"^(PASSED|FAILED|ERROR) test_examples.py::{name}\b", done.stdout, re.M)
        assert len(states) == 1, (name, done.stdout[-4000:] + done.stderr[-2000:])
        section = re.search(rf"^_+ (?:ERROR at setup of )?{name} _+$(.*?)(?=^_{{3,}} |^=+ )", done.stdout,
                            re.M | re.S)
        found[name] = (states[0], section.group(1) if section else "")
    return found


@pytest.mark.node  # the examples run node
def test_a_test_that_runs_a_tool_without_its_marker_fails_saying_what_to_add(outcome):
    state, text = outcome["test_runs_node_unmarked"]
    assert state == "FAILED"
    assert "test_examples.py::test_runs_node_unmarked ran node without the `node` marker" in text, text
    assert "add `@pytest.mark.node` above `def test_runs_node_unmarked`, or `pytestmark = pytest.mark.node` " \
           "at the top of test_examples.py" in text, text
    assert outcome["test_runs_node_marked"][0] == "PASSED"
    assert outcome["test_needs_nothing"][0] == "PASSED"


@pytest.mark.node
def test_a_test_using_a_fixture_that_needs_a_tool_fails_at_setup_without_the_marker(outcome):
    state, text = outcome["test_uses_a_fixture_that_needs_the_browser_unmarked"]
    assert state == "ERROR"  # at setup: nothing of the test ran
    assert "uses the fixture `declared`, which needs Chromium, without the `browser` marker: add " \
           "`@pytest.mark.browser` above `def test_uses_a_fixture_that_needs_the_browser_unmarked`" in text, text
    assert outcome["test_uses_a_fixture_that_needs_the_browser_marked"][0] == "PASSED"


@pytest.mark.node
def test_a_fixture_wider_than_a_test_that_runs_a_tool_must_declare_it(outcome):
    state, text = outcome["test_its_module_fixture_runs_node_undeclared"]
    assert state == "ERROR"  # at setup
    assert "the fixture `undeclared` (scope module) ran node" in text and "`@needs('node')`" in text, text


def test_every_tool_the_tests_use_runs_through_the_check():
    """The tools the suite runs are found on PATH, and there the check's wrappers come first;
    the browser tests launch the Chromium that PATH gives."""
    from .browser.conftest import CHROMIUM

    for marker, tool in markers.TOOLS.items():
        if shutil.which(tool, path=os.environ["PATH"].split(os.pathsep, 1)[1]) is None:
            continue  # not installed: the tests that need it say so
        assert shutil.which(tool) == str(markers.wrapper_of(tool)), (marker, tool)
    if not os.environ.get("PAPERSHELF_CHROMIUM") and shutil.which("chromium", path=os.environ["PATH"].split(os.pathsep, 1)[1]):
        assert CHROMIUM == str(markers.wrapper_of("chromium"))
