"""Benchmark Papershelf against Hugo on synthetic catalogs; write bench/RESULTS.md.

    .venv/bin/python bench/run.py --papers 1000,10000 --repeat 3
    .venv/bin/python bench/run.py --papers 50000 --repeat 1      # adds the 50k figures

For each size the synthetic catalog (``bench/synth.py``) is generated once and cached in
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

Results accumulate in ``bench/results.json`` (one entry per size, replaced when that
size is measured again) and ``bench/RESULTS.md`` is rewritten from all of them.

**Import** (``--import-only``, or ``--import`` to add it to a full run): the seed importer
(``generator.importers.seeds.import_seeds``) with the real taxonomy (``content/tags.toml``)
on the seed-format files ``bench/synth.py`` writes (``write_seed_files``, cached in
``bench/out/seeds-<n>-seed<seed>/``), in a subprocess: **fresh** into an empty content
folder, then **unchanged** (the same import again into the filled folder: every file
compared, nothing written)::

    .venv/bin/python bench/run.py --import-only --papers 10000 --repeat 1

Shown: wall time of the process, the seconds spent in ``import_seeds`` itself, ms per
paper, CPU seconds; results under ``"import"`` in ``bench/results.json``.

**Serve edits** (``--serve-edit-only``, or ``--serve-edit`` to add it to a full run): issue
12's save-to-page latency of ``build --serve`` (``bench/serve_edit.py``: ``--edits`` title
edits, each timed from the file write until the page is served with the new title, the
reload and the full rebuild after it; the server's peak RSS); results under
``"serve_edit"``::

    .venv/bin/python bench/run.py --serve-edit-only --papers 1000,10000 --edits 10
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import serve_edit  # noqa: E402
import size as size_by_part  # noqa: E402  (measure_size has a local `size`)
import synth  # noqa: E402

from generator.content import frontmatter  # noqa: E402
from generator.content.taxonomy import read_taxonomy  # noqa: E402

OUT = BENCH / "out"
RESULTS_JSON = BENCH / "results.json"
RESULTS_MD = BENCH / "RESULTS.md"
HUGO_THEME = BENCH / "hugo"
BUILD_JSON = BENCH / "build_json.py"
HUGO = shutil.which("hugo") or "/usr/bin/hugo"

# Goals of issue 6 (at 10,000 papers unless stated).
GOAL_SIZE = 10000
GOAL_RATIO = 1.0
GOAL_PEAK_MB = 500
GOAL_NOCHANGE_S = 0.5
GOAL_EDIT_S = 0.3
GOAL_LINEAR = 5.5
# Issue 13: the output at 10,000 papers, everything included (feeds and sitemap need an
# absolute base URL: every build here is given one).
GOAL_BYTES = 100_000_000
GOAL_FILES_PER_PAPER = 3.0
BASE_URL = "https://example.org/catalog/"


# --------------------------------------------------------------------------- measuring


@dataclass
class Sample:
    wall: float  # seconds, subprocess start to exit
    peak_mb: float  # max RSS of the child, MiB
    status: int
    cpu: float = 0.0  # user + system CPU seconds of the child (steadier than wall time on a busy machine)
    total_pss_mb: float = 0.0  # peak of the summed PSS of the child and its workers, sampled every 0.5 s
    report: dict = field(default_factory=dict)  # BuildReport as JSON (Papershelf only)


def _tree_pss_kb(root: int) -> int:
    """Summed PSS (proportional set size: shared pages split between sharers) of ``root`` and its
    descendants. RSS would count the pages forked workers share with their parent twice."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
                for line in handle:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total


def run_measured(argv: list[str], *, log: Path, env: dict[str, str] | None = None) -> Sample:
    """Run ``argv``; wall time, CPU time and peak RSS of that child and the workers it waited for
    (``os.wait4``: the largest single process), and the peak summed PSS of the whole process tree."""
    peak_pss = [0]
    done = threading.Event()

    def sample_memory(pid: int) -> None:
        while not done.wait(0.5):
            peak_pss[0] = max(peak_pss[0], _tree_pss_kb(pid))

    with open(log, "ab") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=REPO, env=env)
        sampler = threading.Thread(target=sample_memory, args=(proc.pid,), daemon=True)
        if Path("/proc/self/smaps_rollup").exists():
            sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        done.set()
        if sampler.is_alive():
            sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: keep Popen from waiting again
    return Sample(wall=wall, peak_mb=usage.ru_maxrss / 1024, status=proc.returncode,
                  cpu=usage.ru_utime + usage.ru_stime, total_pss_mb=peak_pss[0] / 1024)


