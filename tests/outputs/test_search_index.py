"""generator/outputs/search: tokenizing, stemming, the files written, and query semantics
(run through the Python twin of the page's engine; the page itself is tested in
tests/browser/test_search.py and the two are compared in test_search_parity.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from lunr.builder import Builder
from lunr.index import Index
from lunr.stemmer import stemmer as lunr_py_stemmer
from lunr.token import Token

from generator.derive.views import derive
from generator.content.loader import load_catalog
from generator.outputs.search import build_search
from generator.outputs.search.index import (
    MAX_UNITS, PARTS, TYPO_UNDER, build_part, search_fields, significant, typo_words, utf16_key,
)
from generator.outputs.search.shards import title_slug
from generator.content.words import CHAR_MAP, MAX_TOKEN, fold, stem, tokenize
from generator.outputs.search.tokens import STOP_WORDS

from ..conftest import VENUE_MD, paper_md
from .search_engine import SearchEngine, query_units


def all_postings(files) -> dict[str, list]:
    found = {}
    for path, text in files.items():
        if path.startswith("search/terms/"):
            found.update(json.loads(text))
    return found


def site_files(content):
    return build_search(derive(load_catalog(content.root)))


def engine_for(content) -> SearchEngine:
    return SearchEngine(site_files(content))


# ---------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("K-means", ["k", "means", "kmeans"]),
    ("José Müller", ["jose", "muller"]),
    ("Søren Łukasz Ærø straße", ["soren", "lukasz", "aero", "strasse"]),
    ("O’Brien's model", ["obriens", "model"]),
    ("α-divergence and β", ["alpha", "divergence", "alphadivergence", "and", "beta"]),
    ("state-of-the-art", ["state", "of", "the", "art", "stateof", "ofthe", "theart", "stateoftheart"]),
    ("ℓ_2 ℝ^n ﬁne", ["l", "2", "l2", "r", "n", "fine"]),
    ("A/B testing, 1,000 GPT-4", ["a", "b", "testing", "1", "000", "gpt", "4", "gpt4"]),
    ("", []),
    ("--- ''' ___", []),
])
def test_tokenize(text, expected):
    assert tokenize(text) == expected


def test_tokens_are_lowercase_letters_and_digits_only_and_bounded():
    text = "ÉCOLE naïve Ǆ ℍ " + "x" * 200 + " 深度学习 𝐀𝐁 Привет"
    tokens = tokenize(text)
    assert "x" * 200 not in tokens and all(len(t) <= MAX_TOKEN for t in tokens)
    assert tokens[:5] == ["ecole", "naive", "dz", "h", "深"]  # one token per ideograph
    assert "ab" in tokens and "привет" in tokens
    for t in tokens:
        assert t == t.lower() and all(c.isalnum() for c in t), t


def test_tex_and_markup_never_become_terms(content):
    content.add_paper("texy", paper_md(
        title="Optimal $K$-means via Semidefinite Programs",
        body=r"We \emph{bound} $\mathcal{O}(n^2)$ with $\frac{a}{b}$ and $\mathbb{R}^d$, see \cite{smith2020} "
             r"and \textbf{bold} claims in \url{https://example.org/x}; $\alpha \leq \beta$ \footnote{fine}."))
    terms = set(all_postings(site_files(content)))
    for command in ("emph", "mathcal", "frac", "mathbb", "cite", "textbf", "url", "footnot", "leq", "smith2020"):
        assert command not in terms
    for word in ("kmean", "semidefinit", "bound", "alpha", "beta", "bold", "claim", "fine"):
        assert word in terms


def test_stem_is_lunr_js_porter_not_lunr_py():
    # lunr.py's stemmer turns a final "y" after a vowel into "i"; lunr.js does not. The index
    # must hold what lunr.js will look up.
    for word, expected in {"deploy": "deploy", "key": "key", "played": "play", "happy": "happi", "studies": "studi",
                           "experiments": "experi", "condensation": "condens", "metagenomic": "metagenom",
                           "try": "tri", "yields": "yield", "generalization": "gener"}.items():
        assert stem(word) == expected, word
    assert str(lunr_py_stemmer(Token("deploy"))) == "deploi"  # the drift this module avoids
    assert stem("naïve") == "naïve" and stem("深度") == "深度"  # only ASCII words are stemmed


def test_query_units():
    units = query_units("the K-mea")
    assert [(u.word, u.prefix, u.required) for u in units] == [
        ("k", False, True), ("mea", True, True), ("kmea", True, False)]
    assert [u.word for u in query_units("graph neural ")] == ["graph", "neural"]
    assert not any(u.prefix for u in query_units("graph neural "))
    assert [(u.word, u.required) for u in query_units("graph n")] == [("graph", True), ("n", False)]
    assert query_units("the of and ") == []
    assert [u.word for u in query_units("in")] == ["in"]  # a stop word being typed is a prefix
    assert len(query_units(" ".join(f"w{i}" for i in range(100)))) == MAX_UNITS
    assert query_units("x" * 5000) == []  # longer than any token: no unit


# ---------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------


def test_refs_run_through_the_papers_by_venue_then_tags(content):
    """facets.json gives no venue per paper: refs are grouped by venue (``n`` counts each
    venue's run, in meta.venues order, empty venues included), then by tag set."""
    content.write("venues/other-2023.md", VENUE_MD.replace("test-2024", "other-2023").replace("2024", "2023"))
    content.write("venues/empty-2022.md", VENUE_MD.replace("test-2024", "empty-2022").replace("2024", "2022"))
    for slug, venue, tags in [("b-paper", "other-2023", ("optimization",)), ("c-paper", "test-2024", ("optimization",)),
                              ("d-paper", "other-2023", ("graph-learning",)), ("e-paper", "test-2024", ())]:
        content.add_paper(slug, paper_md(title=slug.replace("-", " ").title(), venue=venue, tags=tags))
    files = site_files(content)
    meta = json.loads(files["search/meta.json"])
    facets = json.loads(files["search/facets.json"])
    records = json.loads(files["search/docs/0.json"])
    slugs = [r.get("s") or title_slug(r["t"]) for r in records]
    runs = [v["id"] for v, count in zip(meta["venues"], meta["n"], strict=True) for _ in range(count)]
    assert sum(meta["n"]) == len(slugs) == 6 and 0 in meta["n"]
    by_slug = dict(zip(slugs, zip(runs, [[meta["tags"][g]["id"] for g in tags] for tags in facets["g"]])))
    assert by_slug == {
        "a-paper-on-graphs": ("test-2024", ["graph-learning"]), "fast-convergence": ("test-2024", ["optimization"]),
        "b-paper": ("other-2023", ["optimization"]), "c-paper": ("test-2024", ["optimization"]),
        "d-paper": ("other-2023", ["graph-learning"]), "e-paper": ("test-2024", []),
    }
    assert runs == sorted(runs, key=[v["id"] for v in meta["venues"]].index)  # one run per venue
    test_tags = [facets["g"][i] for i, venue in enumerate(runs) if venue == "test-2024"]
    assert test_tags == sorted(test_tags)


def test_a_papers_tags_keep_their_order(content):
    """Refs are sorted by tag set and the facets hold the sets sorted; a record keeps its
    paper's own order where it differs (a search result shows them as its page does)."""
    content.add_paper("both", paper_md(title="Both", tags=("optimization", "graph-learning")))
    files = site_files(content)
    meta = json.loads(files["search/meta.json"])
    facets = json.loads(files["search/facets.json"])
    records = json.loads(files["search/docs/0.json"])
    both = next(i for i, r in enumerate(records) if r["t"] == "Both")
    assert [meta["tags"][g]["id"] for g in records[both]["g"]] == ["optimization", "graph-learning"]
    assert facets["g"][both] == sorted(records[both]["g"])  # the facets: sorted, for runs of one set
    # every record holds its paper's tags (a result is whole without facets.json, loaded for the tag filter only)
    assert all(sorted(r.get("g", [])) == facets["g"][i] for i, r in enumerate(records))


def test_files_and_formats(content):
    content.add_paper("second", paper_md(title="Second Paper", authors=("Zoë Müller", "Ann Lee"),
                                         tags=("optimization",), body="Zygomorphic descent converges."))
    files = site_files(content)
    meta = json.loads(files["search/meta.json"])
    assert meta["fields"] == ["title", "authors", "meta", "abstract"]
    docs = json.loads(files["search/docs/0.json"])
    slugs = [d.get("s") or title_slug(d["t"]) for d in docs]
    assert slugs == sorted(slugs) == ["a-paper-on-graphs", "fast-convergence", "second"]
    assert ["s" in d for d in docs] == [False, True, True]  # left out where the title gives it
    # a whole row: title, authors and where each has a page, tags; no abstract (issue 32)
    assert docs[2]["t"] == "Second Paper" and docs[2]["s"] == "second" and docs[2]["a"] == ["Zoë Müller", "Ann Lee"]
    assert docs[2]["g"] == [meta["tags"].index(next(t for t in meta["tags"] if t["id"] == "optimization"))]
    assert all(set(d) <= {"t", "s", "g", "a", "h", "p", "x", "f"} for d in docs)
    facets = json.loads(files["search/facets.json"])
    venue_of = [v for v, count in zip(meta["venues"], meta["n"], strict=True) for _ in range(count)]
    assert len(venue_of) == 3 and venue_of[2]["id"] == "test-2024" and venue_of[2]["year"] == 2024
    assert [meta["tags"][g]["id"] for g in facets["g"][2]] == ["optimization"]
    postings = all_postings(files)
    # "zygomorph" is in the abstract (field 3) of paper 2 only; "second" in its title (field 0)
    assert postings["zygomorph"][0] == 2 * 4 + 3 and len(postings["zygomorph"]) == 2
    assert postings["second"][0] == 2 * 4 + 0
    dictionary = {}
    for n, start in enumerate(meta["dict"]):
        part = json.loads(files[f"search/dict/{n}.json"])
        assert min(part) == start
        dictionary.update(part)
    assert ["zygomorph", "", 1] in [e[:3] for e in dictionary["zy"]]
    assert ["zygomorphic", "zygomorph", 1] in [e[:3] for e in dictionary["zy"]]
    assert set(files) == ({"search/meta.json", "search/facets.json", "search/docs/0.json", "search/ids/0.json",
                           "search/people/0.json"}
                          | {f"search/dict/{n}.json" for n in range(len(meta["dict"]))}
                          | {p for p in files if p.startswith("search/terms/")})


def test_the_files_are_few_and_small(content):
    """At most one file per 25 papers beyond the fixed ones... on a catalog this small, a
    handful: every file under the sizes the page can afford to fetch."""
    for i in range(60):
        content.add_paper(f"p{i}", paper_md(title=f"Paper number {i} on graphs", body="Words " * 50 + f"w{i}"))
    files = site_files(content)
    assert len([p for p in files if p.startswith("search/docs/")]) == 2  # 62 whole records, 50 a file
    assert all(len(text.encode()) < 60_000 for text in files.values())


def test_an_empty_catalog_gives_loadable_files(tmp_path):
    from ..conftest import ContentDir

    content = ContentDir(tmp_path / "empty")
    files = site_files(content)
    assert json.loads(files["search/docs/0.json"]) == []
    assert SearchEngine(files).search("anything").hits == []


def test_the_files_are_in_javascript_string_order(content):
    # The page finds a bucket's dictionary file by comparing strings (UTF-16 order), which
    # differs from Python's for characters beyond the BMP.
    content.add_paper("astral", paper_md(title="𠀀𠀁 and ｶﾞ and 豈 and ﬀ names", body="𝔘𝔫𝔦𝔠𝔬𝔡𝔢 text"))
    files = site_files(content)
    meta = json.loads(files["search/meta.json"])
    keys = [utf16_key(b) for b in meta["dict"]]
    assert keys == sorted(keys)
    terms = []
    n = 0
    while f"search/terms/{n}.json" in files:
        terms += list(json.loads(files[f"search/terms/{n}.json"]))
        n += 1
    assert [utf16_key(t) for t in terms] == sorted(map(utf16_key, terms)) and "𠀀" in terms


class _LunrTermBuilder(Builder):
    """lunr.py's own builder fed with our terms (its tokenizer and pipeline bypassed)."""

    def add_terms(self, ref, fields):
        self._documents[ref] = {}
        self.document_count += 1
        for name in self._fields:
            terms = fields[name]
            field_ref = f"{name}/{ref}"
            frequencies = Counter(terms)
            self.field_term_frequencies[field_ref] = frequencies
            self.field_lengths[field_ref] = len(terms)
            for term in frequencies:
                posting = self.inverted_index.get(term)
                if posting is None:
                    posting = {field_name: {} for field_name in self._fields}
                    posting["_index"] = self.term_index
                    self.term_index += 1
                    self.inverted_index[term] = posting
                posting[name][ref] = {}


def lunr_py_part(fields, docs) -> str:
    """What build_part must write: lunr.py's Builder and Index.serialize, then our two
    changes (JavaScript string order, 3 significant digits), as compact JSON."""
    builder = _LunrTermBuilder()
    builder.search_pipeline.add(lunr_py_stemmer)
    builder.ref("id")
    for name, boost in fields:
        builder.field(name, boost=boost)
    for ref, doc in enumerate(docs):
        builder.add_terms(str(ref), {name: [stem(t) for t in doc[name] if t not in STOP_WORDS]
                                     for name, _ in fields})
    serialized = builder.build().serialize()
    serialized["invertedIndex"].sort(key=lambda item: utf16_key(item[0]))
    for _, vector in serialized["fieldVectors"]:
        for i in range(1, len(vector), 2):
            vector[i] = significant(vector[i])
    return json.dumps(serialized, separators=(",", ":"), ensure_ascii=False)


def test_parts_are_what_lunr_py_builds(content, bundled_views):
    """build_part writes lunr.py's own index (weights, term numbers, order), byte for byte."""
    content.add_paper("astral", paper_md(title="𠀀𠀁 and ｶﾞ and 豈 and ﬀ names", body="𝔘𝔫𝔦𝔠𝔬𝔡𝔢 text text"))
    content.add_paper("stop", paper_md(title="The of and", authors=("A B",), body="Graph graph graphs GRAPH, a the"))
    views = bundled_views().papers + derive(load_catalog(content.root)).papers
    docs = [{k: tokenize(v) for k, v in search_fields(p).items()} for p in views]
    docs.append({"title": [], "authors": [], "meta": ["the"], "abstract": []})  # nothing indexed
    for _, fields in PARTS:
        text, _ = build_part(fields, docs)
        assert text == lunr_py_part(fields, docs)
        Index.load(json.loads(text))


def test_the_dictionary_maps_surface_forms_to_stems(content):
    content.add_paper("exp", paper_md(title="Experiments", body="Experimental experimentation condensation."))
    files = site_files(content)
    words = {}
    for path, text in files.items():
        if path.startswith("search/dict/"):
            for entries in json.loads(text).values():
                for word, term, df, shard in entries:
                    words.setdefault(word, set()).add(term)
    assert words["experiments"] == {"experi"}
    assert words["condensation"] == {"condens"}
    assert words["graph"] == {""}  # stem == word: the term itself


# ---------------------------------------------------------------------------------------
# Query semantics
# ---------------------------------------------------------------------------------------


@pytest.fixture
def shelf(content):
    content.add_paper("watermark", paper_md(
        title="An Unforgeable Watermark for Language Models", authors=("Aiwei Liu", "Irwin King"),
        tags=("machine-learning",), body="We propose UPV, a publicly verifiable watermark."))
    content.add_paper("metagenomics", paper_md(
        title="Assembly Graphs for Contig Binning", authors=("Hansheng Xue",), tags=("graph-learning",),
        body="Metagenomic binning with UnitigBin improves experiments on condensation."))
    content.add_paper("kmeans", paper_md(
        title="Statistically Optimal $K$-means Clustering", authors=("Yubo Zhuang", "José Hernández-Lobato"),
        tags=("optimization",), body="Clustering with semidefinite programs."))
    content.add_paper("abstract-watermark", paper_md(
        title="Robust Text Generation", authors=("Ann Other",), tags=("machine-learning",),
        body="A watermark is mentioned once in passing among many other words about generation."))
    return engine_for(content)


def test_title_beats_abstract_and_distinctive_terms_win(shelf):
    assert shelf.search("watermark").slugs[:2] == ["watermark", "abstract-watermark"]
    assert shelf.search("UPV").slugs == ["watermark"]
    assert shelf.search("unitigbin").slugs == ["metagenomics"]


def test_every_word_must_match_when_some_paper_has_them_all(shelf):
    result = shelf.search("watermark king")
    assert result.slugs == ["watermark"] and not result.partial
    result = shelf.search("watermark zebrafish")
    assert result.partial and result.slugs[0] == "watermark"


def test_prefix_of_the_last_word_despite_stemming(shelf):
    for typed in ("metagen", "experim", "condens", "unitig", "watermar"):
        assert shelf.search(typed).slugs, typed
    assert shelf.search("metagen").slugs == ["metagenomics"]
    assert shelf.search("metagen ").slugs == []  # a finished word is not a prefix


def test_one_typo_in_a_long_word_ranks_below_exact(shelf, content):
    assert shelf.search("watermrk").slugs[0] == "watermark"
    assert shelf.search("clusterng").slugs == ["kmeans"]
    assert shelf.search("wtermark").slugs  # a deletion
    assert shelf.search("liu").slugs == ["watermark"]
    assert shelf.search("lui").slugs == []  # three letters: no typo allowed


def test_only_the_first_long_words_of_a_query_match_a_typo(shelf):
    """The per-query budget (``TYPO_BUDGET``, meta.json's ``query.typoBudget``): a typo is
    looked up for the first 3 words of 5+ ASCII letters of a 1-3 word query, 2 of 4-6 words,
    1 of 7-9, none beyond; later words match exactly."""
    assert [typo_words(n) for n in range(1, 13)] == [3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0]
    units = query_units("graph neural zzzzz net watermrk waterm")
    assert [(u.word, u.fuzzy) for u in units] == [("graph", True), ("neural", True), ("zzzzz", False),
                                                  ("net", False), ("watermrk", False), ("waterm", False)]
    assert [u.fuzzy for u in query_units("zzzzz yyyyy watermrk")] == [True, True, True]
    assert shelf.search("zzzzz yyyyy watermrk").slugs[0] == "watermark"  # some words: a note
    assert shelf.search("watermrk zzzzz yyyyy xxxxx").slugs[0] == "watermark"
    assert shelf.search("zzzzz yyyyy xxxxx watermrk").slugs == []  # the 3rd long word of 4: exact only
    assert shelf.search("zzzzz yyyyy xxxxx watermark").slugs[0] == "watermark"
    assert shelf.search("zzz yyy xxx watermrk").slugs[0] == "watermark"  # short words do not count
    assert shelf.search("zzzzz yyyyy xxxxx watermar").slugs[0] == "watermark"  # still a prefix


def test_a_word_the_index_knows_needs_no_typo(content):
    """A word whose term the index holds ``TYPO_UNDER`` times or more (postings: a paper's
    title and abstract are two) matches exactly, without its typo neighbours (as Algolia's
    typoTolerance "min"); a rarer or unknown word also matches with one typo."""
    models = {f"model-{i}" for i in range(TYPO_UNDER)}
    for slug in sorted(models):
        content.add_paper(slug, paper_md(title=f"Model {slug[-1]}", body="A model."))
    content.add_paper("modal", paper_md(title="Modal Logic", body="Modal."))
    engine = engine_for(content)
    assert set(engine.search("model").slugs) == models and set(engine.search("models").slugs) == models
    assert engine.search("modal").slugs[0] == "modal" and set(engine.search("modal").slugs) == models | {"modal"}
    assert set(engine.search("moddel").slugs) == models  # unknown: matched with one typo
    modals = {"modal"} | {f"modal-{i}" for i in range(1, TYPO_UNDER)}
    for slug in sorted(modals - {"modal"}):
        content.add_paper(slug, paper_md(title=f"Modal {slug[-1]}", body="Modal."))
    assert set(engine_for(content).search("modal").slugs) == modals  # known now: no typo


def test_exact_outranks_a_typo_neighbour(content):
    content.add_paper("sensor", paper_md(title="Sensor Networks", body="Sensors."))
    content.add_paper("censor", paper_md(title="Censor Networks", body="Censors."))
    engine = engine_for(content)
    assert engine.search("sensor").slugs == ["sensor", "censor"]
    assert engine.search("censor").slugs == ["censor", "sensor"]


def test_math_text_and_accents(shelf):
    for query in ("k-means", "kmeans", "K means", "$K$-means"):
        assert shelf.search(query).slugs[0] == "kmeans", query
    for query in ("hernandez-lobato", "Hernández", "jose hernandez", "JOSÉ"):
        assert shelf.search(query).slugs == ["kmeans"], query


def test_filters(shelf):
    assert set(shelf.search("watermark", tag="machine-learning").slugs) == {"watermark", "abstract-watermark"}
    assert shelf.search("watermark", tag="optimization").slugs == []
    assert shelf.search("clustering", venue="test-2024", year=2024).slugs == ["kmeans"]
    assert shelf.search("clustering", year=1999).slugs == []


# Other engines' query syntax is punctuation here: a hostile query finds what its words find.
HOSTILE_QUERIES = {
    "": "", " ": "", "*": "", "~1": "1", "^10": "10", "\x00": "", "'" * 100: "", "-" * 300: "", "🙂" * 50: "",
    "a" * 10000: "", "\ud800": "", "<script>": "script",
    "watermark*": "watermark", "+watermark -king": "watermark king", "title:watermark": "title watermark",
}


def test_hostile_queries_do_not_break_anything(shelf):
    for query, words in HOSTILE_QUERIES.items():
        result, plain = shelf.search(query), shelf.search(words)
        assert (result.slugs, result.partial) == (plain.slugs, plain.partial), query[:20]
        assert len(set(result.slugs)) == len(result.slugs)
        if not words:  # no word: nothing, rather than everything
            assert result.slugs == [] and not result.partial, query[:20]
    assert shelf.search("watermark*").slugs == ["watermark", "abstract-watermark"]
    assert shelf.search("+watermark -king").slugs == ["watermark"]  # "-king" excludes nothing


def test_the_folding_table_leaves_ascii_alone():
    # search-engine.js folds pure-ASCII text with toLowerCase() (its fast path) and Python
    # pre-fills ASCII with lower(): both rely on the table mapping no ASCII character.
    assert all(ord(c) > 127 for c in CHAR_MAP)
    assert fold("".join(map(chr, range(128)))) == "".join(map(chr, range(128))).lower()


def test_fields_without_any_word_in_the_whole_catalog(tmp_path):
    # Every title is stop words or punctuation: the titles part has no term at all.
    from ..conftest import ContentDir

    content = ContentDir(tmp_path / "stop")
    content.add_paper("one", paper_md(title="The And Of", authors=(), tags=(), body="Of the and."))
    content.add_paper("two", paper_md(title="— … —", authors=(), tags=(), body="Real words here."))
    engine = engine_for(content)
    assert engine.search("words").slugs == ["two"]
    assert engine.search("the").slugs == []


def test_chinese_and_japanese_words_are_found_inside_a_run_of_text():
    """No spaces between words: each ideograph or kana is a token, so a word inside the run
    is found (every one of its characters is required)."""
    assert tokenize("深層学習による画像認識") == list("深層学習による画像認識")
    assert len(tokenize("한국어 말")) == 2  # Korean has spaces between words: a word is a token
    units = query_units("学習")
    assert [(u.word, u.prefix, u.required) for u in units] == [("学", False, True), ("習", False, True)]


def test_soft_hyphens_and_zero_width_spaces_do_not_split_words():
    assert tokenize("gra\u00adph neu\u200bral") == ["graph", "neural"]
    assert [u.word for u in query_units("gra\u00adph")] == ["graph"]


def test_every_word_one_edit_away_is_under_a_typo_key():
    """A typo is looked up under ``typo_keys(word)``: every word one insertion, deletion,
    substitution or swap away is filed (``keys_of``) under at least one of them, wherever
    the edit is, the first two letters included."""
    from generator.outputs.search.shards import keys_of, typo_keys

    from .search_engine import one_edit

    letters = "abz09"
    for word in ("watermark", "sensor", "ab", "abc", "kmeans", "reinforcement"):
        variants = set()
        for i in range(len(word) + 1):
            for c in letters:
                variants.add(word[:i] + c + word[i:])  # insertion
            if i < len(word):
                variants.add(word[:i] + word[i + 1:])  # deletion
                for c in letters:
                    variants.add(word[:i] + c + word[i + 1:])  # substitution
            if i + 1 < len(word):
                variants.add(word[:i] + word[i + 1] + word[i] + word[i + 2:])  # swap
        variants.discard("")
        wanted = set(typo_keys(word))
        for variant in variants:
            assert one_edit(word, variant), (word, variant)
            assert wanted & set(keys_of(variant)), (word, variant)
    assert not one_edit("watermark", "wtaremark") and not one_edit("sensor", "sensors2")
    assert "en " in set(typo_keys("censor")) & set(keys_of("sensor"))  # a wrong first letter: the tail


def test_a_person_card_names_a_venue_series_once_tracks_and_findings_alike(content):
    content.write("venues/acl-2022.md", "---\nname: ACL 2022\nfull_name: Proceedings of the 60th Annual Meeting of "
                  "the Association for Computational Linguistics\nyear: 2022\n---\n")
    content.write("venues/findings-acl-2023.md", "---\nname: Findings of ACL 2023\nfull_name: 'Findings of the "
                  "Association for Computational Linguistics: ACL 2023'\nyear: 2023\n---\n")
    authors = ("Fandong Meng", "Jinan Xu")
    content.add_paper("a", paper_md("Main One", authors=authors, venue="acl-2022"))
    content.add_paper("b", paper_md("In Findings", authors=authors, venue="acl-2022", extra="track: findings"))
    content.add_paper("c", paper_md("Findings Volume", authors=authors, venue="findings-acl-2023"))
    content.add_paper("d", paper_md("Elsewhere", authors=authors))
    files = site_files(content)
    people = {}
    for path, text in files.items():
        if path.startswith("search/people/"):
            people.update(json.loads(text))
    card = next(e for e in people["meng"] if e[0] == "Fandong Meng")
    assert card[4] == "ACL · TEST"


def test_numbered_namesakes_get_cards_with_their_numbers_found_by_the_plain_name(content):
    content.write("authors.toml", '["Jie Zhou 0001"]\ncoauthors = ["Jiwen Lu"]\n\n'
                                  '["Jie Zhou 0002"]\ncoauthors = ["Fandong Meng"]\n')
    for n in range(2):
        content.add_paper(f"v{n}", paper_md(f"Vision {n}", authors=("Jiwen Lu", "Jie Zhou")))
        content.add_paper(f"l{n}", paper_md(f"Language {n}", authors=("Fandong Meng", "Jie Zhou")))
    files = site_files(content)
    people = {}
    for path, text in files.items():
        if path.startswith("search/people/"):
            people.update(json.loads(text))
    cards = {e[1]: e for e in people["zhou"]}
    assert sorted(e[0] for e in cards.values()) == ["Jie Zhou 0001", "Jie Zhou 0002"]  # as their pages say
    assert all(e[6] == ["Jie Zhou"] for e in cards.values())  # the name the query spells in full


@pytest.mark.parametrize("name, family", [
    ("Alan Smith Ph.D.", "smith"), ("Martin Luther King Jr.", "king"), ("Guy L. Steele, Jr.", "steele"),
    ("Ed Hovy III", "hovy"), ("Zoë Müller", "muller"), ("María José García-Márquez", "marquez"),
])
def test_the_search_files_a_person_under_the_family_name_the_index_sorts_by(name, family):
    from generator.derive.people import family_key
    from generator.outputs.search.people import family_token

    assert family_token(name) == family
    assert family_key(name)[0].replace("-", " ").split()[-1] == family  # the people pages sort by it too
