"""What every importer shares: the file statuses and the report's counts, the known
conferences, paper and venue file text, slugs, author lists, and the careful part — reading
existing files within limits, deciding created/updated/unchanged/kept-edited, and atomic
writes.

Every importer reads and checks all its input first, plans every file, then compares each
planned file with what is on disk (``check_status``): a file that already holds exactly what
would be written is "unchanged"; a file that differs (someone edited it) is kept
("kept-edited") unless ``force`` ("updated"). ``write_planned`` writes the rest atomically
(temp file in the same folder, synced, + ``os.replace``), several files at once.
"""

from __future__ import annotations

import functools
import os
import re
import stat
import tempfile
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..content import frontmatter
from ..content.loader import MAX_FILE_BYTES
from ..content.slugs import MAX_LENGTH, author_key, slugify
from ..errors import Problems

CREATED = "created"
UPDATED = "updated"
UNCHANGED = "unchanged"
KEPT_EDITED = "kept-edited"
STATUSES = (CREATED, UPDATED, UNCHANGED, KEPT_EDITED)

# Short name (lower-case) -> (canonical short name, full name, URL template or None).
KNOWN_VENUES: dict[str, tuple[str, str, str | None]] = {
    "iclr": ("ICLR", "International Conference on Learning Representations", "https://iclr.cc/Conferences/{year}"),
    "icml": ("ICML", "International Conference on Machine Learning", "https://icml.cc/Conferences/{year}"),
    "neurips": ("NeurIPS", "Conference on Neural Information Processing Systems",
                "https://neurips.cc/Conferences/{year}"),
    "nips": ("NeurIPS", "Conference on Neural Information Processing Systems",
             "https://neurips.cc/Conferences/{year}"),
    "cvpr": ("CVPR", "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
             "https://cvpr.thecvf.com/Conferences/{year}"),
    "iccv": ("ICCV", "IEEE/CVF International Conference on Computer Vision", None),
    "eccv": ("ECCV", "European Conference on Computer Vision", None),
    "acl": ("ACL", "Annual Meeting of the Association for Computational Linguistics", "https://{year}.aclweb.org"),
    "emnlp": ("EMNLP", "Conference on Empirical Methods in Natural Language Processing", "https://{year}.emnlp.org"),
    "naacl": ("NAACL", "Annual Conference of the North American Chapter of the Association for Computational "
                       "Linguistics", None),
    "aaai": ("AAAI", "AAAI Conference on Artificial Intelligence", None),
    "ijcai": ("IJCAI", "International Joint Conference on Artificial Intelligence", None),
    "colt": ("COLT", "Conference on Learning Theory", "https://learningtheory.org/colt{year}/"),
    "aistats": ("AISTATS", "International Conference on Artificial Intelligence and Statistics",
                "https://aistats.org/aistats{year}/"),
    "uai": ("UAI", "Conference on Uncertainty in Artificial Intelligence", "https://www.auai.org/uai{year}/"),
    "kdd": ("KDD", "ACM SIGKDD Conference on Knowledge Discovery and Data Mining", "https://kdd.org/kdd{year}/"),
    "corl": ("CoRL", "Conference on Robot Learning", None),
    "www": ("WWW", "ACM Web Conference", None),
    "sigir": ("SIGIR", "ACM SIGIR Conference on Research and Development in Information Retrieval", None),
    "interspeech": ("Interspeech", "Interspeech Conference", None),
}


# --------------------------------------------------------------------------- report


@dataclass
class StatusCounts:
    """What every importer's report holds and answers about its ``papers`` (each with slug
    and status), with the summary lines they share."""

    papers: list = field(default_factory=list)
    venues_created: list[str] = field(default_factory=list)
    venues_existing: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def statuses(self) -> dict[str, str]:
        """slug -> status, in input order."""
        return {p.slug: p.status for p in self.papers}

    def slugs(self, status: str) -> list[str]:
        return [p.slug for p in self.papers if p.status == status]

    def count(self, status: str) -> int:
        return sum(1 for p in self.papers if p.status == status)

    def counts_text(self) -> str:
        """``"3 created, 0 updated, 1 unchanged, 0 kept-edited"``."""
        return ", ".join(f"{self.count(s)} {s}" for s in STATUSES)

    def venue_lines(self) -> list[str]:
        lines = []
        if self.venues_created:
            lines.append(f"Venues created: {', '.join(self.venues_created)}.")
        if self.venues_existing:
            lines.append(f"Venues already present (left as they are): {', '.join(self.venues_existing)}.")
        return lines

    def changed_lines(self) -> list[str]:
        """The papers kept as edited, and those updated (``force``)."""
        lines = []
        if self.slugs(KEPT_EDITED):
            lines.append("Kept as edited (not overwritten; use --force to replace): "
                         + ", ".join(self.slugs(KEPT_EDITED)))
        if self.slugs(UPDATED):
            lines.append("Updated: " + ", ".join(self.slugs(UPDATED)))
        return lines

    def warning_lines(self) -> list[str]:
        if not self.warnings:
            return []
        return [f"Warnings ({len(self.warnings)}):"] + [f"  - {w}" for w in self.warnings]


