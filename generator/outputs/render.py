"""Render pages with Jinja2.

Autoescaping is on for every template, undefined names are errors, and content is only
ever passed as *values*: text that looks like Jinja (``{{ x }}``) is printed, never run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence
from weakref import WeakKeyDictionary

from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined, TemplateNotFound, pass_context
from jinja2.bccache import Bucket
from jinja2.runtime import Context
from markupsafe import Markup, escape

from .. import __version__
from .citations import Citation, CitationIndex
from ..derive.urls import SiteUrls, author_page_at, paper_page, reading_list_data, tag_page, venue_page
from ..derive.views import AUTHORS_HIDDEN_MIN, AUTHORS_SHOWN, AuthorRef, PaperView, SiteData
from .exports import ExportLink, page_downloads, page_feeds
from ..content.model import LINK_LABELS
from .pages import Page, SortRanks, sort_ranks
from .page_meta import EditLinks, Preview, edit_links, preview


class _CompiledTemplates(BytecodeCache):
    """The templates' compiled code, kept for the life of the process.

    Compiling the theme costs ~0.2 CPU s a build; ``build --serve`` builds again on every
    save, and the test suite hundreds of times. Every environment comes from
    ``make_environment`` (same options and filters), and Jinja stores each template's source
    checksum with its code, so an edited or overriding template is compiled afresh."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()


class _SnapshotLoader(FileSystemLoader):
    """Each template's source as first read, for the life of the environment (one build):
    what the render keys digest (``page_keys``) is what the pages are rendered from, even
    when a template is saved while the build runs. ``read_all`` reads every template before
    the workers fork, so they share one snapshot."""

    def __init__(self, folder: Path):
        super().__init__(str(folder))
        self.sources: dict[str, tuple[str, str | None, Callable[[], bool] | None]] = {}

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        if template not in self.sources:
            source, filename, _ = super().get_source(environment, template)
            self.sources[template] = (source, filename, lambda: True)
        return self.sources[template]

    def read_all(self, environment: Environment) -> None:
        for name in self.list_templates():
            try:
                self.get_source(environment, name)
            except (TemplateNotFound, OSError, UnicodeDecodeError):
                pass  # rendering reports it, if a page uses it


def thousands(n: int) -> str:
    """A count with thousands separators, as the pages show it ("12,345")."""
    return f"{n:,}"


def make_environment(templates_dir: Path) -> Environment:
    env = Environment(
        bytecode_cache=_COMPILED,
        loader=_SnapshotLoader(templates_dir),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # one environment per build: no stat() of the template per use
    )
    # `tojson` without spaces after separators (the reading list's data files: ~8% of their bytes)
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}
    env.filters["thousands"] = thousands  # 12345 -> "12,345": every count the pages show
    env.filters["citation"] = citation_filter
    env.filters["paper_item"] = paper_item_filter
    env.filters["feeds"] = feeds_filter
    env.filters["downloads"] = downloads_filter
    env.filters["reading_list_records"] = reading_list_records_filter
    env.filters["preview"] = preview_filter  # issue 34: link previews and edit links
    env.filters["edit_links"] = edit_links_filter
    env.loader.read_all(env)  # type: ignore[union-attr]
    return env


# The main navigation of every page (templates/base.html): (section, label); a section's
# index is at "<section>/".
NAV = (("papers", "Papers"), ("venues", "Venues"), ("years", "Years"), ("tags", "Tags"), ("topics", "Topics"),
       ("trends", "Trends"), ("authors", "Authors"), ("reading-list", "Reading list"))


def site_globals(site: SiteData, citations: CitationIndex | None = None) -> dict[str, object]:
    """Values every template can use; computed once per build.

    ``citations``: the build's citation index (BibTeX keys are assigned over the whole
    catalog, so the exports and the pages must share one); made here when not given.
    """
    config = site.catalog.site
    urls = SiteUrls.from_config(config)
    globals_: dict[str, object] = {
        "config": config,
        "data": site,
        "base": urls.base_path,  # prefix for every internal link: "/" or "/catalog/"
        "absolute_base": urls.absolute_base,  # "https://host/path/" or None
        "link_labels": LINK_LABELS,
        "generator_version": __version__,
        "citations": citations if citations is not None else CitationIndex(site),
        # partials/paper_item.html renders a paper (`shell` false) or the empty <template>
        # of a list item ("search", "reading-list"; see ITEM_TEMPLATE)
        "shell": False,
        "item_template": ITEM_TEMPLATE,
        "find_engine": site.find_engine,  # the title search offered for a paper without a PDF
        "find_pattern": site.find_pattern,
        # the catalog's yearly files with their sizes (catalog.CatalogFile), which the
        # pipeline sets once they are written: the first page of all papers lists them
        "catalog_files": (),
        "nav": NAV,
    }
    if site.sessions is not None:  # the sessions' pages (issue 34), after Papers
        globals_["nav"] = NAV[:1] + (("sessions", "Sessions"),) + NAV[1:]
    globals_["paper_items"] = PaperItems(dict(globals_), sort_ranks(site.papers))
    return globals_


