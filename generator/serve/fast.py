"""The fast path of ``build --serve``: an edited paper's page, on the site within milliseconds.

The server keeps what the last good build derived (``pipeline.Derived``: catalog, derived
views, citations, template globals). When a batch of changes touches only existing paper
files (``content/papers/<slug>.md``) that still validate, ``FastPath.changed`` reads just
those files (the loader's own ``read_papers``, on a copy of each), derives their views (the
pipeline's ``derive`` on a one-paper catalog, then the build's author refs put back, so a
known author keeps the name and page of the whole catalog), plans their pages with
``plan_pages`` and renders them with the build's globals: everything else (related lists,
other papers, author, tag and venue URLs) is the last build's. The pages are written into
the served site atomically (each one file replaced), and the browser reloads. The full
rebuild (``serve.Rebuilder``) runs next, as for every change, and makes the site byte for
byte a cold build's.

What a page shows that depends on the whole catalog is taken from the last build and may
be a change behind until the rebuild: the related list (computed over every text), an
author's name when the edit changes which spelling of it the catalog uses most. The
BibTeX key is computed exactly: it depends only on papers whose key starts with the same
author part (``_key_group``), and those are given to ``CitationIndex``.

Anything else takes the normal path: adds, deletes, renames, other files, and every
change while a normal-path change is not yet built. A paper saved so that it does not
validate (or seen half-written) writes nothing: the rebuild reports the errors, and no
fast page is written while any paper is in that state; the save that makes it valid again
is a fast edit. Reloads: one per change. After a fast page, the rebuild reloads
the browser again only if it wrote other bytes for that page than the fast path did (the
page was a change behind); a normal-path change reloads when its rebuild changed files.
A rebuild that fails after a later save broke the catalog (a paper that does not
validate, a normal-path change) keeps the fast pages: each shows its paper's last valid
save, which the site showed before the break. A rebuild that fails with nothing to
explain it (the fast path let through what the loader refuses) puts back the pages the
fast path wrote since the last good build: the site is exactly the last good one. A paper edited while a rebuild runs is
on the fast path too (nothing waits for the rebuild); if that rebuild read the paper before
the edit, its page is put on again once the rebuild has swapped in its site.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import click
from jinja2 import TemplateError

from ..build import content_inputs, theme_sources
from ..content.loader import abstract_key, read_papers, title_key
from ..content.model import Catalog, Paper
from ..content.slugs import is_valid_slug
from ..derive.views import AuthorRef, PaperView, derive, fold_authors
from ..errors import Problems
from ..options import BuildOptions, BuildReport, theme_of
from ..outputs.citations import CitationIndex
from ..outputs.citations.keys import key_author
from ..outputs.pages import plan_pages
from ..outputs.render import make_environment, render_page
from ..pipeline import Derived
from ..write.writer import write_atomic


FAST, INVALID, SLOW = "fast", "invalid", "slow"  # what became of a batch of changes
REPORT_WAIT_S = 0.3  # a failed rebuild waits this long for saves the watcher has yet to report
# (it reports a burst of saves after serve.STEP_MS without another one)


@dataclass(frozen=True)
class Snapshot:
    """The last good build's data, with the indexes the fast path looks things up in."""

    derived: Derived
    seq: int  # changes counted before that build began reading the content
    position: dict[str, int]  # slug -> index in site.papers
    authors: dict[str, AuthorRef]  # page slug -> the build's ref
    key_groups: dict[str, tuple[str, ...]]  # _key_group -> slugs
    digits: bool  # some paper's _key_group holds a digit (then every paper is a key's context)
    titles: dict[tuple[str, str], str]  # (venue, title_key) -> slug
    abstracts: dict[str, str]  # abstract_key -> slug

    @classmethod
    def of(cls, derived: Derived, seq: int) -> Snapshot:
        site = derived.site
        groups: dict[str, list[str]] = {}
        for view in site.papers:
            groups.setdefault(_key_group(view), []).append(view.slug)
        papers = derived.catalog.papers
        return cls(
            derived=derived, seq=seq,
            position={view.slug: i for i, view in enumerate(site.papers)},
            authors={a.slug: a for view in site.papers for a in view.authors},  # with a page or not
            key_groups={group: tuple(slugs) for group, slugs in groups.items()},
            digits=any(ch.isdigit() for group in groups for ch in group),
            titles={(p.venue, title_key(p.title)): p.slug for p in papers},
            abstracts={key: p.slug for p in papers if (key := abstract_key(p.abstract))},
        )


