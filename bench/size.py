"""Output size of a built site, by part: bytes and files of each kind of output.

    .venv/bin/python bench/size.py SITE [--papers N] [--json]
    .venv/bin/python bench/size.py BEFORE AFTER --papers N      # a before/after table

Parts are the site's sections (``papers/``, ``authors/``, ``tags/``, ``venues/``,
``search/``, ...) split by what the files are (pages, BibTeX, RIS, feeds, data), and the
top-level files (``papers.json``, ``papers.bib``, ``sitemap.xml``, ...). The build's own
manifest (``.papershelf-site``, which the build keeps to rebuild incrementally and which
a deploy need not upload) is shown apart and not counted in the totals. ``bench/run.py``
calls ``size_report`` on the sites it builds; the per-paper budget of issue 13 is tested
deterministically in tests/outputs/test_output_budget.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

MANIFEST = ".papershelf-site"


def _kind(name: str) -> str:
    if name.endswith(".html"):
        return "pages"
    if name.endswith(".bib"):
        return "BibTeX"
    if name.endswith(".ris"):
        return "RIS"
    if name == "feed.xml":
        return "feeds"
    return "data"


def part_of(rel: str) -> str:
    """The part a file (path relative to the site root) is counted in."""
    head, _, rest = rel.partition("/")
    if not rest:
        return rel  # a top-level file
    if head in ("search", "static", "reading-list"):
        return head + "/"
    return f"{head}/ {_kind(rest.rsplit('/', 1)[-1])}"


def size_report(site: Path) -> dict[str, object]:
    """``{"parts": {part: [bytes, files]}, "bytes", "files", "bytes_no_search", "files_no_search",
    "manifest_bytes"}`` of the site folder ``site``."""
    parts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    manifest = 0
    for root, _dirs, files in os.walk(site):
        for name in files:
            path = Path(root, name)
            rel = path.relative_to(site).as_posix()
            size = path.stat().st_size
            if rel == MANIFEST:
                manifest = size
                continue
            entry = parts[part_of(rel)]
            entry[0] += size
            entry[1] += 1
    total = sum(b for b, _ in parts.values())
    files = sum(f for _, f in parts.values())
    search = parts.get("search/", [0, 0])
    return {
        "parts": dict(sorted(parts.items(), key=lambda kv: -kv[1][0])),
        "bytes": total,
        "files": files,
        "bytes_no_search": total - search[0],
        "files_no_search": files - search[1],
        "manifest_bytes": manifest,
    }


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB" if n >= 100_000 else f"{n / 1e3:,.1f} kB"


def markdown(reports: list[tuple[str, dict]], papers: int | None) -> str:
    """A table of the parts of one or more size reports (columns: bytes and files of each)."""
    names: list[str] = []
    for _, report in reports:
        for part in report["parts"]:  # type: ignore[union-attr]
            if part not in names:
                names.append(part)
    head = "| part | " + " | ".join(f"{label} | files" for label, _ in reports) + " |"
    rule = "| --- | " + " | ".join("---: | ---:" for _ in reports) + " |"
    lines = [head, rule]
    for part in names:
        cells = []
        for _, report in reports:
            size, count = report["parts"].get(part, [0, 0])  # type: ignore[union-attr]
            cells.append(f"{_mb(size)} | {count:,}")
        lines.append(f"| {part} | " + " | ".join(cells) + " |")
    for label, key, fkey in (("**total**", "bytes", "files"), ("total without search/", "bytes_no_search",
                                                                 "files_no_search")):
        lines.append(f"| {label} | " + " | ".join(f"**{_mb(r[key])}** | {r[fkey]:,}" for _, r in reports) + " |")
    if papers:
        lines.append("| per paper | " + " | ".join(
            f"{r['bytes'] / papers / 1e3:.1f} kB ({r['bytes_no_search'] / papers / 1e3:.1f} kB without search) | "
            f"{r['files'] / papers:.2f}" for _, r in reports) + " |")
    lines.append("")
    lines.append("Not counted: the build's manifest `.papershelf-site` ("
                 + ", ".join(f"{label}: {_mb(r['manifest_bytes'])}" for label, r in reports) + ").")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", type=Path, nargs="+", help="built site folder(s); two make a before/after table")
    parser.add_argument("--papers", type=int, default=None, help="papers in the catalog (for per-paper figures)")
    parser.add_argument("--json", action="store_true", help="print the report(s) as JSON")
    args = parser.parse_args(argv)
    reports = [(site.name, size_report(site)) for site in args.sites]
    if args.json:
        print(json.dumps({label: r for label, r in reports}, indent=2))
    else:
        sys.stdout.write(markdown(reports, args.papers))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
