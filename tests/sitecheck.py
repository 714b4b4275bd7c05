"""Helpers to inspect a built site: parse pages, list links, find broken ones."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit


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


def resolve(site: Path, base_path: str, page_url: str, url: str) -> Path | None:
    """The file an internal URL points to, or None for external URLs."""
    url, _ = urldefrag(url)
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not url:
        return None
    path = unquote(parts.path)
    if not path.startswith("/"):
        path = page_url.rsplit("/", 1)[0] + "/" + path
    assert path.startswith(base_path), f"{url} on {page_url} is outside the base path {base_path}"
    rel = path[len(base_path):]
    target = site / rel
    if path.endswith("/"):
        target = target / "index.html"
    return target


def broken_links(site: Path, base_path: str = "/") -> list[str]:
    broken = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site).as_posix()
        page_url = base_path + rel
        for tag, attr, url in parse_page(html).links:
            target = resolve(site, base_path, page_url, url)
            if target is not None and not target.is_file():
                broken.append(f"{rel}: <{tag} {attr}={url!r}>")
    return broken
