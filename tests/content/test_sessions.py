"""Sessions as content (issue 34): content/sessions/<id>.md read and checked as papers are,
and the session files `papershelf session add` and `papershelf add --session` write."""

from __future__ import annotations

import datetime

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.content.loader import load_catalog
from generator.errors import ContentError
from generator.importers.sessions import add_session, attach_papers, with_papers

from ..conftest import CONTENT

BERLIN = 'title = "Test shelf"\ntimezone = "Europe/Berlin"\n'


def session_md(*lines: str, body: str = "We talked.") -> str:
    return "\n".join(["---", *lines, "---", body, ""])


def problems_of(content_root) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_catalog(content_root)
    return [str(p) for p in caught.value.problems]


def test_bundled_sessions_are_read_in_date_order():
    catalog = load_catalog(CONTENT)
    assert catalog.site.timezone == "Europe/Berlin"
    dates = [s.date for s in catalog.sessions]
    assert len(dates) >= 3 and dates == sorted(dates)
    slugs = {p.slug for p in catalog.papers}
    assert all(set(s.papers) <= slugs for s in catalog.sessions)
    untimed = [s for s in catalog.sessions if s.time is None]
    assert untimed, "the bundled catalog shows an all-day session too"


def test_a_valid_session(content):
    content.write("site.toml", BERLIN)
    content.write("sessions/week-1.md", session_md(
        "date: 2024-05-14", 'time: "16:00"', "title: 'On $\\theta$'", "papers: [fast-convergence, a-paper-on-graphs]",
        'presenters: ["Ada Lovelace"]', "place: https://meet.example.org/x", "links:", "  slides: https://example.org/s.pdf",
        body="Notes with $x^2$."))
    (session,) = load_catalog(content.root).sessions
    assert session.id == "week-1" and session.date == datetime.date(2024, 5, 14)
    assert session.time == datetime.time(16, 0) and session.papers == ("fast-convergence", "a-paper-on-graphs")
    assert session.links[0].label == "Slides" and session.notes == "Notes with $x^2$."
    assert session.source == "sessions/week-1.md"


@pytest.mark.parametrize("lines, expected", [
    (("date: 2024-05-14", "papers: [no-such-paper]"), ":3: papers: unknown paper 'no-such-paper'"),
    (("date: 2024-13-40", "papers: [fast-convergence]"), ":2: date: expected a date such as 2024-05-"),
    (("papers: [fast-convergence]",), ": date: required field is missing"),
    (("date: 2024-05-14", "time: 16:00", "papers: [fast-convergence]"), ':3: time: expected a time such as "16:00" in quotes'),
    (("date: 2024-05-14", 'time: "25:61"', "papers: [fast-convergence]"), ":3: time: expected a time such as"),
    (("date: 2024-05-14", "papers: []"), ":3: papers: expected one or more paper ids"),
    (("date: 2024-05-14", "papers: [fast-convergence]", "links:", "  slide: https://x.org/"), ":4: links: unknown link kind 'slide'"),
    (("date: 2024-05-14", "papers: [fast-convergence]", "speaker: Ada"), ":4: speaker: unknown field"),
])
def test_bad_sessions_name_file_line_and_field(content, lines, expected):
    content.write("site.toml", BERLIN)
    content.write("sessions/bad.md", session_md(*lines))
    found = problems_of(content.root)
    assert any(p.startswith("sessions/bad.md") and expected in p for p in found), found


def test_a_time_needs_the_sites_timezone(content):
    content.write("sessions/s.md", session_md("date: 2024-05-14", 'time: "16:00"', "papers: [fast-convergence]"))
    (problem,) = problems_of(content.root)
    assert problem.startswith("sessions/s.md:3: time:") and "timezone" in problem


def test_a_bad_timezone_is_an_error_naming_the_line(content):
    content.write("site.toml", 'title = "T"\ntimezone = "Europe/Atlantis"\n')
    (problem,) = problems_of(content.root)
    assert problem.startswith("site.toml:2: timezone: expected an IANA time zone"), problem


