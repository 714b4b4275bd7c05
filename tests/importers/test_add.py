"""``add_papers`` (``papershelf add ID...``): IDs to requests, recorded answers to paper
files, and the ways it stops without writing anything. No network: every test passes an
``opener`` that answers from the files in data/add/ (or fails as the network would)."""

from __future__ import annotations

import email.message
import io
import socket
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.request import Request

import pytest
import yaml

from generator.content.loader import load_catalog
from generator.errors import ContentError
from generator.importers import fetch
from generator.importers.common import CREATED, UNCHANGED
from generator.importers.fetch import ARXIV, DOI, OPENREVIEW, PaperId, add_papers, parse_paper_id

from .conftest import tree

DATA = Path(__file__).parent / "data" / "add"
ARXIV_BOTH = "https://export.arxiv.org/api/query?id_list=2305.18436,hep-th/0601001&max_results=2"
DOI_URL = "https://doi.org/10.1145/3580305.3599999"
OPENREVIEW_V2 = "https://api2.openreview.net/notes?id=Xy7Zq2WbNc"
EVERY_SERVICE = {ARXIV_BOTH: (200, "arxiv.xml"), DOI_URL: (200, "doi-csl.json"),
                 OPENREVIEW_V2: (200, "openreview-notes.json")}
EVERY_KIND = ["arXiv:2305.18436v2", "https://arxiv.org/abs/hep-th/0601001v3", "https://doi.org/10.1145/3580305.3599999",
              "https://openreview.net/forum?id=Xy7Zq2WbNc"]


class Recorded:
    """An opener that answers each URL from a file (status, name in data/add/) and keeps the requests."""

    def __init__(self, answers: dict[str, tuple[int, str]]):
        self.answers = answers
        self.requests: list[Request] = []

    def __call__(self, request: Request):
        self.requests.append(request)
        assert request.full_url in self.answers, f"unexpected request {request.full_url}"
        status, name = self.answers[request.full_url]
        body = (DATA / name).read_bytes() if name else b""
        if status != 200:
            raise HTTPError(request.full_url, status, {400: "Bad Request", 404: "Not Found",
                                                       503: "Service Unavailable"}[status],
                            email.message.Message(), io.BytesIO(body))
        return io.BytesIO(body)

    @property
    def urls(self) -> list[str]:
        return [r.full_url for r in self.requests]


def failing(error: BaseException):
    calls: list[Request] = []

    def opener(request: Request):
        calls.append(request)
        raise error
    opener.calls = calls  # type: ignore[attr-defined]
    return opener



