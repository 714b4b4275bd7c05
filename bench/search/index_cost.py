"""CPU time and memory of building the search files, against another commit's builder.

Usage (from the repository root)::

    .venv/bin/python -m bench.search.index_cost CATALOG [--against REV]

Loads and derives the catalog once per side (in a fresh process each), then times
``build_search`` alone: CPU seconds, the rise of the process's peak memory (ru_maxrss)
over the loaded catalog, and the files' count and size. ``--against`` (e.g. the commit
before the split index, 74dbecc) runs that commit's ``generator`` from ``git archive``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

MEASURE = r"""
import gc, gzip, resource, sys, time
from pathlib import Path
from generator.content.loader import load_catalog
from generator.derive.views import derive
from generator.outputs.search import build_search
site = derive(load_catalog(Path(sys.argv[1])))
gc.collect()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t = time.process_time()
files = build_search(site)
cpu = time.process_time() - t
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
raw = sum(len(v.encode()) for v in files.values())
print(f"build_search CPU {cpu:.1f} s, peak memory +{after - before:.0f} MB over the loaded catalog "
      f"({before:.0f} -> {after:.0f} MB), {len(files)} files, {raw / 1e6:.1f} MB")
"""


def run(root: Path, catalog: Path) -> str:
    done = subprocess.run([sys.executable, "-c", MEASURE, str(catalog.resolve())], cwd=root, capture_output=True,
                          text=True)  # cwd first on `python -c`'s path: that checkout's generator
    if done.returncode:
        raise SystemExit(done.stderr)
    return done.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("catalog", type=Path)
    ap.add_argument("--against", help="a git revision whose generator/ to measure too")
    args = ap.parse_args()
    print("this tree:", run(REPO, args.catalog.resolve()), flush=True)
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "archive", args.against, "generator"], cwd=REPO, capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            print(f"{args.against}:", run(Path(tmp), args.catalog.resolve()), flush=True)


if __name__ == "__main__":
    main()
