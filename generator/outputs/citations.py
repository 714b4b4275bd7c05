"""Citation data for each paper: BibTeX, RIS, COinS, Highwire Press tags, OpenGraph, JSON-LD.

Everything here is computed from the derived views (``derive.PaperView``) and the site
configuration; nothing is written. ``CitationIndex(site)`` gives every paper one frozen
``Citation`` for the templates (the Jinja filter ``paper|citation``) and for the exports
(``exports``). The rules, also documented in ``docs/metadata.md``:

BibTeX keys
    first author's family name (BibTeX's own "Last" part, ASCII-folded) + the venue's year
    + the first significant word of the title (articles, prepositions and the like are
    skipped), all lower-case ASCII letters and digits: ``xue2024encoding``. Papers without
    (Latin-script) authors use ``anon``. When two papers of the catalog get the same key,
    the one that joined the catalog first (``added`` date, then slug) keeps it and the
    others get ``b``, ``c``, … appended, so a newly added paper never changes the key of
    a paper that was already there (as long as it carries a later ``added`` date).

BibTeX text
    Titles, abstracts and the venue name are written as LaTeX: math (``$…$``, ``$$…$$``,
    ``\\(…\\)``) is kept as it is, text-mode LaTeX commands too; bare special characters
    are escaped (``& % # _ $`` → ``\\&`` …, ``^ < >`` → ``\\textasciicircum{}`` …,
    ``~`` unless it is a tie); braces are balanced the way BibTeX counts them (an
    unmatched brace becomes ``\\textbraceleft{}``/``\\textbraceright{}``). In titles,
    every word with a capital letter and every formula is protected in braces, runs of
    such words in one group (``{Encoding Unitig}-level {Assembly Graphs}``), so a
    bibliography style prints the title exactly as published. Non-ASCII text is written
    as UTF-8 (biber, and bibtex with ``\\usepackage[utf8]{inputenc}``, read it).
"""

from __future__ import annotations

import datetime
import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence
from urllib.parse import urlsplit

import bibtexparser
from bibtexparser import model as bibmodel
from bibtexparser.middlewares import AddEnclosingMiddleware
from bibtexparser.middlewares.names import parse_single_name_into_parts
from bibtexparser.writer import BibtexFormat
from markupsafe import Markup

from ..derive.views import PaperView, SiteData
from ..content.model import LINK_KINDS, SiteConfig
from ..text.latex.encode import latex_value
from ..text.latex.tokens import clean_text
from ..text import plain_text

ENTRY_TYPE = "inproceedings"
ANONYMOUS = "anon"  # key prefix for papers without (Latin-script) authors
UNTITLED = "paper"  # key suffix when the title has no usable word

# Where a paper's URL comes from when the site has no absolute base URL: the first of
# these links that the paper has.
BEST_LINK_ORDER = ("openreview", "venue_page", "arxiv", "pdf", "project", "code")

# Link kinds written as their own BibTeX field in the full .bib files (``openreview =
# {…}``), so that importing an export gives every link back under its kind. arXiv links
# of the form https://arxiv.org/abs/<id> are written as ``eprint`` + ``archiveprefix``.
LINK_FIELDS = LINK_KINDS

KEY_STOPWORDS = frozenset(
    "a an the on of in for to with and or at by from via is are be do does can how what why when "
    "where which who whom into onto as its it this that these those towards toward we our your".split()
)

_ARXIV_ABS = re.compile(r"^https://arxiv\.org/abs/(?P<id>(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)$")

# Letters that NFKD does not decompose into ASCII (as in ``slugs``).
_TRANSLITERATE = str.maketrans({"ß": "ss", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d",
                                "ł": "l", "Ł": "l", "œ": "oe", "Œ": "oe", "þ": "th", "ð": "d", "ı": "i"})


