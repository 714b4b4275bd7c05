"""bench/synth.py: synthetic catalogs are deterministic, loadable and shaped like real ones.

(No timings here: performance is measured by bench/run.py.)
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from generator.content.loader import load_catalog
from generator.content.taxonomy import read_taxonomy

from .sitecheck import files_of

REPO = Path(__file__).resolve().parents[1]


def _load_synth():
    spec = importlib.util.spec_from_file_location("bench_synth", REPO / "bench" / "synth.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses need the module registered
    spec.loader.exec_module(module)
    return module


synth = _load_synth()


def _tree(root: Path) -> dict[str, bytes]:
    return files_of(root, manifest=True)


@pytest.fixture(scope="module")
def catalog_dir(tmp_path_factory) -> Path:
    return synth.generate(300, tmp_path_factory.mktemp("synth") / "content", seed=0)


@pytest.fixture(scope="module")
def catalog(catalog_dir):
    return load_catalog(catalog_dir)


def test_same_size_and_seed_give_identical_files(tmp_path, catalog_dir):
    again = synth.generate(300, tmp_path / "again", seed=0)
    assert _tree(again) == _tree(catalog_dir)


def test_identical_across_processes_with_different_hash_seeds(tmp_path):
    trees = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"hash{hash_seed}"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, str(REPO / "bench" / "synth.py"), "40", str(out)], check=True, env=env,
                       capture_output=True, timeout=300)
        trees.append(_tree(out))
    assert trees[0] == trees[1]


def test_another_seed_gives_another_catalog(tmp_path, catalog_dir):
    other = synth.generate(300, tmp_path / "other", seed=1)
    first, second = _tree(catalog_dir), _tree(other)
    assert first["tags.toml"] == second["tags.toml"]
    papers = lambda tree: {v for k, v in tree.items() if k.startswith("papers/")}  # noqa: E731
    assert not papers(first) & papers(second)


def test_writes_a_complete_content_folder(catalog_dir, catalog):
    assert (catalog_dir / "site.toml").is_file()
    assert (catalog_dir / "tags.toml").read_bytes() == (REPO / "content" / "tags.toml").read_bytes()
    assert len(list((catalog_dir / "papers").glob("*.md"))) == 300
    assert len(catalog.papers) == 300
    assert len(catalog.venues) >= 2
    assert "300 papers" in catalog.site.title
    # Nothing but the content itself (and the marker) is left in the folder.
    assert sorted(p.name for p in catalog_dir.iterdir()) == sorted(
        [".papershelf-synth", "papers", "site.toml", "tags.toml", "venues"])
    assert not list(catalog_dir.parent.glob(".*synth-*"))  # the work folder is removed


def test_papers_look_like_real_papers(catalog):
    taxonomy = read_taxonomy(REPO / "content" / "tags.toml", "tags.toml")
    titles = [p.title for p in catalog.papers]
    assert len({t.casefold() for t in titles}) == len(titles)
    provisional = [p for p in catalog.papers if p.provisional]
    assert len(provisional) < 0.05 * len(catalog.papers)
    for paper in catalog.papers:
        assert paper.tags and all(tag in taxonomy for tag in paper.tags) and len(paper.tags) <= 4
        assert paper.venue in catalog.venues
        assert 4 <= len(re.findall(r"[.!?](?:\s|$)", paper.abstract)) or len(paper.abstract.split()) > 60
        if not paper.provisional:
            assert 1 <= len(paper.authors) <= 12
            assert len(set(paper.authors)) == len(paper.authors)
    counts = Counter(len(p.authors) for p in catalog.papers if not p.provisional)
    assert min(counts) == 1 and max(counts) >= 9  # the whole range is used
    assert sum(1 for p in catalog.papers if "$" in p.abstract) >= 10  # LaTeX math kept in some abstracts
    assert sum(1 for p in catalog.papers if "$" not in p.abstract) >= 150
    tags_used = Counter(t for p in catalog.papers for t in p.tags)
    assert len(tags_used) >= 10  # spread over the taxonomy, not one tag


def test_authors_are_shared_and_some_are_accented(catalog):
    papers_by_author = Counter(a for p in catalog.papers for a in p.authors)
    assert len(papers_by_author) > 500  # a large pool...
    assert max(papers_by_author.values()) >= 5  # ...with prolific authors
    assert sum(1 for n in papers_by_author.values() if n > 1) >= 50  # and many shared ones
    assert any(not name.isascii() for name in papers_by_author)


@pytest.mark.slow
def test_venues_span_several_years(tmp_path):
    catalog = load_catalog(synth.generate(1200, tmp_path / "big", seed=3))
    assert len(catalog.venues) >= 5
    assert len({v.year for v in catalog.venues.values()}) >= 2
    papers_per_venue = Counter(p.venue for p in catalog.papers)
    assert all(papers_per_venue[v] > 0 for v in catalog.venues)
    assert max(papers_per_venue.values()) < 0.6 * len(catalog.papers)


def test_vocabulary_keeps_growing_like_a_real_corpus():
    corpus = synth.load_corpus()
    maker = synth._Maker(4000, 0, corpus, {})
    words: list[str] = []
    for _ in range(1600):
        words += re.findall(r"[a-z]+", maker.abstract(Counter()).lower())
    quarter, half, full = (len(set(words[: len(words) * k // 4])) for k in (1, 2, 4))
    # Heaps' law V ~ N^b with 0.3 < b < 0.8: growing, but slower than the text.
    assert 2 ** 0.3 < half / quarter < 2 ** 0.8
    assert 2 ** 0.3 < full / half < 2 ** 0.8


def test_pseudo_words_are_distinct_and_pronounceable():
    ranks = list(range(20000)) + [len(synth.SYLLABLES) ** 3 + k for k in range(-50, 50)]
    words = [synth.pseudo_word(r) for r in ranks]
    assert len(set(words)) == len(words)
    assert all(re.fullmatch(r"[a-z]{6,16}", w) for w in words)
    assert synth.pseudo_word(synth.MAX_RANK)


def test_person_names_are_distinct_over_a_large_pool():
    names = [synth.person_name(i) for i in range(60000)]
    assert len(set(names)) == len(names)


def test_refuses_to_replace_a_folder_that_is_not_synthetic(tmp_path):
    precious = tmp_path / "content"
    precious.mkdir()
    (precious / "notes.md").write_text("mine")
    with pytest.raises(FileExistsError):
        synth.generate(5, precious)
    assert (precious / "notes.md").read_text() == "mine"


def test_replaces_a_previous_synthetic_catalog(tmp_path):
    out = synth.generate(20, tmp_path / "c", seed=0)
    synth.generate(10, out, seed=0)
    assert len(list((out / "papers").glob("*.md"))) == 10


def test_falls_back_to_the_committed_papers_without_seeds(tmp_path):
    corpus = synth.load_corpus(tmp_path / "no-seeds")
    committed = {" ".join(p.read_text(encoding="utf-8").split("\n---\n", 1)[1].split())
                 for p in (REPO / "content" / "papers").glob("*.md")}
    assert corpus.plain and all(any(s in body for body in committed) for s, _ in corpus.plain[:50])


def test_real_tag_suggestions_on_request(tmp_path):
    out = synth.generate(12, tmp_path / "suggested", seed=0, suggest_tags=True)
    catalog = load_catalog(out)
    assert len(catalog.papers) == 12
    fast = load_catalog(synth.generate(12, tmp_path / "voted", seed=0))
    # Same papers either way; only the tags come from elsewhere.
    assert [(p.slug, p.title, p.authors, p.abstract) for p in catalog.papers] == \
        [(p.slug, p.title, p.authors, p.abstract) for p in fast.papers]


def test_cli_writes_the_catalog(tmp_path, capsys):
    assert synth.main(["7", str(tmp_path / "cli")]) == 0
    assert len(list((tmp_path / "cli" / "papers").glob("*.md"))) == 7
    assert "Wrote 7 papers" in capsys.readouterr().out


# --------------------------------------------------------------------------- the harness around it


def _load_run():
    spec = importlib.util.spec_from_file_location("bench_run", REPO / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_title_editor_edits_one_title_and_restores_the_file(tmp_path, catalog_dir):
    run = _load_run()
    content = tmp_path / "copy"
    shutil.copytree(catalog_dir, content)
    before = _tree(content)
    editor = run.TitleEditor(content)
    editor.toggle()
    edited = load_catalog(content)  # still a valid catalog
    changed = [k for k, v in _tree(content).items() if before[k] != v]
    assert changed == [f"papers/{editor.path.name}"]
    paper = next(p for p in edited.papers if p.slug == editor.path.stem)
    assert paper.title.endswith("(edited 1)")
    editor.toggle()
    assert _tree(content) == before
    editor.toggle()
    editor.restore()
    assert _tree(content) == before


@pytest.mark.hugo
@pytest.mark.skipif(shutil.which("hugo") is None, reason="Hugo is not installed (apt-get install hugo)")
def test_hugo_builds_the_same_papers_tags_and_venues(tmp_path, catalog_dir, catalog):
    run = _load_run()
    site = tmp_path / "hugo-site"
    run.convert_to_hugo(catalog_dir, site)
    out = tmp_path / "public"
    result = subprocess.run(["hugo", "--source", str(site), "--destination", str(out), "--quiet", "--noBuildLock",
                             "--cacheDir", str(tmp_path / "cache")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    papers = {p.parent.name for p in (out / "papers").glob("*/index.html")}
    assert papers == {p.slug for p in catalog.papers}
    assert {p.parent.name for p in (out / "venues").glob("*/index.html")} == set(catalog.venues)
    used_tags = {t for p in catalog.papers for t in p.tags}
    assert used_tags <= {p.parent.name for p in (out / "tags").glob("*/index.html")}
    assert len(list((out / "authors").glob("*/index.html"))) > 500
    # A paper page links its venue, tags and authors, with their names.
    paper = catalog.papers[0]
    html = (out / "papers" / paper.slug / "index.html").read_text(encoding="utf-8")
    assert f'href="/venues/{paper.venue}/"' in html and catalog.venues[paper.venue].name in html
    for tag in paper.tags:
        assert f'href="/tags/{tag}/"' in html
