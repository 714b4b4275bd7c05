"""Time the topics and trends of a catalog, and list the topics found (names and sizes).

    .venv/bin/python -m bench.topics_bench --content /tmp/real-cat/content
    .venv/bin/python -m bench.topics_bench --content content --markdown /tmp/topics.md --json /tmp/t.json

Loads the catalog and derives its views as a build does (``derive``, no build cache, so the
topics are computed in it once), then computes again, alone, what the topics and trends
cost a build: ``find_topics`` (terms, model, names, map: the value the build cache keeps),
``site_topics`` (that value turned into views) and ``site_trends``. Wall and CPU seconds
of each (the machine may be shared: CPU seconds are the steadier figure), the growth of
this process's RSS and its peak. ``--markdown`` writes the topics as a table (rank, name,
papers, keywords); ``--json`` the figures and topics.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

from generator.content.loader import load_catalog
from generator.derive import views as views_module
from generator.derive.topics import find_topics, site_topics
from generator.derive.trends import site_trends


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize() / 2**20


def timed(figures: dict, name: str, func):
    """``func()``, its wall and CPU seconds and RSS growth stored in ``figures`` under ``name``."""
    before, wall, cpu = rss_mb(), time.perf_counter(), time.process_time()
    value = func()
    figures[f"{name}_s"] = round(time.perf_counter() - wall, 3)
    figures[f"{name}_cpu_s"] = round(time.process_time() - cpu, 3)
    figures[f"{name}_rss_growth_mb"] = round(rss_mb() - before, 1)
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--content", type=Path, required=True, help="a content folder")
    parser.add_argument("--markdown", type=Path, help="write the topics here as a Markdown table")
    parser.add_argument("--json", type=Path, help="write the figures and topics here")
    parser.add_argument("--top", type=int, default=0, help="print only the largest N topics (0: all)")
    args = parser.parse_args(argv)
    figures: dict = {}
    catalog = timed(figures, "load", lambda: load_catalog(args.content))
    site = timed(figures, "derive", lambda: views_module.derive(catalog))
    papers = site.papers
    figures["papers"] = len(papers)
    figures["with_abstract"] = sum(1 for p in papers if p.abstract_plain.strip())
    texts = [(p.title_plain, p.abstract_plain) for p in papers]
    found = timed(figures, "find_topics", lambda: find_topics(texts))
    venue_years = {v.id: v.year for v in catalog.venues.values()}
    topics = timed(figures, "site_topics", lambda: site_topics(papers, venue_years, views_module._ref_counts))
    timed(figures, "site_trends", lambda: site_trends(papers, site.tags, topics.topics if topics else None))
    figures["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    rows = [] if topics is None else [
        {"rank": t.number, "id": t.ref.id, "name": t.ref.name, "papers": len(t.papers), "keywords": list(t.keywords)}
        for t in topics.topics]
    figures["topics"] = len(rows)
    assert found is None or len(found.names) == len(rows)
    for key, value in figures.items():
        print(f"{key}\t{value}")
    for row in rows[:args.top or None]:
        print(f"{row['rank']:4d} {row['papers']:6d}  {row['name']}  | {', '.join(row['keywords'][2:6])}")
    if args.markdown:
        lines = ["| # | topic | papers | more keywords |", "| ---: | --- | ---: | --- |"]
        lines += [f"| {r['rank']} | {r['name']} | {r['papers']:,} | {', '.join(r['keywords'][2:6])} |" for r in rows]
        args.markdown.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "topics": rows}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