# ---------------------------------------------------------------------------------------
# URLs
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SiteUrls:
    """URLs of the site's files: ``path`` (with the base path) or ``absolute`` (or None)."""

    base_path: str  # "/" or "/catalog/"
    absolute_base: str | None  # "https://host/catalog/" or None when base_url is a path

    @classmethod
    def from_config(cls, config: SiteConfig) -> "SiteUrls":
        parts = urlsplit(config.base_url)
        absolute = config.base_url if parts.scheme else None
        return cls(parts.path or "/", absolute)

    def path(self, rel: str) -> str:
        return self.base_path + rel

    def absolute(self, rel: str) -> str | None:
        return self.absolute_base + rel if self.absolute_base else None

    def best(self, rel: str) -> str:
        """Absolute when possible, else a path from the root of the host."""
        return self.absolute(rel) or self.path(rel)


def paper_bib_path(slug: str) -> str:
    return f"papers/{slug}/{slug}.bib"


def paper_ris_path(slug: str) -> str:
    return f"papers/{slug}/{slug}.ris"


def best_link(view: PaperView) -> str | None:
    links = {link.kind: link.url for link in view.links}
    return next((links[kind] for kind in BEST_LINK_ORDER if kind in links), None)


def arxiv_id(url: str) -> str | None:
    """The arXiv identifier of a canonical ``https://arxiv.org/abs/<id>`` link, else None."""
    match = _ARXIV_ABS.match(url)
    return match.group("id") if match else None


def paper_date(view: PaperView) -> datetime.date:
    """The date feeds and sitemaps give a paper: ``added``, else 1 January of the venue's year."""
    return view.paper.added or datetime.date(view.venue.year, 1, 1)


# ---------------------------------------------------------------------------------------
# Plain text helpers
# ---------------------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=16384)
def one_line(text: str) -> str:
    """Text on one line: every run of whitespace one space, no control characters."""
    return " ".join(clean_text(text).split())


_LESS_THAN = "\ue000"  # stands in for "<" while ``plain_text`` runs


