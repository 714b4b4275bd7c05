"""Property-based tests: whatever the input, a catalog or a ContentError, never another exception.

The front-matter reader gets arbitrary text and YAML-shaped text; the whole loader
gets arbitrary bytes and YAML-shaped values in a paper file, a venue file, site.toml
and tags.toml; and whatever the loader accepts must build into a site.
"""

from __future__ import annotations

import datetime
import math
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.content import frontmatter
from generator.build import BuildOptions, build
from generator.errors import ContentError
from generator.content.frontmatter import FrontMatter, FrontMatterError, parse
from generator.content.loader import load_catalog
from generator.content.model import Catalog

from .conftest import ContentDir

SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])

# Characters that matter to YAML, Markdown, HTML, Jinja and LaTeX, plus a few awkward ones.
SPECIAL = list("-:[]{},&*!|>'\"#%@`\\$^_~<>=/?.\t ") + ["\n", "\r\n", "\ufeff", "\x00", "\x07", "\u2028",
                                                     "\ufdd0", "\U0001fffe", "é", "张", "😀", "\u202e"]
yamlish = st.lists(st.sampled_from(SPECIAL) | st.characters(codec="utf-8"), max_size=80).map("".join)

scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30)
           | st.dates() | st.datetimes() | st.sampled_from(["https://x.org", "javascript:alert(1)", "test-2024",
                                                            "graph-learning", "oral", "", "  ", "{{ 7*7 }}"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=10) | st.integers(), inner, max_size=4), max_leaves=12)
FIELDS = ["title", "authors", "venue", "tags", "links", "presentation", "provisional", "added", "extra", "junk"]
front_matter_data = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), values, max_size=8)


def dumped(data) -> str:
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    except yaml.YAMLError:
        return "{}"


documents = (
    st.text()
    | yamlish
    | st.builds(lambda y, b: f"---\n{y}\n---\n{b}", yamlish, yamlish)
    | st.builds(lambda d, b: f"---\n{dumped(d)}---\n{b}", front_matter_data, yamlish)
    | st.builds(lambda d, cut: f"---\n{dumped(d)[:cut]}\n---\n", front_matter_data, st.integers(0, 200))
)


def parses_or_refuses(text: str) -> FrontMatter | None:
    try:
        fm = parse(text, "papers/p.md")
    except FrontMatterError as exc:
        assert exc.problem.file == "papers/p.md"
        assert exc.problem.line is None or exc.problem.line >= 1
        assert exc.problem.message
        return None
    assert isinstance(fm.data, dict) and all(isinstance(k, str) for k in fm.data)
    assert isinstance(fm.body, str)
    return fm


@SETTINGS
@given(documents)
def test_front_matter_reader_returns_a_mapping_or_a_front_matter_error(text):
    parses_or_refuses(text)


@SETTINGS
@given(front_matter_data, yamlish)
def test_front_matter_of_plain_data_round_trips(data, body):
    """Data written as YAML front matter reads back as the same data, the body as written
    (its line ends made "\\n"), each key on a line of the front matter. (Written with every
    character outside ASCII escaped: PyYAML and libyaml write U+0085, U+2028 and U+2029 raw in
    quoted text, where YAML reads them as line breaks.)"""
    try:
        written = yaml.safe_dump(data, allow_unicode=False, sort_keys=False)
    except yaml.YAMLError:
        assume(False)  # data YAML cannot write
    text = f"---\n{written}---\n{body}"
    fm = parses_or_refuses(text)
    assert fm is not None, text
    assert _same(fm.data, data), (fm.data, data)
    assert fm.body == body.replace("\r\n", "\n").replace("\r", "\n")
    assert set(fm.lines) == set(data)
    for key, line in fm.lines.items():
        assert 2 <= line <= fm.end_line


def _read_with(loader_class, text: str):
    try:
        return "ok", frontmatter._load_with(loader_class, text, "papers/p.md")[1]
    except FrontMatterError as exc:
        return "refused", exc.problem.message


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@SETTINGS
@given(yamlish | front_matter_data.map(dumped))
def test_the_fast_and_the_pure_python_yaml_readers_agree(text):
    """Front matter is read with libyaml when it is installed, else (and for messages) in pure Python."""
    if not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("PyYAML without libyaml: there is one reader, nothing to compare")
    fast_reader, pure_reader = frontmatter._LOADERS[0], frontmatter._LOADERS[-1]
    assert issubclass(fast_reader, yaml.CSafeLoader) and not issubclass(pure_reader, yaml.CSafeLoader)
    assume("\ufeff" not in text)  # a BOM inside the YAML: libyaml drops it, PyYAML keeps it as text
    fast, pure = _read_with(fast_reader, text), _read_with(pure_reader, text)
    if fast[0] == pure[0] == "ok":
        assert _same(fast[1], pure[1]), (fast, pure)
    elif pure[0] == "ok":  # what we refuse (aliases, tags, depth) we refuse with either reader
        assert fast[1].startswith("invalid YAML"), (fast, pure)


