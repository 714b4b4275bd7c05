"""Read and validate a content folder into a ``Catalog``.

Every file is read and checked; all problems are collected and raised once as a
``ContentError``. Nothing here writes anything.

Layout::

    content/site.toml           site config
    content/tags.toml           tag taxonomy (see ``taxonomy``)
    content/authors.toml        optional: what is known of authors (see ``people``)
    content/venues/<id>.md      one venue per file
    content/papers/<slug>.md    one paper per file

Files are read defensively (see ``read_content_file``): only regular files inside the
content folder (a symbolic link may point elsewhere *inside* it), at most
``MAX_FILE_BYTES``, UTF-8 (a BOM is fine), without NUL characters or Unicode
noncharacters. Hidden files and editor leftovers (``.#x.md``, ``#x.md#``, ``x.md~``)
are skipped; any other file or folder that is not ``<id>.md`` is reported, never
silently ignored.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from dataclasses import dataclass, field
from typing import AbstractSet, Any, Callable, Iterable, Iterator, Mapping

from . import citation_fields, debris, schema
from .files import MAX_FILE_BYTES, decode_text, read_content_file, shown_name  # noqa: F401 (also the loader's API)
from .tracks import tracks_of
from ..errors import ContentError, Problem, Problems
from .frontmatter import FrontMatter, FrontMatterError, parse
from .model import Catalog, Link, Paper, Person, SiteConfig, Tag, Venue
from ..cache import cached_map
from ..parallel import parallel_map
from .names import looks_like_list
from .duplicates import DuplicateCheck, abstract_key, title_key  # noqa: F401 (the keys: also the loader's API)
from .duplicates import PaperKeys, paper_keys
from .slugs import RESERVED, is_valid_slug
from .people import FILE, check_rules, parse_people, same_person_twice, spelling_owners
from .taxonomy import parse_taxonomy
from .sessions import read_sessions
from .site_fields import SITE_FIELDS



def load_catalog(content_dir: Path, *, base_url: str | None = None) -> Catalog:
    """Read ``content_dir``; ``base_url`` (e.g. from the CLI) overrides site.toml's."""
    content_dir = Path(content_dir)
    problems = Problems()
    if not content_dir.is_dir():
        problems.add(str(content_dir), "content folder not found")
        problems.raise_if_any()
    root = content_dir.resolve()

    site = read_site_config(content_dir / "site.toml", problems, base_url=base_url, root=root)
    tags: dict[str, Tag] = {}
    taxonomy_ok = True
    tags_path = content_dir / "tags.toml"
    if tags_path.exists() or tags_path.is_symlink():
        text = read_content_file(tags_path, "tags.toml", problems, root=root)
        if text is None:
            taxonomy_ok = False
        else:
            try:
                tags = parse_taxonomy(text, "tags.toml")
            except ContentError as exc:
                problems.extend(exc.problems)
                taxonomy_ok = False
    people = read_people(content_dir / "authors.toml", problems, root=root)
    broken_venues: set[str] = set()
    venues = read_venues(content_dir / "venues", problems, root=root, broken=broken_venues)
    # When tags.toml itself is broken, every tag would look unknown, and a paper of a broken
    # venue file would have an unknown venue: report only the errors of those files.
    warnings: list[str] = []
    papers = read_papers(content_dir / "papers", problems, venues=venues, tags=tags, check_refs=taxonomy_ok,
                         root=root, broken_venues=broken_venues, people=people, warnings=warnings)
    sessions = read_session_folder(content_dir / "sessions", problems, root=root, papers=papers, site=site)
    check_rules(people, papers, venues, problems)  # authors.toml's merge and split rules name what exists
    problems.raise_if_any()
    assert site is not None
    ordered_venues = dict(sorted(venues.items(), key=lambda kv: (-kv[1].year, kv[1].name.lower(), kv[0])))
    return Catalog(site=site, venues=ordered_venues, tags=tags, papers=tuple(sorted(papers, key=lambda p: p.slug)),
                   people=people, warnings=tuple(warnings), sessions=sessions)


def read_session_folder(folder: Path, problems: Problems, *, root: Path, papers: list[Paper],
                        site: SiteConfig | None) -> tuple:
    """The sessions of ``content/sessions/`` (optional; see ``sessions``)."""
    if not (folder.exists() or folder.is_symlink()):
        return ()
    if not _check_folder(folder, "sessions", problems, root, "it holds one <id>.md file per session"):
        return ()
    known = not any(p.file.startswith("papers/") for p in problems.items)  # a broken paper is not "unknown"
    return read_sessions(_read_markdown_folder(folder, "sessions", problems, root), problems,
                         papers=(p.slug for p in papers), timezone=site.timezone if site else "", known=known)


