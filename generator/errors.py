"""The two kinds of failure a build reports: content problems and output problems.

Content problems are collected while reading, reported once, then the build stops.

Every problem names the file, the line where it is known, and the field, so that a
person can go straight to it. Nothing in here knows about Click: the CLI turns a
``ContentError`` into a message and exit status 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the content."""

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        what = f"{self.field}: " if self.field else ""
        return f"{where}: {what}{self.message}"


class ContentError(Exception):
    """The content cannot be built; carries every problem found."""

    def __init__(self, problems: list[Problem], *, where: str = "in the content"):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, p.field or ""))
        self.where = where  # the heading's "1 problem <where>:", e.g. "fetching the papers"
        super().__init__(self.report())

    def report(self) -> str:
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} {self.where}:"
        return "\n".join([head, *(f"  {p}" for p in self.problems)])


@dataclass
class Problems:
    """Collects problems during a read; ``raise_if_any`` stops once at the end."""

    items: list[Problem] = field(default_factory=list)

    def add(self, file: str, message: str, *, line: int | None = None, field: str | None = None) -> None:
        self.items.append(Problem(file, line, field, message))

    def extend(self, problems: list[Problem]) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise ContentError(list(self.items))


class OutputError(Exception):
    """A problem with the output folder, a page path or a template (not with the content)."""
