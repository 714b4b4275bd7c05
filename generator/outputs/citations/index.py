"""The citation of each paper (``Citation``) and of the whole catalog (``CitationIndex``)."""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from markupsafe import Markup

from ...derive.views import PaperView, SiteData
from ...derive.urls import SiteUrls, paper_page
from .bibtex import CITE_FIELDS, bibtex_fields, write_bibtex
from .coins import coins_kev
from .keys import assign_keys, base_key, key_order
from .links import best_link
from .meta import Meta, highwire_tags, json_for_script, json_ld
from .ris import ris_record


class Citation:
    """Everything a paper page or an export needs to cite a paper.

    The light fields (key, URLs) are computed when the citation is made. The texts (BibTeX,
    meta tags, JSON-LD) are computed on each access instead of kept: each is used once or
    twice per build (the paper page, the exports), and keeping them took ~180 MB at 10,000
    papers. The page's formatted references and RIS are made by its script from its
    metadata (``static/js/cite.js``); ``ris`` and ``coins`` are what the tests hold
    the scripts to.
    """

    __slots__ = ("_index", "_view", "_location", "key", "url", "page_url", "canonical")

    def __init__(self, index: CitationIndex, view: PaperView):
        urls = index.urls
        self._index = index
        self._view = view
        self._location = index.locations.get(view.venue.id)
        self.key: str = index.keys.get(view.slug) or base_key(view)
        page = paper_page(view.venue.id, view.slug)
        self.page_url: str = urls.best(page)  # absolute page URL, else a path from the host root
        # the BibTeX/RIS url: the paper's own page (its landing page, DOI, OpenReview or arXiv
        # page: BEST_LINK_ORDER), as reference managers expect; this site's page when the
        # paper has no link of its own (and the site an absolute URL)
        self.url: str | None = best_link(view) or urls.absolute(page)
        self.canonical: str = self.page_url  # absolute when base_url is absolute, else a path

    @property
    def coins(self) -> str:
        """The OpenURL ContextObject of a COinS span. Pages carry none (search results and
        the reading list make theirs in the browser, static/js/paper-item.js): this is what
        the tests hold those to."""
        return coins_kev(self._view, self.url)

    @property
    def bibtex(self) -> str:
        """The entry shown on the page (no abstract), which the page saves as its .bib file and
        the venue's and tags' bulk BibTeX hold."""
        return self._entry(self._full_fields(), short=True)

    @property
    def bibtex_full(self) -> str:
        """The entry of the catalog's yearly ``papers-<year>.bib.gz``: with abstract, keywords and every link."""
        return self._entry(self._full_fields())

    def bibtex_both(self) -> tuple[str, str]:
        """(``bibtex``, ``bibtex_full``), from one encoding of the fields (the exports need
        both for every paper)."""
        fields = self._full_fields()
        return self._entry(fields, short=True), self._entry(fields)

    def _entry(self, fields: list[tuple[str, str]], short: bool = False) -> str:
        """The BibTeX entry of ``fields``; ``short``: only those a citation needs (CITE_FIELDS)."""
        if short:
            fields = [(name, value) for name, value in fields if name in CITE_FIELDS]
        return write_bibtex([(self.key, fields)])

    def _full_fields(self) -> list[tuple[str, str]]:
        return bibtex_fields(self._view, self.url, self._location)

    @property
    def ris(self) -> str:
        """The RIS record the page's script makes (no abstract)."""
        return ris_record(self._view, self.url, self.key, self._location)

    @property
    def meta_names(self) -> tuple[Meta, ...]:
        """<meta name=… content=…>: Highwire Press tags."""
        return highwire_tags(self._view)

    @property
    def json_ld(self) -> Markup:
        """Escaped for a <script type="application/ld+json">."""
        return json_for_script(json_ld(self._view, self._index.urls, self._location))


class CitationIndex:
    """Citations of every paper of a site; keys are assigned once for the whole catalog."""

    def __init__(self, site: SiteData, base_keys: Mapping[str, str] | None = None,
                 order: Sequence[str] | None = None):
        self.site = site
        self.config = site.catalog.site
        self.urls = SiteUrls.from_config(self.config)
        self.base_keys = base_keys if base_keys is not None else {v.slug: base_key(v) for v in site.papers}
        self.order = order if order is not None else key_order(site.papers)
        self.keys = assign_keys(site.papers, self.base_keys, self.order)
        self.locations = {v.ref.id: v.venue.location for v in site.venues}
        self._cache: dict[str, Citation] = {}

    def with_papers(self, site: SiteData, views: Iterable[PaperView]) -> CitationIndex:
        """The index of ``site``, which is this index's with ``views`` in place of those
        papers' (``derive.edits.with_papers``): their keys made as every paper's, only their
        base keys computed again."""
        views = tuple(views)
        added = {view.slug: view.paper.added for view in views}
        same = all(view.paper.added == added.get(view.slug, view.paper.added) for view in self.site.papers)
        return CitationIndex(site, {**self.base_keys, **{view.slug: base_key(view) for view in views}},
                             self.order if same else None)

    @property
    def absolute(self) -> bool:
        return self.urls.absolute_base is not None

    def __call__(self, view: PaperView) -> Citation:
        return self.for_paper(view)

    def for_paper(self, view: PaperView) -> Citation:
        cached = self._cache.get(view.slug)
        if cached is None:
            cached = self._cache[view.slug] = self._make(view)
        return cached

    def _make(self, view: PaperView) -> Citation:
        return Citation(self, view)
