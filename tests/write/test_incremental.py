"""Rebuilds: an incremental build writes exactly the files a cold build does, parallel
rendering writes exactly what serial rendering does, and a build with nothing to do
leaves the output alone (but repairs an output someone tampered with)."""

from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path

import pytest

from generator import pipeline
from generator.build import BuildOptions, build
from generator.errors import OutputError
from generator.write.manifest import MARKER, read_manifest

from ..conftest import ContentDir, paper_md
from ..sitecheck import files_of

PROJECT = Path(__file__).resolve().parents[2]


def stats_of(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_mtime_ns, p.stat().st_ino)
            for p in folder.rglob("*") if p.is_file()}


def assert_same_as_cold(content: Path, out: Path, tmp_path: Path, **options) -> None:
    cold = tmp_path / "cold-build"
    shutil.rmtree(cold, ignore_errors=True)
    build(BuildOptions(content=content, output=cold, **options))
    assert files_of(out) == files_of(cold)
    manifest, cold_manifest = read_manifest(out), read_manifest(cold)
    assert {p: (r.digest, r.size) for p, r in manifest.files.items()} == \
        {p: (r.digest, r.size) for p, r in cold_manifest.files.items()}
    # the manifest tells the truth about the disk, so the next build can trust it
    for path, record in manifest.files.items():
        st = (out / path).stat()
        assert (st.st_size, st.st_mtime_ns) == (record.size, record.mtime_ns), path


def add_more(content: ContentDir) -> None:
    content.add_paper("graph-transformers", title="Graph Transformers at Scale",
                      authors=("Ada Lovelace", "Grace Hopper"), tags=("graph-learning", "optimization"),
                      body="Attention over $K$ hops of a graph.")
    content.add_paper("sparse-attention", title="Sparse Attention", authors=("Grace Hopper",),
                      tags=("optimization",), body="We prune attention heads.")


EDITS = {
    "title changed": lambda c: c.add_paper("a-paper-on-graphs", title="A Paper on Graphs, Revised"),
    "author added": lambda c: c.add_paper("sparse-attention", title="Sparse Attention",
                                          authors=("Grace Hopper", "Alan Turing"), tags=("optimization",),
                                          body="We prune attention heads."),
    "paper removed": lambda c: (c.root / "papers" / "graph-transformers.md").unlink(),
    "paper added": lambda c: c.add_paper("new-one", title="A New One", authors=("Edsger Dijkstra",),
                                         tags=("graph-learning",), body="Shortest paths, again."),
    "abstract changed": lambda c: c.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent",
                                              authors=("Alan Turing",), tags=("optimization",),
                                              body="Now at rate $O(1/t^2)$ with momentum."),
    "site title changed": lambda c: c.write("site.toml", 'title = "Another shelf"\ndescription = "For tests."\n'),
    "every paper removed but one": lambda c: [p.unlink() for p in (c.root / "papers").glob("*.md")
                                              if p.stem != "fast-convergence"],
}


@pytest.mark.parametrize("cached", [False, True], ids=["no cache", "cache"])
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_incremental_rebuild_writes_exactly_what_a_cold_build_writes(content, tmp_path, edit, cached):
    """With the build cache, pages rendered from the same inputs as before are kept, not
    rendered: the output is still a cold build's (built without the cache)."""
    add_more(content)
    out = tmp_path / "site"
    options = BuildOptions(content=content.root, output=out, cache=tmp_path / "cache" if cached else None)
    build(options)
    before = stats_of(out)
    EDITS[edit](content)
    report = build(options)
    assert not report.up_to_date
    assert_same_as_cold(content.root, out, tmp_path)
    if not cached:
        assert report.pages_kept == 0
    elif edit in ("abstract changed", "author added", "paper added"):
        assert 0 < report.pages_kept < report.pages
    after = stats_of(out)
    rewritten = {p for p in after if p != MARKER and after[p] != before.get(p)}
    removed = set(before) - set(after)
    assert report.files_changed == len(rewritten) + len(removed) > 0
    # unchanged files were left alone, not rewritten with the same bytes
    assert len(rewritten) < len(after) - 1


@pytest.mark.slow
def test_a_series_of_edits_ends_where_a_cold_build_starts(content, tmp_path):
    out = tmp_path / "site"
    add_more(content)
    options = BuildOptions(content=content.root, output=out, cache=tmp_path / "cache")
    build(options)
    for name in sorted(EDITS):
        if name != "every paper removed but one":
            EDITS[name](content)
            build(options)
            assert_same_as_cold(content.root, out, tmp_path)


