"""Citation data per paper: BibTeX text and keys, RIS, COinS, meta tags, JSON-LD."""

from __future__ import annotations

import datetime
import json
import os
import re
import threading
from pathlib import Path
from typing import Sequence
from urllib.parse import parse_qsl, quote

import bibtexparser
import pytest
from bibtexparser import model as bibmodel
from bibtexparser.middlewares import AddEnclosingMiddleware
from bibtexparser.writer import BibtexFormat
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.outputs import citations as C
from generator.outputs.citations.coins import _percent_encode
from generator.derive.views import derive
from generator.importers.bibtex import bib_text_to_content
from generator.content.loader import load_catalog
from generator.content.model import SiteConfig
from generator.text import plain_text

from ..conftest import ContentDir, bibtex_balanced


def parse_one(text: str):
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    assert len(library.entries) == 1
    return library.entries[0]


def site_for(content: ContentDir, base_url: str = "https://example.org/shelf/"):
    return derive(load_catalog(content.root, base_url=base_url))


# --------------------------------------------------------------------------- LaTeX values


@pytest.mark.parametrize("source, expected", [
    ("Q&A", r"Q\&A"),
    ("100% sure", r"100\% sure"),
    ("#1 item", r"\#1 item"),
    ("snake_case", r"snake\_case"),
    ("costs $5", r"costs \$5"),
    ("x ^ y", r"x \textasciicircum{} y"),
    ("<b>", r"\textless{}b\textgreater{}"),
    ("a ~ b", r"a \textasciitilde{} b"),
    ("Fig.~3", r"Fig.~3"),  # a tie stays a tie
    (r"already \& escaped \% here", r"already \& escaped \% here"),
    (r"\emph{kept} and \'{e}", r"\emph{kept} and \'{e}"),
    ("trailing backslash \\", r"trailing backslash \textbackslash{}"),
    (r"a \1 b", r"a \textbackslash{}1 b"),
    (r"Markdown \* and \[x", r"Markdown * and [x"),
    ("math $50%$ stays math", r"math $50\%$ stays math"),
])
def test_special_characters_are_escaped(source, expected):
    assert C.latex_value(source) == expected


@pytest.mark.parametrize("source", [
    "unbalanced { open", "unbalanced } close", "}{", r"\{ alone", r"alone \}", "{{{", "}}}",
    r"$\{x$ in math", "$a}$ b", r"{ \} }", "\\", "{\\",
])
def test_braces_always_balance_as_bibtex_counts_them(source):
    for protect in (False, True):
        value = C.latex_value(source, protect=protect)
        assert bibtex_balanced(value), (source, value)
        parse_one("@inproceedings{k, title = {" + value + "}}")


