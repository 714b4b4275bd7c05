"""Run a build's output tasks on several cores.

Each task renders or computes part of the site and writes it with a ``SiteWriter`` on the
shared staging folder; it returns how many units of work (pages) it did, for progress.
Workers are forked after the catalog, derived data and citations are ready, so they share
them without pickling; only the records of the files written travel back. With one job,
or where fork is not available, the tasks run in this process, in order.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator, Protocol, Sequence, TypeVar

from .errors import OutputError

T = TypeVar("T")
R = TypeVar("R")


class SharedWriter(Protocol):
    """What a task writes with: the output writer (``write.staging.SiteWriter``), seen only
    through what the workers need, so running work in parallel does not depend on writing."""

    records: dict[str, Any]
    staged: list[str]
    bytes_written: int
    pages_kept: int

    def share(self) -> "SharedWriter": ...
    def merge(self, records: list[Any], staged: list[str], size: int, kept: int) -> None: ...


Task = Callable[[SharedWriter], int]
Progress = Callable[[int], None]

# Set just before the workers are forked; they inherit it (tasks are closures, not picklable).
# Module globals on purpose: what a forked child reads is its parent's memory at the fork.
_SHARED: tuple[Sequence[Task], SharedWriter] | None = None
_MAPPED: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


# Set by ``jobs_chosen`` for the length of a build: per thread (the preview's watcher and its
# rebuilds may choose differently), inherited by forked workers.
_JOBS: ContextVar[int | None] = ContextVar("papershelf_jobs", default=None)


@contextmanager
def jobs_chosen(jobs: int | None) -> Iterator[None]:
    """Within the block, every parallel step uses ``jobs`` workers (None: decide by size)."""
    token = _JOBS.set(jobs)
    try:
        yield
    finally:
        _JOBS.reset(token)


def default_jobs(units: int, minimum_units: int = 2000) -> int:
    """Worker processes for ``units`` of work (pages, papers): as chosen (``jobs_chosen``), else
    one per core, but none for small sites (forking costs more than it saves there)."""
    chosen = _JOBS.get()
    if chosen is not None:
        return chosen
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores) if units >= minimum_units else 1


_FROZEN = 0  # depth of nested ``frozen_heap`` blocks: as gc.freeze itself, one per process


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Within the block, the objects that exist at its start are left out of garbage collection.

    For the catalog, derived data and citations, which live until the build ends: forked
    workers share their memory pages instead of copying each page the collector would
    touch (Python's documentation of ``gc.freeze`` advises it before fork), and the
    collector stops walking them again and again."""
    global _FROZEN
    if _FROZEN == 0:
        gc.collect()
        gc.freeze()
    _FROZEN += 1
    try:
        yield
    finally:
        _FROZEN -= 1
        if _FROZEN == 0:
            gc.unfreeze()  # collectable again: ``build --serve`` builds again and again in one process


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def run_tasks(tasks: Sequence[Task], writer: SharedWriter, jobs: int, progress: Progress | None = None) -> None:
    """Run every task; their files end up in ``writer`` (an error in any task is raised here)."""
    global _SHARED
    report = progress or (lambda units: None)
    if jobs <= 1 or len(tasks) < 2 or not fork_available():
        for task in tasks:
            report(task(writer))
        return
    _SHARED = (tasks, writer)
    try:
        for records, staged, size, kept, units in _results(_run_one, range(len(tasks)), jobs):
            writer.merge(records, staged, size, kept)
            report(units)
    finally:
        _SHARED = None


def _results(func: Callable[[Any], R], args: Sequence[Any], jobs: int) -> Iterator[R]:
    """``func(arg)`` for each arg on ``jobs`` forked workers, as they finish.

    A worker that dies (killed for want of memory, say) is an OutputError, not a hang; an
    error in one stops the rest."""
    with frozen_heap():
        yield from _pooled(func, args, jobs)


def _pooled(func: Callable[[Any], R], args: Sequence[Any], jobs: int) -> Iterator[R]:
    try:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(args)), mp_context=multiprocessing.get_context("fork"))
    except (OSError, ImportError, NotImplementedError):  # no semaphores here (some sandboxes): one process
        yield from map(func, args)
        return
    try:
        try:
            futures = [pool.submit(func, arg) for arg in args]
        except (OSError, RuntimeError) as exc:
            raise OutputError(f"cannot start the build's worker processes ({exc}); try --jobs 1") from exc
        for future in as_completed(futures):
            try:
                yield future.result()
            except BrokenProcessPool as exc:
                raise OutputError("a worker process of the build died (out of memory?); "
                                  "try again with fewer workers, e.g. --jobs 1") from exc
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_one(index: int) -> tuple[list[Any], list[str], int, int, int]:
    assert _SHARED is not None, "run_tasks sets the shared tasks before forking"
    tasks, parent = _SHARED
    writer = parent.share()
    units = tasks[index](writer)
    return list(writer.records.values()), writer.staged, writer.bytes_written, writer.pages_kept, units


def parallel_map(func: Callable[[T], R], items: Sequence[T], jobs: int | None = None,
                 minimum_items: int = 2000) -> list[R]:
    """``[func(x) for x in items]``, on every core when there are many items.

    For pure per-item work (rendering each paper's Markdown and math): workers are forked,
    so ``func`` and ``items`` are shared, and only the results are sent back (pickled).
    """
    global _MAPPED
    count = len(items)
    jobs = default_jobs(count, minimum_items) if jobs is None else jobs
    if jobs <= 1 or count < 2 or not fork_available():
        return [func(item) for item in items]
    size = -(-count // (jobs * 4))  # a few chunks per worker, so a slow chunk does not hold up the rest
    _MAPPED = (func, items)
    try:
        bounds = [(start, min(start + size, count)) for start in range(0, count, size)]
        chunks = dict(zip(bounds, [None] * len(bounds)))
        for start_end, chunk in _results(_map_chunk, bounds, jobs):
            chunks[start_end] = chunk
    finally:
        _MAPPED = None
    return [result for chunk in chunks.values() for result in chunk]


def _map_chunk(bounds: tuple[int, int]) -> tuple[tuple[int, int], list[Any]]:
    assert _MAPPED is not None, "parallel_map sets the function and items before forking"
    func, items = _MAPPED
    return bounds, [func(items[i]) for i in range(*bounds)]
