"""Render keys (generator/outputs/page_keys.py): a page is kept from the last build only
when everything it is rendered from is the same, and a template that reads more than its
page's own data gets no key at all."""

from __future__ import annotations

import datetime
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment
from markupsafe import Markup

from generator.build import BuildOptions, build
from generator.outputs.page_keys import ITEM_TEMPLATE, Digests, TemplateUses, Unkeyed

from ..conftest import ContentDir, paper_md
from ..write.test_incremental import assert_same_as_cold

PROJECT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Leaf:
    text: str
    n: int


@dataclass(frozen=True)
class Twin:  # the same fields as Leaf, another type
    text: str
    n: int


@dataclass(frozen=True)
class Holder:
    items: tuple
    when: datetime.date | None = None


def test_equal_values_digest_alike_and_any_difference_shows():
    d = Digests(shared=(Leaf,))
    base = d.of(Holder((Leaf("a", 1), Leaf("b", 2)), datetime.date(2024, 5, 1)))
    assert d.of(Holder((Leaf("a", 1), Leaf("b", 2)), datetime.date(2024, 5, 1))) == base  # other objects, same values
    different = [
        Holder((Leaf("a", 1), Leaf("b", 3)), datetime.date(2024, 5, 1)),
        Holder((Leaf("a", 1), Leaf("b", 2)), datetime.date(2024, 5, 2)),
        Holder((Leaf("a", 1), Leaf("b", 2)), None),
        Holder((Leaf("a", 1), Twin("b", 2)), datetime.date(2024, 5, 1)),
        Holder([Leaf("a", 1), Leaf("b", 2)], datetime.date(2024, 5, 1)),  # a list, not a tuple
        Holder((Leaf("a", 1),), datetime.date(2024, 5, 1)),
        Holder((Leaf("b", 2), Leaf("a", 1)), datetime.date(2024, 5, 1)),  # order counts
    ]
    assert len({base, *(d.of(h) for h in different)}) == len(different) + 1


def test_markup_and_text_differ_as_they_print_differently():
    d = Digests(shared=())
    assert d.of(("<b>x</b>",)) != d.of((Markup("<b>x</b>"),))
    assert d.of({"a": 1, "b": 2}) != d.of({"b": 2, "a": 1})  # a template iterates in order
    assert d.of(("1",)) != d.of((1,)) != d.of((True,))


def test_a_value_the_digest_does_not_know_is_refused_not_guessed():
    d = Digests(shared=())
    with pytest.raises(Unkeyed):
        d.of({"x": object()})
    loop: list = []
    loop.append(loop)
    with pytest.raises(Unkeyed):
        d.of(loop)


def test_what_the_extra_hook_adds_is_part_of_a_views_digest():
    ranks = {"a": 1}
    d = Digests(shared=(Leaf,), extra={Leaf: lambda leaf: (ranks[leaf.text],)})
    first = d.of((Leaf("a", 1),))
    ranks["a"] = 2
    assert Digests(shared=(Leaf,), extra={Leaf: lambda leaf: (ranks[leaf.text],)}).of((Leaf("a", 1),)) != first


def environment(templates: dict[str, str]) -> Environment:
    env = Environment(loader=DictLoader(templates))
    env.filters["paper_item"] = str
    return env


def reads(templates: dict[str, str], name: str):
    use = TemplateUses(environment(templates)).of(name)
    return use and use.reads


def test_a_template_reads_what_it_and_everything_it_pulls_in_name():
    templates = {
        "page.html": '{% extends "base.html" %}{% block main %}{% include "part.html" %}{{ paper.title }}{% endblock %}',
        "base.html": "<title>{{ config.title }}</title>{% block main %}{% endblock %}",
        "part.html": '{% import "macros.html" as m %}{% for p in related %}{{ m.show(p) }}{% endfor %}{{ data.papers|length }}',
        "macros.html": "{% macro show(p) %}{{ p.title }}{{ base }}{% endmacro %}",
    }
    assert reads(templates, "page.html") >= {"paper", "config", "related", "data", "base"}
    assert "p" not in reads(templates, "page.html")  # set by the loop


