"""Profile one cold ``build()`` of a synthetic catalog: time by function, memory by stage.

    .venv/bin/python -m bench.profile_build --papers 10000 --cprofile      # cProfile, top functions
    .venv/bin/python -m bench.profile_build --papers 10000 --pyinstrument  # sampling (pip install pyinstrument)
    .venv/bin/python -m bench.profile_build --papers 10000 --memory        # RSS after each stage
    .venv/bin/python -m bench.profile_build --papers 2000 --tracemalloc    # what holds memory after each stage

The catalog comes from the same cache as bench/run.py (``bench/out/catalog-<n>-seed0``).
Reports go to ``bench/out/profile-<n>-*.txt``; bench/PROFILE.md summarises them.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import resource
import shutil
import sys
import time
import tracemalloc

import generator.build as build_module
import generator.pipeline as pipeline_module
from bench.harness import OUT
from bench.harness.catalogs import cached_catalog

# Functions ``pipeline.generate()`` calls, by the name it knows them under: wrapped to see memory after each.
STAGE_FUNCTIONS = ("load_catalog", "derive", "build_search", "make_environment")


def current_rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def watch_stages(record: list[tuple[str, float, float, float]], snapshots: list | None = None) -> None:
    started = time.perf_counter()
    for name in STAGE_FUNCTIONS:
        real = getattr(pipeline_module, name, None)
        if real is None:
            continue

        def wrapped(*args, _real=real, _name=name, **kwargs):
            result = _real(*args, **kwargs)
            record.append((_name, time.perf_counter() - started, current_rss_mb(), peak_rss_mb()))
            if snapshots is not None:
                snapshots.append((_name, tracemalloc.take_snapshot()))
            return result

        setattr(pipeline_module, name, wrapped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--cprofile", action="store_true")
    mode.add_argument("--pyinstrument", action="store_true")
    mode.add_argument("--memory", action="store_true")
    mode.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--top", type=int, default=45)
    args = parser.parse_args(argv)

    content = cached_catalog(args.papers, args.seed)
    output = OUT / f"profile-site-{args.papers}"
    shutil.rmtree(output, ignore_errors=True)
    # One process, so the profilers see all the work (a real build forks workers on large sites).
    options = build_module.BuildOptions(content=content, output=output, jobs=1)
    kind = next(k for k in ("cprofile", "pyinstrument", "memory", "tracemalloc") if getattr(args, k))
    report_path = OUT / f"profile-{args.papers}-{kind}.txt"
    text = io.StringIO()
    stages: list[tuple[str, float, float, float]] = []
    print(f"RSS at start (imports done): {current_rss_mb():.0f} MiB", file=text)

    if args.cprofile:
        profiler = cProfile.Profile()
        profiler.enable()
        report = build_module.build(options)
        profiler.disable()
        profiler.dump_stats(str(OUT / f"profile-{args.papers}.prof"))
        for order in ("tottime", "cumulative"):
            print(f"\n===== by {order}", file=text)
            pstats.Stats(profiler, stream=text).sort_stats(order).print_stats(args.top)
    elif args.pyinstrument:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.002)
        profiler.start()
        report = build_module.build(options)
        profiler.stop()
        print(profiler.output_text(unicode=True, color=False, show_all=False), file=text)
    elif args.memory:
        watch_stages(stages)
        gc.collect()
        report = build_module.build(options)
    else:
        tracemalloc.start(8)
        snapshots: list = []
        watch_stages(stages, snapshots)
        report = build_module.build(options)
        traced, traced_peak = tracemalloc.get_traced_memory()
        print(f"tracemalloc: {traced / 2**20:.0f} MiB held at the end, peak {traced_peak / 2**20:.0f} MiB",
              file=text)
        for name, snapshot in snapshots:
            total = sum(s.size for s in snapshot.statistics("filename"))
            print(f"\n===== held after {name}: {total / 2**20:.0f} MiB; by file", file=text)
            for stat in snapshot.statistics("filename")[:12]:
                print(f"  {stat.size / 2**20:8.1f} MiB  {stat.count:9,d} blocks  {stat.traceback[0].filename}",
                      file=text)
            print("  -- by line", file=text)
            for stat in snapshot.statistics("lineno")[:12]:
                frame = stat.traceback[0]
                print(f"  {stat.size / 2**20:8.1f} MiB  {stat.count:9,d} blocks  {frame.filename}:{frame.lineno}",
                      file=text)

    print(f"\nBuild report: {report.pages} pages, {report.bytes_written / 1e6:.1f} MB, stages "
          + ", ".join(f"{k} {v:.2f}s" for k, v in report.seconds.items()), file=text)
    if stages:
        print("\nMemory after each stage (seconds since start, current RSS, peak RSS so far):", file=text)
        for name, t, rss, peak in stages:
            print(f"  {name:<18} {t:7.2f}s  {rss:7.0f} MiB  {peak:7.0f} MiB", file=text)
    print(f"Peak RSS of the whole build: {peak_rss_mb():.0f} MiB", file=text)
    report_path.write_text(text.getvalue(), encoding="utf-8")
    print(text.getvalue()[-3000:])
    print(f"(full report: {report_path})")
    shutil.rmtree(output, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
