"""`papershelf add ID --session DATE` (issue 34): the fetched papers go onto the session of
that day, whose file is created when there is none; a wrong date stops before any request."""

from __future__ import annotations

from click.testing import CliRunner

from generator.cli import main
from generator.content.loader import load_catalog
from generator.importers import fetch

from .test_add import DOI_URL, Recorded


def test_add_puts_the_fetched_paper_on_the_session(empty, monkeypatch):
    service = Recorded({DOI_URL: (200, "doi-csl.json")})
    monkeypatch.setattr(fetch, "urlopen", lambda request, timeout=None: service(request))
    runner = CliRunner()
    result = runner.invoke(main, ["add", "10.1145/3580305.3599999", "--session", "2025-03-04",
                                  "--content", str(empty.root)])
    assert result.exit_code == 0, result.output
    assert "Wrote the session" in result.output
    catalog = load_catalog(empty.root)
    (session,) = catalog.sessions
    assert session.id == "2025-03-04" and session.papers == tuple(p.slug for p in catalog.papers)
    again = runner.invoke(main, ["add", "10.1145/3580305.3599999", "--session", "2025-03-04",
                                 "--content", str(empty.root)])
    assert again.exit_code == 0 and "Added the papers to the session" in again.output
    assert load_catalog(empty.root).sessions[0].papers == session.papers  # each paper once


def test_a_wrong_session_date_stops_before_any_request(empty, monkeypatch):
    service = Recorded({})
    monkeypatch.setattr(fetch, "urlopen", lambda request, timeout=None: service(request))
    result = CliRunner().invoke(main, ["add", "10.1145/3580305.3599999", "--session", "04/03/2025",
                                       "--content", str(empty.root)])
    assert result.exit_code == 1 and "expected a date such as 2024-05-14" in result.output
    assert service.requests == [] and "Traceback" not in result.output