def test_titles_protect_capitals_and_math_in_brace_groups():
    # Only what must stay (issue 36, as the ACL Anthology writes titles): capitals past a word's
    # first letter, each run braced; a headline-case title's initial capitals are its style.
    value = C.latex_value("Encoding Unitig-level Assembly Graphs with Heterophilous Constraints", protect=True)
    assert value == "Encoding Unitig-level Assembly Graphs with Heterophilous Constraints"
    value = C.latex_value("Does BERT Know ThingTalk? Probing a Few-Shot Semantic Parser", protect=True)
    assert value == "Does {BERT} Know {T}hing{T}alk? Probing a Few-Shot Semantic Parser"
    assert C.latex_value("RoBERTa: a robustly optimized approach", protect=True) == \
        "{R}o{BERT}a: a robustly optimized approach"
    # In a sentence-case title a capital inside names something: braced; the first word's is not.
    value = C.latex_value("A few-shot semantic parser for Wizard-of-Oz dialogues", protect=True)
    assert value == "A few-shot semantic parser for {W}izard-of-{O}z dialogues"
    # Part by part (hyphens, brackets); capitals after digits; well-known proper names; a
    # bracket's or a dash's first word is a sentence's first (real ACL Anthology titles).
    for title, anthology in (("A ResNet-50-Based Model for Language ID", "A {R}es{N}et-50-Based Model for Language {ID}"),
                             ("WikiMatrix: Mining 135M Parallel Sentences from Wikipedia",
                              "{W}iki{M}atrix: Mining 135{M} Parallel Sentences from {W}ikipedia"),
                             ("nmT5 - Is parallel data still relevant?", "nm{T}5 - Is parallel data still relevant?"),
                             ("Utilisation d'outils de TAL (Use of NLP tools)",
                              "Utilisation d'outils de {TAL} (Use of {NLP} tools)"),
                             ("Can I Be of Further Assistance?", "Can {I} Be of Further Assistance?")):
        assert C.latex_value(title, protect=True) == anthology
    value = C.latex_value("Statistically optimal $K$-means via low rank", protect=True)
    assert value == "Statistically optimal {$K$-means} via low rank"
    # A group that starts with a command would be a BibTeX "special character" (its letters
    # are case-changed): the protection is doubled.
    assert C.latex_value(r"\LaTeX{} rocks", protect=True) == r"{{}\LaTeX{}} rocks"
    # Braces that are not LaTeX groups are text (the page shows them): escaped, and protected.
    assert C.latex_value("{BERT}: pre-training", protect=True) == r"{{}\{BERT\}:} pre-training"
    # Nothing outside braces at depth 0 may keep a capital past a word's first letter, or a formula.
    value = C.latex_value("A $\\mathcal{O}(N)$ Method for GPT-4 and iPhone ÜBER", protect=True)
    depth, outside = 0, []
    for char in value:
        depth += (char == "{") - (char == "}")
        if depth == 0:
            outside.append(char)
    assert "$" not in "".join(outside) and not re.search(r"\w[A-ZÜ]", "".join(outside)), value


def test_markdown_emphasis_and_bare_urls_become_latex():
    value = C.latex_value("the *minimax* rate and _nearest centroid_ and **bold**, see https://x.org/a_b.")
    assert value == r"the \emph{minimax} rate and \emph{nearest centroid} and \textbf{bold}, see \url{https://x.org/a_b}."
    assert C.latex_value("A* search and snake_case") == r"A* search and snake\_case"
    # A Markdown link's target is left alone; \url arguments are verbatim.
    assert C.latex_value("[code](https://x.org/a_b)") == "[code](https://x.org/a_b)"
    assert C.latex_value(r"\url{https://x.org/a_b%20}") == r"\url{https://x.org/a_b%20}"


def test_author_names():
    assert C.bib_name("Ada Lovelace") == "Ada Lovelace"
    assert C.bib_name("Simon and Garfunkel") == "{Simon and Garfunkel}"  # "and" would split it
    assert C.bib_name("Tom & Jerry") == r"Tom \& Jerry"
    assert C.bib_name("A, B, C, D") == "{A, B, C, D}"  # more than two commas is a BibTeX error


@settings(max_examples=300, deadline=None)
@example("{{{}}")  # a template tag whose braces do not pair: BibTeX counts escaped braces too
@given(st.lists(st.sampled_from(list("aZ Ü{}\\$%&#_^~<>*[]()-:'\"") + ["\\emph{", "$x$", "--", "http://x.y/"]),
                max_size=40).map("".join))
def test_any_text_gives_a_value_bibtex_reads(text):
    for protect in (False, True):
        value = C.latex_value(text, protect=protect)
        assert bibtex_balanced(value), (text, value)
        entry = parse_one("@inproceedings{k,\n  title = {" + value + "}\n}\n")
        assert entry.fields_dict["title"].value == value


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("aZb Ü{}\\$%&#_^~<>*[]-'\"\n") + [
    "\\emph{x}", "$x^2$", "\\&", "--", "\\LaTeX", "{\\em ", "\\\"O", "http://x.y/a_b", "\\\\", "\\{", "**",
    "\\url{a_b}", "Fig.~3"]), min_size=1, max_size=30).map("".join))
