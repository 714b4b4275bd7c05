"""Citation data for each paper: BibTeX, RIS, COinS, Highwire Press tags, OpenGraph, JSON-LD.

Everything here is computed from the derived views (``derive.views.PaperView``) and the site
configuration; nothing is written. ``CitationIndex(site)`` gives every paper one frozen
``Citation`` for the templates (the Jinja filter ``paper|citation``) and for the exports
(``exports``). The rules are documented in ``docs/metadata.md`` and in the modules:

``index``   ``Citation`` and ``CitationIndex``: what a page or an export reads
``keys``    BibTeX keys, unique in the catalog
``bibtex``  BibTeX entries (values written by ``text.latex``)
``ris``     RIS records
``styles``  formatted references to paste: APA, Chicago, ACL (``style_text``: their text rules)
``coins``   COinS (OpenURL ContextObjects)
``meta``    Highwire Press tags and schema.org JSON-LD of a paper page
``names``   author names as each format writes them
``links``   a paper's best link and arXiv id
``plain``   plain text on one line, titles as shown, ASCII folding
``dates``   the date feeds and sitemaps give a paper

The site's paths and URLs (``SiteUrls``) are made
in ``derive.urls`` and re-exported here, as is ``latex_value``, for the modules and tests
that import them from here.
"""

from ...text.latex.encode import latex_value
from ...derive.urls import SiteUrls
from .bibtex import CITE_FIELDS, ENTRY_TYPE, LINK_FIELDS, bib_url, bibtex_fields, bibtex_keyword, write_bibtex
from .coins import coins_kev
from .dates import paper_date
from .index import Citation, CitationIndex
from .keys import ANONYMOUS, KEY_STOPWORDS, UNTITLED, assign_keys, base_key, key_author, key_title_word
from .links import BEST_LINK_ORDER, arxiv_id, best_link
from .meta import Meta, highwire_tags, json_for_script, json_ld
from .names import NAME_SUFFIXES, bib_name, bibtex_name_form, family_name, last_first, name_parts
from .plain import ascii_fold, one_line, text_as_shown
from .ris import ris_record
from .styles import STYLES, FormattedCitation, Name, Reference, format_reference, reference_for

__all__ = [
    "ANONYMOUS", "BEST_LINK_ORDER", "CITE_FIELDS", "ENTRY_TYPE", "KEY_STOPWORDS", "LINK_FIELDS",
    "NAME_SUFFIXES", "UNTITLED",
    "Citation", "CitationIndex", "FormattedCitation", "Meta", "Name", "Reference", "STYLES", "SiteUrls",
    "arxiv_id", "ascii_fold", "assign_keys", "base_key", "best_link", "bib_name", "bib_url",
    "bibtex_fields", "bibtex_keyword", "bibtex_name_form", "coins_kev", "format_reference", "family_name", "highwire_tags", "json_for_script",
    "json_ld", "key_author", "key_title_word", "last_first", "latex_value", "name_parts", "one_line",
    "paper_date", "reference_for", "ris_record", "text_as_shown", "write_bibtex",
]
