"""A real wheel (``pip install .``, not an editable install) holds every package of the
generator and builds the bundled catalog the same as the checkout does.

The theme (templates, static files, lunr.js) is not packaged yet: the installed tool takes it
from the working folder, here the checkout."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from .conftest import REPO

PACKAGES = sorted(str(p.parent.relative_to(REPO)) for p in (REPO / "generator").rglob("__init__.py"))


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


def test_a_wheel_installs_every_package_and_builds_the_bundled_catalog(tmp_path, bundled_site):
    source = tmp_path / "source"  # a copy, so that setuptools' build/ and egg-info stay out of the checkout
    shutil.copytree(REPO / "generator", source / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels),
                    str(source)], check=True, cwd=tmp_path)
    (wheel,) = wheels.glob("papershelf-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    sources = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "generator").rglob("*.py"))
    assert PACKAGES and sources
    assert sorted(n for n in names if n.endswith(".py")) == sources  # every module, nothing else

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
