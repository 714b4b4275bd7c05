"""Output size of a built site, by part, as a static host counts it.

    .venv/bin/python -m bench.harness.sizes SITE [--papers N] [--json]
    .venv/bin/python -m bench.harness.sizes BEFORE AFTER --papers N      # a before/after table

Parts are the site's sections (``papers/``, ``authors/``, ``tags/``, ``venues/``,
``search/``, ...) split by what the files are (pages, BibTeX, feeds, data), and the
top-level files (``papers.json``, the catalog's yearly ``papers-<year>.*.gz``, the sitemap
index ``sitemap.xml`` and its ``sitemap-<n>.xml.gz``, ...). For each: the bytes of its files, how many, and what they cost in a tar archive.

**The tar size** is what GitHub Pages counts against its 1 GB (the site is uploaded as a tar,
``actions/upload-pages-artifact``, not compressed): GNU tar's default format, as
``tar -cf - -C SITE . | wc -c`` writes it: every entry (file or folder, ``./`` included) has
a 512-byte header, a file's bytes are padded to 512, a name longer than 100 bytes costs a
``././@LongLink`` entry more (a header and the name, padded), and the archive ends with two
zero blocks, rounded up to tar's 10,240-byte record (``tar_size``; checked against tar
itself in tests/test_bench_size.py). The build's own manifest (``.papershelf-site``, which
the build keeps to rebuild incrementally) is shown apart and left out of the parts and of
``tar``, as the upload action leaves out dot files; ``tar_all`` counts it, as the plain
``tar`` command does.

Also reported: **the widest folder** (Netlify fails a deploy with a folder of more than
54,000 entries) and **the largest file** (Cloudflare Pages refuses files over 25 MiB).
``bench/run.py`` calls ``size_report`` (and ``tree_size``, ``search_sizes``) on the sites it builds; the per-paper budget is
tested on a synthetic catalog in tests/outputs/test_output_budget.py.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

MANIFEST = ".papershelf-site"
BLOCK = 512
RECORD = 20 * BLOCK  # tar's default blocking factor
NAME_FIELD = 100  # a longer name takes a GNU ././@LongLink entry


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
        if head.startswith("papers-") and head.endswith(".bib.gz"):
            return "papers-<year>.bib.gz"
        if head.startswith("papers-") and head.endswith(".json.gz"):
            return "papers-<year>.json.gz"
        if head.startswith("sitemap"):
            return "sitemap*.xml(.gz)"
        return rel  # a top-level file
    if head in ("search", "static", "reading-list"):
        return head + "/"
    return f"{head}/ {_kind(rest.rsplit('/', 1)[-1])}"


def _blocks(size: int) -> int:
    return -(-size // BLOCK) * BLOCK


def entry_size(name: str, size: int = 0) -> int:
    """What one entry costs in a GNU tar archive: ``name`` as tar writes it (``./a/b`` for a
    file, ``./a/`` for a folder), ``size`` its bytes (0 for a folder)."""
    length = len(name.encode("utf-8", "surrogateescape"))
    long_name = BLOCK + _blocks(length + 1) if length > NAME_FIELD else 0
    return BLOCK + long_name + _blocks(size)


def archive_size(entries: int) -> int:
    """The archive of entries that cost ``entries`` bytes: two zero blocks, whole records."""
    return -(-(entries + 2 * BLOCK) // RECORD) * RECORD


def size_report(site: Path) -> dict[str, object]:
    """``{"parts": {part: [bytes, files, tar bytes]}, "bytes", "files", "tar", "tar_all",
    "bytes_no_search", "files_no_search", "widest": [folder, entries], "largest": [file,
    bytes], "manifest_bytes"}`` of the site folder ``site`` (the manifest counted only in
    ``tar_all``; a folder's header in the part of the files it holds)."""
    parts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    manifest = 0
    folders_tar = 0
    widest = ("", -1)
    largest = ("", -1)
    for root, dirs, files in os.walk(site):
        dirs.sort()
        rel_dir = Path(root).relative_to(site).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        entries = len(dirs) + len(files) - (MANIFEST in files and not prefix)
        if entries > widest[1]:
            widest = (prefix or "./", entries)
        parts_here = []
        for name in files:
            path = Path(root, name)
            rel = prefix + name
            size = path.lstat().st_size
            if rel == MANIFEST:
                manifest = size
                continue
            part = part_of(rel)
            parts_here.append(part)
            entry = parts[part]
            entry[0] += size
            entry[1] += 1
            entry[2] += entry_size("./" + rel, size)
            if size > largest[1]:
                largest = (rel, size)
        header = entry_size("./" + prefix)
        if parts_here:  # the folder of a page (papers/v/x/) counts with the page
            parts[max(set(parts_here), key=parts_here.count)][2] += header
        else:
            folders_tar += header
    if folders_tar:
        parts["(folders)"][2] += folders_tar
    total = sum(b for b, _, _ in parts.values())
    files = sum(f for _, f, _ in parts.values())
    entries = sum(t for _, _, t in parts.values())
    search = parts.get("search/", [0, 0, 0])
    return {
        "parts": dict(sorted(parts.items(), key=lambda kv: -kv[1][2])),
        "bytes": total,
        "files": files,
        "tar": archive_size(entries),
        "tar_all": archive_size(entries + (entry_size("./" + MANIFEST, manifest) if manifest else 0)),
        "bytes_no_search": total - search[0],
        "files_no_search": files - search[1],
        "widest": list(widest),
        "largest": list(largest),
        "manifest_bytes": manifest,
    }


def tree_size(root: Path) -> tuple[int, int, int]:
    """(files, HTML pages, bytes) under ``root``."""
    files = pages = size = 0
    for folder, _, names in os.walk(root):
        for name in names:
            files += 1
            pages += name.endswith(".html")
            size += os.path.getsize(os.path.join(folder, name))
    return files, pages, size


def search_sizes(site: Path) -> dict[str, int]:
    """Bytes of each file under ``search/`` (not HTML), raw and gzipped, and their totals."""
    sizes: dict[str, int] = {}
    search = site / "search"
    raw = gz = 0
    for path in sorted(search.rglob("*")) if search.is_dir() else []:
        if not path.is_file() or path.suffix == ".html":
            continue
        data = path.read_bytes()
        name = path.relative_to(search).as_posix()
        sizes[name] = len(data)
        sizes[name + ".gz"] = len(gzip.compress(data, compresslevel=6, mtime=0))
        raw += sizes[name]
        gz += sizes[name + ".gz"]
    sizes["total"], sizes["total.gz"] = raw, gz
    return sizes


def index_terms(site: Path) -> int | None:
    """Distinct terms in the lunr index(es) under ``search/`` (the corpus' vocabulary)."""
    terms: set[str] = set()
    found = False
    for path in sorted((site / "search").glob("*.json")) if (site / "search").is_dir() else []:
        try:
            data = json.loads(path.read_bytes())
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("invertedIndex"), list):
            found = True
            terms.update(entry[0] for entry in data["invertedIndex"] if entry)
    return len(terms) if found else None