def read_people(path: Path, problems: Problems, *, root: Path) -> tuple[Person, ...]:
    """The people of ``authors.toml`` (see ``people``); none when there is no such file."""
    if not (path.exists() or path.is_symlink()):
        return ()
    text = read_content_file(path, FILE, problems, root=root)
    if text is None:
        return ()
    try:
        return parse_people(text, FILE)
    except ContentError as exc:
        problems.extend(exc.problems)
        return ()


def read_site_config(path: Path, problems: Problems, *, base_url: str | None = None,
                     root: Path | None = None) -> SiteConfig | None:
    label = "site.toml"
    text = read_content_file(path, label, problems, root=root or path.parent.resolve())
    if text is None:
        return None
    data = _parse_toml(text, label, problems)
    if data is None:
        return None
    if base_url is not None:
        try:
            data["base_url"] = schema.base_url(base_url)
        except schema.Invalid as exc:
            problems.add("--base-url", str(exc), field="base_url")
            return None
    clean, ok = schema.check_fields(
        data, SITE_FIELDS, file=label, line_of=lambda key: _toml_key_line(text, key), problems=problems
    )
    return SiteConfig(**clean) if ok else None


def read_venues(folder: Path, problems: Problems, *, root: Path | None = None,
                broken: set[str] | None = None) -> dict[str, Venue]:
    """Valid venues by id; the ids of venue files that exist but have problems go to ``broken``."""
    broken = set() if broken is None else broken
    venues: dict[str, Venue] = {}
    names: dict[str, str] = {}
    root = root or folder.parent.resolve()
    if not _check_folder(folder, "venues", problems, root, "every paper names a venue defined there"):
        return venues
    for path, label, fm in _read_markdown_folder(folder, "venues", problems, root, failed=broken):
        vid = path.stem
        if vid in schema.RESERVED_VENUE_IDS:
            problems.add(label, f"{vid!r} cannot be a venue id: papers/{vid}/ is taken by the pages of the list "
                                "of all papers; rename the file (and the papers' venue)", line=1)
            broken.add(vid)
            continue
        clean, ok = schema.check_fields(fm.data, schema.VENUE_FIELDS, file=label, line_of=fm.line_of,
                                        problems=problems)
        if "name" in clean:
            key = clean["name"].casefold()
            if key in names:
                problems.add(label, f"the venue name {clean['name']!r} is already used by {names[key]}",
                             line=fm.line_of("name"), field="name")
                broken.add(vid)
            names.setdefault(key, label)
        if not ok:
            broken.add(vid)
            continue
        venues[vid] = Venue(id=vid, description=fm.body.strip(), source=label, **clean)
    return venues


def read_papers(
    folder: Path,
    problems: Problems,
    *,
    venues: dict[str, Venue],
    tags: dict[str, Tag],
    check_refs: bool = True,
    root: Path | None = None,
    broken_venues: set[str] = frozenset(),
    people: tuple[Person, ...] = (),
    warnings: list[str] | None = None,
) -> list[Paper]:
    """The valid papers of ``folder``; problems go to ``problems``, and what the build only
    warns about (suspected duplicates: ``duplicates``) to ``warnings``."""
    papers: list[Paper] = []
    checks = PaperChecks(venues, tags, people, check_refs, broken_venues)
    warnings = [] if warnings is None else warnings
    root = root or folder.parent.resolve()
    if not _check_folder(folder, "papers", problems, root, "every catalog needs content/papers/"):
        return papers
    for path, label, fm in _read_markdown_folder(folder, "papers", problems, root):
        paper = check_paper(path.stem, label, fm, problems, checks, warnings)
        if paper is not None:
            papers.append(paper)
    return papers


@dataclass
class PaperChecks:
    """What a paper file is checked against: the catalog's venues (``broken_venues``: files
    whose own problems are reported) and tags (``check_refs``: tags.toml could be read), the
    people of authors.toml, and the papers checked before it (``duplicates``)."""

    venues: Mapping[str, Venue]
    tags: Mapping[str, Tag]
    people: tuple[Person, ...] = ()
    check_refs: bool = True
    broken_venues: AbstractSet[str] = frozenset()
    duplicates: DuplicateCheck = field(default_factory=DuplicateCheck)
    # When given: the papers to see (``seen``) just before a paper of these keys is checked,
    # instead of every paper before it: those it can repeat (``duplicates.KeyIndex``).
    earlier: Callable[[PaperKeys], Iterable[Paper]] | None = None
    owners: dict[str, Person] = field(init=False)

    def __post_init__(self) -> None:
        self.owners = spelling_owners(self.people)

    def seen(self, paper: Paper, keys: PaperKeys | None = None) -> None:
        """``paper`` (read and valid) is among the papers checked before the next ones; ``keys``:
        its ``duplicate_keys``, when known."""
        self.duplicates.check_keys(paper.source or paper.slug, keys or duplicate_keys(paper))