# --------------------------------------------------------------------------- the whole loader


def _load(setup) -> Catalog | None:
    with tempfile.TemporaryDirectory() as tmp:
        content = ContentDir(Path(tmp) / "content")
        content.add_paper("a-paper-on-graphs")
        setup(content)
        try:
            catalog = load_catalog(content.root)
        except ContentError as exc:
            assert exc.problems, "a ContentError without problems"
            for problem in exc.problems:
                assert problem.file and problem.message
            return None
        assert isinstance(catalog, Catalog)
        return catalog


@SETTINGS
@given(st.binary(max_size=400) | st.text().map(lambda t: t.encode("utf-8")) | documents.map(str.encode))
def test_any_bytes_in_a_paper_file_give_a_catalog_or_a_content_error(data):
    _load(lambda c: (c.root / "papers" / "fuzzed.md").write_bytes(data))


@SETTINGS
@given(front_matter_data, yamlish)
def test_any_front_matter_values_give_a_catalog_or_a_content_error(data, body):
    base = {"title": "Fuzzed", "venue": "test-2024"}
    text = f"---\n{dumped({**base, **data})}---\n{body}"
    _load(lambda c: (c.root / "papers" / "fuzzed.md").write_text(text, encoding="utf-8"))


@SETTINGS
@given(st.dictionaries(st.sampled_from(["name", "full_name", "year", "url", "location", "dates", "x"]), values,
                       max_size=6), yamlish)
def test_any_venue_file_gives_a_catalog_or_a_content_error(data, body):
    text = f"---\n{dumped(data)}---\n{body}"
    _load(lambda c: (c.root / "venues" / "test-2024.md").write_text(text, encoding="utf-8"))


toml_values = st.recursive(
    st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=20) | st.dates()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def toml_line(key: str, value) -> str:
    def fmt(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, datetime.date):
            return v.isoformat()
        if isinstance(v, list):
            return "[" + ", ".join(fmt(x) for x in v) + "]"
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return f"{key} = {fmt(value)}\n"


@SETTINGS
@given(st.dictionaries(st.sampled_from(["title", "description", "base_url", "language", "owner", "extra"]),
                       toml_values, max_size=5) | st.just({}), st.text(max_size=60))
def test_any_site_config_gives_a_catalog_or_a_content_error(data, junk):
    text = "".join(toml_line(k, v) for k, v in data.items())
    _load(lambda c: (c.root / "site.toml").write_text(text, encoding="utf-8"))
    _load(lambda c: (c.root / "site.toml").write_text(text + junk, encoding="utf-8"))


@SETTINGS
@given(st.lists(st.tuples(st.text(max_size=12), st.dictionaries(
    st.sampled_from(["name", "description", "phrases", "fallback", "x"]), toml_values, max_size=4)), max_size=4),
    st.text(max_size=40))
def test_any_taxonomy_gives_a_catalog_or_a_content_error(tables, junk):
    text = "".join(f'["{tid}"]\n' + "".join(toml_line(k, v) for k, v in body.items())
                   for tid, body in tables if '"' not in tid and "\\" not in tid)
    _load(lambda c: (c.root / "tags.toml").write_text(text, encoding="utf-8"))
    _load(lambda c: (c.root / "tags.toml").write_text(junk + text, encoding="utf-8"))


# --------------------------------------------------------------------------- what loads, builds


ALLOWED_SPECIAL = [c for c in SPECIAL if c not in ("\x00", "\x07", "\ufdd0", "\U0001fffe")]
hostile_text = st.lists(st.sampled_from(ALLOWED_SPECIAL + ["<script>", "</script>", "{{", "}}", "{%", "%}", "$", "\\(",
                                                   "[x](javascript:alert(1))", "<img onerror=x>", "&amp;", "a"]),
                        min_size=1, max_size=40).map("".join)


@pytest.mark.slow
@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(title=hostile_text, author=hostile_text, body=hostile_text)
def test_whatever_loads_also_builds(title, author, body):
    with tempfile.TemporaryDirectory() as tmp:
        content = ContentDir(Path(tmp) / "content")
        text = "---\n" + dumped({"title": title, "authors": [author], "venue": "test-2024"}) + "---\n" + body
        (content.root / "papers" / "fuzzed.md").write_text(text, encoding="utf-8")
        try:
            load_catalog(content.root)
        except ContentError as exc:
            # Only a blank title or name, or two equal (blank) names, may be refused.
            assert all(p.field in ("title", "authors") for p in exc.problems), exc
            return
        out = Path(tmp) / "site"
        build(BuildOptions(content=content.root, output=out))
        assert (out / "papers" / "test-2024" / "fuzzed" / "index.html").is_file()
        shutil.rmtree(out)
