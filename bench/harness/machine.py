"""The machine and code a result was measured on: CPU, cores, RAM, OS, Python, Hugo, package
versions and the commit (``PAPERSHELF_BENCH_CODE`` names the code when it is not HEAD)."""

from __future__ import annotations

import os
import platform
import re
import subprocess
from importlib import metadata
from pathlib import Path

from . import REPO
from .hugo import HUGO


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
