"""The results of the suites (``OUT/results.json``, one entry per size and kind, replaced when
measured again) and the Markdown report written from them, with the goals of issues 6 and 13."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from . import BASE_URL, OUT
from . import sizes as size_by_part

RESULTS_JSON = OUT / "results.json"
RESULTS_MD = OUT / "RESULTS.md"  # copy to bench/RESULTS.md (or pass --markdown) to publish


def load_results(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"sizes": {}}


def save_results(results: dict, path: Path, markdown: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    markdown.write_text(render_markdown(results), encoding="utf-8")


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
GOAL_IMPORT_S = 15.0  # importing 10,000 seed abstracts (issue: was ~147 s)


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


def fmt(value: float | None, unit: str = "", digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}{unit}"


def _mb(n: int | None) -> str:
    return "–" if n is None else (f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n / 1e3:.0f} kB")


def render_markdown(results: dict) -> str:
    entries = [results["sizes"][k] for k in sorted(results.get("sizes", {}), key=int)]
    lines = [
        "# Benchmark results",
        "",
        "Written by `python -m bench.run --markdown bench/RESULTS.md` (do not edit by hand; rerun it).",
        "Synthetic catalogs from",
        "`bench/synth/` (a field's archive: real conference series and years 1995–2026, real",
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
            f"| {e['papers']:,} | {fmt(s['cold'], ' s')} | {fmt(s['hugo'], ' s')} | {fmt(s['ratio'], '×', 1)} "
            f"| {fmt(s['cpu_cold'], '', 0)} / {fmt(s['cpu_hugo'], '', 0)} "
            f"| {fmt(s['nochange'], ' s')} | {fmt(s['edit'], ' s')} "
            f"| {fmt(s['peak_mb'], ' MiB', 0)} / {fmt(s['total_mb'], ' MiB', 0)} "
            f"| {fmt(s['hugo_peak_mb'], ' MiB', 0)} | {e['output']['pages_reported'] or e['output']['html_pages']:,} "
            f"| {_mb(e['output']['bytes'])} | {idx} | {e['output'].get('index_terms') or '–'} "
            f"| {e['repeat']} (rebuilds {e.get('rebuild_repeat', e['repeat'])}) |"
        )
    lines += ["", "## Goals (issue 6)", "", "| goal | target | measured | met? |", "| --- | --- | --- | --- |"]
    goal = results.get("sizes", {}).get(str(GOAL_SIZE))
    if goal:
        s = summarise(goal)
        rows = [
            (f"cold build incl. search index, {GOAL_SIZE:,} papers", f"≤ {GOAL_RATIO:.1f} × Hugo",
             fmt(s["ratio"], " × Hugo", 1), s["ratio"] is not None and s["ratio"] <= GOAL_RATIO),
            ("peak memory, all processes", f"< {GOAL_PEAK_MB} MB",
             f"{fmt(s['total_mb'], ' MiB', 0)} (largest process {fmt(s['peak_mb'], ' MiB', 0)})",
             max(s["peak_mb"], s["total_mb"] or 0) < GOAL_PEAK_MB),
            ("no-change rebuild", f"≤ {GOAL_NOCHANGE_S} s", fmt(s["nochange"], " s"),
             s["nochange"] is not None and s["nochange"] <= GOAL_NOCHANGE_S),
            ("one paper edited", f"≤ {GOAL_EDIT_S} s", fmt(s["edit"], " s"),
             s["edit"] is not None and s["edit"] <= GOAL_EDIT_S),
        ]
        big = results.get("sizes", {}).get(str(GOAL_SIZE * 5))
        if big:
            growth = summarise(big)["cold"] / s["cold"]
            rows.append(("linear growth: 50,000 / 10,000 cold", f"≤ {GOAL_LINEAR}", fmt(growth, "×", 1),
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
            row = [label, fmt(_median([x["report"].get("import_seconds", 0) for x in samples]))]
            for name in stages:
                row.append(fmt(_median([x["report"].get("seconds", {}).get(name, 0.0) for x in samples])))
            row.append(fmt(_median([sum(x["report"].get("seconds", {}).values()) for x in samples])))
            row.append(fmt(_median([x["report"].get("process_seconds", 0.0) - x["report"].get("import_seconds", 0.0)
                                     - sum(x["report"].get("seconds", {}).values()) for x in samples])))
            row.append(fmt(_median(_walls(samples))))
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
              ".venv/bin/python -m bench.run --papers 1000,10000 --repeat 3",
              ".venv/bin/python -m bench.run --papers 50000 --repeat 1   # slow: adds the 50k row",
              ".venv/bin/python -m bench.synth 10000 /tmp/cat10k          # just a catalog",
              ".venv/bin/python -m bench.harness.sizes SITE [SITE2] --papers N     # a built site's size by part",
              ".venv/bin/python -m bench.run --import-only --papers 10000 --repeat 1   # just the seed import",
              ".venv/bin/python -m bench.run --serve-edit-only --papers 1000,10000 --edits 10   # build --serve edits",
              "```", "",
              "Catalogs and Hugo sites are cached in `bench/out/` (git-ignored) and regenerated when",
              "`bench/synth/`, `content/tags.toml` or the Hugo theme change. Build logs:",
              "`bench/out/log-<papers>.txt`.", ""]
    return "\n".join(lines)


def render_sizes(entries: list[dict]) -> list[str]:
    """Issue 13: the output by part (bench/harness/sizes.py) at each size measured, beside Hugo's."""
    measured = [e for e in entries if e["output"].get("parts")]
    if not measured:
        return []
    lines = ["", "## Output size by part (issue 13)", "",
             f"Every build here has the absolute base URL `{BASE_URL}`, so feeds and the sitemap are "
             "written. Bytes of the files (`bench/harness/sizes.py`; the build's own manifest `.papershelf-site` "
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
                     f"| {_mb(hugo) if hugo else '–'} | {fmt(s['cold'], ' s')} / {fmt(s['hugo'], ' s')} |")
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
                     f"| {' '.join(map(str, e['reloads']))} | {fmt(e['peak_rss_mb'], ' MiB', 0)} "
                     f"| {e['first_build_s']:.0f} s | {ms(e.get('static_page_s'))} | {ms(e.get('template_page_s'))} "
                     f"| {e.get('date', '')} |")
    return lines


