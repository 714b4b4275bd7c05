"""What a catalog with sessions builds (issue 34): the calendar (read back with the icalendar
library: time zones, summer and winter time, all-day events, stable UIDs), the Atom feed, the
pages (upcoming and past as of the build's day, a paper's sessions, the home page), link
previews, edit links, and session notes in the search."""

from __future__ import annotations

import datetime
import html
import re
import xml.etree.ElementTree as ET
import zoneinfo

import icalendar
import pytest

from generator.build import BuildOptions, build

from ..conftest import ContentDir

BASE = "https://lab.example.org/shelf/"
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
BUILT_ON = datetime.datetime(2025, 1, 1, 12, tzinfo=datetime.timezone.utc)


def sessions_content(root, repo: str = "") -> ContentDir:
    c = ContentDir(root)
    c.write("site.toml", f'title = "Test shelf"\ndescription = "For tests."\ntimezone = "Europe/Berlin"\n{repo}')
    c.add_paper("a-paper-on-graphs", body="We study graph neural networks " + "and their depth " * 30 + ".")
    c.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                tags=("optimization",), body="Gradient descent converges at rate $O(1/t)$.")
    c.write("sessions/winter.md", "---\ndate: 2024-01-16\ntime: \"16:00\"\ntitle: Winter talk\n"
            "papers: [fast-convergence]\npresenters: [\"Ada Lovelace\"]\nplace: Room 1\n---\n"
            "We compared the rate with *momentum*; the zeppelinoid argument held.\n")
    c.write("sessions/summer.md", "---\ndate: 2024-07-02\ntime: \"16:00\"\n"
            "papers: [a-paper-on-graphs, fast-convergence]\n---\n")
    c.write("sessions/all-day.md", "---\ndate: 2024-03-31\npapers: [a-paper-on-graphs]\n---\n")
    c.write("sessions/future.md", "---\ndate: 2035-05-01\ntime: \"09:30\"\ntitle: Far ahead\n"
            "papers: [a-paper-on-graphs]\n---\n")
    return c


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("sessions")
    content = sessions_content(root / "content",
                               'repo_url = "https://github.com/lab/papers"\nedit_uri = "edit/main/content/"\n')
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", str(int(BUILT_ON.timestamp())))
        build(BuildOptions(content=content.root, output=root / "site", base_url=BASE, cache=None))
    return root / "site"


def events(site) -> dict[str, icalendar.Event]:
    calendar = icalendar.Calendar.from_ical((site / "sessions" / "sessions.ics").read_bytes())
    return {str(e["summary"]): e for e in calendar.walk("VEVENT")}


def test_calendar_times_in_the_sites_zone_summer_and_winter(built):
    found = events(built)
    winter = found["Winter talk"].decoded("dtstart")
    assert winter == datetime.datetime(2024, 1, 16, 16, 0, tzinfo=BERLIN)
    assert winter.utcoffset() == datetime.timedelta(hours=1)  # CET
    summer = next(e for name, e in found.items() if name.startswith("A Paper on Graphs ·")).decoded("dtstart")
    assert summer.utcoffset() == datetime.timedelta(hours=2)  # CEST
    assert summer.astimezone(datetime.timezone.utc).hour == 14
    text = (built / "sessions" / "sessions.ics").read_text(encoding="utf-8")
    assert "DTSTART;TZID=Europe/Berlin:20240116T160000" in text
    calendar = icalendar.Calendar.from_ical(text)
    assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["Europe/Berlin"]


def test_a_session_without_time_is_an_all_day_event(built):
    event = events(built)["A Paper on Graphs"]
    assert event.decoded("dtstart") == datetime.date(2024, 3, 31)
    assert not isinstance(event.decoded("dtstart"), datetime.datetime)
    assert event.decoded("dtend") == datetime.date(2024, 4, 1)


def test_calendar_events_name_papers_and_page_with_stable_uids(built, tmp_path):
    event = events(built)["Winter talk"]
    assert "Fast Convergence of Gradient Descent (Alan Turing)" in str(event["description"])
    assert str(event["url"]) == BASE + "sessions/winter/" and str(event["location"]) == "Room 1"
    uids = {str(e["uid"]) for e in events(built).values()}
    assert len(uids) == 4 and "session-winter@lab.example.org.shelf" in uids
    again = tmp_path / "again"  # another build, another day: the same UIDs and bytes
    content = sessions_content(tmp_path / "content",
                               'repo_url = "https://github.com/lab/papers"\nedit_uri = "edit/main/content/"\n')
    build(BuildOptions(content=content.root, output=again, base_url=BASE, cache=None))
    assert (again / "sessions" / "sessions.ics").read_bytes() == (built / "sessions" / "sessions.ics").read_bytes()


