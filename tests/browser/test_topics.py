"""Topics, topic maps and trends in Chromium: axe finds nothing in either theme on a phone
(375 px, and nothing wider than a 320 px one) and on a desktop; everything reads and every
link works without JavaScript.

Two sites: the bundled catalog (one year: topics, no year charts) and a small catalog of
three fields over three years (``field_catalog``), which has every chart: papers per
year on topic and tag pages, shares and risers on /trends/, a venue's topic mix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

import pytest

from generator.build import BuildOptions, build

from ..conftest import ContentDir
from ..derive.test_topics import field_texts
from .conftest import StaticServer
from .test_accessibility import DESKTOP, check_both_themes, goto_and_settle, run_axe

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 700}
VENUE = """---
name: "Test {year}"
full_name: "The Test Conference {year}"
year: {year}
---
A venue for tests.
"""


@pytest.fixture(scope="module")
def years_site(tmp_path_factory) -> Iterator[StaticServer]:
    root = tmp_path_factory.mktemp("topics-years")
    content = ContentDir(root / "content")
    for year in (2022, 2023, 2024):
        content.write(f"venues/test-{year}.md", VENUE.format(year=year))
    texts, truth = field_texts(8)
    for i, ((title, abstract), field) in enumerate(zip(texts, truth)):
        # Diffusion papers come late: a riser.
        year = 2022 + (i % 3) if field != "diffusion" else 2024 - (i % 2)
        tags = ("graph-learning",) if field == "graph" else ("optimization",) if field == "rl" else ()
        # Two papers of 2024 at a venue of that year only: the catalog's make-up changes,
        # which /trends/ says.
        venue = "late-2024" if year == 2024 and field == "graph" and i % 2 else f"test-{year}"
        content.add_paper(f"paper-{i:02d}", title=title, body=abstract, tags=tags, venue=venue)
    content.write("venues/late-2024.md", VENUE.replace("Test", "Late").format(year=2024))
    build(BuildOptions(content=content.root, output=root / "site"))
    server = StaticServer(root / "site")
    yield server
    server.close()


def first_topic(server: StaticServer, page) -> str:
    page.goto(server.url("/topics/"))
    return page.locator(".topic-list a").first.get_attribute("href")


@pytest.mark.slow
@pytest.mark.parametrize("which", ["bundled", "years"])
def test_no_axe_violations_on_topics_and_trends(browser, server, years_site, which):
    site = server if which == "bundled" else years_site
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        urls = ["/topics/", first_topic(site, page), "/trends/"]
        if which == "years":
            urls += ["/venues/test-2024/", "/tags/graph-learning/"]
        for url in urls:
            goto_and_settle(page, site.url(url))
            for details in page.locator("details.chart-numbers").all()[:3]:
                details.evaluate("d => d.open = true")

            def check(theme: str, url=url) -> None:
                for size in (DESKTOP, PHONE):
                    page.set_viewport_size(size)
                    violations = run_axe(page)
                    assert violations == [], f"{url} {theme} {size['width']}: " + json.dumps(violations, indent=1)
                page.set_viewport_size({"width": 320, "height": 640})
                assert page.evaluate("document.documentElement.scrollWidth") <= 320, url

            check_both_themes(page, check)
    finally:
        context.close()
    assert not errors, errors


def test_topics_read_and_link_without_javascript(browser, years_site):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(years_site.url("/topics/"))
        assert page.locator("svg.topic-map-svg circle").count() >= 2
        assert page.locator("svg.topic-map-svg").get_attribute("role") == "img"
        link = page.locator(".topic-list a").first
        name = link.inner_text()
        link.click()
        page.wait_for_load_state()
        assert page.locator("h1").inner_text() == name
        assert page.locator("#paper-list li").count() >= 1
        assert page.locator("svg.year-bars").count() == 1  # papers per year
        page.locator("details.chart-numbers summary").first.click()  # the numbers, no script needed
        numbers = page.locator("details.chart-numbers p").first.inner_text()
        assert re.search(r"2022: \d+ · 2023: \d+ · 2024: \d+", numbers)
        # A dot of the map is a link to its paper.
        href = page.locator(".paper-map a").first.get_attribute("href")
        page.goto(years_site.url(href))
        assert page.locator(".paper-topic a").inner_text() == name
        page.goto(years_site.url("/trends/"))
        assert "Rising fastest in 2023–2024" in page.locator("#risers-heading").inner_text()
        assert page.locator(".riser-list li").first.inner_text().startswith("Diffusion models")
        assert "Late has papers in only one of the two periods" in page.locator(".trend-note").inner_text()
        assert page.locator("#topic-shares-heading").count() == 1
    finally:
        context.close()


def test_a_topic_circle_is_a_link_to_its_topic_for_the_pointer(page, server):
    page.goto(server.url("/topics/"))
    circle = page.locator("svg.map-links a").first
    href = circle.get_attribute("href")
    title = circle.locator("title").text_content()
    circle.locator("circle").click()
    page.wait_for_url(re.compile(re.escape(href) + "$"))
    assert page.locator("h1").inner_text() == title.rsplit(":", 1)[0]
    assert Path(href).parts[-2] == "topics"