@dataclass(frozen=True, slots=True)
class ItemTemplate:
    """What ``<template id="paper-item-template">`` tells static/js/paper-item.js (and the
    reading list's script, where to fetch its data).

    The URLs are paths relative to the site root with ``{venue}`` and ``{slug}`` (a paper's),
    ``{path}`` (an author's page below ``authors/``: ``urls.author_path``, which the reading
    list's data gives), ``{id}`` (a venue's or tag's) or ``{n}`` (a data file's number); each
    is made by the site's one URL module (``derive.urls``), so the page's links are the
    server's. ``authors_shown``/``authors_hidden_min`` fold long author lists as
    ``derive.views.fold_authors`` does.
    """

    paper: str
    author: str
    venue: str
    tag: str
    reading_list_data: str  # a reading-list data file
    authors_shown: int
    authors_hidden_min: int


def item_template() -> ItemTemplate:
    ident = "{id}"
    return ItemTemplate(
        paper=paper_page("{venue}", "{slug}"),
        author=author_page_at("{path}"),
        venue=venue_page(ident),
        tag=tag_page(ident),
        reading_list_data=reading_list_data("{n}"),  # type: ignore[arg-type]
        authors_shown=AUTHORS_SHOWN,
        authors_hidden_min=AUTHORS_HIDDEN_MIN,
    )


ITEM_TEMPLATE = item_template()


class PaperItems:
    """Each paper's list item (``partials/paper_item.html``), rendered once per build.

    A paper is listed on its venue's, tags' and authors' pages and on /papers/: about ten
    times per paper, so rendering the item each time was a third of a 10,000-paper build.
    The item sees only ``p``, its ``byline`` (its authors, the long lists folded), its ``ranks`` (where it
    falls in each order of the lists' sort control, over the whole catalog: pages.sort_ranks)
    and the site globals (never the page it sits on), which is what makes one rendering
    right for every list; twice at most: with the sort ranks and tags a list's controls need
    (``sortable``), and without (the short lists of most authors have no controls). Kept per
    environment (one a build): ``build --serve`` renders a template edit, and its fast path
    an edited paper, with the globals of an earlier build, whose items came from other
    templates or other papers.
    """

    TEMPLATE = "partials/paper_item.html"

    def __init__(self, globals_: dict[str, object], ranks: dict[str, SortRanks]):
        self.globals = globals_
        self.ranks = ranks
        self.html: WeakKeyDictionary[Environment, dict[tuple[str, bool], Markup]] = WeakKeyDictionary()

    def render(self, env: Environment, paper: PaperView, sortable: bool = False, own: str | None = None) -> Markup:
        """The item, from this build's cache; an item for one author's page (``own``) is shown on
        that page only, so it is rendered and not kept (at 100,000 papers ~390,000 of them)."""
        if own is not None:
            return self._render(env, paper, sortable, own)
        key = (paper.slug, sortable)
        rendered = self.html.get(env)
        if rendered is None:
            rendered = self.html[env] = {}
        html = rendered.get(key)
        if html is None:
            html = rendered[key] = self._render(env, paper, sortable, None)
        return html

    def _render(self, env: Environment, paper: PaperView, sortable: bool, own: str | None) -> Markup:
        return Markup(env.get_template(self.TEMPLATE).render(**self.globals, p=paper, ranks=self.ranks[paper.slug],
                                                             byline=byline(paper, own), sortable=sortable))


@dataclass(frozen=True, slots=True)
class Byline:
    """A list item's authors (``partials/byline.html``): every one, each linked as on the
    paper's page (``partials/author_name.html``); past ``AUTHORS_SHOWN`` the rest fold into a
    <details> ("and N more") that opens without script and that find-in-page searches. On an
    author's own page (``own``, their slug) their name is marked and never folded away."""

    head: tuple[AuthorRef, ...]
    tail: tuple[AuthorRef, ...] = ()
    own: str | None = None


