"""``build --serve``: how long a saved title edit takes to be on the served page.

    .venv/bin/python -m bench.serve_edit --papers 1000 --edits 10
    .venv/bin/python -m bench.run --serve-edit-only --papers 1000,10000   # the same, into results.json

The synthetic catalog (``bench/synth/``, cached in ``bench/out/`` by ``bench/harness/catalogs.py``)
is copied into a temporary folder, and ``papershelf build --serve`` is started on it (a cold
first build). A livereload client is connected to the server's websocket, as a browser
would be. Then, ``--edits`` times, one paper's title is changed in its file (a different
paper each time, written in place as an editor saves) and timed:

* **save → page**: from the write until an HTTP GET of the paper's page returns the new title
  (polled every ``POLL_S``);
* **save → reload**: until the browsers were told to reload;
* **save → rebuilt**: until the full rebuild that follows has finished (the server prints
  its "Built ..." line), after which the next edit starts;
* **reloads**: reload messages per edit, counted until the rebuild is done plus ``GRACE_S``
  (one is the goal: a second one means the rebuild changed the page the fast path wrote).

Then the theme, once each (the catalog's own ``templates/`` and ``static/`` folders exist,
empty, from the start): **static edit**, a copy of the theme's ``site.css`` saved in the
catalog's ``static/css/`` with a new comment, timed until ``/static/css/site.css`` serves it;
**template edit**, a ``404.html`` saved in the catalog's ``templates/``, until ``/404.html``
serves it (each waits for its build to finish).

With ``--settled K`` only the first K edits wait for their rebuild; the others are made
``--interval`` seconds apart while rebuilds run (a curator editing on: the fast path must
not wait for the rebuild), and only their save → page is timed.

Also the fast path's own time, wall and CPU (the server prints "Updated ... in <s>s (<s>s
CPU)"), and the server's
peak RSS (``VmHWM`` of its process; forked build workers not counted). Medians are shown.
``--fast-path-only`` times the fast path alone in this process: CPU seconds per edit, the
figure a busy machine does not blur.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent

from generator.content import frontmatter

POLL_S = 0.005  # how often the page is fetched while waiting for the edit
GRACE_S = 1.0  # reloads are still counted this long after the rebuild is done
START_TIMEOUT_S = 1800  # the first (cold) build of a large catalog on a busy machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return None


class Lines:
    """The server's output, each line with the time it arrived."""

    def __init__(self, stream):
        self.lines: list[tuple[float, str]] = []
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append((time.perf_counter(), line.rstrip("\n")))

    def wait(self, pattern: str, after: int, timeout: float) -> tuple[int, float, str]:
        """The first line from index ``after`` on that matches ``pattern``: (index, time, line)."""
        regex = re.compile(pattern)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for i in range(after, len(self.lines)):
                at, line = self.lines[i]
                if regex.search(line):
                    return i, at, line
            time.sleep(0.005)
        raise TimeoutError(f"no line matching {pattern!r} in {timeout}s; last: {self.lines[-5:]}")


class ReloadClient:
    """A livereload client (the protocol livereload.js speaks): the times of reload messages."""

    def __init__(self, port: int):
        self.port = port
        self.reloads: list[float] = []
        self.ready = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        if not self.ready.wait(30):
            raise RuntimeError("the livereload websocket did not answer")

    async def _run(self) -> None:
        from tornado.websocket import websocket_connect

        conn = await websocket_connect(f"ws://127.0.0.1:{self.port}/livereload")
        await conn.write_message(json.dumps({"command": "hello",
                                             "protocols": ["http://livereload.com/protocols/official-7"]}))
        while True:
            message = await conn.read_message()
            if message is None:
                return
            data = json.loads(message)
            if data.get("command") == "hello":  # then say which page is open, as livereload.js does
                await conn.write_message(json.dumps({"command": "info", "plugins": {},
                                                     "url": f"http://127.0.0.1:{self.port}/"}))
                await asyncio.sleep(0.2)
                self.ready.set()
            elif data.get("command") == "reload":
                self.reloads.append(time.perf_counter())


def peak_rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def retitle(path: Path, count: int) -> str:
    """Give the paper at ``path`` a new title (the file rewritten in place); the new title."""
    fm = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
    data = dict(fm.data)
    data["title"] = f"Edited {count} {data['title']}"
    data.pop("provisional", None)  # a provisional title is made from the abstract
    text = frontmatter.dump(data, fm.body)
    with open(path, "w", encoding="utf-8") as handle:  # in place, as most editors save
        handle.write(text)
    return f"Edited {count} "


