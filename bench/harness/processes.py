"""A subprocess measured: wall and CPU time, peak RSS (``os.wait4``) and the peak summed PSS of
its process tree; ``papershelf build`` run that way with its BuildReport captured."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import BASE_URL, OUT, REPO


@dataclass
class Sample:
    wall: float  # seconds, subprocess start to exit
    peak_mb: float  # max RSS of the child, MiB
    status: int
    cpu: float = 0.0  # user + system CPU seconds of the child (steadier than wall time on a busy machine)
    total_pss_mb: float = 0.0  # peak of the summed PSS of the child and its workers, sampled every 0.5 s
    report: dict = field(default_factory=dict)  # BuildReport as JSON (Papershelf only)


def _tree_pss_kb(root: int) -> int:
    """Summed PSS (proportional set size: shared pages split between sharers) of ``root`` and its
    descendants. RSS would count the pages forked workers share with their parent twice."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
                for line in handle:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total


def run_measured(argv: list[str], *, log: Path, env: dict[str, str] | None = None) -> Sample:
    """Run ``argv``; wall time, CPU time and peak RSS of that child and the workers it waited for
    (``os.wait4``: the largest single process), and the peak summed PSS of the whole process tree."""
    peak_pss = [0]
    done = threading.Event()

    def sample_memory(pid: int) -> None:
        while not done.wait(0.5):
            peak_pss[0] = max(peak_pss[0], _tree_pss_kb(pid))

    with open(log, "ab") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=REPO, env=env)
        sampler = threading.Thread(target=sample_memory, args=(proc.pid,), daemon=True)
        if Path("/proc/self/smaps_rollup").exists():
            sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        done.set()
        if sampler.is_alive():
            sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: keep Popen from waiting again
    return Sample(wall=wall, peak_mb=usage.ru_maxrss / 1024, status=proc.returncode,
                  cpu=usage.ru_utime + usage.ru_stime, total_pss_mb=peak_pss[0] / 1024)


REPORT = "{report}"  # in ``run_reporting``'s argv: where the child writes its report


def run_reporting(argv: list[str], what: str, log: Path) -> Sample:
    """``run_measured`` of a child that writes a JSON report to the path that stands for
    ``REPORT`` in ``argv``; the report in ``Sample.report`` (an exit status other than 0 raises)."""
    report_file = Path(tempfile.mkstemp(prefix="papershelf-report-", suffix=".json")[1])
    try:
        sample = run_measured([str(report_file) if arg == REPORT else arg for arg in argv], log=log)
        if sample.status != 0:
            raise RuntimeError(f"{what} failed (exit {sample.status}); see {log}")
        sample.report = json.loads(report_file.read_text(encoding="utf-8"))
    finally:
        report_file.unlink(missing_ok=True)
    return sample


def papershelf_build(content: Path, output: Path, log: Path) -> Sample:
    """One ``papershelf build``, with its build cache in ``OUT/cache-<catalog>`` (a cold build
    empties it first: it is a first build)."""
    return run_reporting([sys.executable, "-m", "bench.build_json", REPORT, "build", "--content", str(content),
                          "--output", str(output), "--quiet", "--base-url", BASE_URL,
                          "--cache-dir", str(OUT / f"cache-{content.name}")], "papershelf build", log)
