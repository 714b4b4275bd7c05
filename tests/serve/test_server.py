"""``build --serve`` run as a process: it rebuilds on a change and keeps serving the last
good site through a bad edit, answers on loopback only, and gives unknown paths the site's
own 404 page."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from .helpers import Output, fetch, free_port, wait_for


@pytest.mark.slow
def test_serve_rebuilds_on_change_and_survives_a_bad_edit(content, tmp_path):
    port = free_port()
    out = tmp_path / "site"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "build", "--serve", "--port", str(port),
         "--content", str(content.root), "--output", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
    )
    output = Output(proc.stdout)
    page = f"http://127.0.0.1:{port}/papers/test-2024/a-paper-on-graphs/"
    try:
        assert "A Paper on Graphs" in wait_for(lambda: fetch(page))
        # Several quick saves: one rebuild, showing the last one.
        for i in range(3):
            content.add_paper("a-paper-on-graphs", title=f"Edited Title {i}")
            time.sleep(0.05)
        assert wait_for(lambda: "Edited Title 2" in fetch(page))
        # A broken edit: the error is reported and the last good page is still served.
        failed = output.count("Build failed")
        # saved as editors do, by renaming a complete file into place: a rebuild that read a
        # half-written file would report that file's error (a loaded machine saw it), not this one
        broken = tmp_path / "broken.tmp"
        broken.write_text("---\ntitle: [broken\n---\n", encoding="utf-8")
        os.replace(broken, content.root / "papers" / "a-paper-on-graphs.md")
        wait_for(lambda: output.count("Build failed") > failed)
        assert "Edited Title 2" in fetch(page)
        content.add_paper("a-paper-on-graphs", title="Fixed Again")
        assert wait_for(lambda: "Fixed Again" in fetch(page))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = output.text()
    assert "Build failed; still serving the last good site." in text
    assert "papers/a-paper-on-graphs.md:2: invalid YAML" in text
    assert text.count("Edited Title") == 0  # titles are not echoed; builds are
    # No rebuild storm: the first build, then at most one rebuild a save (three quick saves
    # are usually one batch, but on a loaded machine the watcher may see them one by one).
    assert text.count("Built ") <= 1 + 3 + 1, text


def test_serve_binds_to_loopback_only(content, tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "build", "--serve", "--port", str(port),
         "--content", str(content.root), "--output", str(tmp_path / "site")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: fetch(f"http://127.0.0.1:{port}/"))
        listening = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
        lines = [l for l in listening.splitlines() if f":{port} " in l]
        assert lines and all("127.0.0.1:" in l for l in lines), lines
        # An unknown path gets the site's own 404 page, with status 404, as on a static host.
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no/such/page/", timeout=10)
        assert info.value.code == 404
        body = info.value.read().decode("utf-8")
        assert "<h1>Page not found</h1>" in body and 'class="site-header"' in body
    finally:
        proc.terminate()
        proc.wait(timeout=10)
