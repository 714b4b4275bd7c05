"""The seed-import suite: the seed importer (``generator.importers.seeds.import_seeds``) with the
real taxonomy on the seed-format files ``bench.synth`` writes, in a subprocess
(``bench/import_child.py``): **fresh** into an empty content folder, then **unchanged** (the same
import again: every file compared, nothing written). Run by ``python -m bench.run --import-only``."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import asdict
from pathlib import Path

from bench import synth
from bench.harness import OUT
from bench.harness.catalogs import cached_seeds
from bench.harness.processes import REPORT, Sample, run_reporting


def seed_import(seeds: Path, content: Path, log: Path) -> Sample:
    """``import_seeds`` of every seed file in ``seeds`` into ``content``, in a subprocess."""
    return run_reporting([sys.executable, "-m", "bench.import_child", str(seeds), str(content), REPORT],
                         "the seed import", log)


def measure_import(n: int, seed: int, repeat: int) -> dict:
    """``repeat`` times: a fresh import into an empty content folder (``bench/out/import-<n>/``,
    left in place afterwards), then the same import again (every paper unchanged)."""
    print(f"== import {n} seed abstracts", flush=True)
    seeds = cached_seeds(n, seed)
    content = OUT / f"import-{n}"
    log = OUT / f"log-import-{n}.txt"
    log.write_text("")
    result: dict = {"papers": n, "seed": seed, "repeat": repeat, "load_before": os.getloadavg()[0],
                    "fresh": [], "unchanged": []}
    for i in range(repeat):
        shutil.rmtree(content, ignore_errors=True)
        content.mkdir(parents=True)
        shutil.copyfile(synth.TAGS_TOML, content / "tags.toml")
        for kind in ("fresh", "unchanged"):
            sample = seed_import(seeds, content, log)
            want = "created" if kind == "fresh" else "unchanged"
            if sample.report["statuses"].get(want) != n:
                raise RuntimeError(f"{kind} import of {n} papers: {sample.report['statuses']} (expected {n} {want})")
            result[kind].append(asdict(sample))
            print(f"  {kind} import {i + 1}/{repeat}: {sample.wall:.2f}s wall, "
                  f"{sample.report['seconds']:.2f}s in import_seeds ({1000 * sample.report['seconds'] / n:.2f} ms "
                  f"a paper), {sample.cpu:.1f} CPU s, {sample.peak_mb:.0f} MiB", flush=True)
    result["load_after"] = os.getloadavg()[0]
    return result