def test_nothing_changed_means_nothing_is_written(content, tmp_path):
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    before = stats_of(out)
    report = build(BuildOptions(content=content.root, output=out))
    assert report.up_to_date and report.files_changed == 0
    assert stats_of(out) == before
    assert "up to date" in report.summary()


def test_a_touched_but_unchanged_file_rebuilds_and_rewrites_nothing(content, tmp_path):
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    before = stats_of(out)
    path = content.root / "papers" / "a-paper-on-graphs.md"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    report = build(BuildOptions(content=content.root, output=out))
    assert not report.up_to_date and report.files_changed == 0
    assert {p: s for p, s in stats_of(out).items() if p != MARKER} == \
        {p: s for p, s in before.items() if p != MARKER}


@pytest.mark.parametrize("change", ["template", "static file", "base url"])
def test_templates_static_files_and_options_are_inputs_too(content, tmp_path, change):
    templates, static = tmp_path / "templates", tmp_path / "static"
    shutil.copytree(PROJECT / "templates", templates)
    shutil.copytree(PROJECT / "static", static)
    out = tmp_path / "site"
    options = BuildOptions(content=content.root, output=out, templates=templates, static=static)
    build(options)
    if change == "template":
        page = templates / "404.html"
        page.write_text(page.read_text(encoding="utf-8").replace("{% endblock %}", "<p>Changed.</p>{% endblock %}"),
                        encoding="utf-8")
    elif change == "static file":
        (static / "css" / "site.css").write_text(RED, encoding="utf-8")
    else:
        options = BuildOptions(content=content.root, output=out, templates=templates, static=static,
                               base_url="/catalog/")
    report = build(options)
    assert not report.up_to_date and report.files_changed > 0
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static,
                        base_url=options.base_url)


RED = "body{color:red}\n"  # a static edit (as minified: served as written)


def built_with_own_theme(content, tmp_path: Path) -> tuple[BuildOptions, Path, Path]:
    """The content built with a copy of the theme (options, templates, static)."""
    templates, static = tmp_path / "templates", tmp_path / "static"
    shutil.copytree(PROJECT / "templates", templates)
    shutil.copytree(PROJECT / "static", static)
    options = BuildOptions(content=content.root, output=tmp_path / "site", templates=templates, static=static)
    build(options)
    return options, templates, static


def test_a_static_change_alone_copies_static_files_and_keeps_every_other_file(content, tmp_path):
    options, templates, static = built_with_own_theme(content, tmp_path)
    out = options.output
    before = stats_of(out)
    (static / "css" / "site.css").write_text(RED, encoding="utf-8")
    (static / "js" / "sort.js").unlink()
    (static / "img").mkdir()
    (static / "img" / "logo.svg").write_text("<svg/>", encoding="utf-8")
    report = build(options)
    assert report.static_only and "load" not in report.seconds
    assert report.files_changed == 3 and "Copied the static files" in report.summary()
    after = stats_of(out)
    kept = {p for p in before if not p.startswith("static/") and p != MARKER}
    assert kept and {p: after[p] for p in kept} == {p: before[p] for p in kept}  # not even rewritten
    assert (out / "static/css/site.css").read_text(encoding="utf-8") == RED
    assert not (out / "static/js/sort.js").exists() and (out / "static/img/logo.svg").is_file()
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static)
    assert build(options).up_to_date


def test_without_an_atomic_folder_exchange_a_static_change_relinks_the_rest(content, tmp_path, monkeypatch):
    """Where ``renameat2`` is missing, the static-only update builds a whole new folder (every
    other file hard-linked, not rewritten) and swaps it in like any build."""
    import generator.write.writer as writer

    options, templates, static = built_with_own_theme(content, tmp_path)
    out = options.output
    before = stats_of(out)
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    (static / "css" / "site.css").write_text(RED, encoding="utf-8")
    report = build(options)
    assert report.static_only and report.files_changed == 1
    after = stats_of(out)
    assert all(after[p] == before[p] for p in before if not p.startswith("static/") and p != MARKER)
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static)


def test_killed_between_the_folder_exchange_and_the_manifest_the_next_build_mends_it(content, tmp_path, monkeypatch):
    import generator.write.writer as writer

    options, templates, static = built_with_own_theme(content, tmp_path)
    out = options.output
    (static / "css" / "site.css").write_text(RED, encoding="utf-8")

    def killed(*args):
        raise KeyboardInterrupt  # as if the process died right after the exchange

    monkeypatch.setattr(writer.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        build(options)
    monkeypatch.undo()
    assert (out / "static/css/site.css").read_text(encoding="utf-8") == RED
    assert not build(options).up_to_date  # the manifest does not list the new static files
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static)
    assert build(options).up_to_date


