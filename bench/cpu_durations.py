"""A pytest plugin that reports the CPU seconds each test costs, for a machine shared with
other work (where ``--durations`` wall times say more about the neighbours than the test).

CPU is this process's user+sys time plus that of the child processes it waited for during
the test (subprocess builds, Node, Java, Hugo; not Chromium, whose driver lives for the whole
session). Works with and without pytest-xdist. Use:

    .venv/bin/python -m pytest -p bench.cpu_durations --cpu-durations=40 tests/

It prints the costliest tests, the total per file, and the sum over all tests.
"""

from __future__ import annotations

import resource
from collections import defaultdict

import pytest

_KEY = "cpu_seconds"


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def pytest_addoption(parser):
    parser.addoption("--cpu-durations", type=int, default=30, help="how many of the costliest tests to list")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    start = _cpu()
    item.stash[_start] = start
    yield


_start = pytest.StashKey[float]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when == "teardown":
        report.user_properties.append((_KEY, _cpu() - item.stash.get(_start, _cpu())))


class _Collector:
    def __init__(self):
        self.by_test: dict[str, float] = {}

    def pytest_runtest_logreport(self, report):
        for key, value in report.user_properties:
            if key == _KEY:
                self.by_test[report.nodeid] = value

    def pytest_terminal_summary(self, terminalreporter, config):
        tests = self.by_test
        if not tests:
            return
        write = terminalreporter.write_line
        count = config.getoption("--cpu-durations")
        terminalreporter.section(f"CPU seconds: {sum(tests.values()):.1f} over {len(tests)} tests")
        for nodeid, seconds in sorted(tests.items(), key=lambda kv: -kv[1])[:count]:
            write(f"{seconds:8.2f}  {nodeid}")
        files: dict[str, float] = defaultdict(float)
        for nodeid, seconds in tests.items():
            files[nodeid.split("::")[0]] += seconds
        write("-- by file")
        for name, seconds in sorted(files.items(), key=lambda kv: -kv[1])[:count]:
            write(f"{seconds:8.2f}  {name}")


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist)
        config.pluginmanager.register(_Collector(), "cpu-durations-collector")