def test_atom_feed_of_sessions(built):
    ns = {"a": "http://www.w3.org/2005/Atom"}
    feed = ET.fromstring((built / "sessions" / "feed.xml").read_bytes())
    entries = feed.findall("a:entry", ns)
    assert [e.find("a:id", ns).text for e in entries][:2] == [BASE + "sessions/future/", BASE + "sessions/summer/"]
    winter = next(e for e in entries if e.find("a:id", ns).text.endswith("/winter/"))
    assert winter.find("a:author/a:name", ns).text == "Ada Lovelace"
    assert "zeppelinoid" in winter.find("a:content", ns).text


def page(site, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def test_sessions_page_upcoming_then_past_by_year(built):
    text = page(built, "sessions")
    upcoming, past = text.split('id="past-heading"')
    assert "sessions/future/" in upcoming and "sessions/winter/" not in upcoming
    order = [m for m in re.findall(r'href="/shelf/(sessions/[a-z-]+/)"', past)]
    assert order == ["sessions/summer/", "sessions/all-day/", "sessions/winter/"]  # newest first
    assert 'href="/shelf/sessions/sessions.ics"' in text and 'href="/shelf/sessions/feed.xml"' in text
    assert 'href="webcal://lab.example.org/shelf/sessions/sessions.ics"' in text


def test_paper_pages_name_their_sessions_and_home_shows_the_next(built):
    paper = page(built, "papers/test-2024/fast-convergence")
    mentions = paper.split('class="paper-sessions"')[1].split("</section>")[0]
    assert re.findall(r'href="/shelf/(sessions/[a-z-]+/)"', mentions) == ["sessions/winter/", "sessions/summer/"]
    assert "presented by Ada Lovelace" in mentions
    home = page(built, "")
    assert ">Next session</h2>" in home
    shown = re.findall(r'<li class="session-item"[^>]*>', home)
    assert [("hidden" in li) for li in shown] == [True, False]  # the last past one waits hidden


def test_link_previews_on_paper_pages(built):
    paper = page(built, "papers/test-2024/a-paper-on-graphs")
    description = html.unescape(re.search(r'<meta property="og:description" content="([^"]*)"', paper).group(1))
    assert description.startswith("We study graph neural networks") and 150 <= len(description) <= 210
    assert f'<meta property="og:url" content="{BASE}papers/test-2024/a-paper-on-graphs/">' in paper
    assert '<meta property="og:type" content="article">' in paper
    assert '<meta name="twitter:card" content="summary">' in paper
    assert '<meta name="description" content="We study graph' in paper
    assert '<meta property="og:site_name" content="Test shelf">' in paper


def test_edit_and_report_links(built):
    paper = page(built, "papers/test-2024/fast-convergence")
    assert 'href="https://github.com/lab/papers/edit/main/content/papers/fast-convergence.md"' in paper
    report = html.unescape(re.search(r'<a href="([^"]*)" rel="nofollow">Report a problem', paper).group(1))
    assert report.startswith("https://github.com/lab/papers/issues/new?title=")
    assert "fast-convergence%2F" in report or "fast-convergence/" in report
    assert "edit/main/content/venues/test-2024.md" in page(built, "venues/test-2024")
    assert "edit/main/content/sessions/winter.md" in page(built, "sessions/winter")
    assert "Edit this page" not in page(built, "tags")


def test_gitlab_issue_links_and_no_edit_links_without_repo(tmp_path):
    from generator.content.model import SiteConfig
    from generator.outputs.page_meta import edit_links
    from generator.outputs.pages import Page

    page_ = Page("papers/v/x/", "paper.html", "A title", {"paper": type("P", (), {"source": "papers/x.md"})()})
    links = edit_links(page_, SiteConfig(title="T", repo_url="https://gitlab.com/lab/papers"))
    assert links.edit == "https://gitlab.com/lab/papers/edit/main/content/papers/x.md"
    assert links.report.startswith("https://gitlab.com/lab/papers/-/issues/new?issue%5Btitle%5D=")
    own = edit_links(page_, SiteConfig(title="T", repo_url="https://git.example.org/p", edit_uri="src/branch/main/content/"))
    assert own.edit == "https://git.example.org/p/src/branch/main/content/papers/x.md" and own.report is None
    assert edit_links(page_, SiteConfig(title="T")) is None


def test_session_notes_are_searched_with_their_papers(built):
    import gzip
    import json

    found = False
    for path in (built / "search" / "dict").glob("*.json.gz"):
        if '"zeppelinoid"' in gzip.decompress(path.read_bytes()).decode("utf-8"):
            found = True
    assert found, "a word only the session's notes hold is in the search dictionary"
    assert json.loads((built / "search" / "meta.json").read_text(encoding="utf-8"))["count"] == 2


def test_a_build_runs_again_when_a_sessions_day_is_over(tmp_path, monkeypatch):
    """Nothing else changed, but the day did: the split moves (a no-change build the same day
    does nothing)."""
    content = sessions_content(tmp_path / "content")
    out = tmp_path / "site"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime.datetime(2035, 4, 30, 12, tzinfo=datetime.timezone.utc).timestamp())))
    build(BuildOptions(content=content.root, output=out, base_url="/", cache=None))
    assert "sessions/future/" in page(out, "sessions").split('id="past-heading"')[0]
    again = build(BuildOptions(content=content.root, output=out, base_url="/", cache=None))
    assert again.files_changed == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime.datetime(2035, 5, 3, 12, tzinfo=datetime.timezone.utc).timestamp())))
    build(BuildOptions(content=content.root, output=out, base_url="/", cache=None))
    assert "sessions/future/" in page(out, "sessions").split('id="past-heading"')[1]