def duplicate_keys(paper: Paper) -> PaperKeys:
    """What the duplicate check compares of a paper read (``PaperChecks.seen``)."""
    return paper_keys(paper.title, paper.venue, paper.authors, paper.abstract)


def read_paper(path: Path, problems: Problems, checks: PaperChecks, *, root: Path,
               warnings: list[str]) -> Paper | None:
    """One paper file (``papers/<slug>.md``) read and checked as ``read_papers`` reads each of
    its folder: its name, text, front matter and fields, against ``checks`` (the papers
    checked before it: ``PaperChecks.seen``); None when it is not valid (the reasons in
    ``problems``), warnings to ``warnings``. The preview reads an edited paper with it."""
    for _, label, message in _classify([path], {path.name}, "papers"):
        if message is not None:
            problems.add(label, message or "an editor's leftover file, not a paper")
            return None
    text, label, found = _read_text(path, kind="papers", root=root)
    fm, more = _parse_text((text, label))
    problems.extend(found + more)
    if fm is None:
        return None
    return check_paper(path.stem, label, fm, problems, checks, warnings)


def check_paper(slug: str, label: str, fm: FrontMatter, problems: Problems, checks: PaperChecks,
                warnings: list[str]) -> Paper | None:
    """The paper of one file's front matter when it is valid (else None, the reasons in
    ``problems``); it joins the papers ``checks`` compares the next ones with."""
    venues, tags, duplicates = checks.venues, checks.tags, checks.duplicates
    # an unreadable DOI or page range is left out with a warning, never a refusal
    data = citation_fields.lenient(fm.data, label, warnings, doi_link=schema.doi_link)
    clean, ok = schema.check_fields(data, schema.PAPER_FIELDS, file=label, line_of=fm.line_of,
                                    problems=problems)
    if "venue" in clean and clean["venue"] in checks.broken_venues:
        ok = False  # the venue file's own problems are reported
    elif "venue" in clean and clean["venue"] not in venues:
        known = ", ".join(sorted(venues)) or "none"
        problems.add(label, f"unknown venue {clean['venue']!r}; known venues: {known}",
                     line=fm.line_of("venue"), field="venue")
        ok = False
    elif "venue" in clean and clean.get("track") and clean["track"] not in tracks_of(venues[clean["venue"]]):
        known = ", ".join(tracks_of(venues[clean["venue"]]))
        problems.add(label, f"unknown track {clean['track']!r} of venue {clean['venue']!r}; its tracks: {known} "
                            f"(a venue file lists its own under tracks:)", line=fm.line_of("track"), field="track")
        ok = False
    if checks.check_refs:
        for tag in clean.get("tags", ()):
            if tag not in tags:
                problems.add(label, f"unknown tag {tag!r}; tags are defined in tags.toml",
                             line=fm.line_of("tags"), field="tags")
                ok = False
    owners = checks.owners
    twice = same_person_twice(clean["authors"], owners) if owners and "authors" in clean else None
    if twice:
        problems.add(label, twice, line=fm.line_of("authors"), field="authors")
        ok = False
    abstract = fm.body.strip()
    if debris.MARK in abstract or debris.MARK in clean.get("title", ""):
        # Text from a PDF: the pages never show "(cid:"; the file is the curator's to fix.
        abstract, in_abstract = debris.repair(abstract)
        in_title = in_abstract - in_abstract
        if "title" in clean:
            clean["title"], in_title = debris.repair(clean["title"])
        warnings.append(f"{label}: PDF debris (cid:…) in the title or abstract, repaired on the pages "
                        f"({debris.describe(in_abstract + in_title)}); fix the file")
    for name in clean.get("authors", ()):
        if looks_like_list(name):
            warnings.append(f"{label}: author {name!r} looks like several names; give each its own item "
                            "of authors")
    if "title" in clean and "venue" in clean:
        keys = paper_keys(clean["title"], clean["venue"], clean.get("authors", ()), abstract)
        for other in checks.earlier(keys) if checks.earlier is not None else ():
            checks.seen(other)
        for repeat in duplicates.check_keys(label, keys):
            if repeat.exact:
                problems.add(label, repeat.message(), line=fm.line_of("title"), field="title")
                ok = False
            else:
                warnings.append(f"{label}: {repeat.message()}")
    if not ok:
        return None
    clean["links"] = tuple(Link(kind, url) for kind, url in clean["links"])
    return Paper(slug=slug, abstract=abstract, source=label, **clean)


