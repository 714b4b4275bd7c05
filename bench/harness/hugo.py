"""The Hugo comparison: a synthetic catalog converted to a Hugo site (same papers, tags and
venues, the minimal theme in ``bench/hugo/``), cached in ``OUT``, and built measured."""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import shutil
import tomllib
from pathlib import Path

from bench import synth
from generator.content import frontmatter
from generator.content.taxonomy import read_taxonomy

from . import BENCH, OUT
from .catalogs import digest
from .processes import Sample, run_measured

HUGO_THEME = BENCH / "hugo"  # the minimal theme: paper, tag, venue, author and list pages
HUGO = shutil.which("hugo") or "/usr/bin/hugo"


def hugo_build(site: Path, output: Path, log: Path) -> Sample:
    sample = run_measured([HUGO, "--source", str(site), "--destination", str(output), "--quiet",
                           "--cacheDir", str(OUT / "hugo-cache"), "--noBuildLock"], log=log)
    if sample.status != 0:
        raise RuntimeError(f"hugo failed (exit {sample.status}); see {log}")
    return sample


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
    return str(tomllib.loads(path.read_text(encoding="utf-8")).get("title", "Papershelf"))


def cached_hugo_site(n: int, seed: int, content: Path) -> Path:
    site = OUT / f"hugo-{n}-seed{seed}"
    stamp = OUT / f"hugo-{n}-seed{seed}.stamp"
    want = digest([*synth.SOURCES, synth.TAGS_TOML, HUGO_THEME])
    want += hashlib.sha256(inspect.getsource(convert_to_hugo).encode()).hexdigest()[:8]
    if site.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return site
    print(f"  converting to a Hugo site in {site} ...", flush=True)
    convert_to_hugo(content, site)
    stamp.write_text(want)
    return site
