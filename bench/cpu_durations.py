"""A pytest plugin that reports the CPU seconds each test costs, for a machine shared with
other work (where ``--durations`` wall times say more about the neighbours than the test),
and where the wall time of an xdist run goes: each worker's busy time and when it finished.

CPU is this process's user+sys time plus that of the child processes it waited for during
the test (subprocess builds, Node, Java, Hugo; not Chromium, whose driver lives for the whole
session). Works with and without pytest-xdist. Use:

    .venv/bin/python -m pytest -p bench.cpu_durations --cpu-durations=40 tests/

It prints the costliest tests (CPU and wall), the total per file, the sum over all tests, and
per worker: tests run, wall seconds spent in tests (setup and teardown included), and the
time its last test ended, counted from the first test's start.
"""

from __future__ import annotations

import os
import resource
import time
from collections import defaultdict

import pytest

_KEY = "cpu_seconds"
_WALL = "wall_span"
_LIVE = "live_descendants_cpu"
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _descendants_cpu() -> float:
    """CPU seconds of this process's live descendants (and of the children they reaped):
    Chromium and its driver live until the session's fixtures end, so the per-test figures
    never see them."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(x) for x in fields[11:15]) / _TICK  # utime stime cutime cstime
    ours, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - ours
        ours |= frontier
    return sum(times[pid] for pid in ours)


def pytest_addoption(parser):
    parser.addoption("--cpu-durations", type=int, default=30, help="how many of the costliest tests to list")


_start = pytest.StashKey[float]()
_wall_start = pytest.StashKey[float]()
_live = pytest.StashKey[float]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    if nextitem is None:  # the session's fixtures end with this test: count what they started
        item.stash[_live] = _descendants_cpu()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item.stash[_start] = _cpu()
    item.stash[_wall_start] = time.time()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when == "teardown":
        report.user_properties.append((_KEY, _cpu() - item.stash.get(_start, _cpu())))
        report.user_properties.append((_WALL, (item.stash.get(_wall_start, time.time()), time.time())))
        if _live in item.stash:
            report.user_properties.append((_LIVE, item.stash[_live]))


class _Collector:
    def __init__(self):
        self.by_test: dict[str, float] = {}
        self.wall: dict[str, float] = {}
        self.spans: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.live: dict[str, float] = {}

    def pytest_runtest_logreport(self, report):
        for key, value in report.user_properties:
            if key == _KEY:
                self.by_test[report.nodeid] = value
            elif key == _WALL:
                start, end = value
                self.wall[report.nodeid] = end - start
                self.spans[self._worker(report)].append((start, end))
            elif key == _LIVE:
                self.live[self._worker(report)] = value

    @staticmethod
    def _worker(report) -> str:
        node = getattr(report, "node", None)
        return node.gateway.id if node is not None else "main"

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
        wall_files: dict[str, float] = defaultdict(float)
        for nodeid, seconds in tests.items():
            files[nodeid.split("::")[0]] += seconds
            wall_files[nodeid.split("::")[0]] += self.wall.get(nodeid, 0.0)
        write("-- by file (CPU s, wall s)")
        for name, seconds in sorted(files.items(), key=lambda kv: -kv[1])[:count]:
            write(f"{seconds:8.2f} {wall_files[name]:8.2f}  {name}")
        write(f"-- wall seconds in tests: {sum(self.wall.values()):.1f}; the longest")
        for nodeid, seconds in sorted(self.wall.items(), key=lambda kv: -kv[1])[:count]:
            write(f"{seconds:8.2f}  {nodeid}")
        if self.spans:
            first = min(s for spans in self.spans.values() for s, _ in spans)
            write("-- per worker: tests, wall s in tests, last test ended at (s after the first began),"
                  " CPU s of the processes still running at the end (Chromium)")
            for worker, spans in sorted(self.spans.items()):
                busy = sum(e - s for s, e in spans)
                write(f"{worker:>8}  {len(spans):5d}  {busy:8.1f}  {max(e for _, e in spans) - first:8.1f}"
                      f"  {self.live.get(worker, 0.0):8.1f}")


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist)
        config.pluginmanager.register(_Collector(), "cpu-durations-collector")