def render_import(results: dict) -> list[str]:
    """The Markdown section of the import measurements (none when there are none)."""
    entries = [results["import"][k] for k in sorted(results.get("import", {}), key=int)]
    if not entries:
        return []
    lines = ["", "## Import seed abstracts", "",
             "`import_seeds` with the real taxonomy (`content/tags.toml`) on the seed-format files of",
             "`bench/synth/`: *fresh* into an empty content folder, *unchanged* the same import again",
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
            f"| {e['papers']:,} | {fmt(_median(_walls(fresh)), ' s')} | {fmt(inner, ' s')} "
            f"| {fmt(1000 * inner / e['papers'])} | {fmt(_median([x['cpu'] for x in fresh]), '', 1)} "
            f"| {fmt(_median(_walls(same)), ' s')} | {fmt(_median([x['report']['seconds'] for x in same]), ' s')} "
            f"| {max(x['peak_mb'] for x in fresh + same):.0f} MiB "
            f"| {e.get('load_before', float('nan')):.1f} / {e.get('load_after', float('nan')):.1f} "
            f"| {e['repeat']} | {e.get('date', '–')} | {e.get('machine', {}).get('commit', '–')} |")
    goal = results["import"].get(str(GOAL_SIZE))
    if goal:
        fresh = _median(_walls(goal["fresh"]))
        lines += ["", f"Goal, {GOAL_SIZE:,} seeds imported into an empty folder in ≤ {GOAL_IMPORT_S:.0f} s: "
                      f"{fresh:.1f} s, {'met' if fresh <= GOAL_IMPORT_S else 'not met'}."]
    return lines