def papershelf_build(content: Path, output: Path, log: Path) -> Sample:
    """One ``papershelf build``, with its build cache in ``OUT/cache-<catalog>`` (a cold build
    empties it first: it is a first build)."""
    report_file = Path(tempfile.mkstemp(prefix="papershelf-report-", suffix=".json")[1])
    try:
        sample = run_measured([sys.executable, str(BUILD_JSON), str(report_file), "build",
                               "--content", str(content), "--output", str(output), "--quiet",
                               "--base-url", BASE_URL, "--cache-dir", str(OUT / f"cache-{content.name}")], log=log)
        if sample.status != 0:
            raise RuntimeError(f"papershelf build failed (exit {sample.status}); see {log}")
        sample.report = json.loads(report_file.read_text(encoding="utf-8"))
    finally:
        report_file.unlink(missing_ok=True)
    return sample


def hugo_build(site: Path, output: Path, log: Path) -> Sample:
    sample = run_measured([HUGO, "--source", str(site), "--destination", str(output), "--quiet",
                           "--cacheDir", str(OUT / "hugo-cache"), "--noBuildLock"], log=log)
    if sample.status != 0:
        raise RuntimeError(f"hugo failed (exit {sample.status}); see {log}")
    return sample


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


# --------------------------------------------------------------------------- catalogs


