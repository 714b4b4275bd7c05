"""The preview server's fast path (generator/serve/fast.py): an edited paper's page is on
the site before the full rebuild has run, the browser reloads once per change, and once
the rebuild is done the site is byte for byte a cold build's; a broken edit keeps the last
good site. Driven through the server's own machinery (``Rebuilder`` with a ``FastPath``),
with the watcher's part played by the test: each edit is handed over as the batch of
paths the watcher would report."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from generator import serve
from generator.build import build
from generator.content.loader import PaperChecks
from generator.options import BuildOptions
from generator.serve import FastPath, Rebuilder

from ..conftest import REPO, TAGS_TOML, ContentDir, paper_md
from ..sitecheck import files_of

SECOND_VENUE = """\
---
name: "OTHER 2023"
full_name: "Other Conference 2023"
year: 2023
---
"""


class Preview:
    """``build --serve`` without the HTTP server: the first build, then ``edit`` hands the
    changed paths to the rebuilder as the watcher does; ``reloads`` counts the reloads."""

    def __init__(self, content: ContentDir, out: Path):
        self.content = content
        self.options = BuildOptions(content=content.root, output=out, cache=out.parent / "cache")
        self.reloads = 0
        self.fast = FastPath(self.options, self._reload)
        seq = self.fast.build_started()
        assert serve.run_build(self.options, True, built=lambda r, d: self.fast.build_done(seq, r, d))
        self.rebuilder = Rebuilder(self.options, True, self.fast)
        self.took_fast: list[bool] = []
        self.fast_while_rebuilding = 0  # fast edits made while a rebuild ran
        changed = self.fast.changed

        def recorded(paths: list[str]) -> bool:
            running = self.rebuilder.running
            self.took_fast.append(changed(paths))
            self.fast_while_rebuilding += self.took_fast[-1] and running
            return self.took_fast[-1]

        self.fast.changed = recorded  # type: ignore[method-assign]

    def _reload(self) -> None:
        self.reloads += 1

    def edit(self, *paths: Path) -> None:
        self.rebuilder.changed([str(Path(p).resolve()) for p in paths])

    def settle(self, timeout: float = 60) -> None:
        """Until the rebuilds handed over are done: the rebuilder's one worker has run a no-op
        queued behind them."""
        self.rebuilder.executor.submit(lambda: None).result(timeout=timeout)
        assert not self.rebuilder.running

    def page(self, slug: str) -> str:
        """The paper's page, papers/<venue>/<slug>/: the newest written, when an edit moved the
        paper to another venue (the rebuild then removes the old one)."""
        found = sorted((self.options.output / "papers").glob(f"*/{slug}/index.html"), key=lambda p: p.stat().st_mtime_ns)
        assert found, slug
        return found[-1].read_text(encoding="utf-8")

    def close(self) -> None:
        self.rebuilder.executor.shutdown(wait=True)


def cold_build(content: ContentDir, out: Path) -> dict[str, bytes]:
    assert not out.exists()
    build(BuildOptions(content=content.root, output=out))
    return files_of(out)


@pytest.fixture
def preview(content, tmp_path):
    p = Preview(content, tmp_path / "site")
    yield p
    p.close()


@pytest.fixture
def gated(monkeypatch):
    """Rebuilds wait for ``gate`` to be set: what the fast path did is seen before they run."""
    gate = threading.Event()
    real = serve.run_build

    def waiting(*args, **kwargs):
        assert gate.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(serve, "run_build", waiting)
    return gate


def test_a_retitle_is_on_the_page_before_the_rebuild_and_reloads_once(preview, gated, tmp_path):
    content = preview.content
    path = content.add_paper("a-paper-on-graphs", title="Message Passing, Retitled")
    preview.edit(path)
    assert preview.took_fast == [True]
    assert "Message Passing, Retitled" in preview.page("a-paper-on-graphs")
    assert preview.rebuilder.running and not gated.is_set()  # the rebuild has not run yet
    assert preview.reloads == 1
    gated.set()
    preview.settle()
    assert preview.reloads == 1  # the rebuild wrote the same page: no second reload
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


def test_new_author_tag_and_venue_on_the_fast_page(preview, gated, tmp_path):
    content = preview.content
    content.write("venues/other-2023.md", SECOND_VENUE)
    preview.edit(content.root / "venues" / "other-2023.md")  # not a paper: the normal path
    assert preview.took_fast == [False]
    gated.set()
    preview.settle()
    assert preview.reloads == 1
    gated.clear()
    path = content.add_paper("fast-convergence", paper_md(
        "Fast Convergence of Gradient Descent", authors=("Grace Hopper", "Alan Turing"), venue="other-2023",
        tags=("optimization", "machine-learning"), body="Gradient descent converges at rate $O(1/t^2)$."))
    preview.edit(path)
    assert preview.took_fast == [False, True]
    page = preview.page("fast-convergence")
    for shown in ("Grace Hopper", "/authors/al/alan-turing/", "OTHER 2023", "/venues/other-2023/",
                  "/tags/machine-learning/"):
        assert shown in page
    assert "/authors/gr/grace-hopper/" in page  # one paper, a page of her own (everyone up to 20,000 papers)
    assert (preview.options.output / "papers" / "other-2023" / "fast-convergence" / "index.html").is_file()
    gated.set()
    preview.settle()
    assert preview.reloads == 2
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


def test_a_broken_edit_keeps_the_last_good_page_and_a_fix_recovers(preview, tmp_path, capsys):
    content = preview.content
    before = preview.page("a-paper-on-graphs")
    path = content.add_paper("a-paper-on-graphs", "---\ntitle: [broken\n---\n")
    preview.edit(path)
    preview.settle()
    assert preview.took_fast == [False]
    assert "invalid YAML" in capsys.readouterr().err
    assert preview.page("a-paper-on-graphs") == before and preview.reloads == 0
    # A paper that fails a check across the catalog (an exact duplicate of another paper) is no better.
    path = content.add_paper("a-paper-on-graphs", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                             body="Gradient descent converges at rate $O(1/t)$.")
    preview.edit(path)
    preview.settle()
    assert preview.took_fast == [False, False]
    assert preview.page("a-paper-on-graphs") == before and preview.reloads == 0
    # The save that makes the paper valid again is a fast edit.
    path = content.add_paper("a-paper-on-graphs", title="Fixed Again")
    preview.edit(path)
    assert preview.took_fast == [False, False, True] and "Fixed Again" in preview.page("a-paper-on-graphs")
    preview.settle()
    assert preview.reloads == 1
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


def test_no_fast_page_while_another_paper_does_not_validate(preview, tmp_path):
    """A rebuild would fail, so a fast page would be one no rebuild writes."""
    content = preview.content
    other = content.add_paper("fast-convergence", "---\ntitle: [half-written\n")
    preview.edit(other)
    preview.settle()
    before = preview.page("a-paper-on-graphs")
    path = content.add_paper("a-paper-on-graphs", title="Waits for the Other")
    preview.edit(path)
    preview.settle()
    assert preview.took_fast == [False, False] and preview.page("a-paper-on-graphs") == before
    content.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                      tags=("optimization",), body="Gradient descent converges at rate $O(1/t)$.")
    preview.edit(other)  # valid again: a fast edit, and both papers are right after the rebuild
    assert preview.took_fast[-1] is True
    preview.settle()
    assert "Waits for the Other" in preview.page("a-paper-on-graphs")
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


def test_a_fast_page_the_rebuild_changes_reloads_again(preview, gated, tmp_path):
    """The fast page keeps the last build's related list; a retitle that makes the other
    paper related ("Fast" is in its title) changes the page again in the rebuild, which
    then reloads the browser a second time."""
    before = preview.page("a-paper-on-graphs")
    assert "related-list" not in before
    path = preview.content.add_paper("a-paper-on-graphs", title="Fast Graphs")
    preview.edit(path)
    assert preview.took_fast == [True] and preview.reloads == 1
    assert "Fast Graphs" in preview.page("a-paper-on-graphs") and "related-list" not in preview.page("a-paper-on-graphs")
    gated.set()
    preview.settle()
    assert "related-list" in preview.page("a-paper-on-graphs") and preview.reloads == 2
    assert files_of(preview.options.output) == cold_build(preview.content, tmp_path / "cold")


def test_fast_pages_stay_when_a_later_save_breaks_the_catalog(preview, gated, tmp_path):
    """The fast page shows the paper's last valid save; a rebuild that fails because of a
    later broken save (here tags.toml) does not take it away."""
    content = preview.content
    path = content.add_paper("a-paper-on-graphs", title="Seen Before the Break")
    preview.edit(path)
    fast_page = preview.page("a-paper-on-graphs")
    assert "Seen Before the Break" in fast_page
    tags = content.write("tags.toml", "[broken\n")  # then the catalog breaks before the rebuild ran
    preview.edit(tags)
    assert preview.took_fast == [True, False]
    gated.set()
    preview.settle()
    assert preview.page("a-paper-on-graphs") == fast_page
    content.write("tags.toml", TAGS_TOML)  # fixed: the rebuild makes the site a cold build's
    preview.edit(tags)
    preview.settle()
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


def test_fast_pages_are_put_back_when_the_rebuild_fails_unexplained(preview, gated, monkeypatch):
    """Were the fast path to let through a paper the loader refuses (here its duplicate
    check is switched off), the failed rebuild puts the last good site back, exactly."""
    last_good = files_of(preview.options.output)
    monkeypatch.setattr(PaperChecks, "seen", lambda self, paper, keys=None: None)  # (the build does not use it)
    path = preview.content.add_paper("a-paper-on-graphs", title="Fast Convergence of Gradient Descent",
                                     authors=("Alan Turing",), body="Gradient descent converges at rate $O(1/t)$.")
    preview.edit(path)
    assert preview.took_fast == [True]
    assert "Fast Convergence of Gradient Descent" in preview.page("a-paper-on-graphs")
    gated.set()
    preview.settle()
    assert files_of(preview.options.output) == last_good


def test_a_rebuild_failing_on_a_save_not_yet_reported_keeps_the_fast_pages(preview, monkeypatch):
    """The rebuild read a file saved after it began (half-written, or broken) before the
    watcher reported that save: the failure is no reason to take the fast page back; the
    rebuild the save brings decides."""
    content = preview.content
    path = content.add_paper("a-paper-on-graphs", title="Message Passing, Retitled")
    real = serve.run_build

    def broken_meanwhile(*args, **kwargs):
        content.add_paper("a-paper-on-graphs", "---\ntitle: [broken\n---\n")  # not reported (yet)
        return real(*args, **kwargs)

    monkeypatch.setattr(serve, "run_build", broken_meanwhile)
    preview.edit(path)
    preview.settle()
    assert preview.took_fast == [True]
    assert "Message Passing, Retitled" in preview.page("a-paper-on-graphs")


def test_a_rebuild_failing_on_a_save_made_just_before_it_began_keeps_the_fast_pages(preview, monkeypatch):
    """The save landed just before the rebuild began, and the watcher, which reports a burst
    of saves once it is quiet, reports it only while the rebuild fails: the failed rebuild
    waits for that report (the rebuild the save brings decides), not taking the fast page
    back (a loaded machine saw the page go back to the one before the fast edit)."""
    content = preview.content
    path = content.add_paper("a-paper-on-graphs", title="Message Passing, Retitled")
    real = serve.content_inputs
    saved = []
    reports: list[threading.Timer] = []

    def saved_first(options):
        if not saved:
            saved.append(content.add_paper("a-paper-on-graphs", "---\ntitle: [broken\n---\n"))
            reports.append(threading.Timer(0.05, preview.fast.changed, [[str(path)]]))  # the watcher's report, later
            reports[0].start()
        return real(options)

    monkeypatch.setattr(serve, "content_inputs", saved_first)
    preview.edit(path)
    preview.settle()
    reports[0].join(timeout=30)  # the late report has been handed over
    assert not reports[0].is_alive()
    assert preview.took_fast == [True, False]  # the retitle, then the broken save (reported late)
    assert "Message Passing, Retitled" in preview.page("a-paper-on-graphs")


def test_the_fast_page_carries_the_rebuilds_bibtex_key(preview, gated, tmp_path):
    """Keys are unique in the catalog (a suffix on a clash): the fast page computes its own
    from the papers it can clash with, so it is the rebuild's."""
    content = preview.content
    content.add_paper("graphs-again", title="Graphs Again", authors=("Ada Lovelace",), body="On graphs, again.")
    preview.edit(content.root / "papers" / "graphs-again.md")  # an add: the normal path
    gated.set()
    preview.settle()
    gated.clear()
    page = preview.page("a-paper-on-graphs")
    path = content.add_paper("a-paper-on-graphs", title="Graphs Once More")  # same base key as graphs-again
    preview.edit(path)
    assert preview.took_fast[-1] is True
    fast_page = preview.page("a-paper-on-graphs")
    assert fast_page != page
    reloads = preview.reloads
    gated.set()
    preview.settle()
    assert preview.page("a-paper-on-graphs") == fast_page and preview.reloads == reloads
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


