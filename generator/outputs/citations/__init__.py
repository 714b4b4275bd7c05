"""Citation data for each paper: BibTeX, RIS, COinS, Highwire Press tags, JSON-LD.

Everything here is computed from the derived views (``derive.views.PaperView``) and the site
configuration; nothing is written. ``CitationIndex(site)`` gives every paper one frozen
``Citation`` for the templates (the Jinja filter ``paper|citation``) and for the exports
(``exports``). The rules are documented in ``docs/metadata.md`` and in the modules:

``index``   ``Citation`` and ``CitationIndex``: what a page or an export reads
``keys``    BibTeX keys, unique in the catalog
``bibtex``  BibTeX entries (values written by ``text.bibtex``)
``ris``     RIS records (made in the page by ``static/js/cite.js``; this is its spec)
``coins``   COinS (OpenURL ContextObjects; made in the page by ``static/js/paper-item.js``)
``meta``    Highwire Press tags and schema.org JSON-LD of a paper page
``names``   author names as each format writes them, and in parts (``citation_name``)
``links``   a paper's best link and arXiv id
``plain``   plain text on one line, titles as shown, ASCII folding
``dates``   the date feeds and sitemaps give a paper

The formatted references (APA, Chicago, ACL) are made in the browser from the page's
Highwire tags and JSON-LD (``static/js/cite.js``, checked against citeproc-js).

The site's paths and URLs (``SiteUrls``) are made
in ``derive.urls`` and re-exported here, as is ``latex_value``, for the modules and tests
that import them from here.
"""

from ...text.bibtex.to_bibtex import latex_value
from ...derive.urls import SiteUrls
from .bibtex import CITE_FIELDS, ENTRY_TYPE, LINK_FIELDS, bib_url, bibtex_fields, bibtex_keyword, write_bibtex
from .coins import coins_kev
from .dates import paper_date
from .index import Citation, CitationIndex
from .keys import ANONYMOUS, KEY_STOPWORDS, UNTITLED, assign_keys, base_key, key_author, key_title_word
from .links import BEST_LINK_ORDER, arxiv_id, best_link
from .meta import Meta, highwire_tags, json_for_script, json_ld
from .names import NAME_SUFFIXES, Name, bib_name, bibtex_name_form, citation_name, family_name, last_first, name_parts, split_at_last_word
from .plain import one_line, text_as_shown
from .ris import ris_record

__all__ = [
    "ANONYMOUS", "BEST_LINK_ORDER", "CITE_FIELDS", "ENTRY_TYPE", "KEY_STOPWORDS", "LINK_FIELDS",
    "NAME_SUFFIXES", "UNTITLED",
    "Citation", "CitationIndex", "Meta", "Name", "SiteUrls",
    "arxiv_id", "assign_keys", "base_key", "best_link", "bib_name", "bib_url",
    "bibtex_fields", "bibtex_keyword", "bibtex_name_form", "citation_name", "coins_kev", "family_name", "highwire_tags", "json_for_script",
    "json_ld", "key_author", "key_title_word", "last_first", "latex_value", "name_parts", "one_line",
    "paper_date", "ris_record", "split_at_last_word", "text_as_shown", "write_bibtex",
]