@pytest.mark.parametrize("also", ["a page of the output edited", "a page of the output deleted", "content"])
def test_a_static_change_with_anything_else_is_a_full_build(content, tmp_path, also):
    options, templates, static = built_with_own_theme(content, tmp_path)
    out = options.output
    (static / "css" / "site.css").write_text(RED, encoding="utf-8")
    if also == "content":
        content.add_paper("a-paper-on-graphs", title="A Paper on Graphs, Revised")
    else:
        tamper_with(out / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html", also.split()[-1])
    report = build(options)
    assert not report.static_only and "load" in report.seconds
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static)


def test_a_template_change_renders_the_data_an_earlier_build_derived(content, tmp_path, monkeypatch):
    """``build --serve`` hands the last build's ``Derived`` back (``reuse``): after a template
    change it is rendered again without loading or deriving; after a content change it is
    not used."""
    kept: list = []
    options, templates, static = built_with_own_theme(content, tmp_path)
    out = options.output
    kept.append(None)
    build(options, keep=kept.append)  # nothing changed: nothing derived, nothing kept
    assert kept == [None]
    kept.clear()
    shutil.rmtree(out)
    build(options, keep=kept.append)
    page = templates / "404.html"
    page.write_text(page.read_text(encoding="utf-8").replace("{% endblock %}", "<p>Changed.</p>{% endblock %}"),
                    encoding="utf-8")
    searches, real_search = [], pipeline.build_search
    monkeypatch.setattr(pipeline, "build_search", lambda site: searches.append(site) or real_search(site))
    report = build(options, keep=kept.append, reuse=kept[-1])
    assert "reuse" in report.seconds and "load" not in report.seconds and "derive" not in report.seconds
    assert report.files_changed == 1 and kept[-1].site is kept[0].site  # the same data...
    assert kept[-1].env is not kept[0].env  # ...with the templates it was rendered with (``build --serve``)
    assert searches == []  # no template shapes the search files or exports: kept as they were
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static)
    # ... unless the output's copies are not what the manifest lists: then they are made again
    (out / "search" / "meta.json").write_text("{}", encoding="utf-8")
    page.write_text(page.read_text(encoding="utf-8").replace("Changed.", "Changed twice."), encoding="utf-8")
    searches.clear()  # (the cold build above made its own)
    build(options, keep=kept.append, reuse=kept[0])
    assert len(searches) == 1
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static)
    content.add_paper("a-paper-on-graphs", title="A Paper on Graphs, Revised")
    page.write_text(page.read_text(encoding="utf-8").replace("Changed.", "Changed again."), encoding="utf-8")
    report = build(options, keep=kept.append, reuse=kept[0])
    assert "reuse" not in report.seconds and "load" in report.seconds and kept[-1] is not kept[0]
    assert_same_as_cold(content.root, out, tmp_path, templates=templates, static=static)


def tamper_with(page: Path, how: str) -> None:
    """Someone changed the output: a page "edited", "deleted" or "replaced by a folder"."""
    if how == "edited":
        page.write_text("defaced", encoding="utf-8")
    else:
        page.unlink()
        if how != "deleted":
            page.mkdir()