@pytest.mark.slow
def test_an_edit_made_while_a_rebuild_runs_stays_on_the_page(preview, monkeypatch, tmp_path):
    """A rebuild that read the content before an edit swaps in the page before it; the fast
    page goes back on at once (the next rebuild, queued, makes it for good)."""
    from generator import pipeline

    loads = 0
    loaded = [threading.Event(), threading.Event()]
    gates = [threading.Event(), threading.Event()]
    real = pipeline.load_catalog

    def gated_load(*args, **kwargs):
        nonlocal loads
        catalog = real(*args, **kwargs)
        loads += 1
        if loads <= len(gates):  # (the cold build at the end is not held)
            loaded[loads - 1].set()
            assert gates[loads - 1].wait(30)
        return catalog

    monkeypatch.setattr(pipeline, "load_catalog", gated_load)
    content = preview.content
    preview.edit(content.add_paper("a-paper-on-graphs", title="First Edit"))
    assert loaded[0].wait(30)  # the rebuild has read the first edit
    preview.edit(content.add_paper("a-paper-on-graphs", title="Second Edit"))
    assert preview.took_fast == [True, True] and "Second Edit" in preview.page("a-paper-on-graphs")
    gates[0].set()  # the first rebuild swaps in "First Edit"...
    assert loaded[1].wait(30)  # ...and the second has begun
    assert "Second Edit" in preview.page("a-paper-on-graphs")
    gates[1].set()
    preview.settle()
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


