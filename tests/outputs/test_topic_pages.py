"""The topic pages, the topic map and the trends page as built: structure, every paper in one
topic, byte-identical rebuilds, render keys (a paper that moves re-renders the topic pages
that show it) and an incremental build equal to a cold one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from generator.build import BuildOptions, build
from generator.derive.urls import paper_page

from ..conftest import ContentDir
from ..derive.test_topics import field_texts
from ..write.test_incremental import assert_same_as_cold, files_of, stats_of


def page(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def topic_links(html: str) -> list[str]:
    return re.findall(r'href="/(topics/[a-z0-9-]+/)"', html)


def test_the_topic_index_map_and_pages_cover_every_paper_once(bundled_build, bundled_views):
    site = bundled_build().path
    views = bundled_views()
    index = page(site, "topics")
    topics = views.topics.topics
    svg = re.search(r"<svg class=\"topic-map-svg\".*?</svg>", index, re.S).group(0)
    assert 'role="img"' in svg and "<title id=\"topic-map-title\">" in svg and "<desc" in svg
    assert svg.count("<circle") == len(topics)
    # Over the drawing, each circle is a link with a hover title, for the pointer only (the
    # list has the same links): hidden from screen readers, out of the Tab order.
    links = re.search(r"<svg class=\"map-links\".*?</svg>", index, re.S).group(0)
    assert 'aria-hidden="true"' in links and links.count('tabindex="-1"') == links.count("<a ") == len(topics)
    assert sorted(topic_links(links)) == sorted(t.ref.url for t in topics)
    listed = index[index.index('class="topic-list"'):]
    assert topic_links(listed) == [t.ref.url for t in topics]
    seen = []
    for t in topics:
        html = page(site, t.ref.url)
        assert f"<h1>{t.ref.name}</h1>" in html and "Papers per year" not in html  # one year: no chart
        seen += re.findall(r'class="paper-item[^"]*"[^>]*data-slug="([^"]+)"', html) or \
            [p.slug for p in t.papers if f'/{p.url}"' in html]
    assert sorted(seen) == sorted(p.slug for p in views.papers)
    for p in views.papers:  # every paper page names its one topic
        html = page(site, p.url)
        assert topic_links(html) == [views.topics.of(p.slug).url], p.slug


def test_the_trends_and_venue_pages_say_their_numbers(bundled_build):
    site = bundled_build().path
    trends = page(site, "trends")
    assert "Every paper is from 2024" in trends and "ICLR" in trends and "ICML" in trends
    venue = page(site, "venues/iclr-2024")
    mix = venue[venue.index('id="topic-mix-heading"'):]
    assert topic_links(mix) and re.search(r'visually-hidden"> papers?, \d+%', mix)


def field_catalog(content: ContentDir, per_field: int = 6) -> list[str]:
    texts, _ = field_texts(per_field)
    slugs = []
    for i, (title, abstract) in enumerate(texts):
        slug = f"paper-{i:02d}"
        content.add_paper(slug, title=title, body=abstract, tags=())
        slugs.append(slug)
    return slugs


def topic_of(site: Path, slug: str) -> str:
    return topic_links(page(site, paper_page("test-2024", slug)))[0]


def test_topics_and_trends_are_byte_identical_from_build_to_build(content, tmp_path):
    field_catalog(content)
    one, two = tmp_path / "one", tmp_path / "two"
    build(BuildOptions(content=content.root, output=one))
    build(BuildOptions(content=content.root, output=two, cache=tmp_path / "cache"))
    assert files_of(one) == files_of(two)
    assert len(list((one / "topics").iterdir())) >= 3


def test_a_paper_that_moves_to_another_topic_rerenders_both_topic_pages(content, tmp_path):
    slugs = field_catalog(content)
    out = tmp_path / "site"
    options = BuildOptions(content=content.root, output=out, cache=tmp_path / "cache")
    build(options)
    texts, truth = field_texts(6)
    moved = next(s for s, field in zip(slugs, truth) if field == "graph")
    donor = next(i for i, field in enumerate(truth) if field == "diffusion")
    old_topic = topic_of(out, moved)
    before = stats_of(out)
    content.add_paper(moved, title=texts[donor][0] + " again", body=texts[donor][1] + " Diffusion models, again.",
                      tags=())
    report = build(options)
    new_topic = topic_of(out, moved)
    assert new_topic != old_topic
    after = stats_of(out)
    rewritten = {p for p in after if after[p] != before.get(p)}
    assert {f"{old_topic}index.html", f"{new_topic}index.html", f"{paper_page('test-2024', moved)}index.html"} <= rewritten
    assert 0 < report.pages_kept < report.pages  # the pages that do not show it are kept
    assert_same_as_cold(content.root, out, tmp_path)


def test_an_edit_that_leaves_the_texts_alone_reuses_the_topics(content, tmp_path, monkeypatch):
    slugs = field_catalog(content)
    options = BuildOptions(content=content.root, output=tmp_path / "site", cache=tmp_path / "cache")
    build(options)
    from generator.derive import topics
    calls = []
    monkeypatch.setattr(topics, "find_topics", lambda texts: calls.append(1))
    text = (content.root / "papers" / f"{slugs[0]}.md").read_text(encoding="utf-8")
    content.add_paper(slugs[0], text.replace('"Ada Lovelace"', '"Ada King"'))
    build(options)
    assert calls == []  # from the build cache
    shutil.rmtree(tmp_path / "cache")