def byline(paper: PaperView, own: str | None = None) -> Byline:
    """The byline of ``paper`` in a list (``Byline``)."""
    head, tail = (paper.authors_head, paper.authors_tail) if paper.authors_tail else (paper.authors, ())
    if own is not None and any(a.slug == own for a in tail):
        at = len(head) + next(i for i, a in enumerate(tail) if a.slug == own) + 1
        head, tail = paper.authors[:at], paper.authors[at:]
    return Byline(head, tail, own)


# Filters for the scholarly metadata: templates stay free of logic, they only print
# attributes of what these return.


@pass_context
def citation_filter(context: Context, paper: PaperView) -> Citation:
    """``paper|citation``: BibTeX, RIS, COinS, meta tags and JSON-LD of a paper view."""
    return _citations(context).for_paper(paper)


@pass_context
def paper_item_filter(context: Context, paper: PaperView, sortable: bool = False, own: str | None = None) -> Markup:
    """``paper|paper_item(sortable, own)``: the paper's list item, rendered once per build (see
    PaperItems); ``sortable`` for a list with sort and filter controls, ``own`` the slug of the
    author whose page it is on (their name marked in the byline)."""
    items = context.get("paper_items")
    if not isinstance(items, PaperItems):
        raise TypeError("the paper_item filter needs the 'paper_items' global (see site_globals)")
    return items.render(context.environment, paper, bool(sortable), own)


@pass_context
def feeds_filter(context: Context, page: Page) -> tuple[ExportLink, ...]:
    """``page|feeds``: the Atom feeds a page links to with <link rel="alternate">."""
    return page_feeds(page, _citations(context))


@pass_context
def downloads_filter(context: Context, page: Page) -> tuple[ExportLink, ...]:
    """``page|downloads``: bulk BibTeX and Atom feed of a venue, tag or the whole catalog (the
    ``catalog_files`` global: the catalog's yearly files, set by the pipeline once written)."""
    return page_downloads(page, _citations(context), context.get("catalog_files") or ())


def reading_list_records_filter(papers: Sequence[PaperView]) -> dict[str, dict[str, Any]]:
    """``papers|reading_list_records``: what the reading-list page needs of the papers of one
    data file (pages.reading_list_shards) to fill its list items (static/js/paper-item.js),
    by slug. The names of venues and tags are on the page itself (``pages.reading_list_names``);
    the BibTeX comes from each paper's page."""
    return {p.slug: reading_list_record(p) for p in papers}


def reading_list_record(p: PaperView) -> dict[str, Any]:
    """``t`` title, ``a`` author names, ``u`` where each links (``AuthorRef.path``, their page
    below ``authors/``; else their own page, an http(s) URL; else ""), ``v`` the venue's id
    (the paper's page is ``papers/<v>/<slug>/``), ``g`` its tags' ids, ``p`` presentation,
    ``x`` provisional, ``f`` the PDF's URL if set, and ``k`` the paper's track other than the
    main conference ("findings": its badge and proceedings are ``names.v["<v>/<k>"]``)."""
    record: dict[str, Any] = {
        "t": p.title_plain,
        "a": [a.name for a in p.authors],
        "u": [a.path or a.elsewhere or "" for a in p.authors],
        "v": p.venue.id,
        "g": [t.id for t in p.tags],
    }
    if p.presentation:
        record["p"] = p.presentation
    if p.provisional:
        record["x"] = 1
    if p.pdf_url:  # the item's first action (derive.urls.pdf_url); without it, a title search
        record["f"] = p.pdf_url
    if p.venue.track:  # badged "ACL 2022 Findings", never as the main conference
        record["k"] = p.venue.track
    return record


def _citations(context: Context) -> CitationIndex:
    index = context.get("citations")
    if not isinstance(index, CitationIndex):
        raise TypeError("the citation filters need the 'citations' global (see site_globals)")
    return index


@pass_context
def preview_filter(context: Context, page: Page) -> Preview:
    """``page|preview``: the page's OpenGraph title, URL, type and site name."""
    return preview(page, context["config"])


@pass_context
def edit_links_filter(context: Context, page: Page) -> EditLinks | None:
    """``page|edit_links``: "Edit this page" and "Report a problem" (None without repo_url)."""
    return edit_links(page, context["config"])


def globals_with(globals_: dict[str, object], site: SiteData, citations: CitationIndex) -> dict[str, object]:
    """A build's ``site_globals`` for ``site``, its site with some papers replaced
    (``derive.edits.with_papers``), and that site's ``citations``: the rest is the build's."""
    return {**globals_, "data": site, "citations": citations}


def render_page(env: Environment, page: Page, globals_: dict[str, object]) -> str:
    template = env.get_template(page.template)
    return template.render(**globals_, page=page, **page.context)