@example("*%%*")  # \emph{\%\%} must not come back as \emph{%%}: "{%%}" reads as a template tag
@example("*%a%*")
@example("*$\\LaTeX")  # "\\$" is not a formula: the word gets the {{}…} protection
@example("http://x.y/a_bFig.~3*")  # a URL with "*" or "~" stays in \\url{}
@example("*{\\em }*")  # \\emph{{\\em }}: the argument's brace starts no template tag "{{…}}"
@example("{_Z a~_")  # "~" before the closing mark is no tie
def test_text_survives_export_then_import(text):
    """import(export(import(export(t)))) == import(export(t)): the importer reads back exactly
    what the exporter wrote, for titles (protected) and abstracts (verbatim spaces)."""
    for title in (True, False):
        once = bib_text_to_content(C.latex_value(text, protect=title, one_line_spaces=title), title=title)
        twice = bib_text_to_content(C.latex_value(once, protect=title, one_line_spaces=title), title=title)
        assert once == twice, (text, title)


# --------------------------------------------------------------------------- keys


def view_with(content: ContentDir, slug: str, **kwargs):
    content.add_paper(slug, **kwargs)
    site = site_for(content)
    return next(v for v in site.papers if v.slug == slug), site


@pytest.mark.parametrize("title, authors, key", [
    ("Encoding Unitig-level Assembly Graphs", ("Xue Bai", "Ada Xue"), "bai2024encoding"),
    ("The Power of Graphs", ("Ludwig van Beethoven",), "beethoven2024power"),
    ("On the Theory of Graphs", ("Lovelace, Ada",), "lovelace2024theory"),
    ("Let's Verify Step by Step", ("José Ñúñez",), "nunez2024lets"),
    ("Towards $K$-means", ("Zoë Ørsted",), "orsted2024kmeans"),
    ("A", ("张伟",), "anon2024paper"),
])
def test_keys_are_family_year_first_significant_word(content, title, authors, key):
    view, _ = view_with(content, "x-paper", title=title, authors=authors)
    assert C.base_key(view) == key
    assert re.fullmatch(r"[a-z0-9]+", key)


def test_papers_without_authors_get_an_anonymous_key(content):
    view, _ = view_with(content, "x-paper", title="Graph Things", authors=())
    assert C.base_key(view) == "anon2024graph"


def test_colliding_keys_are_made_unique_and_do_not_move_when_papers_are_added(content):
    content.add_paper("graphs-one", title="Graphs One", authors=("Ada Lovelace",), extra="added: 2024-01-01")
    content.add_paper("graphs-two", title="Graphs Two", authors=("Ada Lovelace",), extra="added: 2024-02-01")
    keys = C.assign_keys(site_for(content).papers)
    assert keys["graphs-one"] == "lovelace2024graphs"
    assert keys["graphs-two"] == "lovelace2024graphsb"
    # A paper added later, even with a slug that sorts first, gets the next suffix.
    content.add_paper("a-graphs-three", title="Graphs Three", authors=("Ada Lovelace",), extra="added: 2024-03-01")
    later = C.assign_keys(site_for(content).papers)
    assert later["graphs-one"] == keys["graphs-one"] and later["graphs-two"] == keys["graphs-two"]
    assert later["a-graphs-three"] == "lovelace2024graphsc"
    assert len(set(later.values())) == len(later)


def test_keys_of_the_committed_catalog_are_unique_and_deterministic(bundled_views):
    site = bundled_views()
    keys = C.assign_keys(site.papers)
    assert len(keys) == len(site.papers) == len(set(keys.values()))
    assert C.assign_keys(reversed(site.papers)) == keys
    assert keys["encoding-unitig-level-assembly-graphs-with-heterophilous-constraints-for"] == "xue2024encoding"


# --------------------------------------------------------------------------- whole citations


def test_bibtex_entry_of_a_paper(content):
    content.add_paper("k-means", title="Optimal $K$-means & More", authors=("Ada Lovelace", "Alan Turing"),
                      extra="links:\n  arxiv: https://arxiv.org/abs/2401.01234\n  pdf: https://x.org/p.pdf")
    site = site_for(content)
    view = next(v for v in site.papers if v.slug == "k-means")
    citation = C.CitationIndex(site).for_paper(view)
    entry = parse_one(citation.bibtex)
    fields = {k: f.value for k, f in entry.fields_dict.items()}
    assert entry.entry_type == "inproceedings"
    assert entry.key == citation.key == "lovelace2024optimal"
    assert fields["author"] == "Ada Lovelace and Alan Turing"
    assert fields["booktitle"] == "Test Conference on Learning 2024"
    assert fields["year"] == "2024"
    assert fields["url"] == "https://arxiv.org/abs/2401.01234"  # the paper's own page, not this site's
    assert fields["eprint"] == "2401.01234" and fields["archiveprefix"] == "arXiv"
    assert bib_text_to_content(fields["title"], title=True) == "Optimal $K$-means & More"
    assert "abstract" not in fields  # the page shows the citation only
    full = {k: f.value for k, f in parse_one(citation.bibtex_full).fields_dict.items()}
    assert full["pdf"] == "https://x.org/p.pdf"
    assert full["keywords"] == "Graph learning"
    assert "graph neural networks" in full["abstract"]


