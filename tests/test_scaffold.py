"""``papershelf new``: a starter catalog that builds at once, deploy files that build it, and a
folder that holds anything refused (nothing written) unless ``--force``."""

from __future__ import annotations

import json
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.build import BuildOptions, build
from generator.cli import main
from generator.content.loader import load_catalog
from generator import scaffold

from .sitecheck import files_of

EXPECTED = {
    ".gitignore", ".github/workflows/pages.yml", "README.md", "netlify.toml", "requirements.txt",
    "content/site.toml", "content/tags.toml", "content/venues/iclr-2024.md",
    "content/papers/statistically-optimal-k-means-clustering-via-nonnegative-low-rank-semidefinite.md",
    "content/sessions/example-session.md",  # issue 34: one example session
}


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, list(args), catch_exceptions=False)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(cwd)
        return runner.invoke(main, list(args), catch_exceptions=False)


def test_new_writes_a_catalog_that_builds_with_the_defaults(tmp_path):
    result = run("new", "cat", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "cd cat" in result.output and "papershelf build --serve" in result.output
    catalog = tmp_path / "cat"
    assert set(files_of(catalog, manifest=True)) == EXPECTED

    loaded = load_catalog(catalog / "content")
    assert len(loaded.papers) == 1 and len(loaded.venues) == 1
    # `papershelf build` inside the folder: content/ in, site/ out, as in the repository.
    result = run("build", cwd=catalog)
    assert result.exit_code == 0, result.output
    site = catalog / "site"
    for page in ("index.html", "404.html", "papers/index.html", "search/index.html", "search/docs/0.json.gz",
                 "static/vendor/lunr.min.js", "venues/iclr-2024/index.html", "tags/optimization/index.html"):
        assert (site / page).is_file(), page
    paper = next((site / "papers").glob("*/*/index.html")).read_text(encoding="utf-8")
    assert "Statistically Optimal" in paper and "<math" in paper  # $K$ as MathML


def test_the_starter_catalog_builds_without_warnings_or_notes_but_the_base_url_one(tmp_path):
    scaffold.new_catalog(tmp_path / "cat")
    report = build(BuildOptions(content=tmp_path / "cat" / "content", output=tmp_path / "cat" / "site"))
    assert report.papers == 1 and not report.warnings
    assert all("base_url" in note for note in report.notes)
    # Built for an absolute URL, as the deploy files do, it has feeds and a sitemap as well.
    report = build(BuildOptions(content=tmp_path / "cat" / "content", output=tmp_path / "cat" / "site",
                                base_url="https://example.org/shelf/"))
    assert not report.notes and (tmp_path / "cat" / "site" / "sitemap.xml").is_file()


def test_deploy_files_install_papershelf_and_build(tmp_path):
    scaffold.new_catalog(tmp_path / "cat")
    netlify = tomllib.loads((tmp_path / "cat" / "netlify.toml").read_text(encoding="utf-8"))
    command = netlify["build"]["command"]
    assert netlify["build"]["publish"] == "site"
    assert "pip install" in command and "-r requirements.txt" in command and "papershelf build" in command
    assert "npm" not in command  # the theme and lunr.js come with Papershelf
    workflow = yaml.safe_load((tmp_path / "cat" / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["build"]["steps"]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert "pip install -r requirements.txt" in runs and 'papershelf build --base-url "${PAGES_BASE_URL%/}/"' in runs
    assert not any("setup-node" in step.get("uses", "") for step in steps)
    assert {"path": "site"} == next(s for s in steps if "upload-pages-artifact" in s.get("uses", ""))["with"]
    # the build cache (beside content/) is kept from deploy to deploy, and out of the repository
    restore = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
    assert restore["with"]["path"] == ".papershelf-cache" and steps.index(restore) < steps.index(
        next(s for s in steps if "papershelf build" in s.get("run", "")))
    assert {"package": "netlify-plugin-cache", "inputs": {"paths": [".papershelf-cache"]}} in netlify["plugins"]
    ignored = (tmp_path / "cat" / ".gitignore").read_text(encoding="utf-8").split()
    assert "/site/" in ignored and "/.venv/" in ignored and "__pycache__/" in ignored
    assert "/.papershelf-cache/" in ignored


def test_requirements_name_where_papershelf_was_installed_from(monkeypatch):
    def installed(record):
        class Dist:
            def read_text(self, name):
                assert name == "direct_url.json"
                return None if record is None else json.dumps(record)
        monkeypatch.setattr(scaffold.metadata, "distribution", lambda name: Dist())
        return scaffold.installed_from()

    git = {"url": "https://github.com/o/papershelf", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}
    assert installed(git) == "papershelf @ git+https://github.com/o/papershelf@abc123"
    archive = {"url": "https://example.org/papershelf-0.1.0-py3-none-any.whl", "archive_info": {}}
    assert installed(archive) == "papershelf @ https://example.org/papershelf-0.1.0-py3-none-any.whl"
    # Somewhere only this machine knows, or nowhere: requirements.txt says how to name it.
    assert installed({"url": "file:///work/papershelf", "dir_info": {"editable": True}}) is None
    assert installed(None) is None
    installed(git)  # requirements() asks the same (patched) distribution
    assert scaffold.requirements().endswith("\npapershelf @ git+https://github.com/o/papershelf@abc123\n")

    def missing(name):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(scaffold.metadata, "distribution", missing)
    text = scaffold.requirements()
    assert all(line.startswith("#") for line in text.splitlines()) and "Papershelf is not on PyPI" in text


@pytest.mark.parametrize("occupant", ["a file", "a hidden file", "an empty folder"])
def test_a_folder_that_holds_anything_is_refused_and_left_alone(tmp_path, occupant):
    catalog = tmp_path / "cat"
    catalog.mkdir()
    if occupant == "a file":
        (catalog / "notes.txt").write_text("mine", encoding="utf-8")
    elif occupant == "a hidden file":
        (catalog / ".git").mkdir()
    else:
        (catalog / "content").mkdir()
    before = sorted(p.relative_to(catalog) for p in catalog.rglob("*"))
    result = CliRunner().invoke(main, ["new", str(catalog)])
    assert result.exit_code == 1
    assert "is not empty" in result.output and "--force" in result.output and "Traceback" not in result.output
    assert sorted(p.relative_to(catalog) for p in catalog.rglob("*")) == before


def test_force_writes_the_starter_files_and_keeps_the_others(tmp_path):
    catalog = tmp_path / "cat"
    (catalog / "content").mkdir(parents=True)
    (catalog / "content" / "site.toml").write_text('title = "old"\n', encoding="utf-8")
    (catalog / "notes.txt").write_text("mine", encoding="utf-8")
    result = run("new", str(catalog), "--force")
    assert result.exit_code == 0, result.output
    assert (catalog / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert 'title = "Our reading list"' in (catalog / "content" / "site.toml").read_text(encoding="utf-8")
    assert set(files_of(catalog, manifest=True)) == EXPECTED | {"notes.txt"}


def test_a_path_that_is_a_file_or_blocks_a_starter_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    result = run("new", str(tmp_path / "file"))
    assert result.exit_code == 1 and "is a file" in result.output
    catalog = tmp_path / "cat"
    (catalog / "netlify.toml").mkdir(parents=True)  # a folder where a starter file goes
    (catalog / "content").write_text("x", encoding="utf-8")  # a file where a folder must be
    result = run("new", str(catalog), "--force")
    assert result.exit_code == 1 and "netlify.toml" in result.output and "content/site.toml" in result.output
    assert sorted(p.name for p in catalog.iterdir()) == ["content", "netlify.toml"]
