"""What a page for every author costs (issue 36): a synthetic catalog (bench/synth/) built
with ``author_page_min_papers = 2`` and with ``1``, sized as a static host counts it
(bench/harness/sizes.py's tar), and the difference per extra page.

    .venv/bin/python -m bench.people_cost 5000 /tmp/people-cost      # N papers, a work folder
    .venv/bin/python -m bench.people_cost 5000 /tmp/people-cost --at 100000

``--at M`` scales the difference to M papers by the extra pages' share of the authors (the
synth's authorship: one-paper authors grow with the catalog) and their measured average cost.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def measure(n: int, work: Path) -> dict[str, object]:
    from bench import synth
    from bench.harness import sizes as size
    from generator.build import BuildOptions, build
    content = synth.generate(n, work / "content", seed=0)
    site_toml = (content / "site.toml").read_text(encoding="utf-8")
    found: dict[str, object] = {"papers": n}
    for threshold in (2, 1):
        (content / "site.toml").write_text(site_toml + f"author_page_min_papers = {threshold}\n", encoding="utf-8")
        out = work / f"site-{threshold}"
        build(BuildOptions(content=content, output=out, base_url="https://example.org/catalog/", cache=None))
        report = size.size_report(out)
        pages = list((out / "authors").glob("*/*/index.html"))
        found[f"min {threshold}"] = {"tar": report["tar"], "files": report["files"], "author pages": len(pages),
                                     "author page bytes": sum(p.stat().st_size for p in pages)}
    one, two = found["min 1"], found["min 2"]
    extra = one["author pages"] - two["author pages"]
    found["extra pages"] = extra
    found["tar per extra page"] = round((one["tar"] - two["tar"]) / extra) if extra else 0
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("papers", type=int)
    parser.add_argument("work", type=Path)
    parser.add_argument("--at", type=int, default=None, help="scale the difference to this many papers")
    args = parser.parse_args(argv)
    found = measure(args.papers, args.work)
    if args.at:
        scale = args.at / args.papers
        found[f"at {args.at:,} papers (scaled)"] = {
            "extra pages": round(found["extra pages"] * scale),
            "extra tar MB": round(found["extra pages"] * scale * found["tar per extra page"] / 1e6, 1),
        }
    print(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