def test_a_template_uses_the_bytes_of_what_it_pulls_in_and_of_the_item_it_prints():
    templates = {
        "paper.html": '{% extends "base.html" %}{% block main %}{{ paper.title }}{% endblock %}',
        "list.html": '{% extends "base.html" %}{% block main %}{% for p in papers %}{{ p|paper_item }}{% endfor %}{% endblock %}',
        "base.html": "<main>{% block main %}{% endblock %}</main>",
        ITEM_TEMPLATE: '<li>{% include "partials/byline.html" %}</li>',
        "partials/byline.html": "{{ byline }}",
    }
    uses = TemplateUses(environment(templates))
    assert [name for name, _ in uses.of("paper.html").sources] == ["base.html", "paper.html"]
    assert [name for name, _ in uses.of("list.html").sources] == \
        ["base.html", "list.html", "partials/byline.html", ITEM_TEMPLATE]
    assert {"papers", "byline"} <= uses.of("list.html").reads
    mapped = {**templates, "list.html": "{{ papers|map('paper_item')|join }}"}  # the filter named by a string
    assert ITEM_TEMPLATE in dict(TemplateUses(environment(mapped)).of("list.html").sources)
    before = uses.of("list.html").digest
    templates["partials/byline.html"] = "{{ byline }}!"
    assert TemplateUses(environment(templates)).of("list.html").digest != before


def test_a_template_named_at_run_time_cannot_be_followed():
    assert reads({"page.html": "{% include page.partial %}"}, "page.html") is None
    assert reads({"page.html": '{% include "missing.html" %}'}, "page.html") is None
    assert reads({"page.html": "{% if %}"}, "page.html") is None  # a syntax error: rendered, and reported
    assert reads({"page.html": "{{ x|no_such_filter }}"}, "page.html") is None


def test_a_papers_key_covers_what_the_filters_add_to_it(content, tmp_path):
    """The citation filter prints the paper's BibTeX key (the catalog's: another paper can
    take it) and list items its place in each sort order: both are in the key."""
    from generator import pipeline
    from generator.cache import generator_version
    from generator.options import BuildReport
    from generator.outputs.page_keys import PageKeys
    from generator.outputs.pages import SortRanks, plan_pages
    from generator.outputs.render import make_environment

    derived = pipeline.prepare(BuildOptions(content=content.root, output=tmp_path / "site"), BuildReport(),
                               lambda stage: None)
    templates = PROJECT / "templates"
    pages = {page.url: page for page in plan_pages(derived.site)}
    page = pages["papers/test-2024/a-paper-on-graphs/"]
    ranks = dict(derived.globals["paper_items"].ranks)

    def key() -> str | None:
        return PageKeys(make_environment(templates), derived.globals, derived.citations, ranks,
                        generator_version()).key(page)

    first = key()
    assert first is not None and key() == first
    ranks["a-paper-on-graphs"] = SortRanks(7, 7, 7)  # as on its list item, wherever a page lists it
    assert key() != first
    ranks.update(derived.globals["paper_items"].ranks)
    derived.citations.keys["a-paper-on-graphs"] = "lovelace2024paperb"
    derived.citations._cache.clear()
    assert key() != first


# -- whole builds ---------------------------------------------------------------------------


def cached_options(content: ContentDir, tmp_path: Path) -> BuildOptions:
    return BuildOptions(content=content.root, output=tmp_path / "site", cache=tmp_path / "cache")


def test_an_abstract_edit_renders_its_page_and_keeps_the_lists(content, tmp_path):
    options = cached_options(content, tmp_path)
    first = build(options)
    assert first.pages_kept == 0
    content.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                      tags=("optimization",), body="Now with momentum.")
    report = build(options)
    # the paper's page and those listing it whole (home, all papers, search, ...) are rendered again
    assert report.pages_kept >= report.pages - 12 and "rendered, the rest as before" in report.summary()
    assert_same_as_cold(content.root, options.output, tmp_path)


def test_a_template_that_reads_the_whole_site_is_always_rendered(content, tmp_path):
    """An override of the author page that counts every paper: adding a paper by someone
    else changes every author page, which a key of the page's own data would miss."""
    own = content.root.parent / "templates" / "author.html"
    own.parent.mkdir()
    text = (PROJECT / "templates" / "author.html").read_text(encoding="utf-8")
    own.write_text(text.replace("{% block main %}", "{% block main %}<p>Of {{ data.papers|length }} papers.</p>", 1),
                   encoding="utf-8")
    options = cached_options(content, tmp_path)
    build(options)
    content.add_paper("new-one", title="A New One", authors=("Edsger Dijkstra",), tags=("graph-learning",),
                      body="Shortest paths.")
    report = build(options)
    assert report.pages_kept > 0
    assert_same_as_cold(content.root, options.output, tmp_path)
    page = (options.output / "authors" / "al" / "alan-turing" / "index.html").read_text(encoding="utf-8")
    assert "Of 3 papers." in page


