"""Derived data for the reader: folded author lists, sort ranks, tag bars, list filters,
related papers, and the page plan's pagination and reading-list data files."""

from __future__ import annotations


import pytest

from generator.derive.views import AUTHORS_HIDDEN_MIN, AUTHORS_SHOWN, AuthorRef, derive, fold_authors, paper_list
from generator.content.loader import load_catalog
from generator.outputs.pages import PAGE_SIZE, paginate, plan_pages, reading_list_shards, shard_of

from ..conftest import paper_md


def refs(n):
    return tuple(AuthorRef(f"Person {i}", f"person-{i}") for i in range(n))


@pytest.mark.parametrize("n", [0, 1, AUTHORS_SHOWN, AUTHORS_SHOWN + AUTHORS_HIDDEN_MIN - 1,
                               AUTHORS_SHOWN + AUTHORS_HIDDEN_MIN, 40])
def test_fold_authors_keeps_every_author_in_order(n):
    head, tail = fold_authors(refs(n))
    assert head + tail == refs(n)
    if n - AUTHORS_SHOWN >= AUTHORS_HIDDEN_MIN:
        assert len(head) == AUTHORS_SHOWN and len(tail) >= AUTHORS_HIDDEN_MIN
    else:
        assert tail == ()


def many_papers(content, n=12):
    content.write("venues/old-2020.md", '---\nname: "OLD 2020"\nfull_name: "Old Conference 2020"\nyear: 2020\n---\n')
    for i in range(n):
        content.add_paper(f"p{i:02d}", paper_md(title=f"Title {chr(90 - i)} {i}", venue="old-2020" if i % 2 else "test-2024",
                                                tags=("graph-learning", "optimization") if i % 3 == 0 else ("optimization",),
                                                authors=tuple(f"Author {j}" for j in range(i + 1)),
                                                body=f"Graph optimization words {i}."))
    return derive(load_catalog(content.root))


def test_ranks_follow_title_and_venue_order(content):
    site = many_papers(content)
    assert [p.title_rank for p in site.papers] == list(range(len(site.papers)))
    by_venue = sorted(site.papers, key=lambda p: p.venue_rank)
    venue_order = [v.ref.id for v in site.venues]  # newest first
    assert venue_order[0] == "test-2024"
    assert [venue_order.index(p.venue.id) for p in by_venue] == sorted(venue_order.index(p.venue.id) for p in by_venue)
    for a, b in zip(by_venue, by_venue[1:]):  # within a venue, by title
        if a.venue.id == b.venue.id:
            assert a.title_rank < b.title_rank
    assert sorted(p.venue_rank for p in site.papers) == list(range(len(site.papers)))


def test_tag_ids_and_bars(content):
    site = many_papers(content)
    for p in site.papers:
        assert p.tag_ids.split() == [t.id for t in p.tags]
    counts = {t.ref.id: len(t.papers) for t in site.tags}
    largest = max(counts.values())
    for t in site.tags:
        assert t.bar % 5 == 0 and 0 <= t.bar <= 100
        assert (t.bar == 0) == (counts[t.ref.id] == 0)
        assert t.bar >= 100 * counts[t.ref.id] / largest - 1e-9  # rounded up, never shorter
        assert t.bar < 100 * counts[t.ref.id] / largest + 5
    assert max(t.bar for t in site.tags) == 100


def test_paper_list_filter_options(content):
    site = many_papers(content)
    tag = next(t for t in site.tags if t.ref.id == "optimization")
    listing = paper_list(tag.papers, own_tag="optimization")
    assert [c.item.id for c in listing.tags] == ["graph-learning"]
    assert listing.tags[0].count == sum(1 for p in tag.papers if "graph-learning" in p.tag_ids.split())
    assert listing.venue_count == 2
    assert paper_list(()).tags == () and paper_list(()).venue_count == 0


def test_related_are_other_papers_of_the_catalog(content):
    site = many_papers(content)
    slugs = {p.slug for p in site.papers}
    for p in site.papers:
        assert p.slug not in {r.slug for r in site.related[p.slug]}
        assert {r.slug for r in site.related[p.slug]} <= slugs
        assert len(site.related[p.slug]) <= 5