@pytest.mark.parametrize("tamper", ["edited", "deleted", "replaced by a folder"])
def test_an_output_someone_changed_is_repaired_even_when_no_input_changed(content, tmp_path, tamper):
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    tamper_with(out / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html", tamper)
    report = build(BuildOptions(content=content.root, output=out))
    assert not report.up_to_date
    assert_same_as_cold(content.root, out, tmp_path)


def test_stray_files_go_with_the_next_build_that_has_work_to_do(content, tmp_path):
    """The no-change check stats the files the manifest lists, not the whole folder (that is
    what keeps it fast); files added by hand go when the next real build runs."""
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    (out / "papers" / "stray.html").write_text("stray", encoding="utf-8")
    (out / "extra" / "deep").mkdir(parents=True)
    (out / "extra" / "deep" / "x.html").write_text("stray", encoding="utf-8")
    assert build(BuildOptions(content=content.root, output=out)).up_to_date
    content.add_paper("fast-convergence", title="Fast Convergence, Revisited", authors=("Alan Turing",),
                      tags=("optimization",))
    report = build(BuildOptions(content=content.root, output=out))
    assert not report.up_to_date
    assert not (out / "papers" / "stray.html").exists() and not (out / "extra").exists()
    assert_same_as_cold(content.root, out, tmp_path)


def test_a_manifest_that_lies_is_not_trusted(content, tmp_path):
    """A garbled or foreign manifest means: replace the whole folder, like a first build."""
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    (out / MARKER).write_text("papershelf-site 2 abc\nnot a record\n", encoding="utf-8")
    (out / "index.html").write_text("stale", encoding="utf-8")
    build(BuildOptions(content=content.root, output=out))
    assert_same_as_cold(content.root, out, tmp_path)


def test_parallel_rendering_writes_exactly_what_serial_rendering_writes(content, tmp_path):
    add_more(content)
    for i in range(30):
        content.add_paper(f"paper-{i}", title=f"Paper number {i}", authors=(f"Author {i % 7}", "Ada Lovelace"),
                          tags=("graph-learning",) if i % 2 else ("optimization",), body=f"Abstract {i}.")
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    build(BuildOptions(content=content.root, output=serial, jobs=1))
    report = build(BuildOptions(content=content.root, output=parallel, jobs=2))
    # the heap frozen for the workers is handed back to the collector (serve builds again and again)
    assert gc.get_freeze_count() == 0
    assert files_of(serial) == files_of(parallel)
    assert report.files_changed == len(files_of(parallel)) == len(read_manifest(parallel).files)


def test_a_template_error_in_a_worker_keeps_the_previous_site(content, tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT / "templates", templates)
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out, templates=templates, jobs=2))
    before = files_of(out)
    (templates / "paper.html").write_text("{% extends 'base.html' %}{% block main %}{{ no_such.name }}{% endblock %}",
                                          encoding="utf-8")
    content.add_paper("a-paper-on-graphs", text=paper_md(title="Changed"))
    with pytest.raises(OutputError, match="template error while rendering /papers/"):
        build(BuildOptions(content=content.root, output=out, templates=templates, jobs=2))
    assert files_of(out) == before
    assert sorted(os.listdir(tmp_path)) == ["content", "site", "templates"]


def test_progress_counts_every_page_once(content, tmp_path):
    seen: list[tuple[int, int]] = []
    report = build(BuildOptions(content=content.root, output=tmp_path / "site", jobs=2,
                                progress=lambda done, total: seen.append((done, total))))
    assert seen and seen[-1] == (report.pages, report.pages)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_parallel_loading_and_deriving_match_serial_ones_problems_and_all(content, tmp_path, monkeypatch):
    """Reading, parsing and rendering each paper's text run on every core for big catalogs:
    forced on here for a small one, the problems (in order) and the site must not change."""
    from generator import parallel
    from generator.errors import ContentError

    for i in range(12):
        content.add_paper(f"paper-{i}", title=f"Paper {i} on $K$-means", authors=(f"Author {i % 3}",),
                          body=f"Abstract {i} with \\emph{{math}} $\\mathcal{{O}}(n^{i})$.")
    (content.root / "papers" / "Bad-Name.md").write_text(paper_md(title="Bad name"), encoding="utf-8")
    (content.root / "papers" / "broken.md").write_text("---\ntitle: [unclosed\n---\n", encoding="utf-8")
    content.add_paper("lost", title="Lost", venue="nowhere-2099")

    def problems(**options) -> list:
        with pytest.raises(ContentError) as info:
            build(BuildOptions(content=content.root, output=tmp_path / "never", **options))
        return [(p.file, p.line, p.field, p.message) for p in info.value.problems]

    serial = problems()
    monkeypatch.setattr(parallel, "default_jobs", lambda units, minimum_units=0: 2)
    assert problems() == serial and len(serial) == 3
    for name in ("Bad-Name.md", "broken.md", "lost.md"):
        (content.root / "papers" / name).unlink()
    build(BuildOptions(content=content.root, output=tmp_path / "parallel"))
    monkeypatch.undo()
    build(BuildOptions(content=content.root, output=tmp_path / "serial", jobs=1))
    assert files_of(tmp_path / "parallel") == files_of(tmp_path / "serial")


def test_a_worker_that_dies_is_an_error_not_a_hang(tmp_path):
    from generator.parallel import run_tasks
    from generator.write.staging import SiteWriter

    def write(name):
        def task(out):
            out.write_text(name, "a page")
            return 1
        return task

    with pytest.raises(OutputError, match="worker process of the build died"):
        run_tasks([write("a.html"), lambda out: os._exit(3), write("b.html")], SiteWriter(tmp_path), jobs=2)