def test_the_feeds_share_one_set_of_atom_helpers():
    from generator.outputs import atom, exports, session_feed

    for name in ("ATOM_NS", "XML_LANG"):
        assert getattr(session_feed, name) is getattr(exports, name) is getattr(atom, name)
    assert session_feed.sub is exports._sub is atom.sub and session_feed.timestamp is exports._timestamp
    assert atom.xml_text("Graphs\x00 and\x1b trees\ufffe") == "Graphs and trees"
    assert atom.timestamp(datetime.date(2024, 1, 16)) == "2024-01-16T00:00:00Z"


def test_the_build_day_and_the_clock_inputs_read_one_source_date_epoch(tmp_path, monkeypatch):
    from generator.content.model import SiteConfig
    from generator.derive.sessions import build_day, build_now, clock_inputs

    (tmp_path / "sessions").mkdir()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", f" {int(BUILT_ON.timestamp())} ")
    assert build_now() == BUILT_ON
    assert build_day(SiteConfig(title="Shelf", timezone="Pacific/Kiritimati")) == datetime.date(2025, 1, 2)  # UTC+14
    assert clock_inputs(tmp_path) == ["sessions", "2025-01-01", "2025-01-02"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")  # ignored: now
    assert abs(build_now() - datetime.datetime.now(datetime.timezone.utc)) < datetime.timedelta(hours=1)


def test_an_online_place_is_labelled_alike_in_lists_and_on_its_page(tmp_path, monkeypatch):
    from generator.content.loader import load_catalog
    from generator.derive.views import derive

    content = sessions_content(tmp_path / "content")
    content.write("sessions/online.md", "---\ndate: 2035-05-08\ntime: \"10:00\"\ntitle: On a call\n"
                  "papers: [fast-convergence]\nplace: https://meet.example.org/reading-group\n---\n")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(BUILT_ON.timestamp())))
    sessions = derive(load_catalog(content.root)).sessions
    views = {s.id: s for s in sessions.sessions}
    assert (views["online"].place_label, views["online"].place_url) == ("Online", "https://meet.example.org/reading-group")
    assert (views["winter"].place_label, views["winter"].place_url) == ("Room 1", None)
    # The home page's entries: all but the one shown without script hidden, decided here.
    assert [(h.session.id, h.hidden) for h in sessions.home] == [("summer", True), ("future", False), ("online", True)]
    build(BuildOptions(content=content.root, output=tmp_path / "site", base_url="/", cache=None))
    link = '<a href="https://meet.example.org/reading-group">Online</a>'
    assert link in page(tmp_path / "site", "sessions") and link in page(tmp_path / "site", "sessions/online")
    assert "Room 1" in page(tmp_path / "site", "sessions/winter")