@pytest.mark.parametrize("total", [0, 1, 99, 100, 101, 250, 1234])
def test_paginate(total):
    pages = paginate("tags/x/", total, 100)
    assert len(pages) == max(1, -(-total // 100))
    covered = []
    for p in pages:
        covered.extend(range(p.first, p.last + 1) if total else [])
        current = [link for link in p.links if link and link.current]
        assert len(current) == 1 and current[0].number == p.number
        numbers = [link.number for link in p.links if link]
        assert numbers == sorted(set(numbers)) and numbers[0] == 1 and numbers[-1] == p.count
        assert (p.prev_url is None) == (p.number == 1) and (p.next_url is None) == (p.number == p.count)
    assert covered == list(range(1, total + 1))
    assert pages[0].links[0].url == "tags/x/"
    if len(pages) > 1:
        assert pages[1].links[1].url == "tags/x/page/2/"


def test_long_lists_get_pages_and_every_paper_is_on_exactly_one(content):
    site = many_papers(content, n=3)
    for i in range(PAGE_SIZE + 20):
        content.add_paper(f"extra-{i:03d}", paper_md(title=f"Extra {i:03d}", tags=("optimization",)))
    site = derive(load_catalog(content.root))
    pages = [p for p in plan_pages(site) if p.template == "papers.html"]
    assert [p.url for p in pages] == ["papers/", "papers/page/2/"]
    seen = [paper.slug for p in pages for paper in p.context["papers"]]
    assert seen == [p.slug for p in site.papers]
    assert pages[1].title == "All papers (page 2 of 2)"
    assert all(p.context["listing"].papers == site.papers for p in pages)
    urls = [p.url for p in plan_pages(site)]
    assert len(urls) == len(set(urls))


def test_reading_list_data_files_hold_every_paper_once(content):
    site = many_papers(content)
    shards = reading_list_shards(site)
    merged = {}
    for number, shard in enumerate(shards):
        for paper in shard:
            assert shard_of(paper.slug, len(shards)) == number
            assert paper.slug not in merged
            merged[paper.slug] = paper
    assert list(merged.values()) == sorted(site.papers, key=lambda p: (shard_of(p.slug, len(shards)),
                                                                       site.papers.index(p)))


def test_shard_of_is_the_javascript_string_hash():
    def js_hash(s):
        h, data = 0, s.encode("utf-16-le")
        for i in range(0, len(data), 2):  # JavaScript: h = (Math.imul(h, 31) + charCodeAt(i)) >>> 0
            h = (h * 31 + int.from_bytes(data[i:i + 2], "little")) % 2**32
        return h

    for slug, count in [("a", 7), ("paper-0001", 3), ("abc", 1000), ("x" * 80, 13)]:
        assert shard_of(slug, count) == js_hash(slug) % count
    assert shard_of("anything", 1) == 0


def test_short_lists_get_no_controls(content):
    from generator.derive.views import LIST_CONTROLS_MIN

    site = many_papers(content, n=LIST_CONTROLS_MIN + 2)
    assert not paper_list(site.papers[:LIST_CONTROLS_MIN - 1]).filterable
    assert not paper_list(site.papers[:LIST_CONTROLS_MIN - 1]).sortable_by_venue
    full = paper_list(site.papers)
    assert full.filterable and full.sortable_by_venue
    one_venue = paper_list([p for p in site.papers if p.venue.id == "test-2024"] * 2)
    assert not one_venue.sortable_by_venue


def test_counts_match_a_plain_counter():
    """count_items tallies by identity first; equal but distinct refs still count as one."""
    from collections import Counter

    from generator.derive.counts import Count, count_items as _counts
    from generator.derive.views import TagRef

    a, a_copy, b, c = TagRef("a", "Alpha", ""), TagRef("a", "Alpha", ""), TagRef("b", "beta", ""), TagRef("c", "Beta", "")
    items = [b, a, c, a_copy, b, a, c, c]
    plain = Counter(items)
    expected = tuple(Count(item, n) for item, n in sorted(plain.items(), key=lambda kv: (-kv[1], kv[0].name.casefold())))
    assert _counts(items) == expected
    assert _counts(items)[0].item is a  # the first one met, as Counter keeps it
    assert _counts([]) == ()


def test_ref_counts_match_counts_on_a_derived_site(content):
    import itertools

    from generator.derive.counts import count_items as _counts, ref_counts as _ref_counts

    site = many_papers(content)
    for author in site.authors:
        refs = list(itertools.chain.from_iterable(p.authors for p in author.papers))
        assert author.coauthors == _counts(r for r in refs if r.slug != author.ref.slug)
        assert _ref_counts(refs, exclude=author.ref) == author.coauthors
    for venue in site.venues:
        assert venue.tag_counts == _counts(t for p in venue.papers for t in p.tags)
    for tag in site.tags:
        assert tag.venue_counts == _counts(p.venue for p in tag.papers)


def test_recently_added_lists_only_papers_with_a_date_newest_first(content):
    content.add_paper("undated", paper_md(title="Undated Work"))
    content.add_paper("older", paper_md(title="Older Work", extra="added: 2024-01-05"))
    content.add_paper("newer", paper_md(title="Newer Work", extra="added: 2024-03-01"))
    assert derive(load_catalog(content.root)).recent == ()  # two dated papers of five: no such section
    content.add_paper("oldest", paper_md(title="Oldest Work", extra="added: 2023-12-24"))
    site = derive(load_catalog(content.root))
    assert [v.slug for v in site.recent] == ["newer", "older", "oldest"]


def test_without_dates_the_home_page_has_no_recently_added_section(content, tmp_path, bundled_site):
    content.add_paper("undated", paper_md(title="Undated Work"))
    assert derive(load_catalog(content.root)).recent == ()
    # The bundled catalog has no dates either: its home page does not claim any.
    assert "Recently added" not in (bundled_site / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("threshold, with_page", [(1, {"ada-lovelace", "alan-turing", "grace-hopper"}),
                                                  (2, {"alan-turing", "grace-hopper"}),
                                                  (4, {"grace-hopper"}), (5, set())])
def test_author_pages_only_for_people_with_enough_papers(content, threshold, with_page):
    """author_page_min_papers (site.toml, default 1 up to 20,000 papers, else 2): a page only for people with that many
    papers; the others are still every paper's authors (and search's), without a URL."""
    content.write("site.toml", f'title = "Test shelf"\nauthor_page_min_papers = {threshold}\n')
    content.add_paper("third", title="Third", authors=("Grace Hopper", "Alan Turing"), body="Three.")
    content.add_paper("fourth", title="Fourth", authors=("Grace Hopper",), body="Four.")
    content.add_paper("fifth", title="Fifth", authors=("Grace Hopper",), body="Five.")
    content.add_paper("sixth", title="Sixth", authors=("Grace Hopper",), body="Six.")  # Ada 1, Alan 3, Grace 4
    site = derive(load_catalog(content.root))
    assert {a.ref.slug for a in site.authors} == with_page and site.author_count == 3
    refs = {a.slug: a for p in site.papers for a in p.authors}
    assert {slug for slug, ref in refs.items() if ref.url} == with_page
    assert all((ref.url is None) == (ref.path is None) for ref in refs.values())
    pages = {page.url for page in plan_pages(site)}
    assert {u for u in pages if u.startswith("authors/") and u.count("/") == 3} == {
        f"authors/{slug[:2]}/{slug}/" for slug in with_page}
    for author in site.authors:  # co-authors all listed, a link only where they have a page
        assert {c.item.slug for c in author.coauthors} <= set(refs)


def test_the_default_threshold_is_one_up_to_20000_papers_then_two(content):
    from generator.derive.people import page_threshold

    assert load_catalog(content.root).site.author_page_min_papers is None  # not set: by the catalog's size
    assert page_threshold(None, 2) == page_threshold(None, 20_000) == 1
    assert page_threshold(None, 20_001) == page_threshold(None, 100_000) == 2
    assert page_threshold(3, 10) == 3 and page_threshold(1, 100_000) == 1


def test_a_track_counts_as_its_venue_on_tag_pages(content):
    content.write("venues/acl-2022.md", "---\nname: ACL 2022\nfull_name: Proceedings of the 60th Annual Meeting of "
                  "the Association for Computational Linguistics\nyear: 2022\n---\n")
    content.add_paper("a", paper_md("Main One", venue="acl-2022"))
    content.add_paper("b", paper_md("Main Two", venue="acl-2022"))
    content.add_paper("c", paper_md("In Findings", venue="acl-2022", extra="track: findings"))
    content.add_paper("d", paper_md("Elsewhere"))
    site = derive(load_catalog(content.root))
    assert any(v.venue.track == "findings" for v in site.papers)
    tag = next(t for t in site.tags if t.ref.id == "graph-learning")
    acl = next(v.ref for v in site.venues if v.ref.id == "acl-2022")
    counts = {c.item.name: c.count for c in tag.venue_counts}
    assert counts["ACL 2022"] == 3 and "ACL 2022 Findings" not in counts
    assert len(tag.venue_counts) == len({p.venue.id for p in tag.papers})
    assert next(c.item for c in tag.venue_counts if c.item.id == "acl-2022") is acl
