"""Bad content, one case per fixture: the exact error a person sees, and nothing lost.

Each case under ``tests/fixtures/bad/<case>/`` holds files that are copied over a small
valid catalog (the ``content`` fixture's). A site is built from the valid catalog
first; then the bad build must fail with exactly the listed problems (file, line,
field, message), leave the previous site byte for byte, and leave no temporary folder
behind. ``papershelf check`` must report the same problems, exit 1 and write nothing.
Cases that cannot live in git (symbolic links, pipes, huge files) are made by code.

The second half interrupts builds: an exception or Ctrl-C while writing, Ctrl-C during
the swap, a real SIGINT or SIGKILL sent to a running ``papershelf build``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner

from generator.write import staging, writer
from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import ContentError
from generator.content.loader import MAX_FILE_BYTES, load_catalog

from ..conftest import REPO, ContentDir, paper_md
from ..sitecheck import files_of

FIXTURES = Path(__file__).parent.parent / "fixtures" / "bad"

EXPECTED: dict[str, list[str]] = {
    "broken-yaml": [
        "papers/broken-yaml.md:3: invalid YAML: expected ',' or ']', but got ':'",
    ],
    "front-matter-never-closed": [
        "papers/never-closed.md:1: front matter opened with '---' on line 1 is never closed",
    ],
    "no-front-matter": [
        "papers/no-front-matter.md:1: expected front matter starting with '---' on the first line",
    ],
    "missing-title": [
        "papers/missing-title.md:4: title: required field is missing",
    ],
    "whitespace-title": [
        "papers/blank-title.md:2: title: expected text, found an empty value",
        "papers/empty-title.md:2: title: required field is empty",
    ],
    "title-is-a-number": [
        "papers/nineteen-eighty-four.md:2: title: expected text, found a number (put it in quotes)",
    ],
    "title-is-a-date": [
        "papers/a-date.md:2: title: expected text, found a date (put it in quotes)",
    ],
    "authors-is-a-string": [
        "papers/one-string.md:3: authors: expected a list of names, found 'Ada Lovelace, Alan Turing' "
        '(write authors: ["First Author", "Second Author"])',
    ],
    "nested-junk": [
        "papers/nested-junk.md:3: authors: item 1: expected text, found a list",
        "papers/nested-junk.md:3: authors: item 2: expected text, found a mapping",
        "papers/nested-junk.md:7: tags: expected a list of ids, found a mapping",
        "papers/nested-junk.md:8: links: expected a mapping such as 'arxiv: https://…', found a list",
        "papers/nested-junk.md:9: presentation: expected one of oral, spotlight, poster, found a list",
        "papers/nested-junk.md:10: provisional: expected true or false, found a mapping",
    ],
    "unknown-venue": [
        "papers/elsewhere.md:3: venue: unknown venue 'neurips-2099'; known venues: test-2024",
    ],
    "unknown-tag": [
        "papers/untagged.md:4: tags: unknown tag 'made-up-tag'; tags are defined in tags.toml",
    ],
    "link-not-http": [
        "papers/bad-links.md:4: links: code: expected an http(s) URL, found 'javascript:alert(1)'",
        "papers/bad-links.md:4: links: pdf: expected an http(s) URL, found 'data:application/pdf;base64,JVBERi0='",
        "papers/bad-links.md:4: links: arxiv: expected an http(s) URL, found 'ftp://arxiv.org/abs/1'",
    ],
    "link-breaks-attribute": [
        "papers/quote-link.md:4: links: code: expected an http(s) URL, found "
        "'https://example.org/\"onmouseover=\"alert(1)'",
    ],
    "duplicate-paper-title": [
        "papers/graphs-again.md:2: title: the same paper (same title, venue and authors) is already in "
        "papers/a-paper-on-graphs.md",
    ],
    "duplicate-slug-case": [
        "papers/A-Paper-On-Graphs.md: differs only in case from papers/a-paper-on-graphs.md; on macOS and "
        "Windows they are one file: keep one of them",
    ],
    "upper-case-file-name": [
        "papers/My-Paper.md: file name must be lower-case: rename it to my-paper.md",
    ],
    "reserved-file-name": [
        "papers/con.md: 'con' is a reserved device name on Windows; choose another file name",
    ],
    "not-markdown": [
        "papers/notes.txt: not a Markdown file (expected <id>.md); move or rename it",
    ],
    "non-utf8": [
        "papers/latin-1.md:2: not UTF-8 text (byte 0xe9); save the file as UTF-8",
    ],
    "utf16": [
        "papers/utf-16.md: is UTF-16 text, not UTF-8; save the file as UTF-8",
    ],
    "empty-file": [
        "papers/empty.md: the file is empty",
        "papers/whitespace.md: the file is empty",
    ],
    # A BOM and CRLF line endings are fine: the error is the unknown venue, on the right line.
    "bom-crlf": [
        "papers/bom-crlf.md:4: venue: unknown venue 'nowhere-2024'; known venues: test-2024",
    ],
    "tabs": [
        "papers/tabs.md:5: invalid YAML: found character '\\t' that cannot start any token "
        "(indent with spaces, not tabs)",
    ],
    "nul-bytes": [
        "papers/nul-bytes.md:5: contains U+0000 (a NUL character); remove it (is this a text file?)",
    ],
    "noncharacter": [
        "papers/noncharacter.md:5: contains U+FDD0 (a Unicode noncharacter); remove it (is this a text file?)",
    ],
    "control-character": [
        "papers/bell.md:2: title: text must not contain U+0007 (a control character) (in double quotes a"
        " backslash starts an escape: \"\\theta\" is a tab and 'heta'; put text with LaTeX in single quotes:"
        " '$\\theta$')",
    ],
    "yaml-bomb": [
        "papers/yaml-bomb.md:5: YAML anchors and aliases are not allowed (&name, *name)",
    ],
    "yaml-python-tag": [
        "papers/python-tag.md:2: YAML tags such as '!!python/object/apply:os.system' are not allowed; "
        "write plain values",
    ],
    "yaml-duplicate-key": [
        "papers/twice.md:4: title: appears twice (first on line 2)",
    ],
    "yaml-deep-nesting": [
        "papers/deep.md:4: nested more than 20 levels deep",
    ],
    "bad-dates": [
        "papers/bad-dates.md:4: added: expected a date such as 2024-05-07, found '2024-13-45'",
        "papers/text-date.md:4: added: expected a date such as 2024-05-07, found 'last tuesday'",
    ],
    "paper-is-a-folder": [
        "papers/drafts: is a folder; papers/ holds one <id>.md file per paper and its subfolders are not read",
        "papers/folder-paper.md: is a folder; papers/ holds one <id>.md file per paper and its subfolders "
        "are not read",
    ],
    "site-config-broken": [
        "site.toml:2: invalid TOML: Illegal character '\\n'",
    ],
    "site-config-bad-fields": [
        "site.toml:1: title: expected text, found a number (put it in quotes)",
        "site.toml:2: base_url: expected '/', a path such as '/catalog/' or an http(s) URL, found "
        "'/c/\"><script>alert(1)</script>/'",
        "site.toml:3: language: expected a language tag such as 'en' or 'en-GB', found 'en\" onload=\"x'",
        "site.toml:4: colour: unknown field; expected one of author_page_min_papers, base_url, description, edit_uri, "
        "language, owner, repo_url, timezone, title",
        "site.toml:5: author_page_min_papers: expected a whole number of papers, 1 or more, found 0",
    ],
    "tags-broken": [
        "tags.toml: invalid TOML: Unclosed array",
    ],
    "venue-bad-fields": [
        "venues/bad-2024.md:4: year: expected a year such as 2024, found 'next'",
        "venues/bad-2024.md:5: url: expected an http(s) URL, found 'javascript:alert(1)'",
    ],
    # The second file with the name is the one reported; its papers are not also "unknown venue".
    # papers/page/<n>/ are the pages of the list of all papers: no venue's folder (issue 25)
    "venue-id-page": [
        "venues/page.md:1: 'page' cannot be a venue id: papers/page/ is taken by the pages of the list of all papers; rename the file (and the papers' venue)",
    ],
    "venue-duplicate-name": [
        "venues/test-2024.md:2: name: the venue name 'TEST 2024' is already used by venues/test-2024-copy.md",
    ],
    "many-problems": [
        "papers/broken-yaml.md:3: invalid YAML: expected ',' or ']', but got ':'",
        "papers/empty.md: the file is empty",
        "papers/latin-1.md:2: not UTF-8 text (byte 0xe9); save the file as UTF-8",
        "papers/unknown-refs.md:3: venue: unknown venue 'nowhere-2024'; known venues: test-2024",
        "papers/unknown-refs.md:4: tags: unknown tag 'made-up'; tags are defined in tags.toml",
        "site.toml:1: title: expected text, found an empty value",
        "venues/bad-2024.md:3: year: expected a year such as 2024, found 'next'",
        "venues/bad-2024.md:4: full_name: required field is missing",
    ],
}


# --------------------------------------------------------------------------- cases made by code


def _huge_file(content: ContentDir, tmp: Path) -> list[str]:
    body = "All work and no play makes a long abstract. " * (MAX_FILE_BYTES // 40)
    size = len(content.add_paper("huge", title="Huge", body=body).read_bytes())
    return [f"papers/huge.md: is too large ({size / 1_000_000:.1f} MB); a content file may be at most 1.0 MB"]


def _symlink_outside(content: ContentDir, tmp: Path) -> list[str]:
    secret = tmp / "outside" / "secret.md"
    secret.parent.mkdir()
    secret.write_text(paper_md(title="Secret"), encoding="utf-8")
    (content.root / "papers" / "secret.md").symlink_to(secret)
    return [f"papers/secret.md: is a symbolic link to {secret.resolve()}, outside the content folder; "
            "copy the file into the content folder instead"]


def _symlink_to_system_file(content: ContentDir, tmp: Path) -> list[str]:
    (content.root / "papers" / "passwd.md").symlink_to("/etc/passwd")
    return [f"papers/passwd.md: is a symbolic link to {Path('/etc/passwd').resolve()}, outside the content "
            "folder; copy the file into the content folder instead"]


def _symlink_dangling(content: ContentDir, tmp: Path) -> list[str]:
    (content.root / "papers" / "gone.md").symlink_to(tmp / "nowhere.md")
    return ["papers/gone.md: is a symbolic link to a file that does not exist"]


def _symlink_inside_is_a_duplicate(content: ContentDir, tmp: Path) -> list[str]:
    (content.root / "papers" / "alias.md").symlink_to("a-paper-on-graphs.md")
    return ["papers/alias.md:2: title: the same paper (same title, venue and authors) is already in "
            "papers/a-paper-on-graphs.md"]


def _papers_folder_outside(content: ContentDir, tmp: Path) -> list[str]:
    elsewhere = tmp / "elsewhere"
    shutil.move(content.root / "papers", elsewhere)
    (content.root / "papers").symlink_to(elsewhere)
    return [f"papers/: is a symbolic link to {elsewhere.resolve()}, outside the content folder; move the "
            "folder into the content folder instead"]


def _pipe(content: ContentDir, tmp: Path) -> list[str]:
    os.mkfifo(content.root / "papers" / "pipe.md")  # reading it would block forever
    return ["papers/pipe.md: is not a regular file (a device, pipe or socket)"]


def _no_papers_folder(content: ContentDir, tmp: Path) -> list[str]:
    shutil.rmtree(content.root / "papers")
    return ["papers/: folder not found: every catalog needs content/papers/"]


def _no_site_config(content: ContentDir, tmp: Path) -> list[str]:
    (content.root / "site.toml").unlink()
    return ["site.toml: file not found"]


def _site_config_is_a_folder(content: ContentDir, tmp: Path) -> list[str]:
    (content.root / "site.toml").unlink()
    (content.root / "site.toml").mkdir()
    return ["site.toml: is a folder, not a file"]


def _terminal_escape_in_a_file_name(content: ContentDir, tmp: Path) -> list[str]:
    (content.root / "papers" / "\x1b[2J\x1b[31mred.md").write_text(paper_md(title="Red"), encoding="utf-8")
    return ["papers/\\x1b[2J\\x1b[31mred.md: file name must be an id of lower-case letters, digits and single "
            "hyphens (at most 80 characters), e.g. 'my-paper.md'"]


def _file_name_not_utf8(content: ContentDir, tmp: Path) -> list[str]:
    with open(os.path.join(os.fsencode(content.root / "papers"), b"caf\xe9.md"), "wb") as handle:
        handle.write(paper_md(title="Cafe").encode())
    return ["papers/caf\\xe9.md: file name must be an id of lower-case letters, digits and single hyphens "
            "(at most 80 characters), e.g. 'my-paper.md'"]


MADE: dict[str, Callable[[ContentDir, Path], list[str]]] = {
    "terminal-escape-in-a-file-name": _terminal_escape_in_a_file_name,
    "file-name-not-utf8": _file_name_not_utf8,
    "huge-file": _huge_file,
    "symlink-outside": _symlink_outside,
    "symlink-to-system-file": _symlink_to_system_file,
    "symlink-dangling": _symlink_dangling,
    "symlink-inside-is-a-duplicate": _symlink_inside_is_a_duplicate,
    "papers-folder-outside": _papers_folder_outside,
    "pipe": _pipe,
    "no-papers-folder": _no_papers_folder,
    "no-site-config": _no_site_config,
    "site-config-is-a-folder": _site_config_is_a_folder,
}


# --------------------------------------------------------------------------- helpers


def make_content(tmp_path: Path) -> ContentDir:
    """The same small valid catalog as the ``content`` fixture."""
    c = ContentDir(tmp_path / "content")
    c.add_paper("a-paper-on-graphs")
    c.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                tags=("optimization",), body="Gradient descent converges at rate $O(1/t)$.")
    return c


def snapshot(folder: Path) -> dict[str, bytes]:
    return files_of(folder, manifest=True)


def content_snapshot(folder: Path) -> dict[str, object]:
    """Like ``snapshot`` but safe on links, folders and pipes (never reads a pipe)."""
    state: dict[str, object] = {}
    for p in sorted(folder.rglob("*")):
        key = p.relative_to(folder).as_posix()
        if p.is_symlink():
            state[key] = ("link", os.readlink(p))
        elif p.is_file():
            state[key] = p.read_bytes()
        else:
            state[key] = ("other", p.stat().st_mode)
    return state


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def problems_of_build(content: ContentDir, out: Path) -> list[str]:
    with pytest.raises(ContentError) as info:
        build(BuildOptions(content=content.root, output=out))
    return [str(p) for p in info.value.problems]


def check_bad_case(tmp_path: Path, content: ContentDir, expected: list[str]) -> None:
    out = tmp_path / "site"
    before = snapshot(out)
    entries = sorted(os.listdir(tmp_path))
    assert problems_of_build(content, out) == expected
    assert snapshot(out) == before, "the previous site changed"
    assert sorted(os.listdir(tmp_path)) == entries, "a temporary folder was left behind"

    # The command line says the same, once, without a traceback, and exits 1.
    sources = content_snapshot(content.root)
    for command in ("check", "build"):
        args = [command, "--content", str(content.root)] + (["--output", str(out)] if command == "build" else [])
        result = cli(*args)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        count = len(expected)
        assert f"{count} problem{'s' if count != 1 else ''} in the content:" in result.output
        for line in expected:
            assert f"  {line}\n" in result.output
        assert snapshot(out) == before
        # The build cache stays: the files that were valid need not be parsed again.
        assert sorted(set(os.listdir(tmp_path)) - {".papershelf-cache"}) == entries
    assert content_snapshot(content.root) == sources, "the content folder changed"


@pytest.fixture
def built(tmp_path: Path) -> ContentDir:
    content = make_content(tmp_path)
    build(BuildOptions(content=content.root, output=tmp_path / "site"))
    assert (tmp_path / "site" / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html").is_file()
    return content


# --------------------------------------------------------------------------- the cases


def test_every_fixture_folder_has_a_case_and_every_case_a_folder():
    folders = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert folders == set(EXPECTED)
    assert not folders & set(MADE)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_fixture_case(case, built, tmp_path):
    shutil.copytree(FIXTURES / case, built.root, dirs_exist_ok=True)
    check_bad_case(tmp_path, built, EXPECTED[case])


@pytest.mark.parametrize("case", sorted(MADE))
def test_made_case(case, built, tmp_path):
    expected = MADE[case](built, tmp_path)
    check_bad_case(tmp_path, built, expected)


def test_the_fixtures_are_byte_exact():
    """git must not normalise them: the BOM/CRLF, Latin-1, UTF-16 and NUL cases depend on their bytes."""
    assert (FIXTURES / "bom-crlf" / "papers" / "bom-crlf.md").read_bytes().startswith(b"\xef\xbb\xbf---\r\n")
    assert b"\x00" in (FIXTURES / "nul-bytes" / "papers" / "nul-bytes.md").read_bytes()
    assert (FIXTURES / "utf16" / "papers" / "utf-16.md").read_bytes().startswith(b"\xff\xfe-\x00")
    assert "* -text" in (FIXTURES / ".gitattributes").read_text()


def test_check_on_good_content_writes_nothing(built, tmp_path):
    entries = sorted(os.listdir(tmp_path))
    sources = content_snapshot(built.root)
    result = cli("check", "--content", str(built.root))
    assert result.exit_code == 0 and result.output.startswith("OK: 2 papers")
    assert sorted(os.listdir(tmp_path)) == entries
    assert content_snapshot(built.root) == sources


def test_a_failed_build_into_a_new_folder_creates_nothing(tmp_path):
    content = make_content(tmp_path)
    content.add_paper("broken", "---\ntitle: [oops\n---\n")
    with pytest.raises(ContentError):
        build(BuildOptions(content=content.root, output=tmp_path / "new-site"))
    assert sorted(set(os.listdir(tmp_path)) - {".papershelf-cache"}) == ["content"]  # (the build cache stays)


# --------------------------------------------------------------------------- interrupted builds


@pytest.mark.parametrize("error", [KeyboardInterrupt, RuntimeError, MemoryError])
@pytest.mark.parametrize("after", [0, 1, 5])
def test_an_interrupt_while_writing_keeps_the_previous_site(built, tmp_path, monkeypatch, error, after):
    out = tmp_path / "site"
    before = snapshot(out)
    built.add_paper("a-paper-on-graphs", title="A Changed Title")
    calls = {"n": 0}
    original = writer.SiteWriter.write_text

    def write_then_fail(self, rel_path, text, *key):
        if calls["n"] == after:
            raise error()
        calls["n"] += 1
        original(self, rel_path, text, *key)

    monkeypatch.setattr(writer.SiteWriter, "write_text", write_then_fail)
    with pytest.raises(error):
        build(BuildOptions(content=built.root, output=out))
    assert snapshot(out) == before
    assert sorted(os.listdir(tmp_path)) == ["content", "site"]


def forget_manifest(out: Path) -> None:
    """Make ``out`` look written by an older Papershelf: the next build replaces it as a whole."""
    (out / writer.MARKER).write_text("Written by Papershelf.\n", encoding="utf-8")


@pytest.mark.parametrize("manifest", [True, False])
def test_ctrl_c_while_the_output_changes_is_held_until_it_is_done(built, tmp_path, monkeypatch, manifest):
    """A real SIGINT arriving while the new site is swapped in (an update, or a whole new
    site over a folder from an older Papershelf): the new site is complete, nothing is left
    over, then Ctrl-C."""
    out = tmp_path / "site"
    if not manifest:
        forget_manifest(out)
    built.add_paper("a-paper-on-graphs", title="A Changed Title")
    original = writer._swap_in

    def with_ctrl_c(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # give the signal every chance to arrive mid-update
        original(*args, **kwargs)

    monkeypatch.setattr(writer, "_swap_in", with_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        build(BuildOptions(content=built.root, output=out))
    assert "A Changed Title" in (out / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html").read_text(encoding="utf-8")
    assert sorted(os.listdir(tmp_path)) == ["content", "site"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_failing_swap_keeps_the_previous_site(built, tmp_path, monkeypatch):
    out = tmp_path / "site"
    forget_manifest(out)
    before = snapshot(out)
    built.add_paper("a-paper-on-graphs", title="A Changed Title")

    def broken_exchange(a, b):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writer, "_exchange", broken_exchange)
    with pytest.raises(writer.OutputError, match="No space left on device"):
        build(BuildOptions(content=built.root, output=out))
    assert snapshot(out) == before
    assert sorted(os.listdir(tmp_path)) == ["content", "site"]


@pytest.mark.parametrize("fail_at", [0, 1, 3, 10])
def test_a_failure_while_writing_keeps_the_previous_site(built, tmp_path, monkeypatch, fail_at):
    out = tmp_path / "site"
    before = snapshot(out)
    built.add_paper("a-paper-on-graphs", title="A Changed Title")
    (built.root / "papers" / "fast-convergence.md").unlink()  # stale files to delete as well
    real_open = open
    calls = {"n": 0}

    def failing_open(path, mode="r", *args, **kwargs):  # the fail_at-th file written fails
        if "w" in mode and Path(path).is_relative_to(tmp_path):
            calls["n"] += 1
            if calls["n"] == fail_at + 1:
                raise OSError(28, "No space left on device", str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(staging, "open", failing_open, raising=False)  # where files are written
    with pytest.raises(writer.OutputError, match="No space left on device"):
        build(BuildOptions(content=built.root, output=out))
    assert calls["n"] == fail_at + 1
    assert snapshot(out) == before
    assert sorted(os.listdir(tmp_path)) == ["content", "site"]


def test_without_an_atomic_exchange_the_fallback_swap_is_clean(built, tmp_path, monkeypatch):
    out = tmp_path / "site"
    forget_manifest(out)
    built.add_paper("a-paper-on-graphs", title="A Changed Title")
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    build(BuildOptions(content=built.root, output=out))
    assert "A Changed Title" in (out / "papers" / "test-2024" / "a-paper-on-graphs" / "index.html").read_text(encoding="utf-8")
    assert sorted(os.listdir(tmp_path)) == ["content", "site"]


def _build_command(content: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "generator.cli", "build", "--quiet", "--content", str(content),
            "--output", str(out)]


@pytest.fixture(scope="module")
def two_catalogs(tmp_path_factory) -> tuple[Path, Path]:
    """The committed catalog, and a copy with one title changed."""
    root = tmp_path_factory.mktemp("two-catalogs")
    old_content, new_content = root / "old", root / "new"
    shutil.copytree(REPO / "content", old_content)
    shutil.copytree(REPO / "content", new_content)
    paper = new_content / "papers" / "lets-verify-step-by-step.md"
    text = paper.read_text(encoding="utf-8")
    assert "title: Let's Verify Step by Step" in text
    paper.write_text(text.replace("title: Let's Verify Step by Step", "title: Let Us Verify Step by Step"),
                     encoding="utf-8")
    return old_content, new_content


@pytest.fixture(scope="module")
def old_site(two_catalogs, tmp_path_factory) -> Path:
    """The old catalog built once (a test copies it: file times kept, so the manifest holds)."""
    out = tmp_path_factory.mktemp("old-site") / "site"
    subprocess.run(_build_command(two_catalogs[0], out), check=True, cwd=REPO)
    return out


def _wait_until_writing(tmp_path: Path, proc: subprocess.Popen, files: int = 40) -> None:
    """Wait until the build has written ``files`` files into its temporary folder."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        for folder in tmp_path.glob(".site.building-*"):
            if sum(1 for _ in folder.rglob("*")) >= files:
                return
        time.sleep(0.005)
    raise AssertionError("the build never got to writing")