def test_a_page_whose_bibtex_key_a_new_paper_takes_is_rendered_again(content, tmp_path):
    """BibTeX keys are the catalog's: a paper joining with the same key (and an earlier slug)
    gives the one already there a suffix, though nothing of that paper changed."""
    options = cached_options(content, tmp_path)
    build(options)
    page = options.output / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html"
    assert "{lovelace2024paper," in page.read_text(encoding="utf-8")
    content.add_paper("a-first", title="Paper Two", authors=("Ada Lovelace",), body="Also on graphs.")
    build(options)
    assert "{lovelace2024paperb," in page.read_text(encoding="utf-8")
    assert_same_as_cold(content.root, options.output, tmp_path)


def test_a_template_edit_renders_the_pages_that_use_it_and_keeps_the_rest(content, tmp_path):
    own = content.root.parent / "templates"
    options = cached_options(content, tmp_path)
    build(options)
    own.mkdir()
    (own / "404.html").write_text('{% extends "base.html" %}{% block main %}<p>Lost.</p>{% endblock %}',
                                  encoding="utf-8")
    report = build(options)
    assert report.pages - report.pages_kept == 1 + UNKEYED  # the 404 page, and those with no key
    item = (PROJECT / "templates" / ITEM_TEMPLATE).read_text(encoding="utf-8")
    (own / ITEM_TEMPLATE).parent.mkdir()
    (own / ITEM_TEMPLATE).write_text("<!-- item -->" + item, encoding="utf-8")
    report = build(options)
    listing = (options.output / "authors" / "al" / "alan-turing" / "index.html").read_text(encoding="utf-8")
    assert "<!-- item -->" in listing
    paper = (options.output / "papers" / "test-2024" / "fast-convergence" / "index.html").read_text(encoding="utf-8")
    assert "<!-- item -->" not in paper  # a paper page prints no list item: kept
    assert 0 < report.pages_kept
    assert_same_as_cold(content.root, options.output, tmp_path)


def test_the_preview_renders_list_items_with_the_edited_item_template(content, tmp_path):
    """``build --serve`` renders a template edit from the data the last build derived: its
    list items too come from the new template, and a later build keeps them right."""
    options = cached_options(content, tmp_path)
    kept = []
    build(options, keep=kept.append)
    own = content.root.parent / "templates" / ITEM_TEMPLATE
    own.parent.mkdir(parents=True)
    own.write_text("<!-- new item -->" + (PROJECT / "templates" / ITEM_TEMPLATE).read_text(encoding="utf-8"),
                   encoding="utf-8")
    report = build(options, keep=kept.append, reuse=kept[-1])
    assert "reuse" in report.seconds
    assert_same_as_cold(content.root, options.output, tmp_path)
    content.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                      tags=("optimization",), body="Now with momentum.")
    build(options)
    assert_same_as_cold(content.root, options.output, tmp_path)


def test_pages_are_rendered_from_the_templates_as_the_build_first_read_them(tmp_path):
    """A template saved while a build runs: the pages and their keys both see the bytes the
    build read first (the next build sees the new ones, by the inputs' fingerprint)."""
    from generator.outputs.render import make_environment
    (tmp_path / "page.html").write_text("one", encoding="utf-8")
    env = make_environment(tmp_path)
    (tmp_path / "page.html").write_text("two", encoding="utf-8")
    assert env.get_template("page.html").render() == "one"
    assert TemplateUses(env).of("page.html").sources == (("page.html", "one"),)


def test_a_kept_page_someone_edited_in_the_output_is_rendered_again(content, tmp_path):
    options = cached_options(content, tmp_path)
    build(options)
    page = options.output / "authors" / "al" / "alan-turing" / "index.html"
    page.write_text("vandalised", encoding="utf-8")
    content.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                      tags=("optimization",), body="Now with momentum.")
    build(options)
    assert_same_as_cold(content.root, options.output, tmp_path)


# pages whose templates read the whole site: all papers, the tag index and search (one page each
# in the test catalog); always rendered. (The home page and the venue and author indexes get
# their data from their page's context, so they have a key.)
UNKEYED = 3

