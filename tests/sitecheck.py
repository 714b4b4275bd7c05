"""Helpers to inspect a built site: its files, its pages parsed, and the link checker (every
internal link, asset and fragment resolves, none leaves the base path) that the tests run
over every build they check."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

from generator.write.manifest import MARKER


def files_of(folder: Path, *, manifest: bool = False) -> dict[str, bytes]:
    """Every file below ``folder``, hidden ones included: its path (POSIX) and bytes. The
    build's manifest (``MARKER``: it holds mtimes) is left out unless ``manifest``."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and (manifest or p.name != MARKER)}


class PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, url)
        self.anchors: list[tuple[str, set[str]]] = []  # (href, classes of the <a>)
        self.ids: set[str] = set()
        self.text: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []  # (tag, name, value) for every attribute
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            self.attributes.append((tag, name, value))
            if name in ("href", "src", "action", "content") and (name != "content" or tag == "meta"):
                if name != "content":
                    self.links.append((tag, name, value))
            if name == "id":
                self.ids.add(value)
        if tag == "a":
            attrs_d = dict(attrs)
            self.anchors.append((attrs_d.get("href") or "", set((attrs_d.get("class") or "").split())))
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parse_page(path: Path) -> PageParser:
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


def page_text(path: Path) -> str:
    return " ".join(" ".join(parse_page(path).text).split())


# ---------------------------------------------------------------- an element tree, and the link checker

# Attributes whose value is a URL (or a list of them) in HTML, SVG and MathML.
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "poster", "cite", "data", "background", "longdesc",
                  "manifest", "codebase", "icon", "xlink:href", "srcset", "ping", "archive", "usemap"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
        "wbr"}
_SCHEME_NOISE = re.compile(r"[\x00-\x20\x7f]+")


def url_scheme(value: str) -> str:
    """The scheme a browser would see: whitespace and control characters inside it are ignored."""
    cleaned = _SCHEME_NOISE.sub("", value).lower()
    match = re.match(r"^([a-z][a-z0-9+.-]*):", cleaned)
    return match.group(1) if match else ""


@dataclass
class Element:
    tag: str
    attrs: list[tuple[str, str]]
    line: int
    parent: Element | None = None
    children: list[Element | str] = field(default_factory=list)

    def attr(self, name: str) -> str | None:
        return next((v for k, v in self.attrs if k == name), None)

    def text(self) -> str:
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag not in ("script", "style", "template"):
                parts.append(child.text())
        return "".join(parts)

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()


class TreeBuilder(HTMLParser):
    """A forgiving element tree; script and style contents are kept raw."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", [], 0)
        self.current = self.root
        self.elements: list[Element] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, [(k, v or "") for k, v in attrs], self.getpos()[0], self.current)
        self.current.children.append(element)
        self.elements.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        element = Element(tag, [(k, v or "") for k, v in attrs], self.getpos()[0], self.current)
        self.current.children.append(element)
        self.elements.append(element)

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse_html(path: Path) -> TreeBuilder:
    builder = TreeBuilder()
    builder.feed(path.read_text(encoding="utf-8"))
    builder.close()
    return builder


def find(tree: TreeBuilder, tag: str, **attrs: str) -> list[Element]:
    return [e for e in tree.elements if e.tag == tag and all(e.attr(k) == v for k, v in attrs.items())]


def url_values(element: Element) -> list[tuple[str, str]]:
    """(attribute, URL) pairs of an element, srcset split into its URLs."""
    values = []
    for name, value in element.attrs:
        if name == "srcset":
            values.extend((name, part.strip().split(" ")[0]) for part in value.split(",") if part.strip())
        elif name in URL_ATTRIBUTES:
            values.append((name, value))
        elif name == "content" and element.tag == "meta" and (element.attr("http-equiv") or "").lower() == "refresh":
            values.append((name, value.split("url=", 1)[-1] if "url=" in value.lower() else ""))
    return values


def is_url_meta(element: Element, name: str) -> bool:
    """A <meta> whose content is a URL (og:url, og:image, citation_pdf_url, refresh...)."""
    if element.tag != "meta" or name != "content":
        return False
    kind = (element.attr("name") or element.attr("property") or element.attr("http-equiv") or "").lower()
    return kind == "refresh" or kind.endswith(("url", "image", ":image:src", "uri"))


def resolve(site: Path, base: str, page_path: str, url: str) -> tuple[Path | None, str]:
    """(file an internal URL points to or None for external URLs, fragment)."""
    url, fragment = urldefrag(url)
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None, ""
    path = unquote(parts.path)
    if not path:
        path = page_path
    elif not path.startswith("/"):
        path = page_path.rsplit("/", 1)[0] + "/" + path
    segments: list[str] = []
    for segment in path.split("/"):
        if segment == "..":
            if segments:
                segments.pop()
        elif segment != ".":
            segments.append(segment)
    path = "/".join(segments)
    if not path.startswith(base):
        return site / "__outside_the_base_path__" / path.lstrip("/"), fragment
    target = site / path[len(base):]
    if path.endswith("/"):
        target = target / "index.html"
    return target, fragment


def link_problems(site: Path, base: str) -> list[str]:
    problems = []
    ids: dict[Path, set[str]] = {}

    def ids_of(page: Path) -> set[str]:
        if page not in ids:
            ids[page] = {e.attr("id") for e in parse_html(page).elements if e.attr("id")}
        return ids[page]

    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        page_path = base + (rel[: -len("index.html")] if rel.endswith("index.html") else rel)
        tree = parse_html(page)
        for element in tree.elements:
            for name, url in url_values(element):
                if not url or url_scheme(url) in ("http", "https", "mailto") or url.startswith("//"):
                    continue
                target, fragment = resolve(site, base, page_path, url)
                if target is None:
                    continue
                where = f"{rel}:{element.line}: <{element.tag} {name}={url!r}>"
                if "__outside_the_base_path__" in target.parts:
                    problems.append(f"{where} leaves the base path {base}")
                elif not target.is_file():
                    problems.append(f"{where} points to a missing file")
                elif fragment and target.suffix == ".html" and unquote(fragment) not in ids_of(target):
                    problems.append(f"{where} points to a missing #{fragment}")
    for css in sorted(site.rglob("*.css")):
        rel = css.relative_to(site).as_posix()
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", css.read_text(encoding="utf-8")):
            if url_scheme(url) or url.startswith("#"):
                if url_scheme(url) not in ("", "http", "https"):
                    problems.append(f"{rel}: url({url}) is a {url_scheme(url)}: URL")
                continue
            target, _ = resolve(site, base, base + rel, url)
            if target is not None and not target.is_file():
                problems.append(f"{rel}: url({url}) points to a missing file")
    return problems
