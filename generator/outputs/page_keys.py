"""Render keys: one digest of everything a page is rendered from, so that a build keeps the
page an earlier build rendered from the very same inputs instead of rendering it again.

A page's HTML is a function of its templates (the page's template with everything it
extends, includes or imports, and the list item's when it prints list items), the
generator's code, the site globals and the page's own data (its ``Page``: URL, title,
context). The key digests all of them, the data by value: every view reachable from the
context is digested once per build (a ``PaperView`` with what the filters add to it: its
citation key and URLs, its place in the sort orders), so a key costs the size of the page's
data, not of the site's. An edit of the paper page's template renders the paper pages
again, and only them.

Sound only where the templates read nothing else. ``data`` (the whole ``SiteData``), the
citation index and the list items' renderer are globals too: a page whose templates name
one of them (checked on each template's syntax tree) gets no key and is always rendered, as
does a page holding a value of a type the digest does not know. Templates are taken to
render each page from its data alone: one that carries state from page to page (a
namespace in a template imported without context) is not supported (nor by parallel
rendering, which splits the pages between processes). The output's manifest records each
page's key; the next build keeps the page when its key is the same and the file is as
recorded (``SiteWriter.keep_page``).
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, fields, is_dataclass
from operator import attrgetter
from pathlib import PurePath
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from jinja2 import Environment, meta, nodes
from jinja2.exceptions import TemplateError
from markupsafe import Markup

from ..derive.views import AuthorRef, AuthorView, PaperList, PaperView, TagRef, TagView, VenueRef, VenueView
from .citations import CitationIndex
from .exports import page_downloads, page_feeds
from .catalog import CatalogFile
from .pages import ListControls, Page, SortRanks

# Site globals a template may read: plain values, digested into every key. The others
# (``data``, ``citations``, ``paper_items``) reach the whole site.
PLAIN_GLOBALS = ("config", "base", "absolute_base", "link_labels", "generator_version", "shell", "item_template",
                 "find_engine", "find_pattern", "nav")
ITEM_FILTER = "paper_item"  # a filter that renders ITEM_TEMPLATE (``render.PaperItems``)
ITEM_TEMPLATE = "partials/paper_item.html"


class Unkeyed(Exception):
    """A value the digest does not know: the page is rendered, not kept."""


# Values whose ``repr`` says all of them (Markup's names its type: it is not escaped again).
LEAVES = frozenset({str, bytes, Markup, int, float, bool, type(None), datetime.date, datetime.datetime, datetime.time})
MAPPINGS = frozenset({dict, MappingProxyType})
# The views that many pages hold: digested once each (any other value, each time it appears).
SHARED = (PaperView, AuthorView, VenueView, TagView, PaperList, ListControls, AuthorRef, TagRef, VenueRef, CatalogFile)


class Digests:
    """Digests of values by content. A value of a ``shared`` type (the views many pages
    hold) is digested once, by identity: it is kept alive with its digest, so its id cannot
    be another value's meanwhile. Others are spelled out in full wherever they appear."""

    def __init__(self, shared: Iterable[type], extra: Mapping[type, Callable[[Any], tuple[Any, ...]]] | None = None):
        self.shared = frozenset(shared)
        self.extra = dict(extra or {})  # type -> more values its digest covers
        self.memo: dict[int, tuple[Any, bytes]] = {}
        self.getters: dict[type, tuple[str, Callable[[Any], tuple[Any, ...]]]] = {}

    def of(self, value: Any) -> bytes:
        try:
            return _digest(self._flat(value))
        except RecursionError:
            raise Unkeyed("a value that contains itself") from None

    def _flat(self, value: Any) -> Any:
        """``value`` as leaves in tuples (the digests of shared values in their place)."""
        kind = type(value)
        if kind in LEAVES:
            return value
        if kind in self.shared:
            known = self.memo.get(id(value))
            if known is None:
                known = self.memo[id(value)] = (value, _digest(self._spelt(kind, value)))
            return known[1]
        return self._spelt(kind, value)

    def _spelt(self, kind: type, value: Any) -> tuple[Any, ...]:
        flat = self._flat
        if kind is tuple or kind is list:
            return (kind.__name__, *[v if type(v) in LEAVES else flat(v) for v in value])
        if kind in MAPPINGS:
            return ("mapping", *[(flat(k), flat(v)) for k, v in value.items()])
        if kind is frozenset or kind is set:
            return (kind.__name__, *sorted((flat(v) for v in value), key=repr))
        if issubclass(kind, PurePath):
            return ("path", str(value))
        getter = self.getters.get(kind)
        if getter is None:
            if not is_dataclass(kind):
                raise Unkeyed(kind.__qualname__)
            names = [f.name for f in fields(kind)]
            get = attrgetter(*names)
            extra = self.extra.get(kind)
            if len(names) == 1:
                get = (lambda g: lambda v: (g(v),))(get)  # attrgetter of one name gives no tuple
            if extra is not None:
                get = (lambda g, e: lambda v: (*g(v), *e(v)))(get, extra)
            getter = self.getters[kind] = (f"{kind.__module__}.{kind.__qualname__}", get)
        return (getter[0], *[v if type(v) in LEAVES else flat(v) for v in getter[1](value)])