def _digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for root in paths:
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
        for path in files:
            h.update(path.relative_to(REPO).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cached_catalog(n: int, seed: int) -> Path:
    """The synthetic catalog of size ``n``, regenerated when synth.py or tags.toml changed."""
    path = OUT / f"catalog-{n}-seed{seed}"
    stamp = OUT / f"catalog-{n}-seed{seed}.stamp"
    want = _digest([*synth.SOURCES, synth.TAGS_TOML])
    if path.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return path
    print(f"  generating {n} papers into {path} ...", flush=True)
    started = time.perf_counter()
    synth.generate(n, path, seed)
    stamp.write_text(want)
    print(f"  generated in {time.perf_counter() - started:.1f}s", flush=True)
    return path


def _yaml_front(data: dict, body: str = "") -> str:
    return frontmatter.dump(data, body)


def convert_to_hugo(content: Path, site: Path) -> None:
    """A Hugo site with the same papers: ``venue: x`` is also given as the taxonomy
    ``venues: [x]``; tags and venues get term pages (``_index.md``) with their names and
    descriptions, and ``data/venues.json``, ``data/tags.json`` give names by id."""
    if site.exists():
        shutil.rmtree(site)
    (site / "content" / "papers").mkdir(parents=True)
    shutil.copytree(HUGO_THEME / "layouts", site / "layouts")
    config = (HUGO_THEME / "hugo.toml").read_text(encoding="utf-8")
    title = read_site_title(content / "site.toml")
    config = re.sub(r'^title = .*$', f"title = {json.dumps(title, ensure_ascii=False)}", config, flags=re.M)
    (site / "hugo.toml").write_text(config, encoding="utf-8")
    pages = site / "content"
    (pages / "papers" / "_index.md").write_text(_yaml_front({"title": "All papers"}), encoding="utf-8")
    for section, title in (("venues", "Venues"), ("tags", "Tags"), ("authors", "Authors")):
        (pages / section).mkdir(exist_ok=True)
        (pages / section / "_index.md").write_text(_yaml_front({"title": title}), encoding="utf-8")
    venue_line = re.compile(r"^venue: *(\S+) *$", re.M)
    for path in sorted((content / "papers").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        end = text.find("\n---\n", 3)
        match = venue_line.search(text, 0, end)
        if not text.startswith("---\n") or end < 0 or not match:
            raise ValueError(f"{path}: unexpected front matter")
        text = "---\nvenues: [" + match.group(1) + "]\n" + text[4:]
        (pages / "papers" / path.name).write_text(text, encoding="utf-8")
    # Names by id for the templates (site.Data.venues / site.Data.tags), and a term page each.
    venues: dict[str, dict] = {}
    for path in sorted((content / "venues").glob("*.md")):
        fm = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
        folder = pages / "venues" / path.stem
        folder.mkdir()
        data = {"title": fm.data["name"], "full_name": fm.data.get("full_name", ""), "year": fm.data.get("year")}
        venues[path.stem] = {"name": fm.data["name"], "full_name": fm.data.get("full_name", "")}
        (folder / "_index.md").write_text(_yaml_front(data, fm.body), encoding="utf-8")
    tags: dict[str, str] = {}
    for tag_id, tag in read_taxonomy(content / "tags.toml", "tags.toml").items():
        folder = pages / "tags" / tag_id
        folder.mkdir()
        tags[tag_id] = tag.name
        (folder / "_index.md").write_text(_yaml_front({"title": tag.name, "description": tag.description}),
                                          encoding="utf-8")
    (site / "data").mkdir()
    (site / "data" / "venues.json").write_text(json.dumps(venues, ensure_ascii=False), encoding="utf-8")
    (site / "data" / "tags.json").write_text(json.dumps(tags, ensure_ascii=False), encoding="utf-8")


def read_site_title(path: Path) -> str:
    import tomllib

    return str(tomllib.loads(path.read_text(encoding="utf-8")).get("title", "Papershelf"))


def cached_hugo_site(n: int, seed: int, content: Path) -> Path:
    site = OUT / f"hugo-{n}-seed{seed}"
    stamp = OUT / f"hugo-{n}-seed{seed}.stamp"
    import inspect

    want = _digest([*synth.SOURCES, synth.TAGS_TOML, HUGO_THEME])
    want += hashlib.sha256(inspect.getsource(convert_to_hugo).encode()).hexdigest()[:8]
    if site.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return site
    print(f"  converting to a Hugo site in {site} ...", flush=True)
    convert_to_hugo(content, site)
    stamp.write_text(want)
    return site


# --------------------------------------------------------------------------- one size


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
                        "authors": _count_dirs(site / "authors"), "venues": _count_dirs(site / "venues"),
                        "tags": _count_dirs(site / "tags"), "base_url": BASE_URL,
                        "parts": size_by_part.size_report(site)}
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


def _count_dirs(folder: Path) -> int:
    return sum(1 for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else 0


# --------------------------------------------------------------------------- import


GOAL_IMPORT_S = 15.0  # importing 10,000 seed abstracts (issue: was ~147 s)

# Run in the child: times ``import_seeds`` itself (imports excluded) and writes its counts.
IMPORT_CHILD = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
started = time.perf_counter()
from generator.importers.common import STATUSES
from generator.importers.seeds import import_seeds
imported = time.perf_counter()
seeds, content = Path(sys.argv[2]), Path(sys.argv[3])
report = import_seeds(sorted(seeds.glob("*.txt")), content, seeds / "metadata")
done = time.perf_counter()
Path(sys.argv[4]).write_text(json.dumps({
    "import_seconds": imported - started, "seconds": done - imported, "papers": len(report.papers),
    "warnings": len(report.warnings), "statuses": {s: report.count(s) for s in STATUSES}}))
"""


def cached_seeds(n: int, seed: int) -> Path:
    """The seed-format files (``*.txt`` + ``metadata/``) of the synthetic catalog of size ``n``,
    regenerated when synth.py or tags.toml changed."""
    path = OUT / f"seeds-{n}-seed{seed}"
    stamp = OUT / f"seeds-{n}-seed{seed}.stamp"
    want = _digest([*synth.SOURCES, synth.TAGS_TOML])
    if path.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return path
    print(f"  writing the seed files of {n} papers into {path} ...", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=OUT))
    try:
        synth.write_seed_files(n, seed, work)
        shutil.rmtree(path, ignore_errors=True)
        work.rename(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    stamp.write_text(want)
    return path


def seed_import(seeds: Path, content: Path, log: Path) -> Sample:
    """``import_seeds`` of every seed file in ``seeds`` into ``content``, in a subprocess."""
    report_file = Path(tempfile.mkstemp(prefix="papershelf-import-", suffix=".json")[1])
    try:
        sample = run_measured([sys.executable, "-c", IMPORT_CHILD, str(REPO), str(seeds), str(content),
                               str(report_file)], log=log)
        if sample.status != 0:
            raise RuntimeError(f"the seed import failed (exit {sample.status}); see {log}")
        sample.report = json.loads(report_file.read_text(encoding="utf-8"))
    finally:
        report_file.unlink(missing_ok=True)
    return sample


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


def render_import(results: dict) -> list[str]:
    """The Markdown section of the import measurements (none when there are none)."""
    entries = [results["import"][k] for k in sorted(results.get("import", {}), key=int)]
    if not entries:
        return []
    lines = ["", "## Import seed abstracts", "",
             "`import_seeds` with the real taxonomy (`content/tags.toml`) on the seed-format files of",
             "`bench/synth.py`: *fresh* into an empty content folder, *unchanged* the same import again",
             "(every file compared, nothing written). Median of the repeats; *in import_seeds* excludes",
             f"Python start-up and imports. Goal: 10,000 seeds in ≤ {GOAL_IMPORT_S:.0f} s (before: ~147 s in the",
             "issue; 91 s measured on this machine at commit c23295a, load average ~1).", "",
             "| papers | fresh: wall | in import_seeds | ms / paper | CPU s | unchanged: wall | in import_seeds "
             "| peak memory | load before / after | repeats | measured | code |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |"]
    for e in entries:
        fresh, same = e["fresh"], e["unchanged"]
        inner = _median([x["report"]["seconds"] for x in fresh])
        lines.append(
            f"| {e['papers']:,} | {_fmt(_median(_walls(fresh)), ' s')} | {_fmt(inner, ' s')} "
            f"| {_fmt(1000 * inner / e['papers'])} | {_fmt(_median([x['cpu'] for x in fresh]), '', 1)} "
            f"| {_fmt(_median(_walls(same)), ' s')} | {_fmt(_median([x['report']['seconds'] for x in same]), ' s')} "
            f"| {max(x['peak_mb'] for x in fresh + same):.0f} MiB "
            f"| {e.get('load_before', float('nan')):.1f} / {e.get('load_after', float('nan')):.1f} "
            f"| {e['repeat']} | {e.get('date', '–')} | {e.get('machine', {}).get('commit', '–')} |")
    goal = results["import"].get(str(GOAL_SIZE))
    if goal:
        fresh = _median(_walls(goal["fresh"]))
        lines += ["", f"Goal, {GOAL_SIZE:,} seeds imported into an empty folder in ≤ {GOAL_IMPORT_S:.0f} s: "
                      f"{fresh:.1f} s, {'met' if fresh <= GOAL_IMPORT_S else 'not met'}."]
    return lines


# --------------------------------------------------------------------------- machine


def _run_text(argv: list[str]) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30, cwd=REPO).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine() -> dict[str, object]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gb = None
    try:
        match = re.search(r"MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text())
        ram_gb = round(int(match.group(1)) / 1024 / 1024, 1) if match else None
    except OSError:
        pass
    versions = {}
    for package in ("lunr", "Jinja2", "Markdown", "markdown-it-py", "latex2mathml", "PyYAML"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            pass
    hugo = _run_text([HUGO, "version"]) if Path(HUGO).exists() else "not installed"
    # PAPERSHELF_BENCH_CODE describes the code measured when it is not this checkout's HEAD
    # (e.g. a copy of a working tree that other work was changing).
    label = os.environ.get("PAPERSHELF_BENCH_CODE")
    if label:
        return {"cpu": cpu, "cores": os.cpu_count(), "ram_gb": ram_gb, "os": platform.platform(),
                "python": platform.python_version(), "hugo": hugo, "packages": versions, "commit": label}
    commit = _run_text(["git", "rev-parse", "--short", "HEAD"])
    dirty = bool(_run_text(["git", "status", "--porcelain", "--untracked-files=no", "--", "generator", "templates"]))
    return {
        "cpu": cpu, "cores": os.cpu_count(), "ram_gb": ram_gb,
        "os": platform.platform(), "python": platform.python_version(), "hugo": hugo,
        "packages": versions, "commit": commit + (" (generator/templates modified)" if dirty else ""),
    }


# --------------------------------------------------------------------------- report


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _walls(samples: list[dict]) -> list[float]:
    return [s["wall"] for s in samples]


def summarise(entry: dict) -> dict[str, float | None]:
    ours = entry["ours"]
    cold = _median(_walls(ours["cold"]))
    hugo = _median(_walls(entry["hugo"]["cold"])) if entry.get("hugo") else None
    cpu = [x.get("cpu") for x in ours["cold"]]
    hugo_cpu = [x.get("cpu") for x in entry["hugo"]["cold"]] if entry.get("hugo") else []
    cpu_cold = _median(cpu) if cpu and all(cpu) else None
    cpu_hugo = _median(hugo_cpu) if hugo_cpu and all(hugo_cpu) else None
    return {
        "cpu_cold": cpu_cold, "cpu_hugo": cpu_hugo,
        "cold": cold, "hugo": hugo, "ratio": cold / hugo if hugo else None,
        "nochange": _median(_walls(ours["nochange"])) if ours["nochange"] else None,
        "edit": _median(_walls(ours["edit"])) if ours["edit"] else None,
        "peak_mb": max(s["peak_mb"] for k in ("cold", "nochange", "edit") for s in ours.get(k, [])),
        "hugo_peak_mb": max(s["peak_mb"] for s in entry["hugo"]["cold"]) if entry.get("hugo") else None,
        # all processes together (workers included); 0 in results recorded before it was measured
        "total_mb": max(s.get("total_pss_mb", 0) for k in ("cold", "nochange", "edit") for s in ours.get(k, []))
        or None,
    }


def _fmt(value: float | None, unit: str = "", digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}{unit}"


def _mb(n: int | None) -> str:
    return "–" if n is None else (f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n / 1e3:.0f} kB")


def render_markdown(results: dict) -> str:
    entries = [results["sizes"][k] for k in sorted(results.get("sizes", {}), key=int)]
    lines = [
        "# Benchmark results",
        "",
        "Written by `bench/run.py` (do not edit by hand; rerun it). Synthetic catalogs from",
        "`bench/synth.py` (a field's archive: real conference series and years 1995–2026, real",
        "authorship statistics, text from the seed abstracts and per-field phrases, records as imported",
        "by `import csl`); Hugo builds the same paper files with the minimal",
        "theme in `bench/hugo/`. Times are wall-clock seconds of the whole subprocess (Python",
        "start-up and imports included), **median** of the repeats; peak memory is the maximum RSS",
        "of the largest process, and *all processes* the peak of the summed PSS of the build and its",
        "worker processes (sampled every 0.5 s; PSS splits pages a forked worker shares with its parent,",
        "so nothing is counted twice). The machine is shared and noisy: compare ratios, not absolute times;",
        "when the load average was high, CPU seconds (user + system, where recorded) are steadier",
        "than wall time (Hugo uses both cores, so its CPU time exceeds its wall time).",
        "",
        "## Summary",
        "",
        "| papers | cold build | Hugo | ratio (ours / Hugo) | CPU s, ours / Hugo | no-change rebuild "
        "| one-edit rebuild | peak memory (largest process / all processes) | Hugo peak | pages | output | search files (raw → gzip) | index terms "
        "| repeats |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for e in entries:
        s = summarise(e)
        search = e["output"]["search"]
        idx = f"{_mb(search.get('total'))} → {_mb(search.get('total.gz'))}" if search else "–"
        lines.append(
            f"| {e['papers']:,} | {_fmt(s['cold'], ' s')} | {_fmt(s['hugo'], ' s')} | {_fmt(s['ratio'], '×', 1)} "
            f"| {_fmt(s['cpu_cold'], '', 0)} / {_fmt(s['cpu_hugo'], '', 0)} "
            f"| {_fmt(s['nochange'], ' s')} | {_fmt(s['edit'], ' s')} "
            f"| {_fmt(s['peak_mb'], ' MiB', 0)} / {_fmt(s['total_mb'], ' MiB', 0)} "
            f"| {_fmt(s['hugo_peak_mb'], ' MiB', 0)} | {e['output']['pages_reported'] or e['output']['html_pages']:,} "
            f"| {_mb(e['output']['bytes'])} | {idx} | {e['output'].get('index_terms') or '–'} "
            f"| {e['repeat']} (rebuilds {e.get('rebuild_repeat', e['repeat'])}) |"
        )
    lines += ["", "## Goals (issue 6)", "", "| goal | target | measured | met? |", "| --- | --- | --- | --- |"]
    goal = results.get("sizes", {}).get(str(GOAL_SIZE))
    if goal:
        s = summarise(goal)
        rows = [
            (f"cold build incl. search index, {GOAL_SIZE:,} papers", f"≤ {GOAL_RATIO:.1f} × Hugo",
             _fmt(s["ratio"], " × Hugo", 1), s["ratio"] is not None and s["ratio"] <= GOAL_RATIO),
            ("peak memory, all processes", f"< {GOAL_PEAK_MB} MB",
             f"{_fmt(s['total_mb'], ' MiB', 0)} (largest process {_fmt(s['peak_mb'], ' MiB', 0)})",
             max(s["peak_mb"], s["total_mb"] or 0) < GOAL_PEAK_MB),
            ("no-change rebuild", f"≤ {GOAL_NOCHANGE_S} s", _fmt(s["nochange"], " s"),
             s["nochange"] is not None and s["nochange"] <= GOAL_NOCHANGE_S),
            ("one paper edited", f"≤ {GOAL_EDIT_S} s", _fmt(s["edit"], " s"),
             s["edit"] is not None and s["edit"] <= GOAL_EDIT_S),
        ]
        big = results.get("sizes", {}).get(str(GOAL_SIZE * 5))
        if big:
            growth = summarise(big)["cold"] / s["cold"]
            rows.append(("linear growth: 50,000 / 10,000 cold", f"≤ {GOAL_LINEAR}", _fmt(growth, "×", 1),
                         growth <= GOAL_LINEAR))
        else:
            rows.append(("linear growth: 50,000 / 10,000 cold", f"≤ {GOAL_LINEAR}", "not measured yet", False))
        for name, target, measured, met in rows:
            lines.append(f"| {name} | {target} | {measured} | {'yes' if met else 'no'} |")
    else:
        lines.append(f"| (the {GOAL_SIZE:,}-paper size has not been measured yet) | | | |")

    for e in entries:
        s = summarise(e)
        m = e["machine"]
        lines += ["", f"## {e['papers']:,} papers", "",
                  f"Measured {e['date']} with `{e['command']}`. Code measured: {m['commit']}; "
                  f"1-minute load average {e.get('load_before', float('nan')):.1f} before, "
                  f"{e.get('load_after', float('nan')):.1f} after (2 cores; other work was running when > 1).", ""]
        out = e["output"]
        lines.append(f"Catalog: {e['papers']:,} papers, {out.get('venues', '–')} venues, "
                     f"{out.get('tags', '–')} tags, "
                     f"{out.get('authors', '–'):,} authors; {out['files']:,} files written "
                     f"({out['html_pages']:,} HTML), {_mb(out['bytes'])}. Edited paper: `{e['edited_file']}`.")
        lines += ["", "Time per stage (median over the cold builds, seconds; from the `BuildReport`):", ""]
        stages: list[str] = []
        for sample in e["ours"]["cold"]:
            for name in sample["report"].get("seconds", {}):
                if name not in stages:
                    stages.append(name)
        header = (["build"] + ["start-up + imports"] + stages
                  + ["stages total", "after the stages (swap in, old output removed)", "process wall"])
        lines.append("| " + " | ".join(header) + " |")
        lines.append("| --- |" + " ---: |" * (len(header) - 1))
        for kind, label in (("cold", "cold"), ("nochange", "no change"), ("edit", "one edit")):
            samples = e["ours"][kind]
            if not samples:
                continue
            row = [label, _fmt(_median([x["report"].get("import_seconds", 0) for x in samples]))]
            for name in stages:
                row.append(_fmt(_median([x["report"].get("seconds", {}).get(name, 0.0) for x in samples])))
            row.append(_fmt(_median([sum(x["report"].get("seconds", {}).values()) for x in samples])))
            row.append(_fmt(_median([x["report"].get("process_seconds", 0.0) - x["report"].get("import_seconds", 0.0)
                                     - sum(x["report"].get("seconds", {}).values()) for x in samples])))
            row.append(_fmt(_median(_walls(samples))))
            lines.append("| " + " | ".join(row) + " |")
        search = out["search"]
        if search:
            groups: dict[str, list[int]] = {}  # file, or folder/ for shards: [files, raw, gzip]
            for name, size in search.items():
                if name.endswith(".gz") or name == "total":
                    continue
                key = name.split("/", 1)[0] + "/*" if "/" in name else name
                group = groups.setdefault(key, [0, 0, 0])
                group[0] += 1
                group[1] += size
                group[2] += search.get(name + ".gz", 0)
            lines += ["", "Search files (under `search/`): " + ", ".join(
                f"`{key}`{f' ({count} files)' if count > 1 else ''} {_mb(raw)} (gzip {_mb(gz)})"
                for key, (count, raw, gz) in groups.items())
                + f"; total {_mb(search.get('total'))} (gzip {_mb(search.get('total.gz'))})."]
        lines += ["", "All samples (wall s / peak MiB):", ""]
        for kind in ("cold", "nochange", "edit"):
            if not e["ours"][kind]:
                continue
            shown = ", ".join(f"{x['wall']:.2f} / {x['peak_mb']:.0f}" for x in e["ours"][kind])
            lines.append(f"- Papershelf {kind}: {shown}")
        if e.get("hugo"):
            shown = ", ".join(f"{x['wall']:.2f} / {x['peak_mb']:.0f}" for x in e["hugo"]["cold"])
            h = e["hugo"]["output"]
            lines.append(f"- Hugo cold: {shown} ({h['html_pages']:,} HTML pages, {_mb(h['bytes'])})")
        lines += ["", f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gb']} GB RAM; {m['os']}; "
                      f"Python {m['python']}; {m['hugo']}; "
                      + ", ".join(f"{k} {v}" for k, v in m["packages"].items()) + "."]
    lines += render_sizes(entries)
    lines += render_import(results)
    lines += render_serve_edit(results)
    lines += ["", "## How to run", "",
              "```sh",
              "make setup                                   # venv + npm; Hugo: apt-get install hugo",
              ".venv/bin/python bench/run.py --papers 1000,10000 --repeat 3",
              ".venv/bin/python bench/run.py --papers 50000 --repeat 1   # slow: adds the 50k row",
              ".venv/bin/python bench/synth.py 10000 /tmp/cat10k          # just a catalog",
              ".venv/bin/python bench/size.py SITE [SITE2] --papers N     # a built site's size by part",
              ".venv/bin/python bench/run.py --import-only --papers 10000 --repeat 1   # just the seed import",
              ".venv/bin/python bench/run.py --serve-edit-only --papers 1000,10000 --edits 10   # build --serve edits",
              "```", "",
              "Catalogs and Hugo sites are cached in `bench/out/` (git-ignored) and regenerated when",
              "`bench/synth.py`, `content/tags.toml` or the Hugo theme change. Build logs:",
              "`bench/out/log-<papers>.txt`.", ""]
    return "\n".join(lines)


def render_sizes(entries: list[dict]) -> list[str]:
    """Issue 13: the output by part (bench/size.py) at each size measured, beside Hugo's."""
    measured = [e for e in entries if e["output"].get("parts")]
    if not measured:
        return []
    lines = ["", "## Output size by part (issue 13)", "",
             f"Every build here has the absolute base URL `{BASE_URL}`, so feeds and the sitemap are "
             "written. Bytes of the files (`bench/size.py`; the build's own manifest `.papershelf-site` "
             "is not counted: a deploy need not upload it). Search (`search/`) is budgeted by issue 11.", ""]
    lines.append(size_by_part.markdown([(f"{e['papers']:,} papers", e["output"]["parts"]) for e in measured], None).rstrip("\n"))
    lines += ["", "| papers | total | a paper | without search/ | files a paper | Hugo's output | cold build (ours / Hugo) |",
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for e in measured:
        parts, n = e["output"]["parts"], e["papers"]
        s = summarise(e)
        hugo = e.get("hugo", {}).get("output", {}).get("bytes")
        lines.append(f"| {n:,} | {_mb(parts['bytes'])} | {parts['bytes'] / n / 1e3:.1f} kB "
                     f"| {parts['bytes_no_search'] / n / 1e3:.1f} kB | {parts['files'] / n:.2f} "
                     f"| {_mb(hugo) if hugo else '–'} | {_fmt(s['cold'], ' s')} / {_fmt(s['hugo'], ' s')} |")
    goal = next((e for e in measured if e["papers"] == GOAL_SIZE), None)
    if goal:
        parts = goal["output"]["parts"]
        files = parts["files"] / GOAL_SIZE
        lines += ["", f"Goal at {GOAL_SIZE:,} papers: ≤ {_mb(GOAL_BYTES)} in all: {_mb(parts['bytes'])} "
                      f"({'met' if parts['bytes'] <= GOAL_BYTES else 'not met'}); ≤ {GOAL_FILES_PER_PAPER:.0f} "
                      f"files a paper: {files:.2f} ({'met' if files <= GOAL_FILES_PER_PAPER else 'not met'})."]
    return lines


def render_serve_edit(results: dict) -> list[str]:
    """Issue 12: ``build --serve``, a title edit saved until its page is served (serve_edit.py)."""
    entries = [results["serve_edit"][k] for k in sorted(results.get("serve_edit", {}), key=int)]
    if not entries:
        return []
    lines = ["", "## build --serve: save to page (issue 12)", "",
             "A paper's title edited in its file while `papershelf build --serve` runs (`bench/serve_edit.py`), "
             "timed from the write until an HTTP GET of the page returns the new title (polled every 5 ms), "
             "until the livereload client is told to reload, and until the full rebuild after it has finished; "
             "medians of the edits. Goal: save → page ≤ 0.3 s at 10,000 papers. Then one static edit (the "
             "catalog's own `static/css/site.css`) and one template edit (its own `templates/404.html`), each "
             "timed until the server serves it.", "",
             "| papers | edits (settled) | save → page (max) | settled / during a rebuild | fast path in the server "
             "| save → reload | save → rebuilt | reloads per settled edit | server peak RSS | first build "
             "| static edit | template edit | date |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |"]

    def ms(value: float | None) -> str:
        return "–" if value is None else f"{value * 1000:.0f} ms"

    for e in entries:
        lines.append(f"| {e['papers']:,} | {e['edits']} ({e.get('settled', e['edits'])}) "
                     f"| {ms(e['median_page_s'])} ({ms(e['max_page_s'])}) "
                     f"| {ms(e.get('median_page_settled_s'))} / {ms(e.get('median_page_during_rebuild_s'))} "
                     f"| {ms(e['median_fast_path_s'])} ({ms(e.get('median_fast_path_cpu_s'))} CPU) | {ms(e['median_reload_s'])} | {e['median_rebuilt_s']:.1f} s "
                     f"| {' '.join(map(str, e['reloads']))} | {_fmt(e['peak_rss_mb'], ' MiB', 0)} "
                     f"| {e['first_build_s']:.0f} s | {ms(e.get('static_page_s'))} | {ms(e.get('template_page_s'))} "
                     f"| {e.get('date', '')} |")
    return lines


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
        results = json.loads(args.results.read_text(encoding="utf-8"))
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
    results = json.loads(args.results.read_text(encoding="utf-8")) if args.results.is_file() else {"sizes": {}}
    command = "python bench/run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    info = machine()
    for n in sizes if args.import_only or args.with_import else []:
        entry = measure_import(n, args.seed, args.repeat)
        entry.update(date=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), command=command.strip(), machine=info)
        results.setdefault("import", {})[str(n)] = entry
        args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        args.markdown.write_text(render_markdown(results), encoding="utf-8")
    for n in sizes if args.serve_edit_only or args.serve_edit else []:
        print(f"== build --serve, {n} papers, {args.edits} title edits", flush=True)
        entry = serve_edit.measure(cached_catalog(n, args.seed), args.edits, OUT / f"log-serve-{n}.txt",
                                   args.settled)
        entry.update(date=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), command=command.strip(), machine=info)
        results.setdefault("serve_edit", {})[str(n)] = entry
        args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        args.markdown.write_text(render_markdown(results), encoding="utf-8")
        print("  => " + serve_edit.summary(entry), flush=True)
    for n in [] if only else sizes:
        entry = measure_size(n, args.seed, args.repeat, use_hugo, builds, args.rebuild_repeat)
        entry["date"] = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
        entry["command"] = command.strip()
        entry["machine"] = info
        results.setdefault("sizes", {})[str(n)] = entry
        args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        args.markdown.write_text(render_markdown(results), encoding="utf-8")
        s = summarise(entry)
        print(f"  => cold {s['cold']:.2f}s, Hugo {_fmt(s['hugo'], 's')}, ratio {_fmt(s['ratio'], '×', 1)}, "
              f"no-change {_fmt(s['nochange'], 's')}, edit {_fmt(s['edit'], 's')}, peak {s['peak_mb']:.0f} MiB",
              flush=True)
    print(f"Wrote {args.markdown} and {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
