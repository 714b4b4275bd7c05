"""When rendering fails: strict mode raises; otherwise the text is shown escaped and a build
says which file it came from.

The failure is forced: the text-mode LaTeX scanner is made to raise on any text holding
``MARKER``, a stand-in for a bug. Sources with the marker are never simple text (they hold
LaTeX), so they reach the scanner, and never rendered without the fault (results of the
public functions are memoised, failures are not).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import build
from generator.options import BuildOptions
from generator.parallel import fork_available
from generator.text import collect_fallbacks, plain_text, render_abstract, render_title, set_strict
from generator.text.html import latex_rule

MARKER = "crash-here"
SOURCE = "A <b>crash-here</b> & \\emph{care} for $x$."


@pytest.fixture
def crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    scan = latex_rule._InlineLatex.scan

    def broken(self, s: str) -> None:
        if MARKER in s:
            raise ValueError("scanner bug")
        scan(self, s)

    monkeypatch.setattr(latex_rule._InlineLatex, "scan", broken)


def test_the_text_tests_run_strict(crashing):
    """The autouse fixture of tests/text: a crash fails a test instead of falling back."""
    for function in (render_abstract, render_title, plain_text):
        with pytest.raises(ValueError, match="scanner bug"):
            function(SOURCE)


def test_the_environment_variable_turns_strict_mode_on(crashing, monkeypatch):
    set_strict(None)  # as the environment says (the fixture restores strict mode afterwards)
    monkeypatch.setenv("PAPERSHELF_STRICT_TEXT", "1")
    with pytest.raises(ValueError, match="scanner bug"):
        render_abstract(SOURCE)
    monkeypatch.setenv("PAPERSHELF_STRICT_TEXT", "0")
    assert render_abstract(SOURCE).startswith("<p>A &lt;b&gt;")
    monkeypatch.delenv("PAPERSHELF_STRICT_TEXT")
    assert render_title(SOURCE).startswith("A &lt;b&gt;")
    set_strict(False)  # a choice made in code wins over the environment
    monkeypatch.setenv("PAPERSHELF_STRICT_TEXT", "1")
    assert plain_text(SOURCE).startswith("A <b>crash-here</b>")


def test_without_strict_mode_a_crash_falls_back_to_escaped_text_and_is_recorded(crashing):
    set_strict(False)
    with collect_fallbacks() as outer:
        with collect_fallbacks() as failed:
            html = render_abstract(SOURCE)
            title = render_title(SOURCE)
            text = plain_text(SOURCE)
        assert render_abstract("Fine \\emph{text}.") == "<p>Fine <em>text</em>.</p>\n"
    assert html == "<p>A &lt;b&gt;crash-here&lt;/b&gt; &amp; \\emph{care} for $x$.</p>\n"
    assert title == "A &lt;b&gt;crash-here&lt;/b&gt; &amp; \\emph{care} for $x$."
    assert text == "A <b>crash-here</b> & emph{care} for $x$."
    assert [(f.function, f.error) for f in failed] == [
        ("render_abstract", "ValueError: scanner bug"),
        ("render_title", "ValueError: scanner bug"),
        ("plain_text", "ValueError: scanner bug"),
    ]
    assert outer == failed  # an enclosing block sees them too; a text that renders adds none


def test_a_fallback_outside_any_collector_is_only_a_fallback(crashing):
    set_strict(False)
    assert render_abstract(SOURCE).startswith("<p>A &lt;b&gt;")
    with collect_fallbacks() as failed:
        pass
    assert failed == []


def _build(content, out: Path, jobs: int):
    return build(BuildOptions(content=content.root, output=out, base_url="/", jobs=jobs))


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.skipif(
    not fork_available(), reason="rendering runs in worker processes only where fork is available"))])
def test_a_build_names_the_file_whose_text_fell_back(content, tmp_path, crashing, jobs):
    """With two jobs the papers are rendered in forked workers: the notes come back with them."""
    set_strict(False)
    content.add_paper("broken-abstract", title="A Sound Title", body=f"We study {MARKER} with \\emph{{care}}.")
    content.add_paper("broken-title", title=f"Graphs \\emph{{{MARKER}}}", body="A sound abstract.")
    report = _build(content, tmp_path / "site", jobs)
    assert [note for note in report.warnings if "could not be rendered" in note] == [
        "papers/broken-abstract.md: abstract: could not be rendered (ValueError: scanner bug); shown as plain text",
        "papers/broken-title.md: title: could not be rendered (ValueError: scanner bug); shown as plain text",
    ]
    page = (tmp_path / "site" / "papers" / "test-2024" / "broken-abstract" / "index.html").read_text(encoding="utf-8")
    assert f"<p>We study {MARKER} with \\emph{{care}}.</p>" in page  # the source, escaped
    page = (tmp_path / "site" / "papers" / "test-2024" / "fast-convergence" / "index.html").read_text(encoding="utf-8")
    assert "<math" in page  # the other papers render as usual


def test_a_venue_description_that_falls_back_is_named(content, tmp_path, crashing):
    set_strict(False)
    content.write("venues/test-2024.md", content.root.joinpath("venues/test-2024.md").read_text(encoding="utf-8")
                  .replace("A venue for tests.", f"A venue for \\emph{{{MARKER}}}."))
    report = _build(content, tmp_path / "site", 1)
    assert [note for note in report.warnings if "could not be rendered" in note] == [
        "venues/test-2024.md: description: could not be rendered (ValueError: scanner bug); shown as plain text",
    ]


def test_a_build_in_strict_mode_stops_on_the_error(content, tmp_path, crashing):
    content.add_paper("broken-abstract", title="A Sound Title", body=f"We study {MARKER} with \\emph{{care}}.")
    with pytest.raises(ValueError, match="scanner bug"):
        _build(content, tmp_path / "site", 1)


def test_a_build_without_failures_has_no_such_notes(content, tmp_path):
    set_strict(False)
    report = _build(content, tmp_path / "site", 1)
    assert not [note for note in report.warnings if "could not be rendered" in note]


def test_the_command_line_shows_the_warning_even_when_quiet(content, tmp_path, crashing):
    """The note must reach the person building: on stderr, with --quiet too."""
    from click.testing import CliRunner

    from generator.cli import main

    set_strict(False)
    content.add_paper("broken-abstract", title="A Sound Title", body=f"We study {MARKER} with \\emph{{care}}.")
    result = CliRunner().invoke(main, ["build", "--quiet", "--content", str(content.root),
                                       "--output", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert "Warning: papers/broken-abstract.md: abstract: could not be rendered" in result.stderr


def test_the_preview_server_shows_the_warning(content, tmp_path, crashing, capsys):
    from generator.serve import run_build

    set_strict(False)
    content.add_paper("broken-abstract", title="A Sound Title", body=f"We study {MARKER} with \\emph{{care}}.")
    assert run_build(BuildOptions(content=content.root, output=tmp_path / "site"), quiet=True, serving=False)
    assert "Warning: papers/broken-abstract.md: abstract: could not be rendered" in capsys.readouterr().err


def test_two_threads_collect_their_own_fallbacks(crashing):
    """The preview derives an edited paper on its watcher thread while a rebuild derives on
    another: a fallback belongs to the blocks of the thread it happened on. Interleaved as
    the race would: A opens a block, B opens one and falls back, A's block ends first."""
    import threading

    a_open, b_done, a_closed = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, list] = {}

    def thread_a() -> None:
        with collect_fallbacks() as mine:
            a_open.set()
            b_done.wait(10)
        seen["a"] = list(mine)
        a_closed.set()

    def thread_b() -> None:
        set_strict(False)  # a thread's own choice (a new thread starts with the environment's)
        a_open.wait(10)
        with collect_fallbacks() as mine:
            render_title(SOURCE)
            b_done.set()
            a_closed.wait(10)  # A's block ends while B's is still open
            render_abstract(SOURCE)
        seen["b"] = list(mine)

    threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen["a"] == []
    assert [f.function for f in seen["b"]] == ["render_title", "render_abstract"]
