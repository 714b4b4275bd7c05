"""Read and validate a content folder into a ``Catalog``.

Every file is read and checked; all problems are collected and raised once as a
``ContentError``. Nothing here writes anything.

Layout::

    content/site.toml           site config
    content/tags.toml           tag taxonomy (see ``taxonomy``)
    content/venues/<id>.md      one venue per file
    content/papers/<slug>.md    one paper per file
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

from . import schema
from .errors import ContentError, Problems
from .frontmatter import FrontMatter, FrontMatterError, parse
from .model import Catalog, Link, Paper, SiteConfig, Tag, Venue
from .slugs import is_valid_slug
from .taxonomy import read_taxonomy


def load_catalog(content_dir: Path, *, base_url: str | None = None) -> Catalog:
    """Read ``content_dir``; ``base_url`` (e.g. from the CLI) overrides site.toml's."""
    content_dir = Path(content_dir)
    problems = Problems()
    if not content_dir.is_dir():
        problems.add(str(content_dir), "content folder not found")
        problems.raise_if_any()

    site = read_site_config(content_dir / "site.toml", problems, base_url=base_url)
    tags: dict[str, Tag] = {}
    taxonomy_ok = True
    if (content_dir / "tags.toml").exists():
        try:
            tags = read_taxonomy(content_dir / "tags.toml", "tags.toml")
        except ContentError as exc:
            problems.extend(exc.problems)
            taxonomy_ok = False
    venues = read_venues(content_dir / "venues", problems)
    # When tags.toml itself is broken, every tag would look unknown: report only its errors.
    papers = read_papers(content_dir / "papers", problems, venues=venues, tags=tags, check_refs=taxonomy_ok)
    problems.raise_if_any()
    assert site is not None
    ordered_venues = dict(sorted(venues.items(), key=lambda kv: (-kv[1].year, kv[1].name.lower(), kv[0])))
    return Catalog(site=site, venues=ordered_venues, tags=tags, papers=tuple(sorted(papers, key=lambda p: p.slug)))


def read_site_config(path: Path, problems: Problems, *, base_url: str | None = None) -> SiteConfig | None:
    label = "site.toml"
    data = _read_toml(path, label, problems)
    if data is None:
        return None
    if base_url is not None:
        try:
            data["base_url"] = schema.base_url(base_url)
        except schema.Invalid as exc:
            problems.add("--base-url", str(exc), field="base_url")
            return None
    text = path.read_text(encoding="utf-8", errors="replace")
    clean, ok = schema.check_fields(
        data, schema.SITE_FIELDS, file=label, line_of=lambda key: _toml_key_line(text, key), problems=problems
    )
    return SiteConfig(**clean) if ok else None


def read_venues(folder: Path, problems: Problems) -> dict[str, Venue]:
    venues: dict[str, Venue] = {}
    for path, label, fm in _read_markdown_folder(folder, "venues", problems):
        vid = path.stem
        clean, ok = schema.check_fields(fm.data, schema.VENUE_FIELDS, file=label, line_of=fm.line_of,
                                        problems=problems)
        if not ok:
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
) -> list[Paper]:
    papers: list[Paper] = []
    seen_titles: dict[tuple[str, str], str] = {}
    if not folder.is_dir():
        problems.add("papers/", "folder not found: every catalog needs content/papers/")
        return papers
    for path, label, fm in _read_markdown_folder(folder, "papers", problems):
        clean, ok = schema.check_fields(fm.data, schema.PAPER_FIELDS, file=label, line_of=fm.line_of,
                                        problems=problems)
        if "venue" in clean and clean["venue"] not in venues:
            known = ", ".join(sorted(venues)) or "none"
            problems.add(label, f"unknown venue {clean['venue']!r}; known venues: {known}",
                         line=fm.line_of("venue"), field="venue")
            ok = False
        if check_refs:
            for tag in clean.get("tags", ()):
                if tag not in tags:
                    problems.add(label, f"unknown tag {tag!r}; tags are defined in tags.toml",
                                 line=fm.line_of("tags"), field="tags")
                    ok = False
        if "title" in clean:
            key = (clean.get("venue"), _title_key(clean["title"]))
            if key in seen_titles:
                problems.add(label, f"the same paper (same title and venue) is already in {seen_titles[key]}",
                             line=fm.line_of("title"), field="title")
                ok = False
            seen_titles.setdefault(key, label)
        if not ok:
            continue
        clean.pop("extra", None)
        clean["links"] = tuple(Link(kind, url) for kind, url in clean["links"])
        papers.append(Paper(slug=path.stem, abstract=fm.body.strip(), source=label, **clean))
    return papers


def _title_key(title: str) -> str:
    folded = unicodedata.normalize("NFKD", title).casefold()
    return re.sub(r"[\W_]+", " ", folded).strip()


def _read_markdown_folder(folder: Path, kind: str, problems: Problems):
    """Yield (path, label, front matter) for each valid ``*.md`` file; report the rest."""
    if not folder.is_dir():
        return
    slugs_lower: dict[str, str] = {}
    for path in sorted(folder.iterdir()):
        label = f"{kind}/{path.name}"
        if path.name.startswith(".") or path.is_dir():
            continue
        if path.suffix != ".md":
            problems.add(label, "not a Markdown file (expected <id>.md); move or rename it")
            continue
        if not is_valid_slug(path.stem):
            problems.add(label, "file name must be an id of lower-case letters, digits and single hyphens "
                                "(at most 80 characters), e.g. 'my-paper.md'")
            continue
        if path.stem in slugs_lower:
            problems.add(label, f"duplicate id: also {slugs_lower[path.stem]}")
            continue
        slugs_lower[path.stem] = label
        text = _read_text(path, label, problems)
        if text is None:
            continue
        try:
            fm = parse(text, label)
        except FrontMatterError as exc:
            problems.extend([exc.problem])
            continue
        yield path, label, fm


def _read_text(path: Path, label: str, problems: Problems) -> str | None:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.add(label, f"cannot read the file: {exc.strerror}")
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.add(label, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8", line=line)
        return None


def _read_toml(path: Path, label: str, problems: Problems) -> dict[str, Any] | None:
    if not path.is_file():
        problems.add(label, "file not found")
        return None
    text = _read_text(path, label, problems)
    if text is None:
        return None
    try:
        return tomllib.loads(text.lstrip("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = int(match.group(1)) if match else None
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "invalid TOML"
        problems.add(label, f"invalid TOML: {reason}", line=line)
        return None


def _toml_key_line(text: str, key: str) -> int | None:
    match = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None
