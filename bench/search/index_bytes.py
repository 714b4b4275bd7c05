"""Bytes of the search files one query fetches, without a browser (any catalog size).

Usage (from the repository root)::

    .venv/bin/python -m bench.search.index_bytes SITE_DIR [query ...]   (after transfer.py's set)

SITE_DIR holds ``search/`` (a built site, or the files of ``build_search`` written out).
For each query (by default ``transfer.py``'s set), the page's own service
(``static/js/search-engine.js`` under Node, through ``tests/js/search_runner.js``) answers it
on a fresh start as a page opened at ``?q=...`` would; the files it fetched are summed, gzip
(level 6, as ``transfer.py``'s server sends them), by kind. Not included: the page, its
stylesheet and scripts (53 kB at 10,000 papers) and the paper pages of the results in sight
(~4 kB each), which ``transfer.py`` measures in Chromium.
"""

from __future__ import annotations

import collections
import gzip
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNNER = HERE.parents[1] / "tests" / "js" / "search_runner.js"


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    root = Path(sys.argv[1])
    from bench.search.transfer import QUERIES

    queries = list(QUERIES.values()) + sys.argv[2:]  # transfer.py's set, then the given ones
    done = subprocess.run(["node", str(RUNNER)], input=json.dumps({"root": str(root), "fetches": queries}),
                          capture_output=True, text=True, check=True)
    sizes: dict[str, int] = {}
    totals = []
    for item in json.loads(done.stdout)["fetches"]:
        kinds: collections.Counter = collections.Counter()
        counts: collections.Counter = collections.Counter()
        for path in item["files"]:
            if path not in sizes:
                data = (root / path).read_bytes()  # a stored .gz file goes as it is
                sizes[path] = len(data) if path.endswith(".gz") else len(gzip.compress(data, 6))
            kind = path.split("/")[1]
            kinds[kind] += sizes[path]
            counts[kind] += 1
        total = sum(kinds.values())
        totals.append(total)
        parts = ", ".join(f"{k} {counts[k]}: {v / 1000:.1f}" for k, v in sorted(kinds.items()))
        print(f"{item['q'][:40]:40} {item['total']:7} papers  {total / 1000:6.1f} kB  ({parts})", flush=True)
    print(f"median {statistics.median(totals) / 1000:.1f} kB, max {max(totals) / 1000:.1f} kB")
    # A query typed letter by letter: one page, each file once.
    from bench.search.transfer import TYPED

    steps = [TYPED[:i] for i in range(1, len(TYPED) + 1)]
    done = subprocess.run(["node", str(RUNNER)], input=json.dumps({"root": str(root), "typed": steps}),
                          capture_output=True, text=True, check=True)
    files = set(json.loads(done.stdout)["typed"]["files"])
    for path in files:
        if path not in sizes:
            data = (root / path).read_bytes()
            sizes[path] = len(data) if path.endswith(".gz") else len(gzip.compress(data, 6))
    print(f"typed letter by letter {TYPED!r}: {len(files)} files, {sum(sizes[p] for p in files) / 1000:.1f} kB")


if __name__ == "__main__":
    main()