@pytest.mark.slow
@pytest.mark.parametrize("how, moment", [
    (signal.SIGINT, "loading"), (signal.SIGINT, "writing"), (signal.SIGKILL, "writing"),
])
def test_a_killed_build_leaves_the_old_site_or_the_new_one(two_catalogs, old_site, tmp_path, how, moment):
    """Whenever the signal lands, the output is the whole old site or the whole new one.

    After SIGKILL a temporary folder may remain (nothing can clean up after it): the
    next build removes it. After Ctrl-C nothing may remain.
    """
    _, new_content = two_catalogs
    out = tmp_path / "site"
    shutil.copytree(old_site, out)
    old = snapshot(out)
    assert old == snapshot(old_site)
    proc = subprocess.Popen(_build_command(new_content, out), cwd=REPO, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    if moment == "loading":
        time.sleep(0.8)
    else:
        _wait_until_writing(tmp_path, proc)
    proc.send_signal(how)
    finished_first = proc.wait(timeout=60) == 0  # only on a machine so slow that polling missed it all
    interrupted = snapshot(out)
    if how == signal.SIGINT or finished_first:
        assert sorted(os.listdir(tmp_path)) == ["site"], "Ctrl-C left a temporary folder behind"
    else:  # at most the killed build's temporary folder (none if it died after cleaning up)
        assert [name for name in os.listdir(tmp_path) if not name.startswith(".site.building-")] == ["site"]
        assert len(os.listdir(tmp_path)) <= 2
    # The next build finishes the job and removes whatever a killed build left.
    subprocess.run(_build_command(new_content, out), check=True, cwd=REPO)
    new = snapshot(out)
    assert old != new
    # A signal can land after the new site is in place (while the old one is deleted).
    assert interrupted in (old, new), "the output is neither the old site nor the new one"
    if finished_first:
        assert interrupted == new
    assert sorted(os.listdir(tmp_path)) == ["site"]


def test_stale_folders_of_dead_builds_are_removed_and_live_ones_kept(built, tmp_path):
    out = tmp_path / "site"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".site.building-{dead.pid}-abc123"
    stale_old = tmp_path / f".site.old-{dead.pid}-xyz_9"
    live = tmp_path / f".site.building-{os.getppid()}-live42"  # a running process: maybe a build
    other = tmp_path / f".other.building-{dead.pid}-abc123"  # another output's folder
    for folder in (stale, stale_old, live, other):
        folder.mkdir()
        (folder / "index.html").write_text("half")
    build(BuildOptions(content=built.root, output=out))
    assert not stale.exists() and not stale_old.exists()
    assert live.exists() and other.exists()


# --------------------------------------------------------------------------- build --serve


def _serve(content: Path, out: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "build", "--serve", "--port", str(port), "--content",
         str(content), "--output", str(out)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_with_bad_content_and_no_site_shows_the_error_and_stops(tmp_path):
    content = make_content(tmp_path)
    shutil.copytree(FIXTURES / "link-not-http", content.root, dirs_exist_ok=True)
    proc = _serve(content.root, tmp_path / "site", _free_port())
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert "Build failed." in output and "still serving" not in output
    for line in EXPECTED["link-not-http"]:
        assert line in output
    assert "Traceback" not in output
    assert sorted(set(os.listdir(tmp_path)) - {".papershelf-cache"}) == ["content"]  # (the build cache stays)


def test_serve_with_bad_content_keeps_serving_the_previous_site(built, tmp_path):
    import urllib.request

    out = tmp_path / "site"
    before = snapshot(out)
    shutil.copytree(FIXTURES / "yaml-bomb", built.root, dirs_exist_ok=True)
    port = _free_port()
    proc = _serve(built.root, out, port)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/papers/test-2024/a-paper-on-graphs/", timeout=5) as r:
                    page = r.read().decode("utf-8")
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not start"
                time.sleep(0.2)
        assert "A Paper on Graphs" in page
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=10)
    assert "Build failed; still serving the last good site." in output
    assert EXPECTED["yaml-bomb"][0] in output
    assert snapshot(out) == before


# --------------------------------------------------------------------------- the importer


def _import_content(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / "tags.toml").write_bytes((REPO / "content" / "tags.toml").read_bytes())
    return content


def _import_problems(files: list[Path], content: Path, metadata: Path | None = None) -> list[str]:
    from generator.importers.seeds import import_seeds

    with pytest.raises(ContentError) as info:
        import_seeds(files, content, metadata)
    return [str(p) for p in info.value.problems]


def test_the_importer_refuses_a_pipe_or_a_folder_without_blocking(tmp_path):
    content = _import_content(tmp_path)
    pipe, folder = tmp_path / "pipe.txt", tmp_path / "folder.txt"
    os.mkfifo(pipe)
    folder.mkdir()
    assert _import_problems([pipe, folder], content) == [
        f"{folder}: is a folder, not a file",
        f"{pipe}: is not a regular file (a device, pipe or socket)",
    ]
    assert sorted(os.listdir(content)) == ["tags.toml"]


def test_the_importer_refuses_noncharacters(tmp_path):
    content = _import_content(tmp_path)
    odd = tmp_path / "odd.txt"
    odd.write_text("ICLR 2024 Papers\n\nFine abstract.\n\nBroken \ufdd0 abstract.\n", encoding="utf-8")
    assert _import_problems([odd], content, tmp_path / "no-metadata") == [
        f"{odd}:5: contains U+FDD0 (a Unicode noncharacter); remove it"]
    assert sorted(os.listdir(content)) == ["tags.toml"]


def test_the_importer_refuses_an_abstract_too_long_for_the_build(tmp_path):
    """A long abstract is kept whole; one the site build would refuse is refused here already."""
    content = _import_content(tmp_path)
    long = tmp_path / "long.txt"
    long.write_text("ICML 2024 Papers\n\nShort one.\n\n" + "word " * (MAX_FILE_BYTES // 5 + 10) + "\n",
                    encoding="utf-8")
    [problem] = _import_problems([long], content, tmp_path / "no-metadata")
    assert re.fullmatch(re.escape(f"{long}:5: abstract #2 is too long (") + r"1,0\d\d,\d{3}"
                        + re.escape(" bytes as a paper file); the site build reads paper files of at most "
                                    "1,000,000 bytes"), problem), problem
    assert sorted(os.listdir(content)) == ["tags.toml"]


def test_the_importer_refuses_deeply_nested_metadata(tmp_path):
    content = _import_content(tmp_path)
    seed = tmp_path / "s.txt"
    seed.write_text("ICLR 2024 Papers\n\nAn abstract.\n", encoding="utf-8")
    (tmp_path / "metadata").mkdir()
    (tmp_path / "metadata" / "s.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert _import_problems([seed], content) == [f"{tmp_path / 'metadata' / 's.json'}: invalid JSON: nested too deeply"]
    assert sorted(os.listdir(content)) == ["tags.toml"]


def test_imported_links_follow_the_build_rule_so_an_import_always_builds(tmp_path):
    from generator.importers.seeds import import_seeds

    content = _import_content(tmp_path)
    seed = tmp_path / "s.txt"
    seed.write_text("ICLR 2024 Papers\n\nAn abstract about graphs.\n", encoding="utf-8")
    (tmp_path / "metadata").mkdir()
    (tmp_path / "metadata" / "s.json").write_text(json.dumps([{
        "seed": "s.txt", "index": 1, "first_words": "An abstract", "title": "Graphs", "authors": ["Ada"],
        "urls": {"code": 'https://example.org/"onmouseover="x', "pdf": "https://example.org/p.pdf",
                 "arxiv": "http://[::1"},
    }]), encoding="utf-8")
    report = import_seeds([seed], content, None)
    assert any("urls.code is not an http(s) URL" in w for w in report.warnings)
    assert any("urls.arxiv is not an http(s) URL" in w for w in report.warnings)
    (content / "site.toml").write_text('title = "Imported"\n', encoding="utf-8")
    catalog = load_catalog(content)
    assert [link.url for link in catalog.papers[0].links] == ["https://example.org/p.pdf"]
