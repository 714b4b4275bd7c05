"""Python (build time, lunr.py) and JavaScript (the page, lunr.js 2.3.9) search agree.

The index is built in Python and queried in the browser: if the two sides tokenized,
stemmed or dropped stop words differently, words would silently stop matching (what made
Material for MkDocs drop prebuilt indexes, its #2976). Here the page's own engine
(static/js/search-engine.js, with node_modules/lunr) runs under Node on the same inputs
as generator/outputs/search and its Python twin (search_engine.py), and everything is
compared: stop words, the stemmer over ~100,000 words, the tokenizer over every text of
the seed catalog and hostile strings, the parsing of queries, and the full results
(papers, order, scores, matched terms) of a fixed set of queries, including every
keystroke of some, on the seed catalog and on a catalog of odd text.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.derive.views import derive
from generator.content.loader import load_catalog
from generator.outputs.search import build_search, stored_files
from generator.content.slugs import MAX_LENGTH, slugify
from generator.outputs.search.index import RAW_FIELDS, TYPO_BUDGET, search_fields, utf16_key
from generator.outputs.search.sessions import session_notes
from generator.outputs.search.shards import title_slug
from generator.outputs.search.ids import key_file
from generator.content.words import CHAIN_RE, JOINER_RE, fold, porter, stem, tokenize
from generator.outputs.search.tokens import STOP_WORDS

from ..conftest import REPO, ContentDir, paper_md
from .search_engine import SearchEngine, query_units

pytestmark = pytest.mark.node  # each test runs the page's search code under Node

RUNNER = REPO / "tests" / "js" / "search_runner.js"


def node_or_skip() -> str:
    node = shutil.which("node")
    if node and (REPO / "node_modules" / "lunr" / "lunr.js").is_file():
        return node
    if os.environ.get("CI"):
        pytest.fail("node and node_modules/lunr are needed (make setup)")
    pytest.skip("node or node_modules/lunr missing (run make setup)")


def run_node(request: dict) -> dict:
    """Runs tests/js/search_runner.js (the page's engine under Node) on ``request``."""
    node = node_or_skip()
    done = subprocess.run([node, str(RUNNER)], input=json.dumps(request), capture_output=True, text=True,
                          timeout=600, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def write_files(files: dict[str, str], root: Path) -> Path:
    """The search files as the site stores them (outputs/search/stored.py: the numbered ones gzip)."""
    for rel, data in stored_files(files):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def seed_site(tmp_path_factory, bundled_views):
    site = bundled_views()
    files = build_search(site)
    return site, files, write_files(files, tmp_path_factory.mktemp("seed-search"))


ODD_PAPERS = {
    "accents": ("Ångström-scale Œuvre of Søren Kierkegaard’s naïve café", ("Zoë Müller", "Łukasz Kaiser", "Ørjan Ødegård"),
                "Ce résumé décrit l'étude; Straße und Fußgänger; Þórr and Ðiðrik."),
    "greek-math": (r"$\alpha$-Divergences and $\ell_2$ Bounds for $K$-means", ("Θεόδωρος Παπαδόπουλος",),
                   r"We show $\mathcal{O}(n^2)$ rates, $\pi(\theta) \propto e^{-f(\theta)}$, with $\epsilon$-nets."),
    "cjk": ("深度学习 and 𠀀𠀁 Radicals", ("张伟", "Nguyễn Văn An"), "文本 with ｶﾀｶﾅ and 한국어 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 letters; "
            "ディープ・ラーニング、人々と〇 and \U00030000\U00031350\U0002EBF0."),
    "punctuation": ("State-of-the-art O'Brien-Smith GPT-3.5 Models: A/B Tests", ("Mary-Jane O'Neil",),
                    "Don't split_snake_case words; e-mail x_1^2 and the year 2,024 — or 1.5x faster…"),
    "long": ("Supercalifragilisticexpialidocious " + "x" * 60, ("A B",), "y" * 300 + " short words here."),
    "stems": ("Deploying Keys and Playing Studies", ("Yves Ayyad",),
              "Happy flies fly; generalization generalizes generously; conditional conditioning."),
}


@pytest.fixture(scope="module")
def odd_site(tmp_path_factory):
    content = ContentDir(tmp_path_factory.mktemp("odd") / "content")
    for slug, (title, authors, body) in ODD_PAPERS.items():
        content.add_paper(slug, paper_md(title=title, authors=authors, body=body))
    site = derive(load_catalog(content.root))
    files = build_search(site)
    return site, files, write_files(files, tmp_path_factory.mktemp("odd-search"))


def all_texts(site) -> list[str]:
    texts = []
    for view in site.papers:
        texts += list(search_fields(view).values())
    return texts


HOSTILE = [
    "", " ", "\t\n", "'", "''a''", "a''b", "rock'n'roll", "a__b--c-_-d", "-", "--a--b--", "_x_", "a'-'b",
    "a-'b", "x'y'z", "l'étude",
    "K-Means++", "self-supervised_learning-based", "Ǆemal", "ﬁnal ﬀ", "İstanbul", "ΣΊΣΥΦΟΣ", "ς σ Σ",
    "ℝⁿ × ℂ", "x² + y₂", "½ ⅓", "e\u0301te\u0301", "\u200bzero\u200bwidth", "a\u00adb", "ǅ Ǆ ǆ",
    "𝐀𝐁𝐂 𝔘𝔫𝔦", "𠀀𠀁 豈 ｶﾞ", "🙂emoji🙂", "a\ufeffb", "Привет мир", "مرحبا", "שלום", "नमस्ते",
    "ß ẞ", "Ŀl ŀl", "ŉ", "ﬆ", "Å Å Å", "O’Brien ʼokina ‘quoted’", "co‐operate non‑breaking", "x" * 41,
    "y" * 40, "a-" * 30 + "z",
]


def vocabulary(texts: list[str]) -> list[str]:
    words = set()
    for text in texts:
        words.update(re.findall(r"[a-z0-9]+", fold(text)))
    return sorted(words)


SUFFIXES = ["s", "es", "ed", "ing", "ly", "y", "e", "er", "ies", "ied", "ational", "tional", "enci", "anci",
            "izer", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness",
            "fulness", "ousness", "aliti", "iviti", "biliti", "logi", "icate", "ative", "alize", "iciti", "ical",
            "ful", "ness", "al", "ance", "ence", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou",
            "ism", "ate", "iti", "ous", "ive", "ize", "sion", "tion", "ll", "eed", "at", "bl", "iz", "yed"]


def test_stop_words_agree(seed_site):
    site, _, _ = seed_site
    words = sorted(STOP_WORDS) + vocabulary(all_texts(site))
    answer = run_node({"stopWords": words})
    assert answer["stopWords"] == [w in STOP_WORDS for w in words]


@pytest.mark.slow
def test_stemmer_agrees_on_100000_words(seed_site):
    site, _, _ = seed_site
    base = vocabulary(all_texts(site))
    words = sorted({w + s for w in base for s in SUFFIXES} | set(base) | {"y" + w for w in base[:500]})
    assert len(words) > 100_000
    answer = run_node({"stem": words})
    mismatches = [(w, porter(w), js) for w, js in zip(words, answer["stem"]) if porter(w) != js]
    assert not mismatches, mismatches[:20]
    assert answer["stem"] == [stem(w) for w in words]


def test_slugs_left_out_of_records_are_derived_alike(seed_site):
    """A record leaves out its paper's slug when the page can derive it from the ASCII title:
    JavaScript and Python derive the same, and for ASCII titles it is what slugify gives."""
    site, _, _ = seed_site
    titles = [v.title_plain for v in site.papers] + [
        "C++ and $K$-means: Don't Panic!", "2024 -- the 100th Paper", "  ", "A" * 81, "word " * 30, "Con",
        "x" * 79 + " y", "x" * 78 + " y", "Über Graphs", "Tab\tand\nnewline",
    ]
    answer = run_node({"titleSlug": titles, "slugMax": MAX_LENGTH})
    assert answer["titleSlug"] == [title_slug(t) for t in titles]
    ascii_titles = [t for t in titles if t.isascii() and title_slug(t)]
    assert [title_slug(t) for t in ascii_titles] == [slugify(t, avoid_reserved=False) for t in ascii_titles]
    assert title_slug("x" * 79 + " y") == "x" * 79 and title_slug("x" * 78 + " y") == "x" * 78 + "-y"


def test_tokenizer_agrees(seed_site, odd_site):
    texts = all_texts(seed_site[0]) + all_texts(odd_site[0]) + HOSTILE
    answer = run_node({"foldConfig": json.loads(seed_site[1]["search/meta.json"])["fold"], "tokenize": texts})
    for text, tokens in zip(texts, answer["tokenize"]):
        assert tokens == tokenize(text), text


QUERIES = [
    "watermark", "watermrk", "metagen", "experim", "experim ", "condens", "k-means", "K-Means", "kmeans",
    "$K$-means", "Irwin King", "UnitigBin", "diffusion models", "graph neural network", "in", "the", "the ",
    "llm reasoning", "José", "jose hernandez", "Rätsch", "ratsch", "lähdesmäki", "k-mea", "reinforcment learning",
    "gausian processes", "theta", "omega 2.37", "O(n^2)", "protein-protein interactions", "state-of-the-art",
    "a/b testing", "co", "c", "zzzqqq", "watermark zebrafish", "diffusion mod", "learning", "optimization",
    "privacy", "federated recommendation", "Choquette-Choo", "schulman", "step by step", "let's verify",
    "preference", "*", "watermark*", "+graph -neural", "title:graph", "graph^10", "neural~1", "🙂",
    # the per-query budget: a typo for the first words of 5+ letters only (3, 2 or 1 by length)
    "reinforcment learning graph neural netwrk", "graph neural networks reinforcment", "zzzzz yyyyy xxxxx watermrk",
    "watermrk zzzzz yyyyy xxxxx", "a survey of deep reinforcement learning methods for robotic manipulation",
    "k-means clustering watermrk", "diffusion models protein desing",
]
# Every keystroke of a few queries, as the page sends them while typing.
TYPED = ["graph neural network", "metagenomic binning", "K-means clustering", "reinforcement learning from"]


def compare(files_root: Path, engine: SearchEngine, queries: list[dict]) -> None:
    answer = run_node({"root": str(files_root), "queries": queries})
    assert len(answer["queries"]) == len(queries)
    for item, js in zip(queries, answer["queries"]):
        filters = item.get("filters") or {}
        py = engine.search(item["q"], venue=filters.get("venue"), tag=filters.get("tag"),
                           year=filters.get("year"))
        where = f"query {item['q']!r} {filters}"
        assert js["slugs"] == py.slugs, where
        assert js["partial"] == py.partial, where
        assert js["terms"] == sorted(py.terms), where
        assert js["scores"] == pytest.approx([h.score for h in py.hits], rel=1e-12, abs=1e-12), where


def test_query_words_and_their_typo_budget_agree(seed_site):
    """Which words of a query also match with a typo (meta.json's ``query.typoBudget``: the
    first ``typo_words(n)`` of 5+ ASCII letters): the same in the page's engine and the Python twin."""
    files, root = seed_site[1], seed_site[2]
    assert json.loads(files["search/meta.json"])["query"]["typoBudget"] == TYPO_BUDGET
    queries = ["a survey of deep reinforcement learning methods for robotic manipulation", "k-means clustering",
               "graph neural netwrk models zzzzz", "ab cd efghi jklmn", "ünïcode wörds here and there",
               "state-of-the-art models", "watermrk"]
    answer = run_node({"root": str(root), "queries": [], "units": queries})
    for query, js in zip(queries, answer["units"]):
        py = [{"word": u.word, "prefix": u.prefix, "required": u.required, "fuzzy": u.fuzzy}
              for u in query_units(query)]
        assert js == py, query
    assert [sum(u.fuzzy for u in query_units(q)) for q in queries] == [1, 2, 2, 2, 2, 2, 1]


def test_queries_agree_on_the_seed_catalog(seed_site):
    site, files, root = seed_site
    engine = SearchEngine(files)
    queries = [{"q": q} for q in QUERIES]
    queries += [{"q": t[:i]} for t in TYPED for i in range(1, len(t) + 1)]
    queries += [
        {"q": "learning", "filters": {"venue": "icml-2024"}},
        {"q": "learning", "filters": {"tag": "reinforcement-learning", "year": 2024}},
        {"q": "diffusion", "filters": {"venue": "iclr-2024", "tag": "generative-models"}},
        {"q": "graph", "filters": {"year": 1999}},
    ]
    compare(root, engine, queries)


def test_queries_agree_on_odd_text(odd_site):
    site, files, root = odd_site
    engine = SearchEngine(files)
    queries = [{"q": q} for q in [
        "angstrom", "ångström", "oeuvre", "soren", "søren", "kierkegaards", "naive café", "zoe muller", "zoe mueller",
        "lukasz", "orjan odegard", "resume", "strasse", "fussganger", "thorr", "didrik", "alpha-divergences",
        "alpha divergence", "l2 bounds", "ℓ2", "kmeans", "theodoros", "θεόδωρος", "παπαδ", "epsilon nets", "theta",
        "深度学习", "深度", "学习", "习", "𠀀𠀁", "𠀁", "文本", "本", "カタカナ", "タカ", "한국어", "unicode", "nguyen van",
        "ディープ・ラーニング", "ラーニング", "人々", "\U00030000", "\U00031350\U0002EBF0",
        "deplo\u00adying", "sho\u200brt words",
        "stateoftheart",
        "obrien smith", "o'brien", "mary-jane", "maryjane", "gpt3", "gpt-3.5", "ab tests", "dont", "snake case",
        "splitsnakecase", "email", "supercal", "supercalifragilisticexpialidocious", "x" * 60, "short words",
        "deploy", "deploying", "keys", "play", "playing", "studi", "happy", "fly", "flies", "generaliz",
        "conditioning", "yves ayyad", "ayyad",
    ]]
    compare(root, engine, queries)


def test_a_short_prefix_stands_for_its_most_frequent_completions_within_a_postings_budget(tmp_path, monkeypatch):
    """A prefix (or typo) keeps its most frequent terms while their postings add up to at most
    ``maxPostings``, the first always, so a two-letter word does not fetch every common list."""
    from generator.outputs.search import shards

    from . import search_engine

    monkeypatch.setattr(shards, "MAX_EXPANDED_POSTINGS", 10)
    monkeypatch.setattr(search_engine, "MAX_EXPANDED_POSTINGS", 10)
    content = ContentDir(tmp_path / "content")
    # "cobalt" in 6 abstracts, "copper" in 4, "coral" in 3, "cotton" in 1: 6 + 4 <= 10 < 6 + 4 + 3
    words = ["cobalt"] * 6 + ["copper"] * 4 + ["coral"] * 3 + ["cotton"]
    for i, word in enumerate(words):
        content.add_paper(f"p{i}", paper_md(title=f"Paper {i}", body=f"On {word} and more."))
    files = build_search(derive(load_catalog(content.root)))
    assert json.loads(files["search/meta.json"])["query"]["maxPostings"] == 10
    root = write_files(files, tmp_path / "site")
    engine = SearchEngine(files)
    assert sorted(engine.search("co").terms) == ["cobalt", "copper"]
    assert sorted(engine.search("cor").terms) == ["coral"]  # the first term is kept whatever its postings
    assert len(engine.search("co").slugs) == 10
    compare(root, engine, [{"q": q} for q in ["co", "cop", "cor", "cott", "coppr", "cobalt copper"]])

    # Each term in a file of its own, at most two files a word: the two most frequent.
    monkeypatch.setattr(shards, "MAX_EXPANDED_POSTINGS", 1000)
    monkeypatch.setattr(search_engine, "MAX_EXPANDED_POSTINGS", 1000)
    monkeypatch.setattr(shards, "OWN_BYTES", 1)
    monkeypatch.setattr(shards, "MAX_EXPANSION_FILES", 2)
    monkeypatch.setattr(search_engine, "MAX_EXPANSION_FILES", 2)
    files = build_search(derive(load_catalog(content.root)))
    assert json.loads(files["search/meta.json"])["query"]["maxFiles"] == 2
    root = write_files(files, tmp_path / "site-2")
    engine = SearchEngine(files)
    assert sorted(engine.search("co").terms) == ["cobalt", "copper"]
    compare(root, engine, [{"q": q} for q in ["co", "cop", "cor", "cott", "coppr", "cobalt copper"]])


def test_every_part_loads_in_lunr_js(odd_site, seed_site):
    # search_runner.js loads every part with lunr.Index.load (it throws on words out of order)
    for _, files, root in (odd_site, seed_site):
        answer = run_node({"root": str(root), "queries": [{"q": "a"}]})
        assert "queries" in answer


def test_highlighting_marks_the_matched_words(seed_site):
    _, _, root = seed_site
    text = "K-means and kmeans, Clustering clustered; the graphs’ GNN-based experiments. Ångström."
    terms = ["kmean", "mean", "k", "cluster", "graph", "experi", "angstrom", "gnn"]
    answer = run_node({"root": str(root), "highlight": [{"text": text, "terms": terms}],
                       "snippet": [{"text": "word " * 100 + "the Clustering result " + "tail " * 100,
                                    "terms": ["cluster"], "size": 120}]})
    marked = [text[a:b] for a, b in answer["highlight"][0]]
    assert marked == ["K-means", "kmeans", "Clustering", "clustered", "graphs", "GNN", "experiments", "Ångström"]
    snippet = answer["snippet"][0]
    assert snippet["head"] and snippet["tail"] and len(snippet["text"]) <= 120
    assert [snippet["text"][a:b] for a, b in snippet["marks"]] == ["Clustering"]


def test_lunr_js_scores_each_term_as_the_postings_weigh_it(seed_site, tmp_path):
    """The postings carry Lunr's weights: for a one-term query, lunr.js 2.3.9's own
    ``Index.load`` + ``query`` on the whole index of each part (``build_part``, which is what
    lunr.py builds) gives every paper the score our engine gives it from the postings."""
    from generator.outputs.search.index import PARTS, build_part

    site, files, root = seed_site
    notes = session_notes(site)  # sessions' notes are searched with their papers (issue 34)
    docs = [{k: tokenize(v) for k, v in search_fields(p, notes.get(p.slug, "")).items()} for p in site.papers]
    engine = SearchEngine(files)
    terms = ["watermark", "graph", "learn", "diffus", "kmean", "king", "iclr", "2024", "unitigbin", "optim"]
    expected: dict[str, dict[str, float]] = {t: {} for t in terms}
    for name, fields in PARTS:
        path = tmp_path / f"{name}.json"
        path.write_text(build_part(fields, docs, RAW_FIELDS)[0], encoding="utf-8")
        answer = run_node({"lunr": {"index": str(path), "terms": terms}})
        for term, hits in zip(terms, answer["lunr"]):
            for ref, score in hits:  # lunr's refs: the papers in the site's order; ours by venue
                slug = site.papers[int(ref)].slug
                expected[term][slug] = expected[term].get(slug, 0.0) + score
    for term in terms:
        ours: dict[str, float] = {}
        for ref, _, weight in engine.postings.get(term, []):
            ours[engine.refs[ref]] = ours.get(engine.refs[ref], 0.0) + weight
        assert ours.keys() == expected[term].keys(), term
        for ref, score in ours.items():
            assert score == pytest.approx(expected[term][ref], rel=1e-9), (term, ref)
    assert sum(len(v) for v in expected.values()) > 100


def test_a_query_fetches_only_the_files_of_its_words(seed_site):
    """The page's service, opened at ?q=...: meta, the dictionary files of the
    query's buckets, the postings files of the terms its words stand for, and the display
    chunks of the results on screen; nothing else, each file once."""
    site, files, root = seed_site
    engine = SearchEngine(files)
    meta = json.loads(files["search/meta.json"])
    queries = ["watermark", "graph neur", "reinforcment learning", "qqqqxyzzy", "k-means",
               "a survey of deep reinforcement learning methods for robotic manipulation", "learning"]
    answer = run_node({"root": str(root), "fetches": queries})
    for item in answer["fetches"]:
        got = item["files"]
        assert len(got) == len(set(got)), item
        result = engine.search(item["q"])
        assert item["slugs"] == result.slugs[:10] and item["total"] == len(result.hits), item
        terms = {engine.info[t][1] for t in result.terms}
        docs = {r // meta["docChunk"] for r in (h.ref for h in result.hits[:10])}
        # (the tags of every paper, facets.json, only for the tag filter; the people file of
        # each word of a query of 2-4 words; no identifier file for these queries)
        words = [p for chain in CHAIN_RE.findall(fold(item["q"])) for p in JOINER_RE.split(chain.replace("'", ""))]
        named = 2 <= len(words) <= 4 and all(w[0].isalpha() for w in words)
        people = {key_file(w[:3], meta["people"]) for w in words if len(w) >= 2} if named else set()
        want = {"search/meta.json"} | {f"search/terms/{n}.json.gz" for n in terms} \
            | {f"search/docs/{n}.json.gz" for n in docs} | {f"search/people/{n}.json.gz" for n in people}
        dicts = {g for g in got if g.startswith("search/dict/")}
        assert set(got) - dicts == want, item["q"]
        assert 1 <= len(dicts) <= 8 * len(item["q"].split()), item
        # a word's stem and prefix buckets, and for the words with a typo (typo_words) their keys
        units = query_units(item["q"])
        assert len(dicts) <= 2 * len(units) + 6 * sum(u.fuzzy for u in units), item
    # A word the index knows (TYPO_UNDER postings or more) looks up no typo: its bucket only.
    learning = answer["fetches"][-1]
    assert engine.search("learning").terms and "learn" in engine.search("learning").terms
    starts = [utf16_key(s) for s in meta["dict"]]
    assert {g for g in learning["files"] if g.startswith("search/dict/")} == \
        {f"search/dict/{bisect.bisect_right(starts, utf16_key('le')) - 1}.json.gz"}
    nothing = answer["fetches"][3]
    assert nothing["total"] == 0 and not any("terms/" in g or "docs/" in g for g in nothing["files"])


def test_the_page_refuses_search_files_of_another_format(tmp_path):
    """meta.json says which format the files are in (index.FORMAT_VERSION); the page's engine
    reads that one only, and says so in its error state rather than answer from files it
    would misread (a script cached from another build)."""
    from generator.outputs.search.index import FORMAT_VERSION

    node = node_or_skip()
    script = """
    const PS = require(process.argv[1]);
    const posted = [];
    const service = new PS.Service((m) => posted.push(m), (url) => Promise.resolve(
      url.includes("meta.json") ? {version: Number(process.argv[2]), build: "x", dict: [], venues: [], tags: []} : {}));
    service.load("/").then(() => process.stdout.write(JSON.stringify(posted)));
    """
    engine = str(REPO / "static" / "js" / "search-engine.js")
    for version in (FORMAT_VERSION - 1, FORMAT_VERSION + 1):
        done = subprocess.run([node, "-e", script, engine, str(version)], capture_output=True, text=True,
                              timeout=60, cwd=REPO, check=True)
        posted = json.loads(done.stdout)
        assert [m["type"] for m in posted] == ["state"] and posted[0]["state"] == "error", posted
        assert f"format {version}, not {FORMAT_VERSION}" in posted[0]["message"]


IDENTIFIERS = [
    "2301.01234", "arXiv:2301.01234v2", "2301.01234v2", "https://arxiv.org/abs/2301.01234v3", "arxiv.org/pdf/2301.01234",
    "https://arxiv.org/abs/cs/0112017", "10.18653/v1/2022.acl-long.75", "https://doi.org/10.18653/v1/2022.acl-long.75",
    "doi:10.1145/3292500.3330701", "https://dx.doi.org/10.1145/3292500.3330701/", "2022.acl-long.75", "2022.findings-acl.91",
    "P19-1001", "https://aclanthology.org/P19-1001/", "https://aclanthology.org/2022.findings-acl.91.pdf", "B184E5qee",
    "https://openreview.net/forum?id=B184E5qee", "https://openreview.net/pdf?id=rJl-b3RcF7", "v202/smith23a",
    "smith23a", "https://proceedings.mlr.press/v202/smith23a.html", "https://proceedings.mlr.press/v202/smith23a/smith23a.pdf",
    "watermark", "graph neural", "", "a" * 400, "🤖", "title:foo^2", "GPT4", "ΑΒΓ123",
]


def test_identifier_keys_and_their_files_agree():
    """ids.query_keys / link_keys / key_file and their twins in search-engine.js."""
    from generator.outputs.search.ids import link_keys, query_keys

    node = node_or_skip()
    script = ("const PS = require(process.argv[1]); const qs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "process.stdout.write(JSON.stringify(qs.map(q => [PS.queryKeys(q), PS.linkKeys(q),"
              " PS.queryKeys(q).map(k => PS.keyFile(k, 97))])));")
    done = subprocess.run([node, "-e", script, str(REPO / "static" / "js" / "search-engine.js")],
                          input=json.dumps(IDENTIFIERS), capture_output=True, text=True, encoding="utf-8", check=True)
    js = json.loads(done.stdout)
    for query, (keys, links, files) in zip(IDENTIFIERS, js):
        assert keys == query_keys(query), query
        assert links == link_keys(query), query
        assert files == [key_file(k, 97) for k in keys], query
    assert query_keys("arXiv:2301.01234v2") == ["2301.01234"]
    assert query_keys("https://doi.org/10.18653/v1/2022.acl-long.75") == ["10.18653/v1/2022.acl-long.75", "2022.acl-long.75"]
    assert link_keys("https://proceedings.mlr.press/v202/smith23a.html") == ["v202/smith23a", "smith23a"]
    assert query_keys("watermark") == [] and query_keys("graph neural") == []


def test_a_common_word_beside_a_rarer_one_is_neither_fetched_nor_required(tmp_path, monkeypatch):
    """index.COMMON_SHARE: "graph" in every paper says little next to "cobalt"; its postings
    are not fetched and a paper with "cobalt" alone matches; alone, "graph" matches as usual."""
    from generator.outputs.search import shards

    monkeypatch.setattr(shards, "common_postings", lambda papers: 6)
    content = ContentDir(tmp_path / "content")
    for i in range(8):
        content.add_paper(f"p{i}", paper_md(title=f"Graph paper {i}", body="On cobalt." if i < 2 else "On graphs."))
    content.add_paper("lone", paper_md(title="Lone", tags=(), body="Cobalt only."))
    files = build_search(derive(load_catalog(content.root)))
    assert json.loads(files["search/meta.json"])["query"]["common"] == 6
    root = write_files(files, tmp_path / "site")
    engine = SearchEngine(files)
    result = engine.search("graph cobalt")
    assert "graph" not in result.terms and set(result.slugs) == {"p0", "p1", "lone"} and not result.partial
    assert len(engine.search("graph").slugs) == 8
    compare(root, engine, [{"q": q} for q in ["graph cobalt", "graph", "cobalt graph", "graph graphs"]])
    answer = run_node({"root": str(root), "fetches": ["graph cobalt"]})["fetches"][0]
    assert answer["total"] == 3 and not answer["error"]


def test_author_pages_left_out_of_records_are_derived_alike(seed_site):
    """A record says 1 for an author whose page shards.name_path gives; the page derives the
    same (search-engine.js namePath), and that is the author's page."""
    from generator.outputs.search.shards import name_path

    site, _, _ = seed_site
    names = sorted({a.name for p in site.papers for a in p.authors}) + \
        ["X", "O'Brien", "Jean-Paul  Sartre", "A. B. C.", "--", "Łukasz Kaiser", "J R R Tolkien Jr."]
    node = node_or_skip()
    script = ("const PS = require(process.argv[1]); const ns = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "process.stdout.write(JSON.stringify(ns.map(PS.namePath)));")
    done = subprocess.run([node, "-e", script, str(REPO / "static" / "js" / "search-engine.js")],
                          input=json.dumps(names), capture_output=True, text=True, encoding="utf-8", check=True)
    assert json.loads(done.stdout) == [name_path(n) for n in names]
    derived = [a for p in site.papers for a in p.authors if a.path and a.path == name_path(a.name)]
    assert len(derived) > 20 and all(a.url.endswith(f"/{a.path}/") for a in derived)