def test_url_is_the_paper_s_landing_page_then_this_site_s_page(content):
    """Reference managers want the paper's own page (issue 28): its landing page, DOI,
    OpenReview or arXiv page; this site's page only for a paper with no such link."""
    content.add_paper("landing", title="Landing", extra="links:\n  venue_page: https://aclanthology.org/P19-1001/\n"
                                                       "  doi: https://doi.org/10.18653/v1/P19-1001\n"
                                                       "  openreview: https://openreview.net/forum?id=abc")
    site = site_for(content)
    index = C.CitationIndex(site)
    landing = next(v for v in site.papers if v.slug == "landing")
    assert index.for_paper(landing).url == "https://aclanthology.org/P19-1001/"
    unlinked = next(v for v in site.papers if v.slug == "a-paper-on-graphs")
    assert index.for_paper(unlinked).url == "https://example.org/shelf/papers/test-2024/a-paper-on-graphs/"


def test_url_is_the_best_external_link_when_the_base_is_a_path(content):
    content.add_paper("linked", title="Linked", extra="links:\n  code: https://github.com/x/y\n"
                                                     "  openreview: https://openreview.net/forum?id=abc")
    site = site_for(content, base_url="/shelf/")
    view = next(v for v in site.papers if v.slug == "linked")
    citation = C.CitationIndex(site).for_paper(view)
    assert citation.url == "https://openreview.net/forum?id=abc"
    assert citation.canonical == "/shelf/papers/test-2024/linked/"
    assert "url" not in json.loads(str(citation.json_ld))  # a path is no page's URL
    unlinked = next(v for v in site.papers if v.slug == "a-paper-on-graphs")
    assert "url" not in parse_one(C.CitationIndex(site).for_paper(unlinked).bibtex).fields_dict


def test_a_doi_is_written_bare_and_cited_after_the_landing_page(content):
    content.add_paper("doi", title="With a DOI", extra="links:\n  doi: https://doi.org/10.1109/ICRA.2019.8793485")
    content.add_paper("both", title="With Both", extra="links:\n  doi: https://doi.org/10.1109/X.1\n"
                                                      "  venue_page: https://ieeexplore.ieee.org/document/1")
    site = site_for(content, base_url="/shelf/")
    index = C.CitationIndex(site)
    views = {v.slug: v for v in site.papers}
    full = {k: f.value for k, f in parse_one(index.for_paper(views["doi"]).bibtex_full).fields_dict.items()}
    assert full["doi"] == "10.1109/ICRA.2019.8793485"  # styles make the doi.org link themselves
    assert index.for_paper(views["doi"]).url == "https://doi.org/10.1109/ICRA.2019.8793485"
    assert index.for_paper(views["both"]).url == "https://ieeexplore.ieee.org/document/1"
    assert [link.label for link in views["both"].links] == ["IEEE Xplore", "DOI"]


def test_ris_record(content):
    content.add_paper("ris", title="Graph & Things", authors=("Ludwig van Beethoven", "Ada Lovelace"),
                      extra="links:\n  pdf: https://x.org/p.pdf")
    site = site_for(content)
    view = next(v for v in site.papers if v.slug == "ris")
    citation = C.CitationIndex(site).for_paper(view)
    lines = citation.ris.split("\n")
    assert lines[0] == "TY  - CPAPER" and lines[-2] == "ER  - " and lines[-1] == ""
    assert all(re.fullmatch(r"[A-Z][A-Z0-9]  - .*", line) for line in lines[:-1])
    tags = [(line[:2], line[6:]) for line in lines[:-1]]
    assert ("TI", "Graph & Things") in tags
    assert [v for k, v in tags if k == "AU"] == ["van Beethoven, Ludwig", "Lovelace, Ada"]
    assert ("T2", "Test Conference on Learning 2024") in tags and ("PY", "2024") in tags
    assert ("L1", "https://x.org/p.pdf") in tags and ("ID", citation.key) in tags
    assert not any(k in ("AB", "KW") for k, _ in tags)  # the citation fields only: no abstract, no keywords


