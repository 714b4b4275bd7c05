"""Theme overrides: a catalog's own ``templates/`` and ``static/`` (beside its content folder)
replace the packaged theme's files one by one; the rest comes from the packaged theme. The
override folders are inputs of the incremental build and watched by the preview server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.options import LUNR_JS, packaged_theme, theme_of
from generator.outputs.assets import served

from .conftest import CONTENT, REPO
from .sitecheck import files_of
from .serve.helpers import Output, fetch, free_port, wait_for

NOT_FOUND = """{% extends "base.html" %}
{% block main %}<h1>Lost on our shelf</h1><p>{{ config.title }}</p>{% endblock %}
"""
CSS = "body{background:papayawhip}\n"  # as minified (generator/outputs/assets.py), so served as written


def override(project: Path, rel: str, text: str) -> Path:
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def plain_site(content, tmp_path) -> dict[str, bytes]:
    """The test catalog built with the packaged theme alone, elsewhere (no overrides beside it)."""
    out = tmp_path / "plain" / "site"
    build(BuildOptions(content=content.root, output=out))
    return files_of(out)


def test_a_catalog_overrides_one_template_and_one_css_file(content, tmp_path, plain_site):
    project = content.root.parent
    override(project, "templates/404.html", NOT_FOUND)
    override(project, "static/css/site.css", CSS)
    override(project, "static/img/logo.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>")
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    site = files_of(out)

    page = site["404.html"].decode("utf-8")
    assert "<h1>Lost on our shelf</h1><p>Test shelf</p>" in page and "<h1>Page not found</h1>" not in page
    assert 'class="site-header"' in page  # base.html, from the packaged theme
    assert site["static/css/site.css"] == CSS.encode()
    assert site["static/img/logo.svg"].startswith(b"<svg")
    # Everything else is the packaged theme's, byte for byte.
    changed = {name for name in site.keys() | plain_site.keys() if site.get(name) != plain_site.get(name)}
    assert changed == {"404.html", "static/css/site.css", "static/img/logo.svg"}
    assert site["static/js/site.js"] == served("static/js/site.js", (packaged_theme("static") / "js" / "site.js").read_bytes())
    assert site["static/vendor/lunr.min.js"] == LUNR_JS.read_bytes()


def test_override_files_are_inputs_of_the_incremental_build(content, tmp_path, plain_site):
    project = content.root.parent
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    assert build(BuildOptions(content=content.root, output=out)).up_to_date
    # An override folder that did not exist at the last build is a change.
    css = override(project, "static/css/site.css", CSS)
    report = build(BuildOptions(content=content.root, output=out))
    assert not report.up_to_date and files_of(out)["static/css/site.css"] == CSS.encode()
    assert build(BuildOptions(content=content.root, output=out)).up_to_date
    # So is an edit of an override, and so is a new one.
    css.write_text(CSS + "h1 { color: teal; }\n", encoding="utf-8")
    os.utime(css, ns=(css.stat().st_mtime_ns + 10**9,) * 2)
    template = override(project, "templates/404.html", NOT_FOUND)
    report = build(BuildOptions(content=content.root, output=out))
    assert not report.up_to_date and b"teal" in files_of(out)["static/css/site.css"]
    assert b"Lost on our shelf" in files_of(out)["404.html"]
    # Taking the overrides away brings back the packaged theme's files.
    template.unlink()
    css.unlink()
    build(BuildOptions(content=content.root, output=out))
    assert files_of(out) == plain_site


def test_a_catalog_may_bring_its_own_lunr_js(content, tmp_path):
    override(content.root.parent, "static/vendor/lunr.min.js", "/* our lunr */\n")
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    assert (out / "static" / "vendor" / "lunr.min.js").read_text(encoding="utf-8") == "/* our lunr */\n"


def test_the_repository_catalog_has_no_overrides():
    """The bundled catalog sits beside the theme's own folders: they are its theme, not overrides."""
    theme = theme_of(BuildOptions(content=CONTENT))
    assert theme.templates == (REPO / "templates",) and theme.static == (REPO / "static",)
    assert theme.overrides == ()


def test_the_preview_server_watches_override_folders_that_appear(content, tmp_path):
    project = content.root.parent
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "build", "--serve", "--port", str(port),
         "--content", str(content.root), "--output", str(tmp_path / "site")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, text=True,
    )
    output = Output(proc.stdout)
    try:
        base = f"http://127.0.0.1:{port}/"
        assert "Page not found" in wait_for(lambda: fetch(base + "404.html"))
        override(project, "templates/404.html", NOT_FOUND)
        try:
            assert wait_for(lambda: "Lost on our shelf" in fetch(base + "404.html"))
            override(project, "static/css/site.css", CSS)
            assert wait_for(lambda: fetch(base + "static/css/site.css") == CSS)
        except AssertionError as exc:  # what the server said, to tell a slow machine from a bug
            raise AssertionError(f"{exc}; the server printed:\n{''.join(output.lines)}") from None
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert "Build failed" not in output.text()
