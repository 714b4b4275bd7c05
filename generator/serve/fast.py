"""The fast path of ``build --serve``: an edited paper's page, on the site within milliseconds.

The server keeps what the last good build derived and rendered with (``pipeline.Derived``:
catalog, derived views, citations, template globals, the Jinja environment). When a batch
of changes touches only existing paper files (``content/papers/<slug>.md``), the pipeline's
own functions make their pages again: the loader reads and checks each file
(``loader.read_paper``, against the catalog's venues, tags, people and other papers),
``derive.edits.paper_view`` and ``with_papers`` put the new views into the derived site,
``CitationIndex.with_papers`` gives the citations of that site, and
``outputs.pages.paper_pages`` plans the pages, rendered with the build's environment and
globals. What depends on the whole catalog (related lists, list pages, author names) is
the last build's until the rebuild (``serve.Rebuilder``), which runs next as for every
change and makes the site byte for byte a cold build's.

Anything else takes the normal path: adds, deletes, renames, other files, and every change
while a normal-path change is not yet built. A paper saved so that it does not validate
(or seen half-written) writes nothing, and no fast page is written while any paper is in
that state; the save that makes it valid again is a fast edit. Reloads: one per change;
after a fast page, the rebuild reloads again only if it wrote other bytes for that page. A
rebuild that fails after a later save broke the catalog keeps the fast pages; one that
fails with nothing to explain it puts back the pages the fast path wrote since the last
good build. A paper edited while a rebuild runs is on the fast path too; if that rebuild
read the paper before the edit, its page is put on again once the rebuild is done.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import click
from jinja2 import Environment, TemplateError

from ..build import content_inputs, theme_sources
from ..content.duplicates import KeyIndex, PaperKeys
from ..content.loader import PaperChecks, duplicate_keys, is_leftover, read_paper
from ..content.model import Paper
from ..content.slugs import is_valid_slug
from ..derive.edits import paper_view, with_papers
from ..derive.views import PaperView, SiteData
from ..errors import Problems
from ..options import BuildOptions, BuildReport, theme_of
from ..outputs.pages import paper_pages
from ..outputs.render import globals_with, make_environment, render_page
from ..pipeline import Derived
from ..write.writer import write_atomic


FAST, INVALID, SLOW = "fast", "invalid", "slow"  # what became of a batch of changes
REPORT_WAIT_S = 0.3  # a failed rebuild waits this long for saves the watcher has yet to report
# (it reports a burst of saves after serve.STEP_MS without another one)


@dataclass(frozen=True)
class Snapshot:
    """The last good build's data, with what the fast path checks an edited paper against."""

    derived: Derived
    env: Environment  # the templates the build rendered with
    seq: int  # changes counted before that build began reading the content
    papers: dict[str, Paper]  # slug -> the paper
    index: KeyIndex  # the slugs by what the duplicate check compares of the papers

    @classmethod
    def of(cls, derived: Derived, seq: int, env: Environment, before: Snapshot | None = None) -> Snapshot:
        """``before``: the previous snapshot, whose index is kept when the catalog is the same."""
        papers = derived.catalog.papers
        if before is not None and before.derived.catalog is derived.catalog:
            index = before.index
        else:
            index = KeyIndex()
            for paper in papers:
                index.add(paper.slug, duplicate_keys(paper))
        return cls(derived=derived, env=env, seq=seq, papers={p.slug: p for p in papers}, index=index)


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
        self.content = Path(options.content).resolve()  # the loader's root
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
        before = {slug: view for slug, view in edits.items() if slug not in slugs}
        warnings: list[str] = []
        papers = self._read(slugs, snap, {slug: view.paper for slug, view in before.items()}, warnings)
        views = {slug: paper_view(snap.derived.site, paper) for slug, paper in papers.items()}
        with self.lock:
            # A paper saved half-written (an editor writing in place, seen mid-write) or in
            # error is "invalid" until a later save of it validates: edits of other papers,
            # and the next save of this one, need not wait for a rebuild.
            for slug in slugs:
                if slug not in views:
                    self.invalid[slug] = seq
                else:
                    self.invalid.pop(slug, None)
                    self.edits[slug] = (seq, views[slug])
            if self.invalid:
                return INVALID  # a rebuild would fail: no page that it would not write
        current = {**before, **views}
        pages = self._render(with_papers(snap.derived.site, current.values()), current, views, snap)
        if pages is None:
            return SLOW
        if self._write(pages, seq):
            self.reload()
        if not self.quiet:
            for warning in warnings:
                click.echo(f"Warning: {warning}", err=True)
            names = ", ".join(f"/{views[slug].url}" for slug in slugs)
            click.echo(f"Updated {names} in {time.perf_counter() - started:.3f}s "
                       f"({time.thread_time() - cpu:.3f}s CPU); rebuilding the rest")
        return FAST

    def _edited_slugs(self, paths: list[str], snap: Snapshot) -> list[str] | None:
        """The slugs of the batch when it holds only edits of existing paper files, else None."""
        slugs = []
        for path in paths:
            p = Path(path)
            if p.parent == self.papers and (is_leftover(p.name) or (p.suffix != ".md" and not os.path.lexists(p))):
                # What editors leave while saving (vim's "4913" probe, "x.md~" backups): the
                # loader skips such names, and a file of another kind that is gone cannot
                # have been in papers/ at the last good build (the loader refuses them).
                continue
            if p.parent != self.papers or p.suffix != ".md" or not is_valid_slug(p.stem):
                return None
            if p.stem not in snap.papers or not p.is_file() or p.is_symlink():
                return None  # an add, a delete, half a rename, or a link: the full build
            slugs.append(p.stem)
        return sorted(set(slugs))

    def _read(self, slugs: list[str], snap: Snapshot, before: dict[str, Paper], warnings: list[str]) -> dict[str, Paper]:
        """The valid papers of ``slugs``, each file read and checked by the loader, against the
        catalog's venues, tags and people and the other papers as they are now (the
        snapshot's with the ``before`` edits): those a paper can repeat (``KeyIndex``), in
        the order the build reads them."""
        catalog = snap.derived.catalog
        edited = KeyIndex()
        for slug, paper in before.items():
            edited.add(slug, duplicate_keys(paper))
        seen = set(slugs)  # (those of the batch are checked in turn)

        def earlier(keys: PaperKeys) -> list[Paper]:
            found = {slug for slug in snap.index.sharing(keys) if slug not in before} | set(edited.sharing(keys))
            found -= seen
            seen.update(found)
            return [before.get(slug) or snap.papers[slug] for slug in sorted(found)]

        checks = PaperChecks(catalog.venues, catalog.tags, catalog.people, earlier=earlier)
        found = {}
        for slug in slugs:
            paper = read_paper(self.papers / f"{slug}.md", Problems(), checks, root=self.content, warnings=warnings)
            if paper is not None:
                found[slug] = paper
        return found

    def _render(self, site: SiteData, current: dict[str, PaperView], views: dict[str, PaperView],
                snap: Snapshot) -> list[tuple[str, bytes]] | None:
        """(output path, bytes) of each edited paper's pages, or None if the templates fail.
        ``current``: the views of every paper edited since the snapshot."""
        derived = snap.derived
        globals_ = globals_with(derived.globals, site, derived.citations.with_papers(site, current.values()))
        out = []
        for slug in sorted(views):
            for page in paper_pages(site, views[slug]):
                try:
                    out.append((page.output_path, render_page(snap.env, page, globals_).encode("utf-8")))
                except (TemplateError, UnicodeEncodeError):
                    return None
        return out

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
            snapshot: Snapshot | None = Snapshot.of(derived, seq, self._environment(derived),
                                                    self.snapshot)  # (0.2 s at 10,000 papers)
        except Exception:  # noqa: BLE001 - no fast path until a rebuild makes one
            snapshot = None
        with self.lock:  # (until now, the fast path used the previous snapshot with its edits)
            self.snapshot = snapshot
            self.edits = {slug: edit for slug, edit in self.edits.items() if edit[0] > seq}

    def _environment(self, derived: Derived) -> Environment:
        """The build's templates; read from the theme when nothing was rendered (``prime``)."""
        if derived.env is not None:
            return derived.env
        with theme_sources(theme_of(self.options)) as sources:
            return make_environment(sources.templates)

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
        derived = prepare(self.options, BuildReport(), lambda _stage: None, inputs)
        snapshot = Snapshot.of(derived, seq, self._environment(derived))
        with self.lock:
            if self.snapshot is None:
                self.snapshot = snapshot