SECOND_VENUE = '---\nname: "OTHER 2023"\nfull_name: "Other Conference 2023"\nyear: 2023\n---\n'
NAMES = ("Ada Lovelace", "Alan Turing", "Grace Hopper", "Emmy Noether", "Kurt Gödel")
WORDS = ("graph", "spectral", "diffusion", "kernel", "sparse", "bandit", "policy", "attention", "convex")
EDIT_KINDS = ("title", "authors", "tags", "venue", "body", "extra", "add", "delete", "rename", "venue file", "tags.toml",
              "site.toml", "item template", "paper template", "template reading data", "template put back")


def random_fields(rng: random.Random) -> dict:
    return {"title": " ".join(rng.sample(WORDS, 3)).title() + f" {rng.randrange(1000)}",
            "authors": tuple(rng.sample(NAMES, rng.randint(1, 3))),
            "venue": rng.choice(("test-2024", "other-2023")),
            "tags": tuple(rng.sample(("graph-learning", "optimization", "machine-learning"), rng.randint(1, 2))),
            "body": " ".join(rng.choice(WORDS) for _ in range(20)) + f" ${rng.randrange(9)}$.",
            "extra": rng.choice(("", "presentation: oral", "presentation: poster"))
            + rng.choice(("", f"\nadded: 2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"))}


def edit_catalog(content: ContentDir, papers: dict[str, dict], kind: str, step: int, rng: random.Random) -> None:
    folder, templates = content.root / "papers", content.root.parent / "templates"
    slug = rng.choice(sorted(papers))
    if kind == "add":
        papers[f"new-{step}"] = random_fields(rng)
        content.add_paper(f"new-{step}", paper_md(**papers[f"new-{step}"]))
    elif kind == "delete" and len(papers) > 2:
        del papers[slug]
        (folder / f"{slug}.md").unlink()
    elif kind == "rename":
        papers[f"renamed-{step}"] = papers.pop(slug)
        (folder / f"{slug}.md").rename(folder / f"renamed-{step}.md")
    elif kind in ("title", "authors", "tags", "venue", "body", "extra"):  # extra: presentation, date added
        papers[slug][kind] = random_fields(rng)[kind]
        content.add_paper(slug, paper_md(**papers[slug]))
    elif kind == "venue file":
        content.write("venues/other-2023.md", SECOND_VENUE.replace("OTHER 2023", f"OTHER {step}"))
    elif kind == "tags.toml":
        text = (content.root / "tags.toml").read_text(encoding="utf-8")
        content.write("tags.toml", text.replace('name = "Optimization', f'name = "Optimization {step}', 1))
    elif kind == "site.toml":
        content.write("site.toml", f'title = "Shelf {step}"\ndescription = "For tests."\n')
    elif kind in ("item template", "paper template", "template reading data"):
        name = {"item template": "partials/paper_item.html", "paper template": "paper.html",
                "template reading data": "tag.html"}[kind]
        text = (PROJECT / "templates" / name).read_text(encoding="utf-8")
        mark = f"<!-- {step}: {{{{ data.papers|length }}}} -->" if kind == "template reading data" else f"<!-- {step} -->"
        (templates / name).parent.mkdir(parents=True, exist_ok=True)
        (templates / name).write_text(mark + text, encoding="utf-8")
    elif kind == "template put back":
        shutil.rmtree(templates, ignore_errors=True)


@pytest.mark.slow
def test_random_edits_with_kept_pages_end_in_a_cold_build(content, tmp_path):
    """Random edits of papers, venues, tags, site settings and templates (one that reads the
    whole site among them), each followed by a build with the cache: after each, the site
    is a cold build's, byte for byte; and some builds kept pages."""
    rng = random.Random(2026)
    content.write("venues/other-2023.md", SECOND_VENUE)
    # enough papers for lists with sort controls (their items carry each paper's place in each order)
    papers = {f"p-{n}": random_fields(rng) for n in range(16)}
    for path in (content.root / "papers").glob("*.md"):
        path.unlink()
    for slug, fields in papers.items():
        content.add_paper(slug, paper_md(**fields))
    options = cached_options(content, tmp_path)
    build(options)
    kept = 0
    for step in range(30):
        kind = EDIT_KINDS[step] if step < len(EDIT_KINDS) else rng.choice(EDIT_KINDS)
        edit_catalog(content, papers, kind, step, rng)
        report = build(options)
        kept += report.pages_kept
        try:
            assert_same_as_cold(content.root, options.output, tmp_path)
        except AssertionError as exc:
            raise AssertionError(f"step {step}: {kind}") from exc
    assert kept > 0