def count_dirs(folder: Path) -> int:
    return sum(1 for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else 0


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB" if n >= 100_000 else f"{n / 1e3:,.1f} kB"


def markdown(reports: list[tuple[str, dict]], papers: int | None) -> str:
    """A table of the parts of one or more size reports (columns: tar bytes, bytes and files)."""
    names: list[str] = []
    for _, report in reports:
        for part in report["parts"]:  # type: ignore[union-attr]
            if part not in names:
                names.append(part)
    head = "| part | " + " | ".join(f"{label}: tar | bytes | files" for label, _ in reports) + " |"
    rule = "| --- | " + " | ".join("---: | ---: | ---:" for _ in reports) + " |"
    lines = [head, rule]
    for part in names:
        cells = []
        for _, report in reports:
            size, count, tar = ([*report["parts"].get(part, []), 0, 0, 0])[:3]  # type: ignore[union-attr]
            # (reports kept from before the tar sizes have [bytes, files]: tar 0)
            cells.append(f"{_mb(tar)} | {_mb(size)} | {count:,}")
        lines.append(f"| {part} | " + " | ".join(cells) + " |")
    lines.append("| **total** | " + " | ".join(f"**{_mb(r.get('tar', 0))}** | **{_mb(r['bytes'])}** | {r['files']:,}"
                                              for _, r in reports) + " |")
    if papers:
        lines.append("| per paper | " + " | ".join(
            f"{r.get('tar', 0) / papers / 1e3:.1f} kB | {r['bytes'] / papers / 1e3:.1f} kB | {r['files'] / papers:.2f}"
            for _, r in reports) + " |")
    lines.append("")
    for label, r in reports:
        if "widest" not in r:
            continue
        folder, entries = r["widest"]
        name, size = r["largest"]
        lines.append(f"- {label}: tar {r['tar']:,} bytes ({r['tar_all']:,} with the build's manifest, "
                     f"{_mb(r['manifest_bytes'])}, which the upload leaves out); widest folder `{folder}` "
                     f"({entries:,} entries); largest file `{name}` ({_mb(size)}).")
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
