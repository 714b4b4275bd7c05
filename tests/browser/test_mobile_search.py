"""Search on a phone (Chromium at 320 px): the results come first, within the first screen;
the filters fold into "Filters (n active)"; the keyboard help shows only where there is a
keyboard; axe finds nothing in either theme, with or without script."""

from __future__ import annotations

import json

import pytest

from .test_accessibility import run_axe
from .test_search import results_for

pytestmark = pytest.mark.browser

PHONE = {"width": 320, "height": 640}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def phone(browser):
    """A touch phone: 320 x 640, no mouse and no hover, so no keyboard is assumed."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def first_result(page) -> dict:
    """Where the first result and its title are, and the screen's height."""
    return page.evaluate("""() => {
        const li = document.querySelector('#search-results > li');
        const title = li.querySelector('.paper-item-title').getBoundingClientRect();
        return {top: li.getBoundingClientRect().top, title_bottom: title.bottom, screen: innerHeight,
                scrolled: scrollY, box_bottom: document.getElementById('search-input').getBoundingClientRect().bottom};
    }""")


@pytest.mark.parametrize("touch", [True, False], ids=["touch-phone", "narrow-window-with-mouse"])
@pytest.mark.parametrize("query", ["q=learning", "q=learning&tag=optimization&venue=iclr-2024"])
def test_the_first_result_is_on_the_first_screen(browser, server, touch, query):
    """Measured at 320 x 640: the first result started at y=775 (below the fold) when the
    keyboard help, the header's box and three selects came first; its title now ends on the
    first screen, filters or not."""
    context = browser.new_context(viewport=PHONE, is_mobile=touch, has_touch=touch)
    page = context.new_page()
    try:
        page.goto(server.url("/search/?" + query))
        results_for(page, "learning")
        where = first_result(page)
        assert where["scrolled"] == 0
        assert where["box_bottom"] < where["top"]  # below the box, not beside or above it
        assert where["title_bottom"] <= where["screen"], where
        assert where["top"] <= 0.75 * where["screen"], where
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_filters_are_folded_on_a_phone_and_count_the_active_ones(phone, server):
    phone.goto(server.url("/search/?q=learning"))
    results_for(phone, "learning")
    fold = phone.locator("#search-filters-box")
    summary = fold.locator("summary")
    assert fold.is_visible() and summary.inner_text().strip() == "Filters"
    assert fold.get_attribute("open") is None
    assert not phone.locator("#search-filter-venue").is_visible()
    summary.tap()
    assert phone.locator("#search-filter-venue").is_visible()
    phone.select_option("#search-filter-venue", "iclr-2024")
    phone.wait_for_function("() => new URL(location.href).searchParams.get('venue') === 'iclr-2024'")
    assert summary.inner_text().strip() == "Filters (1 active)"
    phone.select_option("#search-filter-year", "2024")
    phone.wait_for_function("() => new URL(location.href).searchParams.get('year') === '2024'")
    assert summary.inner_text().strip() == "Filters (2 active)"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # open, still fits
    # Opened afresh: folded again, the count still says what narrows the results.
    phone.goto(phone.url)
    results_for(phone, "learning")
    assert fold.get_attribute("open") is None
    assert summary.inner_text().strip() == "Filters (2 active)"
    badges = phone.eval_on_selector_all("#search-results .badge-venue", "els => els.map(e => e.textContent)")
    assert badges and set(badges) == {"ICLR 2024"}


def test_filters_are_open_on_a_wide_screen(page, server):
    page.goto(server.url("/search/?q=learning&tag=optimization"))
    results_for(page, "learning")
    assert page.locator("#search-filters-box").get_attribute("open") is not None
    for key in ("venue", "tag", "year"):
        assert page.locator(f"#search-filter-{key}").is_visible()
    assert page.locator("#search-filters-box summary").inner_text().strip() == "Filters (1 active)"


def test_keyboard_help_only_where_there_is_a_keyboard(phone, page, server):
    for pg in (phone, page):
        pg.goto(server.url("/search/"))
        pg.locator("#search-results[data-state=ready]").wait_for(state="attached")
        assert pg.locator("#search-help").is_visible()  # an empty box: the help says what it does
        assert "as you type" in pg.locator("#search-help").inner_text()
    assert not phone.locator("#search-help kbd").first.is_visible()
    assert "Press" not in phone.locator("#search-help").inner_text()
    assert page.locator("#search-help kbd").first.is_visible()  # a mouse, hence a keyboard
    assert "Press" in page.locator("#search-help").inner_text()


def test_on_a_phone_the_help_gives_way_to_results(phone, page, server):
    phone.goto(server.url("/search/"))
    phone.locator("#search-input").fill("diffusion")
    results_for(phone, "diffusion")
    assert not phone.locator("#search-help").is_visible()
    phone.locator("#search-input").fill("")
    assert phone.locator("#search-help").is_visible()
    page.goto(server.url("/search/?q=diffusion"))  # on a wide screen there is room for both
    results_for(page, "diffusion")
    assert page.locator("#search-help").is_visible()


def test_the_search_pages_header_has_the_theme_toggle_beside_the_title(phone, server):
    phone.goto(server.url("/search/?q=learning"))
    results_for(phone, "learning")
    assert phone.locator("#header-q").count() == 0
    toggle = phone.locator("#theme-toggle").bounding_box()
    title = phone.locator(".site-title").bounding_box()
    nav = phone.locator(".site-nav").bounding_box()
    assert toggle["y"] < title["y"] + title["height"] and toggle["y"] + toggle["height"] <= nav["y"] + 1
    assert toggle["x"] > title["x"] + title["width"] - 1


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_no_axe_violations_on_a_phone(browser, server, theme, script):
    """axe (all rules) at 320 px in both themes: with script, filters folded and then open
    with one active; without script, the notice."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, color_scheme=theme)
    page = context.new_page()
    try:
        if not script:
            # axe needs script, so the page runs without its own: no script file loads, and
            # the <noscript> content is put in place, as a browser without script shows it.
            page.route("**/*.js", lambda route: route.abort())
        page.goto(server.url("/search/?q=learning"))
        if script:
            results_for(page, "learning")
            assert run_axe(page) == [], "folded"
            page.locator("#search-filters-box summary").tap()
            page.select_option("#search-filter-tag", "optimization")
            page.wait_for_function("() => new URL(location.href).searchParams.get('tag') === 'optimization'")
            results_for(page, "learning")
        else:
            page.evaluate("document.querySelectorAll('noscript').forEach(n => { n.outerHTML = n.textContent; })")
            assert page.locator(".search-noscript").is_visible()
            assert page.locator("#search-input").is_disabled()
        violations = run_axe(page)
        assert violations == [], json.dumps(violations, indent=1)
    finally:
        context.close()