# --------------------------------------------------------------------------- reading within limits


WRITE_THREADS = 8  # files written at once by write_planned
MAX_INPUT_BYTES = 50_000_000  # a seed or metadata file; the real ones are about 100 kB


class Unreadable(Exception):
    """Why a file cannot be read: the message completes "<file>: ..."."""


def read_limited(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (never blocks on a pipe or device)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise Unreadable(f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise Unreadable("is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise Unreadable("is not a regular file (a device, pipe or socket)")
    if info.st_size > limit:
        raise Unreadable(f"is too large ({info.st_size:,} bytes; at most {limit:,})")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise Unreadable(f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise Unreadable(f"is too large (at most {limit:,} bytes)")
    return raw


def paper_files(papers_dir: Path) -> Iterator[tuple[str, frontmatter.FrontMatter]]:
    """(slug, front matter) of every paper file already in ``papers_dir``, in name order;
    files that cannot be read (``read_limited``: regular files of at most ``MAX_FILE_BYTES``)
    or parsed are passed over."""
    if not papers_dir.is_dir():
        return
    for path in sorted(papers_dir.glob("*.md")):
        if path.name.startswith("."):
            continue
        try:
            fm = frontmatter.parse(read_limited(path, MAX_FILE_BYTES).decode("utf-8"), path.name)
        except (OSError, Unreadable, UnicodeDecodeError, frontmatter.FrontMatterError):
            continue
        yield path.stem, fm


# --------------------------------------------------------------------------- names and slugs


def clean_line(text: str) -> str:
    """One line of printable text: control and separator characters become spaces."""
    if text.isascii() and text.isprintable():  # the usual case: no such character but " "
        return " ".join(text.split())
    chars = [" " if unicodedata.category(ch)[0] in "CZ" and ch != " " else ch for ch in text]
    return " ".join("".join(chars).split())


def add_author(names: list[str], name: str, where: str, warnings: list[str]) -> None:
    """Append ``name`` to ``names`` unless it is an author already listed (the same author
    page: same name but for accents, case or punctuation), which is a warning instead."""
    key = _author_key(name)
    same = next((n for n in names if _author_key(n) == key), None)
    if same is None:
        names.append(name)
        return
    again = "listed twice" if same == name else f"the same author as {same!r} (one author page)"
    warnings.append(f"{where}: author {name!r} is {again}; listed once")


# Authors recur across papers (and each is compared with a paper's other authors).
_author_key = functools.lru_cache(maxsize=65536)(author_key)


def paper_slug(title: str, fallback: str, used: set[str]) -> str:
    """``slugify(title)`` (≤ 80 characters, cut at a word); ``-2``, ``-3``… when already used."""
    title = re.sub(r"(?<=\w)['’](?=\w)", "", title)  # "Let's" -> "lets", not "let-s"
    base = slugify(title) or slugify(fallback) or "paper"
    if base not in used:
        return base
    n = 2
    while True:
        suffix = f"-{n}"
        stem = slugify(title, MAX_LENGTH - len(suffix)) or slugify(fallback, MAX_LENGTH - len(suffix)) or "paper"
        candidate = stem + suffix
        if candidate not in used:
            return candidate
        n += 1


# --------------------------------------------------------------------------- file text


def venue_file_text(name: str, full_name: str, year: int, url: str | None, location: str | None,
                    description: str) -> str:
    data: dict[str, Any] = {"name": name, "full_name": full_name, "year": year}
    if url:
        data["url"] = url
    if location:
        data["location"] = location
    return frontmatter.dump(data, description)


def paper_file_text(
    *,
    title: str,
    authors: Sequence[str],
    venue: str,
    tags: Sequence[str],
    abstract: str,
    presentation: str | None = None,
    links: Sequence[tuple[str, str]] = (),
    provisional: bool = False,
) -> str:
    """``frontmatter.dump`` of the paper's front matter and abstract (see ``_assembled``)."""
    data = _paper_data(title, authors, venue, tags, presentation, links, provisional)
    if not _assembly_matches() or not _all_text(data):
        return frontmatter.dump(data, abstract)
    return _assembled(data, abstract)


def _paper_data(title: str, authors: Sequence[str], venue: str, tags: Sequence[str], presentation: str | None,
                links: Sequence[tuple[str, str]], provisional: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"title": title, "authors": list(authors), "venue": venue, "tags": list(tags)}
    if presentation:
        data["presentation"] = presentation
    if links:
        data["links"] = dict(links)
    if provisional:
        data["provisional"] = True
    return data


def _all_text(data: dict[str, Any]) -> bool:
    values = [data["title"], data["venue"], data.get("presentation", ""), *data["authors"], *data["tags"],
              *data.get("links", {}).keys(), *data.get("links", {}).values()]
    return all(type(value) is str for value in values)


# --------------------------------------------------------------------------- front matter, fast
#
# ``frontmatter.dump`` (PyYAML's pure-Python emitter) was the largest cost of a large import
# after tag suggestion. ``_assembled`` writes the same text faster:
#
# * In block style each top-level key, and each item of a block list, is written the same
#   way whatever comes before it: the text is the concatenation of one dump per key (and
#   per list item), between the fences.
# * Most values are simple one-line strings, which the emitter writes plain or, when plain
#   would be misread (``": "``, a leading indicator, ``yes``), in single quotes; ``_scalar``
#   writes those itself, following PyYAML's ``analyze_scalar``/``choose_scalar_style``, and
#   leaves everything else (numbers, lines long enough to be folded, unusual characters) to
#   the emitter. Items shared by many papers (authors, tags, venue) are kept once made.
#
# ``_assembly_matches`` compares the two on sample papers once per process and falls back to
# ``frontmatter.dump`` should they ever differ (another PyYAML, other dump settings).

_WIDTH = 100  # frontmatter.dump's line width: longer lines are folded at a space
_NOT_PLAIN_WORDS = frozenset(  # words YAML reads as yes/no or null when plain
    "yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF null Null NULL".split())
_LINK_KIND = re.compile(r"[a-z][a-z_]*")


def _scalar(value: str, column: int) -> str | None:
    """``value`` as the YAML emitter writes a block value starting at ``column``, or None
    when that is not a simple case (which the emitter is left to write)."""
    if not value or not value.isprintable() or value[0] in "0123456789+-.<=~":  # numbers, dates: emitter
        return None
    plain = (  # what analyze_scalar allows as a plain block scalar, and read back as the same text
        value[0] not in "#,[]{}&*!|>'\"%@` "  # an indicator or a space first
        and not (value[0] in "?:" and value[1:2] in ("", " "))
        and value[-1] not in " :"
        and ": " not in value
        and " #" not in value
        and value not in _NOT_PLAIN_WORDS
    )
    text = value if plain else "'" + value.replace("'", "''") + "'"
    if " " in value and column + len(text) > _WIDTH:  # might be folded over lines
        return None
    return text


def _yaml_text(data: dict[str, Any]) -> str:
    """The YAML ``frontmatter.dump`` writes between its fences for ``data``."""
    fence = frontmatter.FENCE
    return frontmatter.dump(data, "")[len(fence) + 1: -len(fence) - 1]


@functools.lru_cache(maxsize=4096)
def _yaml_of(key: str, value: str | bool | tuple[str, ...]) -> str:
    """The YAML of ``{key: value}`` (a tuple as a list), for values many papers share."""
    return _yaml_text({key: list(value) if isinstance(value, tuple) else value})


def _pair(key: str, value: str) -> str:
    text = _scalar(value, len(key) + 2)
    return f"{key}: {text}\n" if text is not None else _yaml_text({key: value})


@functools.lru_cache(maxsize=65536)
def _item(key: str, value: str) -> str:
    """One item of the list ``key``: ``"- value\\n"`` as the emitter writes it there."""
    text = _scalar(value, 2)
    return f"- {text}\n" if text is not None else _yaml_text({key: [value]}).removeprefix(f"{key}:\n")


def _list(key: str, values: list[str]) -> str:
    return f"{key}:\n" + "".join(_item(key, value) for value in values) if values else _yaml_of(key, ())


def _links(links: dict[str, str]) -> str:
    lines = ["links:\n"]
    for kind, url in links.items():
        text = _scalar(url, len(kind) + 4)
        if text is None or not _LINK_KIND.fullmatch(kind) or kind in _NOT_PLAIN_WORDS:
            return _yaml_text({"links": links})
        lines.append(f"  {kind}: {text}\n")
    return "".join(lines)


def _assembled(data: dict[str, Any], abstract: str) -> str:
    """``frontmatter.dump(data, abstract)`` for ``_paper_data`` of text values, made faster."""
    fence = frontmatter.FENCE
    parts = [f"{fence}\n", _pair("title", data["title"]), _list("authors", data["authors"]),
             _yaml_of("venue", data["venue"]), _list("tags", data["tags"])]
    if "presentation" in data:
        parts.append(_yaml_of("presentation", data["presentation"]))
    if "links" in data:
        parts.append(_links(data["links"]))
    if "provisional" in data:
        parts.append(_yaml_of("provisional", True))
    body = abstract.rstrip("\n")  # as frontmatter.dump writes the body
    parts.append(f"{fence}\n\n{body}\n" if body else f"{fence}\n")
    return "".join(parts)


@functools.lru_cache(maxsize=1)
def _assembly_matches() -> bool:
    """Whether ``_assembled`` writes what ``frontmatter.dump`` does, for sample papers that use
    every key and the emitter's special cases."""
    long_title = "A study of " + " ".join(f"word{i}" for i in range(40))
    samples = [
        (long_title, ["Ada Lovelace", "José García", "O'Neil, Jr.", "张伟", "- dash", "x" * 120, "yes"],
         "iclr-2024", ["a", "b"], "Abstract with $x^2$.\n\nSecond paragraph.\n\n", "oral",
         {"pdf": "https://x.org/a.pdf", "code": "https://github.com/a/b#readme"}, False),
        ("Title: with a colon #and hash", [], "v", ["machine-learning"], "", None, {}, True),
        ("'Quoted' title's " + "and more " * 9 + "x", ["null", "Émile Zola", "Bo #1"], "2024", [], "  spaces  ",
         "poster", {"arxiv": "https://arxiv.org/abs/1234.5678", "project": "http://x.org:8080/a?b=[c]"}, True),
        ("On graphs", ["A" * 95 + " B", "A: B"], "v", ["on"], "Text", None, {"pdf": "https://x.org/a b"}, False),
    ]
    for title, authors, venue, tags, abstract, presentation, links, provisional in samples:
        data = _paper_data(title, authors, venue, tags, presentation, tuple(links.items()), provisional)
        if _assembled(data, abstract) != frontmatter.dump(data, abstract):
            return False
    return True


# --------------------------------------------------------------------------- comparing and writing


def check_status(target: Path, content: bytes, force: bool, problems: Problems) -> str:
    """What writing ``content`` to ``target`` would be: ``CREATED``, ``UNCHANGED``, or for a
    file that differs ``UPDATED`` (``force``) or ``KEPT_EDITED``. A target that cannot be
    replaced (a folder, an unreadable file) is a problem, and kept."""
    if not target.exists() and not target.is_symlink():
        return CREATED
    if target.is_dir():
        problems.add(str(target), "is a folder; cannot write the paper there")
        return KEPT_EDITED
    try:
        current = read_limited(target, MAX_FILE_BYTES)
    except Unreadable as exc:
        problems.add(str(target), f"cannot replace the existing file: it {exc}")
        return KEPT_EDITED
    except OSError as exc:
        problems.add(str(target), f"cannot read the existing file: {exc.strerror or exc}")
        return KEPT_EDITED
    if current == content:
        return UNCHANGED
    return UPDATED if force else KEPT_EDITED


def plan_paper_write(target: Path, content: bytes, force: bool, problems: Problems, warnings: list[str],
                     actions: list[tuple[Path, bytes]], *, force_hint: str = "--force") -> str:
    """The status of writing ``content`` to the paper file ``target`` (``check_status``): a file
    edited by hand is kept, with a warning; one to create or update joins ``actions``."""
    status = check_status(target, content, force, problems)
    if status == KEPT_EDITED:
        warnings.append(f"papers/{target.name}: differs from the import (edited by hand?); kept as it is — "
                        f"use {force_hint} to overwrite it")
    if status in (CREATED, UPDATED):
        actions.append((target, content))
    return status


def write_planned(actions: list[tuple[Path, bytes]], folders: Sequence[Path], problems: Problems) -> None:
    """Last step of every importer: refuse if a target folder is a file, else write it all."""
    for directory in folders:
        if directory.exists() and not directory.is_dir():
            problems.add(str(directory), "exists but is not a folder")
    problems.raise_if_any()
    if len(actions) < 2 or len({target for target, _ in actions}) < len(actions):
        for target, content in actions:
            write_atomic(target, content)
        return
    # Each file is still synced before it replaces its target, but on a busy disk one
    # fsync can wait milliseconds: several threads overlap the waits (10,000 files took
    # 20 s one after the other). The targets differ, so the result is the same.
    pool = ThreadPoolExecutor(max_workers=min(WRITE_THREADS, len(actions)))
    try:
        for future in [pool.submit(write_atomic, target, content) for target, content in actions]:
            future.result()  # the first failure, in input order, is raised
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def write_atomic(target: Path, content: bytes) -> None:
    """Write ``content`` to ``target`` through a temp file in the same folder + ``os.replace``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