@functools.lru_cache(maxsize=16384)
def text_as_shown(source: str) -> str:
    """Plain text of a title as its page shows it (math as linear text).

    Like ``text.plain_text``, which cuts out anything that looks like an HTML tag, except
    that such text is kept: on the page it is text ("<b>" shows as "<b>"), and metadata
    must name the paper the way the page does. Every output escapes it again.
    """
    if "<" not in source or _LESS_THAN in source:
        return one_line(plain_text(source))
    return one_line(plain_text(source.replace("<", _LESS_THAN)).replace(_LESS_THAN, "<"))


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` (accents folded, the rest dropped)."""
    folded = unicodedata.normalize("NFKD", text.translate(_TRANSLITERATE)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


def bibtex_name_form(name: str) -> str:
    """``"Hans Müller Jr."`` → ``"Müller, Jr., Hans"``: BibTeX reads a suffix only after commas."""
    words = name.split()
    if "," in name or len(words) < 3 or words[-1].casefold() not in NAME_SUFFIXES:
        return name
    return f"{words[-2]}, {words[-1]}, {' '.join(words[:-2])}"


# Caches of per-name work: names repeat across papers (a 10,000-paper catalog has about
# 24,000 distinct names in 53,000 author slots) and each is read by several outputs.
_NAME_CACHE = 1 << 17


@functools.lru_cache(maxsize=_NAME_CACHE)
def name_parts(name: str):
    """BibTeX's reading of a name (first, von, last, jr), or None when it cannot be read."""
    try:
        parts = parse_single_name_into_parts(bibtex_name_form(name), strict=False)
    except Exception:  # a name BibTeX cannot read at all: treated as one word
        return None
    return parts if parts.last else None


def family_name(name: str) -> str:
    parts = name_parts(name)
    if parts is None:
        words = name.split()
        return words[-1] if words else ""
    return " ".join(parts.last)


@functools.lru_cache(maxsize=_NAME_CACHE)
def last_first(name: str) -> str:
    """``"Ada Lovelace"`` → ``"Lovelace, Ada"`` (von part kept with the family name)."""
    parts = name_parts(name)
    if parts is None:
        return one_line(name)
    head = " ".join(parts.von + parts.last)
    rest = [" ".join(parts.jr), " ".join(parts.first)]
    return ", ".join(p for p in [head, *rest] if p).replace("{", "").replace("}", "")


@functools.lru_cache(maxsize=_NAME_CACHE)
def bib_name(name: str) -> str:
    """An author name for BibTeX's ``author`` field (names are joined with `` and ``)."""
    value = latex_value(bibtex_name_form(name))
    if re.search(r"(?i)(^|\s)and(\s|$)", value) or value.count(",") > 2 or not value.strip(","):
        # One unit for BibTeX: "and" would split it, more than two commas are an error.
        return "{{}" + value + "}" if value.startswith("\\") else "{" + value + "}"
    return value


def bib_url(url: str) -> str:
    """A URL as a .bib value: characters that would unbalance braces are percent-encoded."""
    return clean_text(url).replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D").strip()


# ---------------------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------------------


def key_title_word(title_plain: str) -> str:
    for word in title_plain.split():
        folded = ascii_fold(re.sub(r"['’]", "", word))
        if folded and folded not in KEY_STOPWORDS:
            return folded
    return UNTITLED


def key_author(authors: Sequence[str]) -> str:
    if not authors:
        return ANONYMOUS
    return ascii_fold(family_name(authors[0])) or ANONYMOUS


def base_key(view: PaperView) -> str:
    return f"{key_author(view.paper.authors)}{view.venue.year}{key_title_word(view.title_plain)}"


def _suffixes() -> Iterable[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    for c in letters[1:]:
        yield c
    n = 2
    while True:  # aa, ab, … after z
        for i in range(len(letters) ** n):
            s, k = "", i
            for _ in range(n):
                s = letters[k % 26] + s
                k //= 26
            yield s
        n += 1


def assign_keys(views: Iterable[PaperView]) -> dict[str, str]:
    """slug → BibTeX key, unique in the catalog (see the module docstring)."""
    ordered = sorted(views, key=lambda v: (v.paper.added or datetime.date.min, v.slug))
    wanted = {v.slug: base_key(v) for v in ordered}
    taken: set[str] = set()
    keys: dict[str, str] = {}
    # Base keys first, so that a suffixed key never takes another paper's base key.
    firsts: dict[str, str] = {}
    for v in ordered:
        firsts.setdefault(wanted[v.slug], v.slug)
    taken.update(firsts)
    for v in ordered:
        base = wanted[v.slug]
        if firsts[base] == v.slug:
            keys[v.slug] = base
            continue
        for suffix in _suffixes():
            if base + suffix not in taken:
                keys[v.slug] = base + suffix
                taken.add(base + suffix)
                break
    return keys


# ---------------------------------------------------------------------------------------
# BibTeX entries
# ---------------------------------------------------------------------------------------


# The fields of the entry shown on a paper page (what one pastes into a paper); the .bib
# files have every field.
CITE_FIELDS = frozenset({"title", "author", "booktitle", "year", "address", "url", "eprint", "archiveprefix"})


def bibtex_fields(view: PaperView, url: str | None, location: str | None = None) -> list[tuple[str, str]]:
    """(field, value) pairs of a paper's full entry, values already in BibTeX form.

    ``url``: the ``url`` field (the paper's page, or its best external link). Besides
    the citation fields (``CITE_FIELDS``), every link under its kind, the presentation,
    the tag names as keywords and the abstract.
    """
    paper = view.paper
    venue = view.venue
    fields: list[tuple[str, str]] = [("title", latex_value(paper.title, protect=True))]
    if paper.authors:
        fields.append(("author", " and ".join(bib_name(a) for a in paper.authors)))
    fields.append(("booktitle", latex_value(venue.full_name)))
    fields.append(("year", str(venue.year)))
    if location:
        fields.append(("address", latex_value(location)))
    links = {link.kind: link.url for link in view.links}
    if url:
        fields.append(("url", bib_url(url)))
    eprint = arxiv_id(links["arxiv"]) if "arxiv" in links else None
    if eprint:
        fields.append(("eprint", eprint))
        fields.append(("archiveprefix", "arXiv"))
    for kind in LINK_FIELDS:
        if kind in links and not (kind == "arxiv" and eprint):
            fields.append((kind, bib_url(links[kind])))
    if view.presentation:
        fields.append(("presentation", view.presentation))
    if view.tags:
        fields.append(("keywords", latex_value(", ".join(t.name for t in view.tags))))
    if paper.abstract.strip():
        fields.append(("abstract", latex_value(paper.abstract.strip(), one_line_spaces=False)))
    return fields


def write_bibtex(entries: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """BibTeX text of ``(key, fields)`` entries, exactly as bibtexparser writes them with
    every value in braces, fields indented by two spaces and one newline between entries
    (``write_bibtex_with_bibtexparser``; ``tests/test_citations.py`` compares the two).

    Written here because going through bibtexparser's library, middleware and writer
    objects took a third of the time of a large catalog's exports.
    """
    keys = [key for key, _ in entries]
    if len(set(keys)) != len(keys):  # (bibtexparser's library refuses them too)
        raise ValueError(f"duplicate BibTeX keys: {sorted({k for k in keys if keys.count(k) > 1})}")
    return "\n".join(
        f"@{ENTRY_TYPE}{{{key},\n" + ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        + ("\n}\n" if fields else "}\n")
        for key, fields in entries
    )


def write_bibtex_with_bibtexparser(entries: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """``write_bibtex`` by way of bibtexparser (the reference it must equal)."""
    library = bibtexparser.Library()
    for key, fields in entries:
        library.add(bibmodel.Entry(ENTRY_TYPE, key, [bibmodel.Field(k, v) for k, v in fields]))
    fmt = BibtexFormat()
    fmt.indent = "  "
    fmt.block_separator = "\n"
    stack = [AddEnclosingMiddleware(allow_inplace_modification=True, default_enclosing="{",
                                    reuse_previous_enclosing=False, enclose_integers=True)]
    return bibtexparser.write_string(library, unparse_stack=stack, bibtex_format=fmt)


# ---------------------------------------------------------------------------------------
# RIS, COinS, meta tags, JSON-LD
# ---------------------------------------------------------------------------------------


def ris_record(view: PaperView, url: str | None, key: str, location: str | None = None, *,
               full: bool, newline: str = "\n") -> str:
    """One RIS record (``TY  - CPAPER`` … ``ER  - ``); ``full`` adds keywords, abstract, links."""
    lines: list[tuple[str, str]] = [("TY", "CPAPER"), ("TI", text_as_shown(view.paper.title))]
    lines += [("AU", last_first(a)) for a in view.paper.authors]
    lines += [("T2", view.venue.full_name), ("PY", str(view.venue.year))]
    if location:
        lines.append(("CY", location))
    if url:
        lines.append(("UR", url))
    pdf = next((link.url for link in view.links if link.kind == "pdf"), None)
    if pdf:
        lines.append(("L1", pdf))
    lines.append(("ID", key))
    if full:
        lines += [("KW", t.name) for t in view.tags]
        if view.abstract_plain:
            lines.append(("AB", view.abstract_plain))
        lines += [("UR", link.url) for link in view.links if link.url != url and link.kind != "pdf"]
    lines.append(("ER", ""))
    return "".join(f"{tag}  - {one_line(value)}{newline}" for tag, value in lines)


def coins_kev(view: PaperView, url: str | None = None) -> str:
    """The OpenURL (Z39.88-2004) ContextObject of a paper, for a COinS ``<span title>``.

    ``url``: the paper's page (default: its best external link). Zotero reads this as a
    conference paper: title, authors, proceedings title, year.
    """
    pairs: list[tuple[str, str]] = [
        ("ctx_ver", "Z39.88-2004"),
        ("rft_val_fmt", "info:ofi/fmt:kev:mtx:book"),
        ("rfr_id", "info:sid/papershelf"),
        ("rft.genre", "proceeding"),
        ("rft.atitle", text_as_shown(view.paper.title)),
        ("rft.btitle", one_line(view.venue.full_name)),
        ("rft.date", str(view.venue.year)),
    ]
    authors = view.paper.authors
    if authors:
        parts = name_parts(authors[0])
        if parts is not None and parts.first:
            pairs += [("rft.aulast", " ".join(parts.von + parts.last).replace("{", "").replace("}", "")),
                      ("rft.aufirst", " ".join(parts.first).replace("{", "").replace("}", ""))]
        else:
            pairs.append(("rft.au", one_line(authors[0])))
        pairs += [("rft.au", one_line(a)) for a in authors[1:]]
    target = url or best_link(view)
    if target:
        pairs.append(("rft_id", target))
    return "&".join(f"{_percent_encode(k)}={_percent_encode(v)}" for k, v in pairs)


# Percent-encoding of each UTF-8 byte as ``urllib.parse.quote(text, safe="")`` does it:
# letters, digits and ``_.-~`` as they are, every other byte as ``%XX``.
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")
_PERCENT_BYTES = tuple(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in range(256))


def _percent_encode(text: str) -> str:
    """``quote(text, safe="")`` (what ``urlencode(pairs, quote_via=quote, safe="")`` applies
    to each key and value), without its per-byte Python calls."""
    return "".join(map(_PERCENT_BYTES.__getitem__, text.encode("utf-8")))


@dataclass(frozen=True, slots=True)
class Meta:
    name: str
    content: str


def highwire_tags(view: PaperView, page_url: str) -> tuple[Meta, ...]:
    """``citation_*`` tags (Google Scholar, Zotero), in the order Scholar documents them."""
    tags = [Meta("citation_title", text_as_shown(view.paper.title))]
    tags += [Meta("citation_author", one_line(a)) for a in view.paper.authors]
    tags.append(Meta("citation_publication_date", str(view.venue.year)))
    tags.append(Meta("citation_conference_title", one_line(view.venue.full_name)))
    pdf = next((link.url for link in view.links if link.kind == "pdf"), None)
    if pdf:
        tags.append(Meta("citation_pdf_url", pdf))
    tags.append(Meta("citation_abstract_html_url", page_url))
    arxiv = next((arxiv_id(link.url) for link in view.links if link.kind == "arxiv"), None)
    if arxiv:
        tags.append(Meta("citation_arxiv_id", arxiv))
    if view.tags:
        tags.append(Meta("citation_keywords", "; ".join(t.name for t in view.tags)))
    return tuple(tags)


_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # json.dumps(data, these options)


def json_for_script(data: object) -> Markup:
    """JSON for a ``<script type="application/ld+json">`` element.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` … (they only occur inside JSON strings,
    where the escapes mean the same), so no content can end the script element or open an
    HTML comment; U+2028/U+2029 are escaped for old JavaScript parsers.
    """
    text = _COMPACT_JSON.encode(data)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return Markup(text)


def json_ld(view: PaperView, urls: SiteUrls, config: SiteConfig) -> dict[str, object]:
    """schema.org ``ScholarlyArticle`` data of a paper."""
    page = urls.absolute(view.url)
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "name": text_as_shown(view.paper.title),
        "headline": text_as_shown(view.paper.title),
    }
    if page:
        data["@id"] = page
        data["url"] = page
        data["mainEntityOfPage"] = page
    if view.paper.authors:
        data["author"] = [
            {"@type": "Person", "name": one_line(name),
             **({"url": urls.absolute(ref.url)} if urls.absolute_base else {})}
            for name, ref in zip(view.paper.authors, view.authors)
        ]
    data["datePublished"] = str(view.venue.year)
    event: dict[str, object] = {"@type": "PublicationEvent", "name": one_line(view.venue.full_name)}
    if urls.absolute_base:
        event["url"] = urls.absolute(view.venue.url)
    data["publication"] = event
    if view.abstract_plain:
        data["abstract"] = one_line(view.abstract_plain)
    if view.description:
        data["description"] = one_line(view.description)
    if view.tags:
        data["keywords"] = [t.name for t in view.tags]
    if config.language:
        data["inLanguage"] = config.language
    external = [link.url for link in view.links]
    if external:
        data["sameAs"] = external
    pdf = next((link.url for link in view.links if link.kind == "pdf"), None)
    if pdf:
        data["encoding"] = {"@type": "MediaObject", "contentUrl": pdf, "encodingFormat": "application/pdf"}
    return data


# ---------------------------------------------------------------------------------------
# The per-paper bundle and the catalog index
# ---------------------------------------------------------------------------------------


class Citation:
    """Everything a paper page, a list item or an export needs to cite a paper.

    The light fields are computed when the citation is made: list items need the COinS of
    every paper, about ten times per build. The texts (BibTeX, RIS, meta tags, JSON-LD) are
    computed on each access instead of kept: each is used once or twice per build (the paper
    page, the exports), and keeping them took ~180 MB at 10,000 papers.
    """

    __slots__ = ("_index", "_view", "_location", "key", "url", "page_url", "bib_path", "ris_path",
                 "coins", "canonical")

    def __init__(self, index: CitationIndex, view: PaperView):
        urls = index.urls
        self._index = index
        self._view = view
        self._location = index.locations.get(view.venue.id)
        self.key: str = index.keys.get(view.slug) or base_key(view)
        self.page_url: str = urls.best(view.url)  # absolute page URL, else a path from the host root
        # the BibTeX/RIS url: absolute page URL, else the best external link
        self.url: str | None = urls.absolute(view.url) or best_link(view)
        self.bib_path: str = paper_bib_path(view.slug)  # relative to the site root: papers/<slug>/<slug>.bib
        self.ris_path: str = paper_ris_path(view.slug)
        self.coins: str = coins_kev(view, self.url)  # OpenURL ContextObject for <span class="Z3988">
        self.canonical: str = self.page_url  # absolute when base_url is absolute, else a path

    @property
    def bibtex(self) -> str:
        """The entry shown on the page (no abstract)."""
        fields = [(name, value) for name, value in self._full_fields() if name in CITE_FIELDS]
        return write_bibtex([(self.key, fields)])

    @property
    def bibtex_full(self) -> str:
        """The .bib file: with abstract, keywords and every link."""
        return write_bibtex([(self.key, self._full_fields())])

    def _full_fields(self) -> list[tuple[str, str]]:
        return bibtex_fields(self._view, self.url, self._location)

    @property
    def ris(self) -> str:
        """Shown on the page (no abstract)."""
        return ris_record(self._view, self.url, self.key, self._location, full=False)

    @property
    def ris_full(self) -> str:
        """The .ris file (CRLF line ends, as RIS wants)."""
        return ris_record(self._view, self.url, self.key, self._location, full=True, newline="\r\n")

    @property
    def meta_names(self) -> tuple[Meta, ...]:
        """<meta name=… content=…>: Highwire, Twitter."""
        view = self._view
        names = list(highwire_tags(view, self.page_url))
        names += [Meta("twitter:card", "summary"), Meta("twitter:title", text_as_shown(view.paper.title))]
        if view.description:
            names.append(Meta("twitter:description", one_line(view.description)))
        return tuple(names)

    @property
    def meta_properties(self) -> tuple[Meta, ...]:
        """<meta property=… content=…>: OpenGraph."""
        view, index = self._view, self._index
        props = [Meta("og:type", "article"), Meta("og:title", text_as_shown(view.paper.title))]
        if view.description:
            props.append(Meta("og:description", one_line(view.description)))
        page_abs = index.urls.absolute(view.url)
        if page_abs:
            props.append(Meta("og:url", page_abs))
        props.append(Meta("og:site_name", one_line(index.config.title)))
        props.append(Meta("article:section", one_line(view.venue.name)))
        props += [Meta("article:tag", t.name) for t in view.tags]
        return tuple(props)

    @property
    def json_ld(self) -> Markup:
        """Escaped for a <script type="application/ld+json">."""
        return json_for_script(json_ld(self._view, self._index.urls, self._index.config))


class CitationIndex:
    """Citations of every paper of a site; keys are assigned once for the whole catalog."""

    def __init__(self, site: SiteData):
        self.site = site
        self.config = site.catalog.site
        self.urls = SiteUrls.from_config(self.config)
        self.keys = assign_keys(site.papers)
        self.locations = {v.ref.id: v.venue.location for v in site.venues}
        self._cache: dict[str, Citation] = {}

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