def test_a_server_started_on_an_up_to_date_site_derives_for_the_fast_path(content, tmp_path):
    """The first build had nothing to do (so derived nothing): ``prime`` derives meanwhile."""
    options = BuildOptions(content=content.root, output=tmp_path / "site")
    build(options)
    fast = FastPath(options, lambda: None)
    seq = fast.build_started()
    assert serve.run_build(options, True, built=lambda r, d: fast.build_done(seq, r, d))
    assert fast.snapshot is None
    fast.prime(seq)
    path = content.add_paper("a-paper-on-graphs", title="Primed and Retitled")
    assert fast.changed([str(path.resolve())])
    assert "Primed and Retitled" in (options.output / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html").read_text()


def test_template_and_static_edits_redo_only_what_depends_on_them(preview, monkeypatch, tmp_path):
    """A template override rendered from the last build's data (nothing loaded or derived),
    a static override only copied; each reloads once and ends as a cold build."""
    reports = []
    real = serve.run_build

    def recorded(*args, built=None, **kwargs):
        def keep(report, derived):
            reports.append(report)
            built(report, derived)
        return real(*args, built=keep, **kwargs)

    monkeypatch.setattr(serve, "run_build", recorded)
    content = preview.content
    own = content.root.parent / "templates" / "404.html"
    own.parent.mkdir()
    own.write_text('{% extends "base.html" %}{% block main %}<p>Lost here.</p>{% endblock %}', encoding="utf-8")
    preview.edit(own)
    preview.settle()
    assert "Lost here." in (preview.options.output / "404.html").read_text(encoding="utf-8")
    assert "reuse" in reports[-1].seconds and "load" not in reports[-1].seconds
    css = content.root.parent / "static" / "css" / "site.css"
    css.parent.mkdir(parents=True)
    css.write_text("body{color:teal}\n", encoding="utf-8")
    preview.edit(css)
    preview.settle()
    assert reports[-1].static_only
    assert (preview.options.output / "static/css/site.css").read_text(encoding="utf-8") == "body{color:teal}\n"
    assert preview.reloads == 2
    path = content.add_paper("a-paper-on-graphs", title="Retitled After the Theme")
    preview.edit(path)  # the snapshot survives a static-only build: the edit is fast
    assert preview.took_fast[-1]
    preview.settle()
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")


# -- a random sequence of edits --------------------------------------------------------

WORDS = ("graph", "spectral", "diffusion", "kernel", "sparse", "bandit", "policy", "attention",
         "convex", "manifold", "transport", "causal", "tensor", "robust", "quantum", "federated")
NAMES = ("Ada Lovelace", "Alan Turing", "Grace Hopper", "Emmy Noether", "Kurt Gödel", "John von Neumann")
TAGS = ("graph-learning", "optimization", "machine-learning")


def random_paper(rng: random.Random, venues: list[str]) -> dict:
    words = rng.sample(WORDS, 3)
    return {"title": " ".join(w.capitalize() for w in words) + f" {rng.randrange(10**6)}",
            "authors": tuple(rng.sample(NAMES, rng.randint(1, 3))),
            "venue": rng.choice(venues), "tags": tuple(rng.sample(TAGS, rng.randint(1, 2))),
            "body": " ".join(rng.choice(WORDS) for _ in range(30)) + f" ({rng.randrange(10**6)})."}


KINDS = ("title", "authors", "tags", "venue", "body", "add", "delete", "rename", "template", "site")
PAPER_TEMPLATE = REPO / "templates" / "paper.html"


class Catalog:
    """A small random catalog and the edits ``apply`` makes to it (the issue's list: papers
    added, deleted, renamed, retitled, their authors, tags, venue and abstract changed, a
    template overridden, site.toml edited); ``papers`` is what the files say."""

    def __init__(self, content: ContentDir, rng: random.Random):
        self.content, self.rng = content, rng
        content.write("venues/other-2023.md", SECOND_VENUE)
        self.venues = ["test-2024", "other-2023"]
        for slug in ("a-paper-on-graphs", "fast-convergence"):
            (content.root / "papers" / f"{slug}.md").unlink()
        self.papers = {slug: random_paper(rng, self.venues) for slug in ("p-one", "p-two", "p-three", "p-four", "p-five")}
        for slug, fields in self.papers.items():
            content.add_paper(slug, paper_md(**fields))

    def apply(self, kind: str, step: int) -> tuple[str | None, list[Path]]:
        """Make one edit; (the slug of a paper edited in place or None, the changed paths)."""
        rng, content, papers = self.rng, self.content, self.papers
        folder = content.root / "papers"
        if kind == "template":  # the catalog's own override of the paper page
            override = content.root.parent / "templates" / "paper.html"
            override.parent.mkdir(exist_ok=True)
            text = PAPER_TEMPLATE.read_text(encoding="utf-8")
            assert '<article class="paper">' in text
            override.write_text(text.replace('<article class="paper">', f'<article class="paper" data-version="{step}">'),
                                encoding="utf-8")
            return None, [override]
        if kind == "site":
            return None, [content.write("site.toml", f'title = "Test shelf {step}"\ndescription = "For tests."\n')]
        slug = rng.choice(sorted(papers))
        if kind == "add":
            slug = f"new-{step}"
            papers[slug] = random_paper(rng, self.venues)
        elif kind == "delete":
            del papers[slug]
            (folder / f"{slug}.md").unlink()
            return None, [folder / f"{slug}.md"]
        elif kind == "rename":
            new = f"renamed-{step}"
            papers[new] = papers.pop(slug)
            (folder / f"{slug}.md").rename(folder / f"{new}.md")
            return None, [folder / f"{slug}.md", folder / f"{new}.md"]
        else:
            while (fresh := random_paper(rng, self.venues))[kind] == papers[slug][kind]:
                pass  # an edit that changes something
            papers[slug][kind] = fresh[kind]
        return (None if kind == "add" else slug), [content.add_paper(slug, paper_md(**papers[slug]))]


@pytest.mark.slow
def test_random_edits_leave_the_site_a_cold_build(content, tmp_path):
    """Each edit settles (its rebuild done) before the next; after each, the site is a cold build's."""
    rng = random.Random(12)
    catalog = Catalog(content, rng)
    preview = Preview(content, tmp_path / "site")
    fast_kinds = set()
    try:
        for step in range(16):
            kind = KINDS[step] if step < len(KINDS) else rng.choice(KINDS)
            slug, changed = catalog.apply(kind, step)
            reloads = preview.reloads
            preview.edit(*changed)
            if preview.took_fast[-1]:
                fast_kinds.add(kind)
                assert catalog.papers[slug]["title"] in preview.page(slug)  # before the rebuild is done
            preview.settle()
            # A second reload only when the rebuild changed the fast page.
            assert 1 <= preview.reloads - reloads <= 2, f"step {step}: {kind}"
            assert files_of(preview.options.output) == cold_build(content, tmp_path / f"cold-{step}"), \
                f"step {step}: {kind}"
        assert fast_kinds == {"title", "authors", "tags", "venue", "body"}
    finally:
        preview.close()


@pytest.mark.slow
def test_random_edits_while_rebuilds_run_end_in_a_cold_build(content, tmp_path, gated):
    """Edits handed over without waiting (fast pages written while rebuilds run, rebuilds
    swapping in sites that miss later edits): once the last rebuild is done, the site is a
    cold build's. The first rebuild of each round is held until a second edit has been handed
    over (so a fast edit is made while a rebuild runs, whatever the machine's speed); the
    pauses after that vary where later edits fall in the rebuilds, and decide nothing."""
    rng = random.Random(7)
    catalog = Catalog(content, rng)
    gated.set()  # (not the first build)
    preview = Preview(content, tmp_path / "site")
    try:
        for round_ in range(2):
            gated.clear()
            for step in range(10):
                # mostly the fast path's edits; the first two of a round are, the second made
                # while the rebuild the first started is held
                kind = "title" if step < 2 else rng.choice(KINDS[:5] * 3 + KINDS[5:])
                _slug, changed = catalog.apply(kind, 100 * round_ + step)
                preview.edit(*changed)
                if step == 1:
                    gated.set()
                elif step > 1:
                    time.sleep(rng.choice((0, 0.01, 0.05, 0.2)))
            preview.settle()
            assert files_of(preview.options.output) == cold_build(content, tmp_path / f"cold-{round_}")
        assert preview.fast_while_rebuilding > 0, preview.took_fast
    finally:
        preview.close()


LONG_ABSTRACT = ("We show that message passing on sparse graphs converges when every node averages the "
                 "messages of its neighbours, and we bound the rate by the spectral gap of the graph.")


def test_a_paper_given_another_papers_abstract_is_previewed_with_the_warning(preview, gated, tmp_path, capsys):
    """The loader only warns of a repeated abstract (old proceedings give two papers one), and
    of a title another paper of the venue has by other authors: so does the preview, with
    the build's warning, and its page is the one the rebuild writes."""
    content = preview.content
    content.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                      tags=("optimization",), body=LONG_ABSTRACT)
    preview.edit(content.root / "papers" / "fast-convergence.md")
    gated.set()
    preview.settle()
    gated.clear()
    preview.fast.quiet = False
    capsys.readouterr()
    path = content.add_paper("a-paper-on-graphs", title="Averaging Messages", body=LONG_ABSTRACT)
    preview.edit(path)
    assert preview.took_fast == [True, True]
    assert "Averaging Messages" in preview.page("a-paper-on-graphs")
    err = capsys.readouterr().err
    assert "papers/a-paper-on-graphs.md: likely the same paper as papers/fast-convergence.md (same abstract)" in err
    path = content.add_paper("a-paper-on-graphs", title="Fast Convergence of Gradient Descent")  # Ada and Alan
    preview.edit(path)
    assert preview.took_fast == [True, True, True]
    assert "(same title and venue, other authors)" in capsys.readouterr().err
    fast_page = preview.page("a-paper-on-graphs")
    gated.set()
    preview.settle()
    assert preview.page("a-paper-on-graphs") == fast_page
    assert files_of(preview.options.output) == cold_build(content, tmp_path / "cold")
