"""Run a build's output tasks on several cores.

Each task renders or computes part of the site and writes it with a ``SiteWriter`` on the
shared staging folder; it returns how many units of work (pages) it did, for progress.
Workers are forked after the catalog, derived data and citations are ready, so they share
them without pickling; only the records of the files written travel back. With one job,
or where fork is not available, the tasks run in this process, in order.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Callable, Sequence

from .writer import FileRecord, SiteWriter

Task = Callable[[SiteWriter], int]
Progress = Callable[[int], None]

# Set just before the workers are forked; they inherit it (tasks are closures, not picklable).
_SHARED: tuple[Sequence[Task], SiteWriter] | None = None


def default_jobs(units: int, minimum_units: int = 2000) -> int:
    """Worker processes for a build of ``units`` pages: one per core, but no pool for small sites
    (forking costs more than it saves below a couple of thousand pages)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores) if units >= minimum_units else 1


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def run_tasks(tasks: Sequence[Task], writer: SiteWriter, jobs: int, progress: Progress | None = None) -> None:
    """Run every task; their files end up in ``writer`` (an error in any task is raised here)."""
    global _SHARED
    report = progress or (lambda units: None)
    if jobs <= 1 or len(tasks) < 2 or not fork_available():
        for task in tasks:
            report(task(writer))
        return
    _SHARED = (tasks, writer)
    try:
        pool = multiprocessing.get_context("fork").Pool(min(jobs, len(tasks)))
        try:
            for records, staged, size, units in pool.imap_unordered(_run_one, range(len(tasks))):
                writer.merge(records, staged, size)
                report(units)
            pool.close()
        finally:
            pool.terminate()
            pool.join()
    finally:
        _SHARED = None


def _run_one(index: int) -> tuple[list[FileRecord], list[str], int, int]:
    assert _SHARED is not None, "run_tasks sets the shared tasks before forking"
    tasks, parent = _SHARED
    writer = parent.share()
    units = tasks[index](writer)
    return list(writer.records.values()), writer.staged, writer.bytes_written, units