def test_a_broken_build_keeps_the_previous_site(content, tmp_path):
    content.write("site.toml", BERLIN)
    content.write("sessions/s.md", session_md("date: 2024-05-14", "papers: [fast-convergence]"))
    out = tmp_path / "site"
    runner = CliRunner()
    assert runner.invoke(main, ["build", "--content", str(content.root), "--output", str(out), "-q"]).exit_code == 0
    before = (out / "sessions" / "s" / "index.html").read_bytes()
    content.write("sessions/s.md", session_md("date: 2024-05-14", "papers: [gone]"))
    result = runner.invoke(main, ["build", "--content", str(content.root), "--output", str(out), "-q"])
    assert result.exit_code == 1 and "sessions/s.md:3: papers: unknown paper 'gone'" in result.output
    assert "Traceback" not in result.output
    assert (out / "sessions" / "s" / "index.html").read_bytes() == before


def test_session_add_writes_a_file_the_build_reads(content):
    content.write("site.toml", BERLIN)
    path = add_session(content.root, "2025-03-04", ["fast-convergence"], ["Jörg Müller", 'Ada "A" L'], "9:30")
    assert path == content.root / "sessions" / "2025-03-04.md"
    (session,) = load_catalog(content.root).sessions
    assert session.time == datetime.time(9, 30) and session.presenters == ("Jörg Müller", 'Ada "A" L')
    with pytest.raises(ContentError) as caught:  # an existing file is refused, and so are unknown papers
        add_session(content.root, "2025-03-04", ["nope"])
    text = "\n".join(str(p) for p in caught.value.problems)
    assert "exists already" in text and "unknown paper 'nope'" in text


def test_session_add_command(content):
    runner = CliRunner()
    args = ["session", "add", "2025-03-04", "--paper", "fast-convergence", "--time", "14:00", "--content", str(content.root)]
    result = runner.invoke(main, args)
    assert result.exit_code == 1 and "timezone" in result.output and "Traceback" not in result.output
    content.write("site.toml", BERLIN)
    assert runner.invoke(main, args).exit_code == 0
    assert load_catalog(content.root).sessions[0].papers == ("fast-convergence",)
    again = runner.invoke(main, args)
    assert again.exit_code == 1 and "exists already" in again.output
    bad = runner.invoke(main, ["session", "add", "2025-02-30", "--paper", "fast-convergence", "--content", str(content.root)])
    assert bad.exit_code == 1 and "DATE: expected a date" in bad.output


def test_add_to_a_session_extends_its_papers_and_keeps_the_rest(content):
    content.write("site.toml", BERLIN)
    original = session_md("date: 2024-05-14", "# who", "papers:", "  - fast-convergence", 'presenters: ["Ada"]',
                          body="Notes stay.")
    content.write("sessions/first-week.md", original)
    path, created = attach_papers(content.root, "2024-05-14", ["a-paper-on-graphs", "fast-convergence"])
    assert path.name == "first-week.md" and not created  # found by its date, not its name
    (session,) = load_catalog(content.root).sessions
    assert session.papers == ("fast-convergence", "a-paper-on-graphs") and session.presenters == ("Ada",)
    assert session.notes == "Notes stay." and "# who" in path.read_text(encoding="utf-8")
    path, created = attach_papers(content.root, "2024-06-01", ["a-paper-on-graphs"])
    assert created and path.name == "2024-06-01.md"
    assert [s.id for s in load_catalog(content.root).sessions] == ["first-week", "2024-06-01"]


def test_with_papers_adds_a_missing_field():
    text = with_papers("---\ndate: 2024-05-14\n---\nBody\n", "s.md", ["x"])
    assert text == "---\ndate: 2024-05-14\npapers: [x]\n---\nBody\n"


def test_new_catalog_has_an_example_session_and_the_edit_keys_commented(tmp_path):
    from generator.scaffold import new_catalog

    new_catalog(tmp_path / "shelf")
    site = (tmp_path / "shelf" / "content" / "site.toml").read_text(encoding="utf-8")
    assert "\n# repo_url = " in site and "\n# edit_uri = " in site and '\ntimezone = "' in site
    catalog = load_catalog(tmp_path / "shelf" / "content")
    (session,) = catalog.sessions
    assert session.papers == tuple(p.slug for p in catalog.papers) and session.notes
    workflow = (tmp_path / "shelf" / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "schedule:" in workflow and "cron:" in workflow