def front(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n", 2)[1])



# --------------------------------------------------------------------------- IDs


@pytest.mark.parametrize("argument, expected", [
    ("2305.18436", (ARXIV, "2305.18436")),
    ("arXiv:2305.18436v2", (ARXIV, "2305.18436")),
    (" hep-th/9901001v1 ", (ARXIV, "hep-th/9901001")),
    ("https://arxiv.org/abs/2305.18436v3", (ARXIV, "2305.18436")),
    ("http://www.arxiv.org/pdf/2305.18436v1.pdf", (ARXIV, "2305.18436")),
    ("arxiv.org/html/2305.18436", (ARXIV, "2305.18436")),
    ("https://export.arxiv.org/abs/math.GT/0309136", (ARXIV, "math.GT/0309136")),
    ("10.48550/arXiv.2305.18436", (ARXIV, "2305.18436")),  # arXiv's own DOIs: asked of arXiv
    ("10.1145/3580305.3599999", (DOI, "10.1145/3580305.3599999")),
    ("doi:10.1103/PhysRevD.73.046001", (DOI, "10.1103/PhysRevD.73.046001")),
    ("https://doi.org/10.1000/a%3Cb%3E", (DOI, "10.1000/a<b>")),
    ("https://dx.doi.org/10.1000/xyz", (DOI, "10.1000/xyz")),
    ("https://openreview.net/forum?id=Xy7Zq2WbNc&noteId=abc", (OPENREVIEW, "Xy7Zq2WbNc")),
    ("https://openreview.net/pdf?id=Xy7Zq2WbNc", (OPENREVIEW, "Xy7Zq2WbNc")),
    ("openreview:rJl0r3R9KX", (OPENREVIEW, "rJl0r3R9KX")),
    ("rJl0r3R9KX", (OPENREVIEW, "rJl0r3R9KX")),
    ("attention", None),
    ("2305.184", None),
    ("10.1145", None),
    ("doi:not-a-doi", None),
    ("https://example.org/paper.pdf", None),
    ("https://openreview.net/group?id=ICLR.cc/2024/Conference", None),
    ("https://arxiv.org/list/cs.LG/recent", None),
    ("", None),
])
def test_ids_name_their_service(argument, expected):
    paper = parse_paper_id(argument)
    assert (paper if paper is None else (paper.service, paper.value)) == expected
    if paper is not None:
        assert paper == PaperId(paper.service, paper.value, argument)


# --------------------------------------------------------------------------- fetching and importing


def test_every_service_is_asked_once_and_every_paper_is_imported(empty):
    service = Recorded(EVERY_SERVICE)
    report = add_papers(EVERY_KIND, empty.root, opener=service)
    assert sorted(service.urls) == sorted(EVERY_SERVICE)  # both arXiv IDs in one request
    assert all(r.get_header("User-agent").startswith("Papershelf/") for r in service.requests)
    assert dict(zip(service.urls, (r.get_header("Accept") for r in service.requests)))[DOI_URL] == \
        "application/vnd.citationstyles.csl+json"
    assert [(p.file, p.status) for p in report.papers] == [(argument, CREATED) for argument in EVERY_KIND]
    assert report.summary().startswith("Added 4 papers for 4 IDs (arXiv: 2, DOI: 1, OpenReview: 1): 4 created, "
                                       "0 updated, 0 unchanged, 0 kept-edited.")
    catalog = load_catalog(empty.root)
    papers = {p.slug: p for p in catalog.papers}

    gnn = papers[report.papers[0].slug]
    assert (gnn.venue, gnn.presentation, gnn.authors) == ("neurips-2023", "spotlight", ("Ada Lovelace", "Kurt Gödel"))
    assert dict((link.kind, link.url) for link in gnn.links) == {"pdf": "https://arxiv.org/pdf/2305.18436",
                                                                 "arxiv": "https://arxiv.org/abs/2305.18436"}
    assert papers[report.papers[1].slug].venue == "phys-rev-d-2006"

    kdd = papers[report.papers[2].slug]
    assert kdd.title == "Contrastive Learning on Graph Streams at Scale"
    assert (kdd.venue, kdd.authors) == ("kdd-2023", ("Grace Hopper", "Alan Turing"))
    assert "https://doi.org/10.1145/3580305.3599999" in [link.url for link in kdd.links]

    iclr = papers[report.papers[3].slug]
    assert (iclr.title, iclr.venue, iclr.presentation) == ("Sparse Transformers Converge Faster", "iclr-2024", "poster")
    assert ("openreview", "https://openreview.net/forum?id=Xy7Zq2WbNc") in [(l.kind, l.url) for l in iclr.links]


def test_adding_twice_changes_nothing(empty):
    add_papers(EVERY_KIND, empty.root, opener=Recorded(EVERY_SERVICE))
    before = tree(empty.root)
    again = add_papers(EVERY_KIND, empty.root, opener=Recorded(EVERY_SERVICE))
    assert set(again.statuses.values()) == {UNCHANGED} and tree(empty.root) == before
    assert again.venues_created == []


def test_the_same_paper_twice_is_fetched_and_added_once(empty):
    service = Recorded({"https://export.arxiv.org/api/query?id_list=2305.18436,hep-th/0601001&max_results=2":
                        (200, "arxiv.xml")})
    report = add_papers(["2305.18436", "https://arxiv.org/pdf/2305.18436v1", "hep-th/0601001"], empty.root,
                        opener=service)
    assert len(service.requests) == 1 and len(report.papers) == 2
    assert report.warnings == ["https://arxiv.org/pdf/2305.18436v1: the same paper as 2305.18436; added once"]


def test_venue_option_puts_every_paper_there(empty):
    empty.write("venues/reading-2024.md", "---\nname: Reading 2024\nfull_name: Reading list 2024\nyear: 2024\n---\n")
    report = add_papers(["2305.18436", "hep-th/0601001"], empty.root, venue="reading-2024",
                        opener=Recorded({ARXIV_BOTH: (200, "arxiv.xml")}))
    assert {front(empty.root / "papers" / f"{p.slug}.md")["venue"] for p in report.papers} == {"reading-2024"}


# --------------------------------------------------------------------------- refusals: nothing written


@pytest.mark.parametrize("error, reason", [
    (URLError(socket.gaierror(-3, "Temporary failure in name resolution")),
     "[Errno -3] Temporary failure in name resolution"),
    (URLError(ConnectionRefusedError(111, "Connection refused")), "[Errno 111] Connection refused"),
    (URLError(TimeoutError("timed out")), "no answer within 20 s"),
    (TimeoutError("The read operation timed out"), "no answer within 20 s"),
    (ConnectionResetError(104, "Connection reset by peer"), "[Errno 104] Connection reset by peer"),
])
def test_offline_is_one_clear_problem_and_nothing_is_written(empty, error, reason):
    before = tree(empty.root)
    opener = failing(error)
    with pytest.raises(ContentError) as caught:
        add_papers(EVERY_KIND, empty.root, opener=opener)
    assert [str(p) for p in caught.value.problems] == [
        f"papershelf add: cannot reach export.arxiv.org: {reason}; papershelf add needs the network"]
    assert len(opener.calls) == 1  # the first service that fails stops the run
    assert tree(empty.root) == before


def test_an_http_error_of_the_service_stops_the_run(empty):
    with pytest.raises(ContentError) as caught:
        add_papers(["2305.18436"], empty.root, opener=Recorded({
            "https://export.arxiv.org/api/query?id_list=2305.18436&max_results=1": (503, "")}))
    assert caught.value.problems[0].message == ("export.arxiv.org answered HTTP 503 (Service Unavailable); "
                                                "try again later")


def test_ids_that_name_nothing_are_refused_before_any_request(empty):
    opener = failing(AssertionError("no request may be made"))
    with pytest.raises(ContentError) as caught:
        add_papers(["attention", "2305.18436", "https://example.org/x.pdf"], empty.root, opener=opener)
    assert [p.file for p in caught.value.problems] == ["attention", "https://example.org/x.pdf"]
    assert "is not an arXiv id (2305.18436" in caught.value.problems[0].message
    assert opener.calls == []
    with pytest.raises(ContentError, match="unknown venue 'nope'"):
        add_papers(["2305.18436"], empty.root, venue="nope", opener=opener)
    with pytest.raises(ContentError, match="no IDs given"):
        add_papers([], empty.root, opener=opener)
    assert opener.calls == []


def test_the_arxiv_error_feed_and_unknown_ids_are_problems(empty):
    before = tree(empty.root)
    with pytest.raises(ContentError) as caught:
        add_papers(["2305.18436", "hep-th/0601001"], empty.root,
                   opener=Recorded({ARXIV_BOTH: (400, "arxiv-error.xml")}))
    assert [str(p) for p in caught.value.problems] == [
        "export.arxiv.org:10: id: the arXiv API answered with an error: incorrect id format for 2305.1843x"]
    with pytest.raises(ContentError) as caught:
        add_papers(["2305.99999"], empty.root, opener=Recorded({
            "https://export.arxiv.org/api/query?id_list=2305.99999&max_results=1": (200, "arxiv-empty.xml")}))
    assert [str(p) for p in caught.value.problems] == ["2305.99999: id: arXiv has no paper 2305.99999"]
    assert tree(empty.root) == before


def test_one_unknown_id_stops_the_whole_batch(empty):
    before = tree(empty.root)
    service = Recorded({ARXIV_BOTH: (200, "arxiv.xml"), DOI_URL: (404, ""),
                        OPENREVIEW_V2: (404, "openreview-not-found.json"),
                        "https://api.openreview.net/notes?id=Xy7Zq2WbNc": (200, "openreview-empty.json")})
    with pytest.raises(ContentError) as caught:
        add_papers(EVERY_KIND, empty.root, opener=service)
    assert [str(p) for p in caught.value.problems] == [
        "https://doi.org/10.1145/3580305.3599999: DOI: doi.org does not know the DOI 10.1145/3580305.3599999",
        "https://openreview.net/forum?id=Xy7Zq2WbNc: id: OpenReview has no note Xy7Zq2WbNc",
    ]
    assert tree(empty.root) == before


@pytest.mark.parametrize("name", ["laughs.xml", "external.xml"])
def test_hostile_xml_from_the_network_is_refused(empty, name):
    opener = Recorded({"https://export.arxiv.org/api/query?id_list=2305.18436&max_results=1":
                       (200, f"../arxiv/{name}")})
    with pytest.raises(ContentError) as caught:
        add_papers(["2305.18436"], empty.root, opener=opener)
    assert [str(p) for p in caught.value.problems] == [
        "export.arxiv.org:2: has a DOCTYPE declaration; DTDs and entities are refused (an arXiv feed has none)"]
    assert not list((empty.root / "papers").iterdir())


def test_answers_that_are_too_large_or_not_json_are_refused(empty, monkeypatch):
    monkeypatch.setattr(fetch, "MAX_ANSWER_BYTES", 100)
    with pytest.raises(ContentError, match="export.arxiv.org answered with more than 100 bytes; refused"):
        add_papers(["2305.18436", "hep-th/0601001"], empty.root, opener=Recorded({ARXIV_BOTH: (200, "arxiv.xml")}))
    monkeypatch.undo()
    with pytest.raises(ContentError) as caught:
        add_papers(["10.1145/3580305.3599999"], empty.root, opener=Recorded({DOI_URL: (200, "arxiv.xml")}))
    assert caught.value.problems[0].message.startswith(
        "doi.org has no CSL-JSON for the DOI 10.1145/3580305.3599999 (it answered HTTP 200, '<?xml")
    with pytest.raises(ContentError) as caught:
        add_papers(["openreview:Xy7Zq2WbNc"], empty.root, opener=Recorded({OPENREVIEW_V2: (200, "arxiv.xml")}))
    assert caught.value.problems[0].message.startswith("api2.openreview.net did not answer with JSON (HTTP 200, '<?xml")


def test_a_submission_that_was_not_accepted_is_not_added(empty):
    report = add_papers(["https://openreview.net/forum?id=Rj3ct5Xq9Z"], empty.root, opener=Recorded({
        "https://api2.openreview.net/notes?id=Rj3ct5Xq9Z": (200, "openreview-rejected.json")}))
    assert report.papers == [] and not list((empty.root / "papers").iterdir())
    summary = report.summary().splitlines()
    assert summary[0] == "Added 0 papers for 1 ID (OpenReview: 1): 0 created, 0 updated, 0 unchanged, 0 kept-edited."
    assert summary[1] == "Not added:" and "Rejected_Submission" in summary[2]


def test_the_default_opener_is_urlopen_with_the_timeout(empty, monkeypatch):
    seen = []

    def fake_urlopen(request, timeout):
        seen.append((request.full_url, timeout))
        raise URLError(socket.gaierror(-2, "Name or service not known"))
    monkeypatch.setattr(fetch, "urlopen", fake_urlopen)
    with pytest.raises(ContentError, match="cannot reach doi.org: .*Name or service not known; papershelf add needs"):
        add_papers(["doi:10.1145/3580305.3599999"], empty.root, timeout=3.5)
    assert seen == [(DOI_URL, 3.5)]


def test_the_cli_says_the_network_is_missing_not_the_content(empty, monkeypatch):
    from click.testing import CliRunner

    from generator.cli import main
    from generator.importers import fetch

    def offline(request, timeout=None):
        raise URLError(socket.gaierror(-3, "Temporary failure in name resolution"))

    monkeypatch.setattr(fetch, "urlopen", offline)
    result = CliRunner().invoke(main, ["add", "arXiv:2305.18436", "--content", str(empty.root)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "1 problem fetching the papers:" in result.output
    assert "cannot reach export.arxiv.org" in result.output and "needs the network" in result.output