def is_leftover(name: str) -> bool:
    """Hidden files, editor swap and backup files: never content."""
    return name.startswith((".", "#")) or name.endswith("~")


_is_leftover = is_leftover


def _check_folder(folder: Path, kind: str, problems: Problems, root: Path, why: str) -> bool:
    label = f"{kind}/"
    if not folder.exists() and not folder.is_symlink():
        problems.add(label, f"folder not found: {why}")
        return False
    try:
        real = folder.resolve(strict=True)
    except (OSError, RuntimeError):
        problems.add(label, "is a symbolic link to a folder that does not exist")
        return False
    if real != root and root not in real.parents:
        problems.add(label, f"is a symbolic link to {real}, outside the content folder; "
                            "move the folder into the content folder instead")
        return False
    if not real.is_dir():
        problems.add(label, f"is a file; expected a folder ({why})")
        return False
    return True


def _read_markdown_folder(folder: Path, kind: str, problems: Problems, root: Path,
                          failed: set[str] | None = None) -> Iterator[tuple[Path, str, FrontMatter]]:
    """Yield (path, label, front matter) for each valid ``*.md`` file; report the rest.

    The ids of well-named files that cannot be read or parsed are added to ``failed``.
    """
    failed = set() if failed is None else failed
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        problems.add(f"{kind}/", f"cannot list the folder: {exc.strerror or exc}")
        return
    names = {p.name for p in entries}
    classified = list(_classify(entries, names, kind))
    # Reading and YAML parsing are most of the load time: done on every core for big
    # catalogs, then reported in file order as before.
    readable = [path for path, _, message in classified if message is None]
    read = parallel_map(functools.partial(_read_text, kind=kind, root=root), readable)
    parsed = cached_map("front matter", _parse_text, [(text, label) for text, label, _ in read],
                        lambda item: item)
    results = {path: (fm, found + more) for path, (_, _, found), (fm, more) in zip(readable, read, parsed)}
    for path, label, message in classified:
        if message is not None:
            if message:
                problems.add(label, message)
            continue
        fm, found = results[path]
        problems.extend(found)
        if fm is None:
            failed.add(path.stem)
            continue
        yield path, label, fm


def _classify(entries: list[Path], names: set[str], kind: str) -> Iterator[tuple[Path, str, str | None]]:
    """(path, label, why it is not read) for each entry: None for a file to read, "" for one
    to skip silently (editor leftovers)."""
    for path in entries:
        label = f"{kind}/{shown_name(path.name)}"
        if _is_leftover(path.name):
            yield path, label, ""
        elif path.is_dir() and not path.is_symlink():
            yield path, label, (f"is a folder; {kind}/ holds one <id>.md file per {kind[:-1]} "
                                "and its subfolders are not read")
        elif path.suffix.lower() != ".md":
            yield path, label, "not a Markdown file (expected <id>.md); move or rename it"
        elif path.suffix != ".md" or not is_valid_slug(path.stem):
            lower = path.stem.lower() + ".md"
            if lower != path.name and lower in names:
                yield path, label, (f"differs only in case from {kind}/{lower}; on macOS and Windows they "
                                    "are one file: keep one of them")
            elif lower != path.name and is_valid_slug(path.stem.lower()):
                yield path, label, f"file name must be lower-case: rename it to {lower}"
            elif path.stem.lower() in RESERVED:
                yield path, label, (f"{path.stem!r} is a reserved device name on Windows; choose another "
                                    "file name")
            else:
                yield path, label, ("file name must be an id of lower-case letters, digits and single hyphens "
                                    "(at most 80 characters), e.g. 'my-paper.md'")
        else:
            yield path, label, None


def _read_text(path: Path, *, kind: str, root: Path) -> tuple[str | None, str, list[Problem]]:
    """One content file's text (None if it cannot be read), its label and its problems."""
    label = f"{kind}/{shown_name(path.name)}"
    problems = Problems()
    return read_content_file(path, label, problems, root=root), label, problems.items


def _parse_text(item: tuple[str | None, str]) -> tuple[FrontMatter | None, list[Problem]]:
    """The front matter of a file's text (None if it was unreadable or is invalid) and its
    problems: what the build cache keeps (the text and label are all it depends on)."""
    text, label = item
    if text is None:
        return None, []
    try:
        return parse(text, label), []
    except FrontMatterError as exc:
        return None, [exc.problem]


def _parse_toml(text: str, label: str, problems: Problems) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = int(match.group(1)) if match else None
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc)) or "invalid TOML"
        problems.add(label, f"invalid TOML: {reason}", line=line)
    except RecursionError:
        problems.add(label, "invalid TOML: nested too deeply")
    return None


def _toml_key_line(text: str, key: str) -> int | None:
    match = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None
