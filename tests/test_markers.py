"""The markers that let a run leave out tests by what they need (tests/conftest.py gives them
by rules): ``-m "not browser"`` leaves out every test that needs Chromium, and the tests
that run Node, Java or Hugo carry their markers, whichever way they reach the tool."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import MARKERS, REPO

pytestmark = pytest.mark.slow  # one collection of the whole suite in a subprocess

# Collects the suite as `pytest --collect-only -q -m EXPR` would, and prints every test with
# its markers and whether -m selected it.
COLLECT = """
import json, sys, pytest
MARKERS = set(sys.argv[2:])
class Recorder:
    def __init__(self):
        self.tests = {}
    def record(self, items, selected):
        for item in items:
            self.tests[item.nodeid] = {"selected": selected,
                                       "markers": sorted({m.name for m in item.iter_markers()} & MARKERS)}
    @pytest.hookimpl(trylast=True)
    def pytest_deselected(self, items):
        self.record(items, False)
    def pytest_collection_finish(self, session):
        self.record(session.items, True)
recorder = Recorder()
code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-m", sys.argv[1], "tests"],
                   plugins=[recorder])
print("@@" + json.dumps({"code": int(code), "tests": recorder.tests}))
"""


def collect(expression: str) -> dict[str, dict]:
    done = subprocess.run([sys.executable, "-c", COLLECT, expression, *MARKERS], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    line = next((l for l in done.stdout.splitlines() if l.startswith("@@")), None)
    assert line, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(line[2:])
    assert result["code"] == 0, done.stdout[-3000:]
    return result["tests"]


@pytest.fixture(scope="module")
def not_browser() -> dict[str, dict]:
    return collect("not browser")


def test_not_browser_collects_nothing_that_needs_chromium(not_browser):
    selected = [test for test, info in not_browser.items() if info["selected"]]
    left_out = [test for test, info in not_browser.items() if not info["selected"]]
    assert not [test for test in selected if test.startswith("tests/browser/")]
    assert any(test.startswith("tests/browser/test_reader.py::") for test in left_out)
    # what -m left out is exactly what carries the marker
    assert all("browser" not in not_browser[test]["markers"] for test in selected)
    assert all("browser" in not_browser[test]["markers"] for test in left_out)
    # Chromium started by the test itself, outside tests/browser/
    assert "tests/outputs/test_citations.py::test_cite_section_copy_button_copies_the_bibtex" in left_out
    assert "tests/test_build.py::test_page_counts" in selected


@pytest.mark.parametrize("test, marker", [
    # run_node called by the test
    ("tests/outputs/test_search_parity.py::test_stemmer_agrees_on_100000_words", "node"),
    # run_node called by a fixture the test uses
    ("tests/outputs/test_search_quality.py::test_known_items_and_acronyms_come_first", "node"),
    # vnu through a helper in this file, and through the same helper imported elsewhere
    ("tests/outputs/test_site_integrity.py::test_every_page_passes_the_nu_html_checker_which_reports_a_bad_page", "java"),
    ("tests/content/test_hostile.py::test_hostile_pages_are_valid_html_and_links_resolve", "java"),
    ("tests/test_bench_synth.py::test_hugo_builds_the_same_papers_tags_and_venues", "hugo"),
    ("tests/browser/test_smoke.py::test_home_page_loads_without_errors", "browser"),
    ("tests/test_cli.py::test_serve_rebuilds_on_change_and_survives_a_bad_edit", "slow"),
])
def test_tools_reached_in_any_way_give_their_marker(not_browser, test, marker):
    assert test in not_browser, f"{test} is gone: name another test that needs {marker}"
    assert marker in not_browser[test]["markers"]


def test_tests_that_need_no_tool_carry_no_tool_marker(not_browser):
    plain = [test for test in not_browser
             if test.startswith(("tests/test_build.py::", "tests/derive/", "tests/content/test_loader.py::"))]
    assert plain
    for test in plain:
        assert not set(not_browser[test]["markers"]) & {"browser", "node", "java", "hugo"}, test
