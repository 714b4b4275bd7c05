"""A real wheel (``pip install .``, not an editable install) holds every package of the
generator, the default theme (templates, static files, lunr.js) and the starter catalog, and
works with no checkout: in a fresh virtualenv, ``papershelf new``, ``import`` (each format),
``build`` and
``build --serve`` need nothing else (no Node either). Built from the checkout's files as an
sdist first, then a wheel from that sdist, as ``python -m build`` does, so MANIFEST.in is
checked too."""

from __future__ import annotations

import filecmp
import gzip
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from generator.options import LUNR_JS
from generator.outputs.assets import served

from .conftest import REPO, record_slug
from .serve.helpers import fetch, free_port, wait_for

PACKAGES = sorted(str(p.parent.relative_to(REPO)) for p in (REPO / "generator").rglob("__init__.py"))
STARTER_PAPER = "statistically-optimal-k-means-clustering-via-nonnegative-low-rank-semidefinite"


def differing_files(a: Path, b: Path) -> list[str]:
    """Files that differ or exist on one side only (the manifest aside)."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        out.extend(prefix + n for n in cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files
                   if n != ".papershelf-site")
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    filecmp.clear_cache()
    walk(filecmp.dircmp(a, b, ignore=[]), "")
    return out


def files_below(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The checkout's wheel. The files git would commit are copied first (setuptools' build/
    and egg-info stay out of the checkout), an sdist is made of them, and the wheel of that."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        if (REPO / rel).is_file():  # not one deleted in the work tree
            (source / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, source / rel)
    sdists = root / "sdist"
    subprocess.run([sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({str(sdists)!r})"],
                   cwd=source, check=True, capture_output=True)
    (sdist,) = sdists.glob("papershelf-*.tar.gz")
    wheels = root / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels),
                    str(sdist)], check=True, cwd=root)
    (built,) = wheels.glob("papershelf-*.whl")
    return built


@pytest.mark.slow  # building the wheel
def test_the_wheel_holds_every_module_the_theme_lunr_and_the_starter(wheel):
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    sources = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "generator").rglob("*.py"))
    assert PACKAGES and sources
    assert sorted(n for n in names if n.endswith(".py")) == sources  # every module, nothing else
    for folder in ("templates", "static"):
        theme = files_below(REPO / folder)
        assert theme
        packaged = {n.removeprefix(f"generator/theme/{folder}/"): archive.read(n) for n in names
                    if n.startswith(f"generator/theme/{folder}/")}
        assert packaged == theme, folder  # the same files, byte for byte
    assert archive.read("generator/vendor/lunr.min.js") == LUNR_JS.read_bytes()
    starter = files_below(REPO / "generator" / "starter")
    assert starter and all(archive.read(f"generator/starter/{rel}") == data for rel, data in starter.items())
    tables = sorted((REPO / "generator" / "content").glob("*.toml"))  # hosts.toml, series.toml: read at run time
    assert tables and all(archive.read(f"generator/content/{t.name}") == t.read_bytes() for t in tables)


def test_the_vendored_lunr_js_is_npm_lunr_2_3_9_byte_for_byte():
    """The site's lunr.js ships with Papershelf (no Node at build time); it must stay the file
    npm installs for package.json's lunr, which lunr.py's index format targets."""
    from lunr import __TARGET_JS_VERSION__

    npm = REPO / "node_modules" / "lunr"
    if not (npm / "lunr.min.js").is_file():
        if os.environ.get("CI"):
            pytest.fail("node_modules/lunr is needed: run make setup (npm ci)")
        pytest.skip("node_modules/lunr missing: run make setup (npm ci)")
    wanted = json.loads((REPO / "package.json").read_text(encoding="utf-8"))["dependencies"]["lunr"]
    assert wanted == __TARGET_JS_VERSION__ == "2.3.9"
    assert json.loads((npm / "package.json").read_text(encoding="utf-8"))["version"] == wanted
    assert LUNR_JS.read_bytes() == (npm / "lunr.min.js").read_bytes()


@pytest.mark.slow
def test_a_wheel_installs_every_package_and_builds_the_bundled_catalog(tmp_path, wheel, bundled_site):
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(wheel)], check=True, cwd=tmp_path)
    env = {**os.environ, "PYTHONPATH": str(target)}
    # The installed copy is the one imported, not the checkout's (the console script's folder,
    # not the working folder, comes first on sys.path).
    where = subprocess.run([str(target / "bin" / "papershelf"), "--version"], env=env, cwd=REPO,
                           capture_output=True, text=True, check=True)
    assert where.stdout.strip()
    probe = subprocess.run([sys.executable, "-c", "import generator.cli, sys; print(generator.cli.__file__)"],
                           env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert Path(probe.stdout.strip()).is_relative_to(target)

    from_wheel = tmp_path / "site-from-wheel"
    subprocess.run([str(target / "bin" / "papershelf"), "build", "--quiet", "--content", str(REPO / "content"),
                    "--output", str(from_wheel)], env=env, cwd=REPO, check=True)
    assert (from_wheel / "index.html").is_file()
    assert differing_files(from_wheel, bundled_site) == []  # the checkout's build of the same catalog


@pytest.mark.slow
def test_a_fresh_virtualenv_starts_builds_and_serves_a_catalog(tmp_path, wheel):
    """``pip install papershelf.whl`` into a new virtualenv, then, in a folder far from the
    checkout and with only the virtualenv's bin/ on PATH: new, build, build --serve."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site_packages = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                        capture_output=True, text=True, check=True).stdout.strip())
    # Papershelf's dependencies are taken from the test's own environment (no download), after
    # the virtualenv's own packages; Papershelf itself only from the wheel.
    (site_packages / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, cwd=tmp_path)

    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = str(venv / "bin")
    papershelf = str(venv / "bin" / "papershelf")

    def run(*args: str, cwd: Path) -> str:
        done = subprocess.run([papershelf, *args], cwd=cwd, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    probe = subprocess.run([str(python), "-c", "import generator.options as o; print(o.__file__); "
                            "print(o.packaged_theme('templates')); print(o.LUNR_JS)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert probe and all(Path(p).is_relative_to(site_packages) for p in probe), probe

    run("new", "cat", cwd=work)
    catalog = work / "cat"
    assert (catalog / "content" / "site.toml").is_file() and (catalog / ".github" / "workflows" / "pages.yml").is_file()
    # Fill it from each format curators have (the importers' recorded inputs).
    imports = REPO / "tests" / "importers" / "data"
    for command, source in (("bibtex", REPO / "tests" / "fixtures" / "bibtex" / "wild.bib"),
                            ("csl", imports / "csl" / "zotero.json"),
                            ("openreview", imports / "openreview" / "iclr2024-submissions.json"),
                            ("arxiv", imports / "arxiv" / "feed.xml")):
        assert " created" in run("import", command, str(source), cwd=catalog)
    papers = sorted(p.stem for p in (catalog / "content" / "papers").glob("*.md"))
    assert len(papers) > 10
    assert "Built " in run("build", cwd=catalog)
    site = catalog / "site"
    assert all(len(list((site / "papers").glob(f"*/{slug}/index.html"))) == 1 for slug in papers)  # in its venue's folder
    documents = [record_slug(r) for p in (site / "search" / "docs").glob("*.json.gz")  # stored gzip (issue 25)
                 for r in json.loads(gzip.decompress(p.read_bytes()).decode("utf-8"))]
    assert sorted(documents) == papers  # every paper is in the search index
    assert (site / "index.html").is_file() and (site / "papers" / "iclr-2024" / STARTER_PAPER / "index.html").is_file()
    assert (site / "search" / "meta.json").is_file() and list((site / "search").glob("terms/*.json.gz"))
    assert (site / "static" / "vendor" / "lunr.min.js").read_bytes() == LUNR_JS.read_bytes()
    theme_css = (REPO / "static" / "css" / "site.css").read_bytes()  # the wheel's theme, minified as served
    assert (site / "static" / "css" / "site.css").read_bytes() == served("static/css/site.css", theme_css)

    port = free_port()
    server = subprocess.Popen([papershelf, "build", "--serve", "--port", str(port)], cwd=catalog, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        page = wait_for(lambda: fetch(f"http://127.0.0.1:{port}/papers/iclr-2024/{STARTER_PAPER}/"))
        assert "Statistically Optimal" in page
        assert "lunr" in fetch(f"http://127.0.0.1:{port}/static/vendor/lunr.min.js")
    finally:
        server.terminate()
        server.wait(timeout=10)