def _key_group(view: PaperView) -> str:
    """The author part of the paper's BibTeX base key (``citations.keys``: author, year, title
    word). A key can only depend on papers whose base key begins another's or is begun by it
    (a suffix is added on a clash), and while no author part holds a digit, such base keys
    have the same author part: the year's digits end it."""
    return key_author(view.paper.authors)


class FastPath:
    """The server's edit state: the snapshot, the papers edited on the fast path since it was
    built, and the pages written on the fast path that no rebuild has confirmed yet.

    ``changed`` is called by the watcher thread, the ``build_*`` methods by the rebuild
    thread; ``reload`` tells the browsers to reload."""

    def __init__(self, options: BuildOptions, reload: Callable[[], None], quiet: bool = True):
        self.options = options
        self.reload = reload
        self.quiet = quiet
        self.papers = Path(os.path.abspath(options.content)) / "papers"
        self.output = Path(options.output).resolve()
        self.lock = threading.Lock()
        self.snapshot: Snapshot | None = None
        self.seq = 0  # batches of changes seen
        self.slow_seq = 0  # the last batch that took the normal path
        self.unshown: list[int] = []  # normal-path batches no rebuild has shown yet
        self.edits: dict[str, tuple[int, PaperView]] = {}  # slug -> (batch, view) since the snapshot
        self.invalid: dict[str, int] = {}  # slug -> batch: paper files saved that do not validate
        self.written: dict[str, tuple[int, bytes | None, bytes]] = {}  # path -> (batch, bytes before, bytes written)

    # -- the watcher's side ------------------------------------------------------------

    def changed(self, paths: list[str]) -> bool:
        """Count a batch of changes; True when the fast path has put its pages on the site."""
        with self.lock:
            self.seq += 1
            seq = self.seq
        try:
            outcome = self._apply(paths, seq)
        except Exception:  # noqa: BLE001 - anything unexpected: the rebuild does it all
            outcome = SLOW
        if outcome == SLOW:
            with self.lock:
                self.slow_seq = seq
                self.unshown.append(seq)
        return outcome == FAST

    def _apply(self, paths: list[str], seq: int) -> str:
        """FAST (pages written), INVALID (papers that do not validate: the rebuild reports
        them; the catalog is otherwise still the snapshot's with the edits) or SLOW."""
        started, cpu = time.perf_counter(), time.thread_time()
        with self.lock:
            snap = self.snapshot
            edits = {slug: view for slug, (_, view) in self.edits.items()}
            if snap is None or self.slow_seq > snap.seq:
                return SLOW  # a normal-path change is not built yet: the snapshot is behind
        slugs = self._edited_slugs(paths, snap)
        if not slugs:
            return SLOW
        papers = [paper for slug in slugs if (paper := self._read(slug, snap)) is not None]
        views = {p.slug: self._view(p, snap, edits) for p in papers}
        current = {**edits, **views}
        bad = set(slugs) - set(views) | self._duplicates(views, current, snap)
        with self.lock:
            # A paper saved half-written (an editor writing in place, seen mid-write) or in
            # error is "invalid" until a later save of it validates: edits of other papers,
            # and the next save of this one, need not wait for a rebuild.
            for slug in slugs:
                if slug in bad:
                    self.invalid[slug] = seq
                else:
                    self.invalid.pop(slug, None)
                    self.edits[slug] = (seq, views[slug])
            if self.invalid:
                return INVALID  # a rebuild would fail: no page that it would not write
        pages = self._render(views, current, snap)
        if pages is None:
            return SLOW
        if self._write(pages, seq):
            self.reload()
        if not self.quiet:
            names = ", ".join(f"/{views[slug].url}" for slug in slugs if slug in views)
            click.echo(f"Updated {names} in {time.perf_counter() - started:.3f}s "
                       f"({time.thread_time() - cpu:.3f}s CPU); rebuilding the rest")
        return FAST

    def _edited_slugs(self, paths: list[str], snap: Snapshot) -> list[str] | None:
        """The slugs of the batch when it holds only edits of existing paper files, else None."""
        slugs = []
        for path in paths:
            p = Path(path)
            if p.parent == self.papers and (p.name.startswith(("#", ".")) or p.name.endswith("~")
                                            or (p.suffix != ".md" and not os.path.lexists(p))):
                # What editors leave while saving (vim's "4913" probe, "x.md~" backups): the
                # loader skips such names, and a file of another kind that is gone cannot
                # have been in papers/ at the last good build (the loader refuses them).
                continue
            if p.parent != self.papers or p.suffix != ".md" or not is_valid_slug(p.stem):
                return None
            if p.stem not in snap.position or not p.is_file() or p.is_symlink():
                return None  # an add, a delete, half a rename, or a link: the full build
            slugs.append(p.stem)
        return sorted(set(slugs))

    def _read(self, slug: str, snap: Snapshot) -> Paper | None:
        """The paper file read and checked by the loader itself (on a copy, so the loader
        reads one file instead of the folder), against the catalog's venues, tags and people."""
        catalog = snap.derived.catalog
        data = (self.papers / f"{slug}.md").read_bytes()
        with tempfile.TemporaryDirectory(prefix="papershelf-edit-") as folder:
            copy = Path(folder) / "papers"
            copy.mkdir()
            (copy / f"{slug}.md").write_bytes(data)
            problems = Problems()
            found = read_papers(copy, problems, venues=dict(catalog.venues), tags=dict(catalog.tags),
                                root=Path(folder).resolve(), people=catalog.people)
        if problems or len(found) != 1:
            return None
        return found[0]

    def _view(self, paper: Paper, snap: Snapshot, edits: dict[str, PaperView]) -> PaperView:
        """The paper's view as ``derive`` makes it, with the build's author refs and ranks."""
        catalog = snap.derived.catalog
        one = derive(Catalog(site=catalog.site, venues=catalog.venues, tags=catalog.tags, papers=(paper,),
                             people=catalog.people))
        view = one.papers[0]
        authors = tuple(snap.authors.get(a.slug, a) for a in view.authors)
        head, tail = fold_authors(authors)
        before = edits.get(paper.slug) or snap.derived.site.papers[snap.position[paper.slug]]
        return replace(view, authors=authors, authors_head=head, authors_tail=tail,
                       title_rank=before.title_rank, venue_rank=before.venue_rank)

    def _duplicates(self, views: dict[str, PaperView], current: dict[str, PaperView], snap: Snapshot) -> set[str]:
        """The edited papers that now have the title (in their venue) or abstract of another:
        the loader refuses them, so the full build reports it."""
        def owners(index: dict, key, of) -> set[str]:
            found = {index[key]} if key in index and index[key] not in current else set()
            return found | {slug for slug, view in current.items() if of(view.paper) == key}

        found = set()
        for slug, view in views.items():
            paper = view.paper
            title = (paper.venue, title_key(paper.title))
            if owners(snap.titles, title, lambda p: (p.venue, title_key(p.title))) - {slug}:
                found.add(slug)
            abstract = abstract_key(paper.abstract)
            if abstract and owners(snap.abstracts, abstract, lambda p: abstract_key(p.abstract)) - {slug}:
                found.add(slug)
        return found

    def _render(self, views: dict[str, PaperView], current: dict[str, PaperView],
                snap: Snapshot) -> list[tuple[str, bytes]] | None:
        """(output path, bytes) of each edited paper's page, or None if the templates fail."""
        derived = snap.derived
        site = derived.site

        def now(view: PaperView) -> PaperView:
            return current.get(view.slug, view)

        papers = list(site.papers)
        for slug, view in current.items():
            papers[snap.position[slug]] = view
        whole = replace(site, papers=tuple(papers))
        # One paper's pages, planned as the build plans them (the home page comes first).
        edited = tuple(views[slug] for slug in sorted(views))
        one = replace(whole, papers=edited,
                      related={slug: tuple(map(now, site.related.get(slug, ()))) for slug in views})
        pages = list(itertools.islice(plan_pages(one), 1, 1 + len(edited)))
        if [(p.template, p.url) for p in pages] != [("paper.html", v.url) for v in edited]:
            return None
        citations = CitationIndex(replace(whole, papers=self._key_papers(edited, current, snap)))
        globals_ = {**derived.globals, "data": whole, "citations": citations}
        out = []
        with theme_sources(theme_of(self.options)) as sources:
            env = make_environment(sources.templates)
            for page in pages:
                try:
                    out.append((page.output_path, render_page(env, page, globals_).encode("utf-8")))
                except (TemplateError, UnicodeEncodeError):
                    return None
        return out

    def _key_papers(self, edited: tuple[PaperView, ...], current: dict[str, PaperView],
                    snap: Snapshot) -> tuple[PaperView, ...]:
        """The papers whose BibTeX keys the edited papers' keys depend on (all of them when an
        author part holds a digit, where ``_key_group`` would not be enough)."""
        site = snap.derived.site
        groups = {_key_group(v) for v in edited}
        if snap.digits or any(ch.isdigit() for group in groups for ch in group):
            return tuple(current.get(v.slug, v) for v in site.papers)
        slugs = {slug for group in groups for slug in snap.key_groups.get(group, ()) if slug not in current}
        found = [site.papers[snap.position[slug]] for slug in sorted(slugs)]
        return tuple(found + [v for v in current.values() if _key_group(v) in groups])

    def _write(self, pages: list[tuple[str, bytes]], seq: int) -> bool:
        """Put the pages on the site (each replaced in one rename); False if none changed."""
        wrote = False
        for rel, data in pages:
            target = self.output / rel
            try:
                before: bytes | None = target.read_bytes()
            except FileNotFoundError:
                before = None
            if before == data:
                continue
            with self.lock:  # (a rebuild that has just finished may be putting it back: see build_done)
                write_atomic(target, data, durable=False)
                first = self.written.get(rel)
                self.written[rel] = (seq, first[1] if first else before, data)
            wrote = True
        return wrote

    # -- the rebuild's side -------------------------------------------------------------

    def build_started(self) -> int:
        """The batches the build about to start will see (all counted so far)."""
        with self.lock:
            return self.seq

    def build_done(self, seq: int, report: BuildReport | None, derived: Derived | None) -> None:
        """A rebuild that began after batch ``seq`` succeeded: keep its data, reload if needed."""
        reload = False
        with self.lock:  # the pages first: a fast page the rebuild has just swapped out goes back at once
            # The rebuild read every paper valid: a paper invalid before it began was fixed since.
            self.invalid = {slug: batch for slug, batch in self.invalid.items() if batch > seq}
            changed = report is not None and not report.up_to_date and report.files_changed > 0
            if any(batch <= seq for batch in self.unshown):  # the rebuild shows a normal-path change
                reload = changed
                self.unshown = [batch for batch in self.unshown if batch > seq]
            for rel, (batch, before, data) in list(self.written.items()):
                try:
                    now: bytes | None = (self.output / rel).read_bytes()
                except OSError:
                    now = None
                if batch <= seq:  # the rebuild saw the edit: its page is the page
                    del self.written[rel]
                    reload = reload or now != data
                else:  # edited after the rebuild began: it may have swapped in the page before
                    # the edit, so the fast page goes back on until the next rebuild (already
                    # queued); a failed one would put back this build's page
                    self.written[rel] = (batch, now, data)
                    if now != data:
                        try:
                            write_atomic(self.output / rel, data, durable=False)
                        except OSError:
                            pass
        if reload:
            self.reload()
        if derived is None:  # up to date, or static files only: the snapshot may still be the content's
            with self.lock:
                snap = self.snapshot
                if snap is not None and report is not None and snap.derived.inputs == report.content:
                    self.snapshot = replace(snap, seq=max(snap.seq, seq))
            return
        try:
            snapshot: Snapshot | None = Snapshot.of(derived, seq)  # (0.2 s at 10,000 papers)
        except Exception:  # noqa: BLE001 - no fast path until a rebuild makes one
            snapshot = None
        with self.lock:  # (until now, the fast path used the previous snapshot with its edits)
            self.snapshot = snapshot
            self.edits = {slug: edit for slug, edit in self.edits.items() if edit[0] > seq}

    def build_failed(self, content: str | None = None, seq: int | None = None) -> None:
        """A rebuild failed: unless a broken save explains it, put back the pages of the last
        good site that the fast path replaced. ``content``: the content's fingerprint when the
        rebuild began; if it changed since, a save the watcher may not have reported yet (a
        file the rebuild read half-written, or broken) can explain the failure, and the
        rebuild that save brings decides. ``seq``: the batches counted when it began
        (``build_started``); the watcher reports a burst of saves once it is quiet, so a save
        made just before the rebuild began is waited for (``REPORT_WAIT_S``), and a batch
        reported since explains the failure too."""
        if content is not None and content_inputs(self.options) != content:
            return
        if seq is not None:
            time.sleep(REPORT_WAIT_S)
        with self.lock:
            if self.invalid or self.unshown or (seq is not None and self.seq > seq):
                return
            written, self.written = self.written, {}
        for rel, (_batch, before, _data) in written.items():
            target = self.output / rel
            try:
                if before is None:
                    target.unlink(missing_ok=True)
                else:
                    write_atomic(target, before, durable=False)
            except OSError:
                pass

    def prime(self, seq: int) -> None:
        """Derive the catalog for the fast path when the first build had nothing to do."""
        from ..pipeline import prepare

        inputs = content_inputs(self.options)  # taken before reading: a later edit changes it
        snapshot = Snapshot.of(prepare(self.options, BuildReport(), lambda _stage: None, inputs), seq)
        with self.lock:
            if self.snapshot is None:
                self.snapshot = snapshot
