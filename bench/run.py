"""Benchmark Papershelf against Hugo on synthetic catalogs; write the report in bench/out/.

    .venv/bin/python -m bench.run --papers 1000,10000 --repeat 3
    .venv/bin/python -m bench.run --papers 50000 --repeat 1      # adds the 50k figures

For each size the synthetic catalog (``bench/synth/``) is generated once and cached in
``bench/out/`` (git-ignored), with its Hugo conversion. Then, in one run:

* **cold build**: ``papershelf build`` into a fresh (deleted) output folder, with an empty
  build cache (its own, ``bench/out/cache-<catalog>/``);
* **no-change rebuild**: the same command again, nothing changed;
* **one-paper-edit rebuild**: one paper's title edited (then restored: the restore is
  the next edit sample), rebuilt with the build cache the builds before left;
* **Hugo**: ``hugo`` building the same papers with the minimal theme in ``bench/hugo/``
  (paper, tag, venue, author and list pages) into a fresh folder.

Each is run ``--repeat`` times in a subprocess; the tables show medians. Per build:
wall time, time per stage (the ``BuildReport`` the CLI returns, captured by
``bench/build_json.py``), peak memory (max RSS of the child, from ``os.wait4``), pages,
output size, search index size raw and gzipped. The file cache is warm (the catalog was
just read), as it is when someone rebuilds.

Results accumulate in ``bench/out/results.json`` (git-ignored; one entry per size, replaced
when that size is measured again) and ``bench/out/RESULTS.md`` is rewritten from all of them;
``--markdown bench/RESULTS.md`` rewrites the published report. The harness (processes, sizes,
Hugo, caches, machine, report) is ``bench/harness/``; the import suite ``bench/seed_import.py``.

**Import** (``--import-only``, or ``--import`` to add it to a full run): the seed importer
(``generator.importers.seeds.import_seeds``) with the real taxonomy (``content/tags.toml``)
on the seed-format files ``bench.synth`` writes (``write_seed_files``, cached in
``bench/out/seeds-<n>-seed<seed>/``), in a subprocess: **fresh** into an empty content
folder, then **unchanged** (the same import again into the filled folder: every file
compared, nothing written)::

    .venv/bin/python -m bench.run --import-only --papers 10000 --repeat 1

Shown: wall time of the process, the seconds spent in ``import_seeds`` itself, ms per
paper, CPU seconds; results under ``"import"``.

**Serve edits** (``--serve-edit-only``, or ``--serve-edit`` to add it to a full run): issue
12's save-to-page latency of ``build --serve`` (``bench/serve_edit.py``: ``--edits`` title
edits, each timed from the file write until the page is served with the new title, the
reload and the full rebuild after it; the server's peak RSS); results under
``"serve_edit"``::

    .venv/bin/python -m bench.run --serve-edit-only --papers 1000,10000 --edits 10
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import sys
from dataclasses import asdict
from pathlib import Path

from bench import serve_edit
from bench.harness import BASE_URL, OUT
from bench.harness.catalogs import cached_catalog
from bench.harness.hugo import HUGO, cached_hugo_site, hugo_build
from bench.harness.machine import machine
from bench.harness.processes import Sample, papershelf_build
from bench.harness.report import (RESULTS_JSON, RESULTS_MD, fmt, load_results, render_markdown, save_results,
                                  summarise)
from bench.harness.sizes import count_dirs, index_terms, search_sizes, size_report, tree_size
from bench.seed_import import measure_import
from generator.content import frontmatter


class TitleEditor:
    """Edits one paper's title and restores the file byte for byte."""

    def __init__(self, content: Path):
        papers = sorted((content / "papers").glob("*.md"))
        self.path = papers[len(papers) // 2]
        self.original = self.path.read_bytes()
        self.edited = False
        self.count = 0

    def toggle(self) -> None:
        if self.edited:
            self.path.write_bytes(self.original)
        else:
            self.count += 1
            fm = frontmatter.parse(self.original.decode("utf-8"), self.path.name)
            data = dict(fm.data)
            data["title"] = f"{data['title']} (edited {self.count})"
            self.path.write_text(frontmatter.dump(data, fm.body), encoding="utf-8")
        self.edited = not self.edited

    def restore(self) -> None:
        if self.path.read_bytes() != self.original:
            self.path.write_bytes(self.original)
        self.edited = False


def measure_size(n: int, seed: int, repeat: int, use_hugo: bool,
                 builds: tuple[str, ...] = ("cold", "nochange", "edit"), rebuild_repeat: int | None = None) -> dict:
    print(f"== {n} papers", flush=True)
    content = cached_catalog(n, seed)
    site = OUT / f"site-{n}"
    log = OUT / f"log-{n}.txt"
    log.write_text("")
    rebuild_repeat = repeat if rebuild_repeat is None else rebuild_repeat
    result: dict = {"papers": n, "seed": seed, "repeat": repeat, "rebuild_repeat": rebuild_repeat,
                    "load_before": os.getloadavg()[0]}

    cold: list[Sample] = []
    for i in range(repeat):
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(OUT / f"cache-{content.name}", ignore_errors=True)  # a first build: no cache either
        cold.append(papershelf_build(content, site, log))
        print(f"  cold build {i + 1}/{repeat}: {cold[-1].wall:.2f}s, {cold[-1].peak_mb:.0f} MiB", flush=True)
    files, html, size = tree_size(site)
    result["output"] = {"files": files, "html_pages": html, "bytes": size,
                        "pages_reported": cold[-1].report.get("pages"),
                        "bytes_reported": cold[-1].report.get("bytes_written"),
                        "search": search_sizes(site), "index_terms": index_terms(site),
                        "authors": count_dirs(site / "authors"), "venues": count_dirs(site / "venues"),
                        "tags": count_dirs(site / "tags"), "base_url": BASE_URL,
                        "parts": size_report(site)}
    nochange: list[Sample] = []
    for i in range(rebuild_repeat if "nochange" in builds else 0):
        nochange.append(papershelf_build(content, site, log))
        print(f"  no-change rebuild {i + 1}/{rebuild_repeat}: {nochange[-1].wall:.2f}s", flush=True)
    edit: list[Sample] = []
    editor = TitleEditor(content)
    try:
        for i in range(rebuild_repeat if "edit" in builds else 0):
            editor.toggle()
            edit.append(papershelf_build(content, site, log))
            print(f"  one-edit rebuild {i + 1}/{rebuild_repeat}: {edit[-1].wall:.2f}s", flush=True)
    finally:
        editor.restore()
    result["edited_file"] = editor.path.name
    result["ours"] = {"cold": [asdict(s) for s in cold], "nochange": [asdict(s) for s in nochange],
                      "edit": [asdict(s) for s in edit]}

    if use_hugo:
        hugo_site = cached_hugo_site(n, seed, content)
        hugo_out = OUT / f"hugo-public-{n}"
        runs: list[Sample] = []
        for i in range(repeat):
            shutil.rmtree(hugo_out, ignore_errors=True)
            runs.append(hugo_build(hugo_site, hugo_out, log))
            print(f"  hugo build {i + 1}/{repeat}: {runs[-1].wall:.2f}s, {runs[-1].peak_mb:.0f} MiB", flush=True)
        files, html, size = tree_size(hugo_out)
        result["hugo"] = {"cold": [asdict(s) for s in runs],
                          "output": {"files": files, "html_pages": html, "bytes": size}}
        shutil.rmtree(hugo_out, ignore_errors=True)
    shutil.rmtree(site, ignore_errors=True)
    result["load_after"] = os.getloadavg()[0]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", default="1000,10000",
                        help="comma-separated catalog sizes (default: 1000,10000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each build (median shown)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-hugo", action="store_true", help="skip the Hugo comparison")
    parser.add_argument("--rebuild-repeat", type=int, default=None,
                        help="runs of the no-change and one-edit rebuilds (default: --repeat)")
    parser.add_argument("--builds", default="cold,nochange,edit",
                        help="which Papershelf builds to time (default: cold,nochange,edit; e.g. 'cold' for 50k)")
    parser.add_argument("--results", type=Path, default=RESULTS_JSON, help="results file (JSON) to update")
    parser.add_argument("--markdown", type=Path, default=RESULTS_MD, help="Markdown report to rewrite")
    parser.add_argument("--report-only", action="store_true",
                        help="measure nothing: rewrite the Markdown report from the results file")
    parser.add_argument("--import", dest="with_import", action="store_true",
                        help="also time the seed import (fresh and unchanged) of each size")
    parser.add_argument("--import-only", action="store_true",
                        help="time only the seed import of each size (no builds, no Hugo)")
    parser.add_argument("--serve-edit", action="store_true",
                        help="also time title edits under build --serve (bench/serve_edit.py) at each size")
    parser.add_argument("--serve-edit-only", action="store_true",
                        help="time only the build --serve edits of each size (no builds, no Hugo)")
    parser.add_argument("--edits", type=int, default=10, help="title edits timed under build --serve")
    parser.add_argument("--settled", type=int, default=None,
                        help="of those, how many wait for their rebuild (default: all; the rest are made "
                             "5 s apart while rebuilds run)")
    args = parser.parse_args(argv)
    if args.report_only:
        results = load_results(args.results)
        args.markdown.write_text(render_markdown(results), encoding="utf-8")
        print(f"Wrote {args.markdown}")
        return 0
    sizes = [int(x.replace("_", "")) for x in args.papers.split(",") if x.strip()]
    if not sizes or min(sizes) < 1 or args.repeat < 1:
        parser.error("--papers needs positive sizes and --repeat at least 1")
    builds = tuple(b.strip() for b in args.builds.split(",") if b.strip())
    if "cold" not in builds or set(builds) - {"cold", "nochange", "edit"}:
        parser.error("--builds: 'cold' plus any of 'nochange', 'edit'")
    only = args.import_only or args.serve_edit_only
    use_hugo = not args.no_hugo and not only
    if use_hugo and not Path(HUGO).exists():
        print("hugo not found (apt-get install hugo); running without the Hugo comparison", file=sys.stderr)
        use_hugo = False
    OUT.mkdir(parents=True, exist_ok=True)
    results = load_results(args.results)
    command = "python -m bench.run " + " ".join(argv if argv is not None else sys.argv[1:])
    info = machine()
    for n in sizes if args.import_only or args.with_import else []:
        entry = measure_import(n, args.seed, args.repeat)
        entry.update(date=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), command=command.strip(), machine=info)
        results.setdefault("import", {})[str(n)] = entry
        save_results(results, args.results, args.markdown)
    for n in sizes if args.serve_edit_only or args.serve_edit else []:
        print(f"== build --serve, {n} papers, {args.edits} title edits", flush=True)
        entry = serve_edit.measure(cached_catalog(n, args.seed), args.edits, OUT / f"log-serve-{n}.txt",
                                   args.settled)
        entry.update(date=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), command=command.strip(), machine=info)
        results.setdefault("serve_edit", {})[str(n)] = entry
        save_results(results, args.results, args.markdown)
        print("  => " + serve_edit.summary(entry), flush=True)
    for n in [] if only else sizes:
        entry = measure_size(n, args.seed, args.repeat, use_hugo, builds, args.rebuild_repeat)
        entry["date"] = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
        entry["command"] = command.strip()
        entry["machine"] = info
        results.setdefault("sizes", {})[str(n)] = entry
        save_results(results, args.results, args.markdown)
        s = summarise(entry)
        print(f"  => cold {s['cold']:.2f}s, Hugo {fmt(s['hugo'], 's')}, ratio {fmt(s['ratio'], '×', 1)}, "
              f"no-change {fmt(s['nochange'], 's')}, edit {fmt(s['edit'], 's')}, peak {s['peak_mb']:.0f} MiB",
              flush=True)
    print(f"Wrote {args.markdown} and {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