def test_coins_context_object(content):
    content.add_paper("coins", title="Graphs & Co", authors=("Ada Lovelace", "Alan Turing", "Grace Hopper"))
    site = site_for(content)
    view = next(v for v in site.papers if v.slug == "coins")
    pairs = parse_qsl(C.coins_kev(view, "https://example.org/p/"), keep_blank_values=True)
    d = dict(pairs)
    assert d["ctx_ver"] == "Z39.88-2004" and d["rft.genre"] == "proceeding"
    assert d["rft.atitle"] == "Graphs & Co" and d["rft.btitle"] == "Test Conference on Learning 2024"
    assert d["rft.date"] == "2024" and d["rft_id"] == "https://example.org/p/"
    assert (d["rft.aulast"], d["rft.aufirst"]) == ("Lovelace", "Ada")
    assert [v for k, v in pairs if k == "rft.au"] == ["Alan Turing", "Grace Hopper"]
    assert "rft_id" not in dict(parse_qsl(C.coins_kev(view)))  # no page and no link


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_percent_encoding_is_urllib_s(text):
    assert _percent_encode(text) == quote(text, safe="")


def write_bibtex_with_bibtexparser(entries: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """``write_bibtex`` by way of bibtexparser (the reference it must equal)."""
    library = bibtexparser.Library()
    for key, fields in entries:
        library.add(bibmodel.Entry(C.ENTRY_TYPE, key, [bibmodel.Field(k, v) for k, v in fields]))
    fmt = BibtexFormat()
    fmt.indent = "  "
    fmt.block_separator = "\n"
    stack = [AddEnclosingMiddleware(allow_inplace_modification=True, default_enclosing="{",
                                    reuse_previous_enclosing=False, enclose_integers=True)]
    return bibtexparser.write_string(library, unparse_stack=stack, bibtex_format=fmt)


def test_write_bibtex_is_bibtexparser_s_output(content):
    content.add_paper("odd", title="Graph & {Things} $x_1$ \\", authors=("Ada Lovelace", "Simon and Garfunkel"),
                      body="An *abstract* with https://x.org/a_b and 100% {unbalanced.")
    site = site_for(content)
    index = C.CitationIndex(site)
    entries = []
    for view in site.papers:
        fields = C.bibtex_fields(view, index.for_paper(view).url, "Somewhere")
        entries.append((index.keys[view.slug], fields))
        for one in ([entries[-1]], [(index.keys[view.slug], [f for f in fields if f[0] in C.CITE_FIELDS])]):
            assert C.write_bibtex(one) == write_bibtex_with_bibtexparser(one)
    for some in (entries, [("empty", [])], []):
        assert C.write_bibtex(some) == write_bibtex_with_bibtexparser(some)
    with pytest.raises(ValueError):
        C.write_bibtex([("same", []), ("same", [])])


def test_meta_tags_and_json_ld(content):
    content.add_paper("meta", title="Graphs </script><!-- & \"Co\"", authors=("Ada Lovelace", "Alan Turing"),
                      extra="links:\n  pdf: https://x.org/p.pdf")
    site = site_for(content)
    view = next(v for v in site.papers if v.slug == "meta")
    citation = C.CitationIndex(site).for_paper(view)
    names = [(m.name, m.content) for m in citation.meta_names]
    assert [v for k, v in names if k == "citation_author"] == ["Ada Lovelace", "Alan Turing"]
    assert ("citation_publication_date", "2024") in names
    assert ("citation_conference_title", "Test Conference on Learning 2024") in names
    assert ("citation_pdf_url", "https://x.org/p.pdf") in names
    # The page's URL is its canonical link, said once (not again as citation_abstract_html_url).
    assert citation.canonical == "https://example.org/shelf/papers/test-2024/meta/"
    assert not any(k == "citation_abstract_html_url" or k.startswith(("og:", "twitter:")) for k, _ in names)
    # The title as the page shows it: text that looks like a tag is text, not cut out.
    shown = 'Graphs </script><!-- & "Co"'
    assert dict(names)["citation_title"] == C.text_as_shown(view.paper.title) == shown
    text = str(citation.json_ld)
    assert "<" not in text and ">" not in text and "&" not in text
    data = json.loads(text)
    assert data["@type"] == "ScholarlyArticle" and data["name"] == shown
    assert [a["name"] for a in data["author"]] == ["Ada Lovelace", "Alan Turing"]
    assert data["publication"]["name"] == "Test Conference on Learning 2024"
    assert data["url"] == "https://example.org/shelf/papers/test-2024/meta/"
    # Each thing once: the abstract is on the page, the tags in citation_keywords, the
    # language in <html lang>.
    assert not {"description", "keywords", "inLanguage"} & set(data)


def test_json_for_script_cannot_close_the_element():
    hostile = {"a": "</script><script>alert(1)</script>", "b": "<!-- x -->", "c": "\u2028&"}
    text = str(C.json_for_script(hostile))
    assert "</" not in text and "<!--" not in text and "\u2028" not in text
    assert json.loads(text) == hostile


def test_paper_date_is_added_or_the_venue_year(content):
    content.add_paper("dated", title="Dated", extra="added: 2024-05-07")
    site = site_for(content)
    by_slug = {v.slug: v for v in site.papers}
    assert C.paper_date(by_slug["dated"]) == datetime.date(2024, 5, 7)
    assert C.paper_date(by_slug["a-paper-on-graphs"]) == datetime.date(2024, 1, 1)


def test_site_urls():
    absolute = C.SiteUrls.from_config(SiteConfig(title="t", base_url="https://h.org/sub/"))
    assert absolute.best("papers/x/") == "https://h.org/sub/papers/x/"
    assert absolute.path("papers/x/") == "/sub/papers/x/"
    relative = C.SiteUrls.from_config(SiteConfig(title="t", base_url="/sub/"))
    assert relative.absolute("x") is None and relative.best("x") == "/sub/x"


def test_plain_title_of_the_bibtex_matches_the_page_title(bundled_views):
    """Every committed paper: the BibTeX title, read back, renders to the page's title text."""
    site = bundled_views()
    index = C.CitationIndex(site)
    for view in site.papers:
        fields = parse_one(index.for_paper(view).bibtex_full).fields_dict
        title = bib_text_to_content(fields["title"].value, title=True)
        assert plain_text(title) == view.title_plain, view.slug
        assert bibtex_balanced(fields["title"].value) and bibtex_balanced(fields["abstract"].value)


# --------------------------------------------------------------------------- keywords

# How the tools that read a .bib file split its ``keywords`` field: biber (biblatex) at its
# ``xsvsep``, ``\s*,\s*`` by default, whatever the braces; Zotero's BibTeX import at
# ``\s*[,;]\s*``; JabRef at its keyword separator, "," by default.
KEYWORD_SPLITS = {"biber": r"\s*,\s*", "zotero": r"\s*[,;]\s*", "jabref": r"\s*,\s*"}


def test_a_tag_name_with_a_comma_or_semicolon_stays_one_keyword(content):
    content.write("tags.toml", """\
[robustness]
name = "Robustness, security & safety"
description = "x"
phrases = []

[odd]
name = "Odd; name,with , commas"
description = "x"
phrases = []

[graph-learning]
name = "Graph learning"
description = "x"
phrases = []

[optimization]
name = "Optimization"
description = "x"
phrases = []
fallback = true
""")
    content.add_paper("tagged", title="Tagged", tags=("robustness", "odd", "graph-learning"))
    site = site_for(content)
    view = next(v for v in site.papers if v.slug == "tagged")
    fields = dict(C.bibtex_fields(view, None))
    assert fields["keywords"] == r"Robustness / security \& safety, Odd / name / with / commas, Graph learning"
    assert C.bibtex_keyword("Plain") == "Plain"
    value = parse_one(C.CitationIndex(site).for_paper(view).bibtex_full).fields_dict["keywords"].value
    for tool, separator in KEYWORD_SPLITS.items():
        assert len(re.split(separator, value)) == 3, tool


def test_the_importer_reads_the_tags_back_from_the_keywords(bundled_views):
    """The committed catalog has a tag whose name holds a comma; every paper's keywords name
    its tags again (the whole import round trip is in tests/importers/test_import_bibtex.py)."""
    from generator.importers.records import tags_from_keywords

    site = bundled_views()
    taxonomy = site.catalog.tags
    assert any("," in tag.name for tag in taxonomy.values())
    for view in site.papers:
        keywords = ", ".join(C.bibtex_keyword(t.name) for t in view.tags)
        assert tags_from_keywords(keywords, taxonomy) == tuple(t.id for t in view.tags), view.slug


# --------------------------------------------------------------------------- the copy button


def run_in_browser(url: str, origin: str) -> dict:
    """Click "Copy BibTeX" on ``url`` in Chromium; what the page and the clipboard then hold.

    Runs in a thread of its own: Playwright's sync API refuses to start a second time in a
    thread where the browser tests' session already runs one.
    """
    from playwright.sync_api import sync_playwright

    from ..browser.conftest import CHROMIUM, CHROMIUM_ARGS

    result: dict = {}

    def scenario() -> None:
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                context = browser.new_context()
                context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(url)
                button = page.locator(".copy-button[data-copy-target='cite-bibtex']")
                result["visible"] = button.is_visible()
                button.click()
                page.locator("#cite-bibtex + .cite-actions .copy-status").filter(has_text="Copied").wait_for(
                    timeout=10_000)
                result["copied"] = page.evaluate("navigator.clipboard.readText()")
                result["shown"] = page.locator("#cite-bibtex").inner_text()
                with page.expect_download() as info:  # the page's own entry, saved as a file
                    page.get_by_role("button", name="Download .bib", exact=True).click()
                download = info.value
                result["bib_file"] = (download.suggested_filename,
                                      Path(download.path()).read_text(encoding="utf-8"))
                with page.expect_download() as info:
                    page.get_by_role("button", name="Download .ris", exact=True).click()
                result["ris_file"] = (info.value.suggested_filename, Path(info.value.path()).read_bytes())
                result["ris_shown"] = page.locator("#cite-ris").inner_text()
                result["errors"] = errors
                browser.close()
        except Exception as exc:  # reported by the test
            result["exception"] = repr(exc)

    worker = threading.Thread(target=scenario)
    worker.start()
    worker.join(timeout=120)
    return result


@pytest.mark.browser
@pytest.mark.slow
def test_cite_section_copy_button_copies_the_bibtex(bundled_site):
    from ..browser.conftest import CHROMIUM, StaticServer

    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM}")
        pytest.skip("Chromium not installed (apt-get install chromium)")
    server = StaticServer(bundled_site)
    try:
        result = run_in_browser(server.url("/papers/iclr-2024/lets-verify-step-by-step/"), server.url("/")[:-1])
    finally:
        server.close()
    assert "exception" not in result, result.get("exception")
    assert result["errors"] == []
    assert result["visible"]
    assert result["copied"] == result["shown"]
    assert result["copied"].startswith("@inproceedings{lightman2024lets,")
    assert result["bib_file"] == ("lightman2024lets.bib", result["shown"])
    name, ris = result["ris_file"]
    assert name == "lightman2024lets.ris" and ris.startswith(b"TY  - CPAPER\r\n")
    assert ris.decode("utf-8").replace("\r\n", "\n").strip() == result["ris_shown"].strip()  # RIS lines end in CRLF


def test_text_braces_and_template_tags_are_written_as_text():
    value = C.latex_value(r"$K:=${$\theta \in A$} a {b} \emph{x}{y} {\bf Z} \foo {q} \"{o}")
    assert value == r"$K:=$\{$\theta \in A$\} a \{b\} \emph{x}{y} {\bf Z} \foo {q} \"{o}"
    assert C.latex_value("{{ x }} {% y %} {# z #}") == r"\{\{ x \}\} \{\% y \%\} \{\# z \#\}"
    assert C.latex_value(r"{{ \emph{x} }}") == r"\{\{ \textbackslash{}emph\{x\} \}\}"
