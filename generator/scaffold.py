"""``papershelf new DIR``: a ready catalog project from the starter files in ``generator/starter/``.

The project is laid out as the repository is: ``content/`` (site.toml, tags.toml, one venue,
one paper), the site built into ``site/``, so that ``papershelf build`` with its defaults works
inside it; plus ``.gitignore``, ``netlify.toml``, a GitHub Pages workflow and the
``requirements.txt`` both deploy configurations install Papershelf from. A folder that holds
anything is refused, before anything is written, unless ``force`` (then the starter's files
replace the ones of the same names, and nothing else is touched).
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path

from .errors import OutputError

STARTER = Path(__file__).resolve().parent / "starter"
# Starter files are shipped as package data, which leaves out hidden names: renamed on writing.
HIDDEN = {"gitignore": ".gitignore", "github": ".github"}

REQUIREMENTS_HEAD = """\
# How the deploy builds (netlify.toml, .github/workflows/pages.yml) install Papershelf:
# pip install -r requirements.txt
"""
REQUIREMENTS_UNKNOWN = """\
# Papershelf is not on PyPI: name where yours comes from on the line below, for example
#   papershelf @ git+https://github.com/OWNER/papershelf@v0.1.0
# or a wheel committed beside this file:
#   ./papershelf-0.1.0-py3-none-any.whl
"""


def new_catalog(folder: Path, *, force: bool = False) -> list[str]:
    """Write the starter catalog into ``folder`` (created if missing); the paths written,
    relative to it. ``OutputError`` if ``folder`` is a file, or holds anything and not ``force``."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise OutputError(
            f"{folder} is not empty; 'papershelf new' writes a catalog into a new or empty folder "
            "(--force writes the starter files into it anyway, replacing files of the same names)"
        )
    files = starter_files()
    blocked = [rel for rel in files if _blocked(folder, rel)]
    if blocked:  # a folder where a starter file goes, or a file where a folder must be
        raise OutputError(f"cannot write {', '.join(blocked)} in {folder}: something else has that name")
    for rel, data in files.items():
        target = folder / rel
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as exc:
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from exc
    return sorted(files)


def starter_files() -> dict[str, bytes]:
    """Every file of a new catalog: relative path → bytes."""
    files: dict[str, bytes] = {}
    for path in sorted(STARTER.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            parts = list(path.relative_to(STARTER).parts)
            parts[0] = HIDDEN.get(parts[0], parts[0])
            files["/".join(parts)] = path.read_bytes()
    files["requirements.txt"] = requirements().encode("utf-8")
    return files


def requirements() -> str:
    """requirements.txt: Papershelf as installed here, when that is somewhere a build machine
    can reach too (a Git repository or a URL, as pip records it); else how to say where."""
    spec = installed_from()
    return REQUIREMENTS_HEAD + (spec + "\n" if spec else REQUIREMENTS_UNKNOWN)


def installed_from() -> str | None:
    """A pip requirement for the Papershelf installed here, from its direct_url.json (PEP 610),
    or None: installed from a local folder or file, from an index, or not installed at all."""
    try:
        text = metadata.distribution("papershelf").read_text("direct_url.json")
        record = json.loads(text) if text else {}
    except (metadata.PackageNotFoundError, ValueError):
        return None
    url = record.get("url", "") if isinstance(record, dict) else ""
    if not url.startswith(("https://", "http://", "ssh://")):
        return None
    vcs = record.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") and vcs.get("commit_id"):
        spec = f"papershelf @ {vcs['vcs']}+{url}@{vcs['commit_id']}"
        if record.get("subdirectory"):
            spec += f"#subdirectory={record['subdirectory']}"
        return spec
    return f"papershelf @ {url}" if "archive_info" in record else None


def _blocked(folder: Path, rel: str) -> bool:
    """Is a starter file's path taken by a folder, or does a file stand where a folder must be?"""
    target = folder / rel
    if target.is_dir():
        return True
    parent = target.parent
    while parent != folder:
        if os.path.lexists(parent) and not parent.is_dir():
            return True
        parent = parent.parent
    return False