def catalog_copy(catalog: Path, prefix: str) -> tuple[Path, Path]:
    """A temporary folder holding a copy of ``catalog`` as its ``content``: (folder, content)."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        shutil.copytree(catalog, work / "content")
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return work, work / "content"


def measure(catalog: Path, edits: int, log: Path | None = None, settled: int | None = None,
            interval: float = 5.0) -> dict:
    """Start ``build --serve`` on a copy of ``catalog`` and time ``edits`` title edits (the
    first ``settled``, all by default, each waiting for its rebuild)."""
    settled = edits if settled is None else settled
    work, content = catalog_copy(catalog, "papershelf-serve-bench-")
    try:
        for folder in ("templates", "static"):  # the catalog's own theme folders, empty for now
            (work / folder).mkdir()
        port = free_port()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "build", "--serve", "--port", str(port),
                                 "--content", str(content), "--output", str(work / "site")],
                                cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = Lines(proc.stdout)
        try:
            lines.wait(r"^Serving ", 0, START_TIMEOUT_S)
            first_build = time.perf_counter() - started
            reloads = ReloadClient(port)
            papers = sorted((content / "papers").glob("*.md"))
            step = max(1, len(papers) // (edits + 1))
            samples = []
            for i in range(edits):
                path = papers[(i + 1) * step]
                url = f"http://127.0.0.1:{port}/papers/{path.stem}/"
                time.sleep(0.5)  # the watcher is idle again
                mark = len(lines.lines)
                sent = len(reloads.reloads)
                t0 = time.perf_counter()
                marker = retitle(path, i + 1)
                while True:
                    page = fetch(url)
                    if page is not None and marker in page:
                        break
                    if time.perf_counter() - t0 > 600:
                        raise TimeoutError(f"{url} never showed {marker!r}")
                    time.sleep(POLL_S)
                t_page = time.perf_counter() - t0
                waits = i < settled
                if waits:
                    _, t_built, _ = lines.wait(r"^Built ", mark, 1800)
                    time.sleep(GRACE_S)
                else:
                    time.sleep(max(0.0, interval - (time.perf_counter() - t0)))
                found = [m for _, line in lines.lines[mark:]
                         if (m := re.search(r"^Updated .* in ([0-9.]+)s(?: \(([0-9.]+)s CPU\))?", line))]
                fast = [float(m.group(1)) for m in found]
                fast_cpu = [float(m.group(2)) for m in found if m.group(2)]
                times = reloads.reloads[sent:]
                samples.append({"page_s": t_page, "reload_s": times[0] - t0 if times else None,
                                "rebuilt_s": t_built - t0 if waits else None, "reloads": len(times) if waits else None,
                                "fast_path_s": fast[0] if fast else None,
                                "fast_path_cpu_s": fast_cpu[0] if fast_cpu else None, "settled": waits})
                print(f"  edit {i + 1}: page {t_page * 1000:.0f} ms, "
                      + (f"rebuilt {t_built - t0:.1f} s, reloads {len(times)}" if waits else "during a rebuild")
                      + (f", fast path {fast[0] * 1000:.0f} ms" if fast else ", no fast path"), flush=True)
            theme = {}
            for kind, rel, url_path in (("static", "static/css/site.css", "static/css/site.css"),
                                        ("template", "templates/404.html", "404.html")):
                marker = f"papershelf-bench-{kind}-edit"
                time.sleep(0.5)
                mark = len(lines.lines)
                t0 = time.perf_counter()
                if kind == "static":
                    # a rule, not a comment: the build minifies stylesheets (outputs/assets.py)
                    text = (REPO / "static/css/site.css").read_text(encoding="utf-8") + f".{marker}{{color:red}}\n"
                else:
                    text = '{% extends "base.html" %}{% block main %}<p>' + marker + '</p>{% endblock %}'
                (work / rel).parent.mkdir(parents=True, exist_ok=True)
                (work / rel).write_text(text, encoding="utf-8")
                while marker not in (fetch(f"http://127.0.0.1:{port}/{url_path}") or ""):
                    if time.perf_counter() - t0 > 1800:
                        raise TimeoutError(f"/{url_path} never showed the {kind} edit")
                    time.sleep(POLL_S)
                theme[f"{kind}_page_s"] = time.perf_counter() - t0
                _, t_done, _ = lines.wait(r"^(Built|Copied) ", mark, 1800)
                theme[f"{kind}_built_s"] = t_done - t0
                print(f"  {kind} edit: served in {theme[f'{kind}_page_s']:.2f} s", flush=True)
            rss = peak_rss_mb(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            if log is not None:
                log.write_text("\n".join(line for _, line in lines.lines) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def median(key: str, only: bool | None = None) -> float | None:
        values = [s[key] for s in samples if s[key] is not None and only in (None, s["settled"])]
        return statistics.median(values) if values else None

    return {"papers": len(papers), "edits": edits, "settled": settled, "first_build_s": first_build,
            "median_page_s": median("page_s"), "median_page_settled_s": median("page_s", True),
            "median_page_during_rebuild_s": median("page_s", False), "median_reload_s": median("reload_s"),
            "median_rebuilt_s": median("rebuilt_s"), "median_fast_path_s": median("fast_path_s"),
            "median_fast_path_cpu_s": median("fast_path_cpu_s"),
            "max_page_s": max(s["page_s"] for s in samples),
            "reloads": [s["reloads"] for s in samples if s["settled"]], "peak_rss_mb": rss, "samples": samples,
            **theme}


def measure_fast_path(catalog: Path, edits: int) -> dict:
    """The fast path alone, in this process (no server, no rebuild, no watcher): the CPU and
    wall seconds of ``FastPath.changed`` for ``edits`` title edits of a copy of ``catalog``,
    after deriving it as the server keeps it (``FastPath.prime``)."""
    from generator.options import BuildOptions
    from generator.serve.fast import FastPath

    work, content = catalog_copy(catalog, "papershelf-fast-bench-")
    try:
        options = BuildOptions(content=content, output=work / "site")
        fast = FastPath(options, lambda: None)
        started = time.perf_counter()
        fast.prime(0)
        derive_s = time.perf_counter() - started
        papers = sorted((content / "papers").glob("*.md"))
        step = max(1, len(papers) // (edits + 1))
        samples = []
        for i in range(edits):
            path = papers[(i + 1) * step]
            (options.output / "papers" / path.stem).mkdir(parents=True)
            retitle(path, i + 1)
            wall, cpu = time.perf_counter(), time.process_time()
            done = fast.changed([str(path)])
            samples.append({"wall_s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu, "fast": done})
        rss = peak_rss_mb(os.getpid())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"papers": len(papers), "edits": edits, "derive_s": derive_s,
            "median_cpu_s": statistics.median(s["cpu_s"] for s in samples),
            "median_wall_s": statistics.median(s["wall_s"] for s in samples),
            "all_fast": all(s["fast"] for s in samples), "peak_rss_mb": rss, "samples": samples}


def summary(result: dict) -> str:
    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value * 1000:.0f} ms"

    during = (f"; {result['edits'] - result['settled']} made during rebuilds: {ms(result['median_page_during_rebuild_s'])}"
              if result["settled"] < result["edits"] else "")
    return (f"{result['papers']} papers, {result['edits']} edits: save -> page median {ms(result['median_page_s'])} "
            f"(max {ms(result['max_page_s'])}; fast path {ms(result['median_fast_path_s'])}, "
            f"{ms(result.get('median_fast_path_cpu_s'))} CPU; "
            f"{result['settled']} settled edits: {ms(result['median_page_settled_s'])}{during}), "
            f"save -> reload {ms(result['median_reload_s'])}, save -> rebuilt {result['median_rebuilt_s']:.1f} s, "
            f"reloads per edit {result['reloads']}, server peak RSS {result['peak_rss_mb']:.0f} MiB; "
            f"static edit served in {result['static_page_s']:.2f} s, template edit in {result['template_page_s']:.1f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--catalog", type=Path, help="a content folder to use instead of a synthetic one")
    parser.add_argument("--log", type=Path, help="write the server's output here")
    parser.add_argument("--settled", type=int, help="edits that wait for their rebuild (default: all)")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between the other edits")
    parser.add_argument("--fast-path-only", action="store_true",
                        help="time only the fast path, in this process (CPU seconds per edit)")
    args = parser.parse_args(argv)
    if args.catalog is None:
        from bench.harness.catalogs import cached_catalog

        args.catalog = cached_catalog(args.papers, args.seed)
    if args.fast_path_only:
        result = measure_fast_path(args.catalog, args.edits)
        print(f"{result['papers']} papers, {result['edits']} edits, fast path only: median "
              f"{result['median_cpu_s'] * 1000:.0f} ms CPU, {result['median_wall_s'] * 1000:.0f} ms wall "
              f"(all fast: {result['all_fast']}); derived in {result['derive_s']:.1f} s; "
              f"peak RSS {result['peak_rss_mb']:.0f} MiB")
        return 0
    result = measure(args.catalog, args.edits, args.log, args.settled, args.interval)
    print(summary(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
