"""Sessions in Chromium (issue 34): the upcoming/past split the build made, corrected from the
visitor's clock (Playwright's clock set before, on and after a session), the page without
script, the home page's next or last session, axe on the moved lists, and a search result
that names the session whose notes matched."""

from __future__ import annotations

import datetime
import json

import pytest

from generator.build import BuildOptions, build

from ..outputs.test_sessions_output import BUILT_ON, sessions_content
from .conftest import StaticServer, complete_result
from .test_accessibility import PHONE, check_both_themes, run_axe
from .test_search import open_search, search

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def sessions_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("sessions-site")
    content = sessions_content(root / "content")
    with pytest.MonkeyPatch.context() as mp:  # built on 1 January 2025: only the 2035 session is upcoming
        mp.setenv("SOURCE_DATE_EPOCH", str(int(BUILT_ON.timestamp())))
        build(BuildOptions(content=content.root, output=root / "site", base_url="/", cache=None))
    server = StaticServer(root / "site")
    yield server
    server.close()


def at(browser, when: datetime.datetime | None, *, script: bool = True):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if when is not None:
        page.clock.set_fixed_time(when)
    return context, page, errors


def split(page) -> dict[str, list[str]]:
    return page.evaluate("""() => ({
        upcoming: [...document.querySelectorAll('[data-sessions=upcoming] .session-item')]
            .filter(li => !li.hidden).map(li => li.querySelector('.session-title a').getAttribute('href')),
        past: [...document.querySelectorAll('[data-sessions=past] .session-year')].map(section =>
            section.querySelector('h3').textContent + ': ' + [...section.querySelectorAll('.session-title a')]
                .map(a => a.getAttribute('href')).join(' ')),
        levels: [...document.querySelectorAll('.session-title')].map(h => h.tagName),
        none: [...document.querySelectorAll('.session-none')].map(p => !p.hidden),
    })""")


def utc(*args) -> datetime.datetime:
    return datetime.datetime(*args, tzinfo=datetime.timezone.utc)


def test_without_script_the_build_day_decides(browser, sessions_server):
    context, page, _ = at(browser, None, script=False)
    try:
        page.goto(sessions_server.url("/sessions/"))
        found = split(page)
        assert found["upcoming"] == ["/sessions/future/"]
        assert found["past"] == ["2024: /sessions/summer/ /sessions/all-day/ /sessions/winter/"]
        page.goto(sessions_server.url("/"))
        assert page.locator(".home-sessions h2").text_content() == "Next session"
        assert page.locator(".home-sessions .session-item:visible .session-title").text_content() == "Far ahead"
    finally:
        context.close()


def test_a_clock_before_the_sessions_makes_them_upcoming(browser, sessions_server):
    context, page, errors = at(browser, utc(2024, 5, 1, 9))
    try:
        page.goto(sessions_server.url("/sessions/"))
        found = split(page)
        assert found["upcoming"] == ["/sessions/summer/", "/sessions/future/"]  # soonest first
        assert found["past"] == ["2024: /sessions/all-day/ /sessions/winter/"]
        assert found["levels"] == ["H3", "H3", "H4", "H4"] and found["none"] == [False, False]
        page.goto(sessions_server.url("/"))
        assert page.locator(".home-sessions h2").text_content() == "Next session"
        visible = page.locator(".home-sessions .session-item:visible")
        assert visible.count() == 1 and visible.locator(".session-title a").get_attribute("href") == "/sessions/summer/"
    finally:
        context.close()
    assert not errors


@pytest.mark.parametrize("when, upcoming", [
    (utc(2024, 7, 2, 21, 59), True),  # 23:59 in Berlin on the session's day: still today's session
    (utc(2024, 7, 2, 22, 1), False),  # 00:01 the next day in Berlin
])
def test_a_session_is_upcoming_until_its_day_ends_in_the_sites_zone(browser, sessions_server, when, upcoming):
    context, page, errors = at(browser, when)
    try:
        page.goto(sessions_server.url("/sessions/"))
        assert ("/sessions/summer/" in split(page)["upcoming"]) is upcoming
    finally:
        context.close()
    assert not errors


def test_a_clock_after_every_session_shows_the_last_one(browser, sessions_server):
    context, page, errors = at(browser, utc(2036, 1, 1))
    try:
        page.goto(sessions_server.url("/sessions/"))
        found = split(page)
        assert found["upcoming"] == [] and found["none"] == [True, False]
        assert found["past"] == ["2035: /sessions/future/", "2024: /sessions/summer/ /sessions/all-day/ /sessions/winter/"]
        page.goto(sessions_server.url("/"))
        assert page.locator(".home-sessions h2").text_content() == "Last session"
        assert page.locator(".home-sessions .session-item:visible .session-title").text_content() == "Far ahead"
    finally:
        context.close()
    assert not errors


@pytest.mark.slow
def test_moved_sessions_pass_axe_in_both_themes_and_on_a_phone(browser, sessions_server):
    context, page, errors = at(browser, utc(2024, 5, 1, 9))
    try:
        for url in ("/sessions/", "/sessions/winter/", "/"):
            page.set_viewport_size({"width": 1280, "height": 900})
            page.goto(sessions_server.url(url))

            def check(theme: str) -> None:
                page.set_viewport_size(PHONE)
                violations = run_axe(page)
                assert violations == [], f"{url}, {theme}: " + json.dumps(violations, indent=1)
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

            check_both_themes(page, check)
    finally:
        context.close()
    assert not errors


def test_a_search_result_names_the_session_whose_notes_matched(page, sessions_server):
    open_search(page, sessions_server)
    assert search(page, "zeppelinoid") == ["fast-convergence"]
    result = complete_result(page, "fast-convergence")
    line = result.locator(".search-sessions")
    assert line.text_content().startswith("Discussed: ")
    assert line.locator("a").first.get_attribute("href").endswith("/sessions/winter/")


def test_a_search_result_before_its_session_says_it_is_to_be_discussed(browser, sessions_server):
    """The words follow the visitor's clock, as the sessions' pages do: before the winter
    session (2024-01-16, Berlin) its paper is "to be discussed"."""
    context, page, errors = at(browser, utc(2024, 1, 10, 9))
    try:
        open_search(page, sessions_server)
        assert search(page, "zeppelinoid") == ["fast-convergence"]
        line = complete_result(page, "fast-convergence").locator(".search-sessions")
        assert line.text_content().startswith("To be discussed: ")
        assert line.locator("a").first.get_attribute("href").endswith("/sessions/winter/")
    finally:
        context.close()
    assert not errors