def _digest(flat: Any) -> bytes:
    return hashlib.blake2b(repr(flat).encode("utf-8", "surrogatepass"), digest_size=16).digest()


@dataclass(frozen=True)
class TemplateUse:
    """What rendering a template uses: the variables it and every template it extends,
    includes or imports read without setting them (``reads``), and those templates' names
    and bytes (``sources``); with the list item's template when one of them prints a list
    item (the ``paper_item`` filter)."""

    reads: frozenset[str]
    sources: tuple[tuple[str, str], ...]

    @property
    def digest(self) -> bytes:
        return _digest(self.sources)


class TemplateUses:
    """``TemplateUse`` of each template, None where it cannot be known: a template named at
    run time, one that is missing or does not parse (rendering reports that)."""

    def __init__(self, env: Environment):
        self.env = env
        self.own: dict[str, tuple[str, frozenset[str], tuple[str | None, ...]] | None] = {}
        self.uses: dict[str, TemplateUse | None] = {}

    def _own(self, name: str) -> tuple[str, frozenset[str], tuple[str | None, ...]] | None:
        if name not in self.own:
            try:
                source = self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]
                tree = self.env.parse(source)
                reads = frozenset(meta.find_undeclared_variables(tree))
            except TemplateError:
                self.own[name] = None
            else:
                refs = tuple(meta.find_referenced_templates(tree))
                if any(f.name == ITEM_FILTER for f in tree.find_all(nodes.Filter)) or \
                        any(c.value == ITEM_FILTER for c in tree.find_all(nodes.Const)):  # map("paper_item")
                    refs += (ITEM_TEMPLATE,)
                self.own[name] = (source, reads, refs)
        return self.own[name]

    def of(self, name: str) -> TemplateUse | None:
        if name not in self.uses:
            self.uses[name] = self._closure(name)
        return self.uses[name]

    def _closure(self, name: str) -> TemplateUse | None:
        reads: set[str] = set()
        sources: dict[str, str] = {}
        todo = [name]
        while todo:
            current = todo.pop()
            if current in sources:
                continue
            own = self._own(current)
            if own is None or None in own[2]:
                return None
            sources[current] = own[0]
            reads |= own[1]
            todo.extend(r for r in own[2] if r is not None)
        return TemplateUse(frozenset(reads), tuple(sorted(sources.items())))


class PageKeys:
    """The render key of each page of one build (``key``), None for a page that must be rendered."""

    def __init__(self, env: Environment, globals_: Mapping[str, Any], citations: CitationIndex,
                 ranks: Mapping[str, SortRanks], code: str):
        self.env = env
        self.citations = citations
        self.globals = globals_  # read when a key is made: the pipeline sets "catalog_files" late

        def paper_extra(view: PaperView) -> tuple[Any, ...]:
            citation = citations.for_paper(view)
            return (ranks[view.slug], citation.key, citation.url, citation.page_url,
                    citations.locations.get(view.venue.id))

        self.digests = Digests(SHARED, {PaperView: paper_extra})
        plain = {name: globals_[name] for name in PLAIN_GLOBALS if name in globals_}
        self.base = hashlib.blake2b(code.encode() + b"\0" + self.digests.of(plain), digest_size=20).digest()
        # A name a template reads is set by the template itself (or the one including it),
        # the page's context, a plain global, Jinja's own, or else undefined (an error):
        # digested, constant or refused, unless it is one of the other globals.
        self.forbidden = frozenset(globals_) - frozenset(plain)
        self.uses = TemplateUses(env)
        self.templates: dict[str, bytes | None] = {}

    def _templates(self, name: str) -> bytes | None:
        """The digest of what rendering template ``name`` uses; None when it reads more than
        its page's data, or cannot be known."""
        if name not in self.templates:
            use = self.uses.of(name)
            self.templates[name] = use.digest if use is not None and not use.reads & self.forbidden else None
        return self.templates[name]

    def key(self, page: Page) -> str | None:
        templates = self._templates(page.template)
        if templates is None:
            return None
        try:
            data = self.digests.of((page.url, page.template, page.title, page.context,
                                    page_feeds(page, self.citations),
                                    page_downloads(page, self.citations, self.globals.get("catalog_files") or ())))
        except Unkeyed:
            return None
        return hashlib.blake2b(self.base + templates + data, digest_size=20).hexdigest()
