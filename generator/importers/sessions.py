"""``papershelf session add DATE --paper ID…`` and ``papershelf add ID… --session DATE``:
session files (``content/sessions/<id>.md``, see ``content.sessions``) written from the
command line (issue 34).

``add_session`` writes ``sessions/<DATE>.md`` and refuses one that exists; the papers must
be in the catalog (``papers/<id>.md``) and a time needs ``timezone`` in site.toml, as the
build checks. ``attach_papers`` puts papers on the session of a day: the session file of
that date (``sessions/<DATE>.md``, else the one whose ``date`` is DATE) gets them in its
``papers`` list (the rest of the file stays as written); without one, it is created.
"""

from __future__ import annotations

import datetime
import re
import tomllib
from pathlib import Path
from typing import Sequence

import yaml

from ..content.frontmatter import FrontMatterError, parse
from ..content.sessions import session_time
from ..content.schema import Invalid
from ..content.slugs import is_valid_slug
from ..errors import ContentError, Problems
from ..write.writer import write_atomic

COMMAND = "papershelf session add"


def session_day(text: str, problems: Problems, where: str = COMMAND) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        problems.add(where, f"expected a date such as 2024-05-14 (YYYY-MM-DD), found {text!r}", field="DATE")
        return None


def _check_papers(content_dir: Path, papers: Sequence[str], problems: Problems, where: str) -> None:
    if not papers:
        problems.add(where, "name the session's papers: --paper ID (a file name in content/papers/ without .md)",
                     field="--paper")
    for slug in papers:
        if not is_valid_slug(slug) or not (content_dir / "papers" / f"{slug}.md").is_file():
            problems.add(where, f"unknown paper {slug!r}: no file {content_dir / 'papers' / (slug + '.md')}",
                         field="--paper")


def _site_timezone(content_dir: Path) -> str:
    try:
        data = tomllib.loads((content_dir / "site.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
    value = data.get("timezone")
    return value if isinstance(value, str) else ""


def _quoted(text: str) -> str:
    return yaml.safe_dump(text, allow_unicode=True, default_style='"', width=10_000).strip()


def session_text(day: datetime.date, papers: Sequence[str], presenters: Sequence[str] = (),
                 time: datetime.time | None = None, title: str = "") -> str:
    lines = ["---", f"date: {day.isoformat()}"]
    if time is not None:
        lines.append(f'time: "{time:%H:%M}"')
    if title:
        lines.append(f"title: {_quoted(title)}")
    lines.append(f"papers: [{', '.join(papers)}]")
    if presenters:
        lines.append(f"presenters: [{', '.join(_quoted(name) for name in presenters)}]")
    lines += ["---", "", ""]
    return "\n".join(lines)


def add_session(content_dir: Path, date: str, papers: Sequence[str], presenters: Sequence[str] = (),
                time: str | None = None, title: str = "") -> Path:
    """Write ``sessions/<DATE>.md``; raises ``ContentError`` (nothing written) when the date,
    time or a paper is wrong or the file exists."""
    content_dir = Path(content_dir)
    problems = Problems()
    day = session_day(date, problems)
    start = None
    if time is not None:
        try:
            start = session_time(time)
        except Invalid as exc:
            problems.add(COMMAND, str(exc), field="--time")
        if start is not None and not _site_timezone(content_dir):
            problems.add(COMMAND, 'a session\'s time needs the site\'s time zone: add timezone = "Europe/Berlin" '
                                  f"(an IANA name) to {content_dir / 'site.toml'}", field="--time")
    _check_papers(content_dir, papers, problems, COMMAND)
    target = content_dir / "sessions" / f"{day.isoformat()}.md" if day else None
    if target is not None and (target.exists() or target.is_symlink()):
        problems.add(COMMAND, f"{target} exists already: edit it, or add papers to it with "
                              f"papershelf add ID --session {day.isoformat()}")
    problems.raise_if_any()
    assert target is not None and day is not None
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, session_text(day, list(dict.fromkeys(papers)), presenters, start, title).encode("utf-8"))
    return target


def find_session(content_dir: Path, day: datetime.date) -> Path | None:
    """The session file of ``day``: ``sessions/<DATE>.md``, else the one whose date is it."""
    folder = content_dir / "sessions"
    named = folder / f"{day.isoformat()}.md"
    if named.is_file():
        return named
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else ():
        try:
            fm = parse(path.read_text(encoding="utf-8"), str(path))
        except (OSError, UnicodeDecodeError, FrontMatterError):
            continue
        found = fm.data.get("date")
        if found == day or (isinstance(found, str) and found.strip() == day.isoformat()):
            return path
    return None


_KEY = re.compile(r"^[^\s#-][^:]*:")


def with_papers(text: str, label: str, papers: Sequence[str]) -> str:
    """A session file's text with ``papers`` added to its papers list (each once); the
    ``papers`` field is written again as one line, every other line stays as it is."""
    fm = parse(text, label)
    current = fm.data.get("papers")
    listed = [p for p in current if isinstance(p, str)] if isinstance(current, list) else []
    merged = list(dict.fromkeys(listed + list(papers)))
    lines = text.replace("\r\n", "\n").split("\n")
    new = f"papers: [{', '.join(merged)}]"
    if "papers" not in fm.lines:
        lines.insert(fm.end_line - 1, new)
        return "\n".join(lines)
    start = fm.line_of("papers") - 1
    end = start + 1
    while end < fm.end_line - 1 and not _KEY.match(lines[end]):
        end += 1
    lines[start:end] = [new]
    return "\n".join(lines)


def attach_papers(content_dir: Path, date: str, papers: Sequence[str]) -> tuple[Path, bool]:
    """Put ``papers`` on the session of ``date``: (its file, whether it was created)."""
    content_dir = Path(content_dir)
    problems = Problems()
    day = session_day(date, problems, "papershelf add --session")
    problems.raise_if_any()
    assert day is not None
    path = find_session(content_dir, day)
    if path is None:
        path = content_dir / "sessions" / f"{day.isoformat()}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, session_text(day, list(dict.fromkeys(papers))).encode("utf-8"))
        return path, True
    label = f"sessions/{path.name}"
    try:
        text = with_papers(path.read_text(encoding="utf-8"), label, papers)
    except FrontMatterError as exc:
        raise ContentError([exc.problem]) from None
    write_atomic(path, text.encode("utf-8"))
    return path, False
