"""Hostile content builds into inert pages.

A catalog whose titles, names, abstracts, venue, tags and site config carry raw HTML,
event handlers, ``javascript:``/``data:`` links, ``</script>``, Jinja syntax, odd
Unicode, a huge abstract and deep nesting must build into pages where all of it is
*shown as text*: no element, attribute or script comes from content, nothing is
evaluated, every page is valid HTML, and nothing is written outside the output folder.
The preview server answers only from the output folder.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.content.slugs import RESERVED

from ..conftest import REPO, ContentDir
from ..outputs.test_site_integrity import security_problems, validate_html
from ..sitecheck import find, link_problems, parse_html, url_scheme

XSS_TITLE = '<script>alert("t1")</script> <img src=x onerror=alert(2)> </script><script>alert(3)</script>'
BREAKOUT_TITLE = "</script><script>alert(4)</script><!-- </SCRIPT > <!--<script>"
JINJA_TITLE = "{{ 'EVAL' ~ 'UATED' }} and {% if false %}shown-only-if-printed{% endif %} {# comment #}"
WEIRD_TITLE = "\u202eevil\u202c J\u0301ose\u0300 \u200bzero-width 张伟 😀 soft\u00adhyphen \ufb01 line"
HOSTILE_NAMES = ['"><img src=x onerror=alert(5)>', "{{ config }}", "..", "CON", "/etc/passwd", "<b>Eve</b>",
                 "javascript:alert(6)", "\u202eRight To Left"]

XSS_ABSTRACT = textwrap.dedent("""\
    <script>alert("a1")</script> <img src=x onerror=alert("a2")> <svg onload=alert("a3")></svg>
    <iframe src="https://evil.example/"></iframe> <style>body{display:none}</style>
    <a href="javascript:alert('a4')">raw link</a> <div style="color:red" onclick="alert('a5')">div</div>

    [js link](javascript:alert('a6')) [JS upper](JaVaScRiPt:alert('a7')) [entity](&#106;avascript:alert('a8'))
    [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgnYTknKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox('a10'))
    ![image](javascript:alert('a11')) ![pixel](data:image/png;base64,iVBORw0KGgo=)
    <javascript:alert('a12')> [ok link](https://example.org/ok) <mailto:someone@example.org>

    Text with </script> and <!-- a comment --> and ]]> and <![CDATA[ x ]]> inside.
    """)
JINJA_ABSTRACT = ("Printed, not run: {{ 7*191 }} and {% for x in range(3) %}loop{% endfor %} and {{ config }} "
                  "and {% if false %}shown-only-if-printed{% endif %}.")
HUGE_WORDS = 40_000  # about 400 kB: far larger than any real abstract, still under the size limit


def _paper(title: str, body: str, authors=("Ada Lovelace",), extra: str = "") -> str:
    import yaml

    data = {"title": title, "authors": list(authors), "venue": "hostile-2024", "tags": ["weird-tag"]}
    text = "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    return text + (extra.strip() + "\n" if extra else "") + "---\n" + body + "\n"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> tuple[Path, Path]:
    """(content, site) of the hostile catalog, built at the root."""
    root = tmp_path_factory.mktemp("hostile")
    c = ContentDir(root / "content")
    c.write("site.toml", textwrap.dedent("""\
        title = "Shelf </title><script>alert('s1')</script>"
        description = "\\" onload=\\"alert('s2') {{ 7*191 }}"
        owner = "{{ config }} <b>owner</b>"
        author_page_min_papers = 1
        """))  # (every author a page: each hostile name becomes a folder)
    c.write("tags.toml", textwrap.dedent("""\
        [weird-tag]
        name = "<b onmouseover=alert('t1')>Weird</b> {{ 7*191 }}"
        description = "\\"><script>alert('t2')</script>"
        phrases = []

        [machine-learning]
        name = "Machine learning"
        description = "Everything else."
        phrases = []
        fallback = true
        """))
    c.write("venues/hostile-2024.md", textwrap.dedent("""\
        ---
        name: "<i>HOSTILE</i> 2024 {{ 7*191 }}"
        full_name: "Conference </title><script>alert('v1')</script>"
        year: 2024
        url: "https://example.org/hostile?a=1&b=<2>"
        location: "\\"><svg onload=alert('v2')>"
        ---
        <script>alert('v3')</script> [venue js](javascript:alert('v4')) {{ 7*191 }}
        """).replace("<2>", "2"))
    c.add_paper("xss-title", _paper(XSS_TITLE, XSS_ABSTRACT, authors=HOSTILE_NAMES, extra="""
        links:
          code: "https://example.org/code?x=1&y=<2>"
          pdf: "https://example.org/paper.pdf#page=1"
        """.replace("<2>", "2")))
    c.add_paper("script-breakout", _paper(BREAKOUT_TITLE, "</script><script>alert('b1')</script> " * 3
                                          + "\n\n<!-- </script> -->"))
    c.add_paper("jinja", _paper(JINJA_TITLE, JINJA_ABSTRACT, authors=["{{ 7*191 }}", "{% raw %}x"]))
    c.add_paper("weird-unicode", _paper(WEIRD_TITLE, WEIRD_TITLE + " \u2028 line separator\n\n" + "Ω≈ç√∫ ﷽ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 e\u0301\u0301\u0301 "
                                        "\u0000".replace("\u0000", "") + "tab\there \x0c formfeed \x1b escape "
                                        "\x85 next-line \u2029 para"))
    words = " ".join(f"w{i}" for i in range(HUGE_WORDS))
    c.add_paper("huge-abstract", _paper("A Huge Abstract", f"Start {words} THE-VERY-END"))
    nested = ("> " * 60) + "quoted\n\n" + "".join("  " * i + "- item\n" for i in range(60)) + "\n" \
        + "[" * 500 + "brackets" + "]" * 500 + " " + "*" * 300 + "stars" + "*" * 300 + " " + "{" * 300 + "}" * 300 \
        + " $" + "{" * 200 + "x" + "}" * 200 + "$ " + "\\frac{" * 100 + "1" + "}" * 100
    c.add_paper("deep-nesting", _paper("Deep $\\frac{\\frac{\\frac{1}{2}}{3}}{4}$ Nesting", nested, extra="""
        extra:
          a: {b: {c: {d: {e: {f: [1, [2, [3, [4]]]]}}}}}
        """))
    out = root / "site"
    build(BuildOptions(content=c.root, output=out))
    return c.root, out


def page(site: Path, slug: str) -> Path:
    return site / "papers" / "hostile-2024" / slug / "index.html"


def visible_text(path: Path) -> str:
    tree = parse_html(path)
    body = find(tree, "body")[0]
    return " ".join(body.text().split())


# --------------------------------------------------------------------------- nothing from content is markup


def test_no_content_becomes_an_element_attribute_or_script(hostile):
    _, site = hostile
    assert security_problems(site) == []


def test_only_the_templates_elements_appear(hostile):
    """Every tag in a hostile page is one the templates or the Markdown renderer make."""
    _, site = hostile
    allowed = {"html", "head", "meta", "title", "link", "script", "body", "a", "header", "div", "nav", "ul", "li",
               "form", "label", "input", "button", "main", "footer", "p", "article", "h1", "h2", "h3", "span",
               "section", "ol", "strong", "em", "code", "pre", "blockquote", "br", "hr", "math", "mi", "mn",
               "mo", "mrow", "mfrac", "msup", "msub", "msubsup", "mtext", "semantics", "annotation", "mstyle",
               "mspace", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "table",
               "thead", "tbody", "tr", "th", "td", "caption", "dl", "dt", "dd", "details", "summary", "textarea",
               "small", "abbr", "time", "sup", "sub", "del", "s", "b", "i", "noscript", "select", "option",
               "output", "fieldset", "legend", "kbd", "mpadded", "menclose", "mphantom", "merror", "figure",
               "figcaption", "aside", "address", "cite", "q", "mark", "svg", "path", "use", "template", "dialog",
               "picture", "source", "data", "var", "samp", "wbr", "h4", "h5", "h6", "u", "img"}
    for path in sorted(site.rglob("*.html")):
        tree = parse_html(path)
        for element in tree.elements:
            assert element.tag in allowed, f"{path}: <{element.tag}>"
            if element.tag in ("img", "svg", "iframe"):
                # Content never brings images: an <img> would be the template's own, with a local src.
                src = element.attr("src") or ""
                assert not url_scheme(src), f"{path}: <{element.tag} src={src!r}>"


def test_raw_html_in_titles_and_abstracts_is_shown_as_text(hostile):
    _, site = hostile
    text = visible_text(page(site, "xss-title"))
    for shown in ('<script>alert("t1")</script>', "<img src=x onerror=alert(2)>", '<script>alert("a1")</script>',
                  '<img src=x onerror=alert("a2")>', '<svg onload=alert("a3")></svg>',
                  "<iframe src=\"https://evil.example/\"></iframe>",
                  "<a href=\"javascript:alert('a4')\">raw link</a>", "Text with </script> and <!-- a comment -->"):
        assert shown in text, shown


def test_hostile_title_is_text_in_the_heading_and_the_document_title(hostile):
    _, site = hostile
    tree = parse_html(page(site, "xss-title"))
    h1 = " ".join(find(tree, "h1")[0].text().split())
    assert h1 == " ".join(XSS_TITLE.split())
    title = " ".join(find(tree, "title")[0].text().split())
    assert title.startswith(" ".join(XSS_TITLE.split())), title
    breakout = parse_html(page(site, "script-breakout"))
    assert " ".join(find(breakout, "h1")[0].text().split()) == " ".join(BREAKOUT_TITLE.split())
    assert " ".join(find(breakout, "title")[0].text().split()).startswith(" ".join(BREAKOUT_TITLE.split()))


def test_hostile_names_and_config_are_text_everywhere(hostile):
    _, site = hostile
    text = visible_text(page(site, "xss-title"))
    for name in HOSTILE_NAMES:
        assert " ".join(name.split()) in text, name
    home = visible_text(site / "index.html")
    assert "Shelf </title><script>alert('s1')</script>" in home
    assert "{{ config }} <b>owner</b>" in home
    tags = visible_text(site / "tags" / "index.html")
    assert "<b onmouseover=alert('t1')>Weird</b> {{ 7*191 }}" in tags
    assert "\"><script>alert('t2')</script>" in tags
    venue = visible_text(site / "venues" / "hostile-2024" / "index.html")
    assert "<i>HOSTILE</i> 2024 {{ 7*191 }}" in venue
    assert "<script>alert('v3')</script>" in venue


def test_attribute_values_stay_inside_their_attribute(hostile):
    """Quotes in content cannot add attributes: meta tags keep exactly their own attributes."""
    _, site = hostile
    for path in sorted(site.rglob("*.html")):
        tree = parse_html(path)
        for meta in find(tree, "meta"):
            names = {k for k, _ in meta.attrs}
            assert names <= {"charset", "name", "content", "property", "http-equiv"}, (path, meta.attrs)
        body = find(tree, "body")[0]
        assert {k for k, _ in body.attrs} <= {"data-base", "class", "data-page"}, (path, body.attrs)
    home = parse_html(site / "index.html")
    description = next(m for m in find(home, "meta") if m.attr("name") == "description")
    assert description.attr("content") == "\" onload=\"alert('s2') {{ 7*191 }}"


def test_only_http_and_mailto_links_survive(hostile):
    _, site = hostile
    tree = parse_html(page(site, "xss-title"))
    abstract = next(e for e in tree.elements if e.tag == "section" and "abstract" in (e.attr("class") or ""))
    hrefs = [a.attr("href") for a in abstract.iter() if a.tag == "a"]
    assert "https://example.org/ok" in hrefs and "mailto:someone@example.org" in hrefs
    assert all(url_scheme(h) in ("http", "https", "mailto") for h in hrefs), hrefs
    text = " ".join(abstract.text().split())
    for label in ("js link", "JS upper", "entity", "data link", "vb", "image", "pixel", "ok link"):
        assert label in text, label  # the text of a refused link is kept
    for path in sorted(site.rglob("*.html")):
        html = path.read_text(encoding="utf-8").lower()
        assert not re.search(r"""(href|src|action)\s*=\s*["']?\s*(javascript|data|vbscript):""", html), path


def test_jinja_syntax_in_content_is_printed_literally_never_evaluated(hostile):
    _, site = hostile
    for path in sorted(site.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert "EVALUATED" not in text and "SiteConfig(" not in text and "looploop" not in text, path
        if "huge-abstract" not in path.parts:
            assert "1337" not in text, path  # 7*191
    assert "shown-only-if-printed" in visible_text(page(site, "jinja"))  # an {% if false %} was not run
    text = visible_text(page(site, "jinja"))
    tree = parse_html(page(site, "jinja"))
    assert " ".join(find(tree, "h1")[0].text().split()) == JINJA_TITLE
    assert JINJA_ABSTRACT in text
    assert "{{ 7*191 }}, {% raw %}x" in text  # the author names


def test_script_blocks_cannot_be_closed_by_content(hostile):
    _, site = hostile
    for slug in ("script-breakout", "xss-title", "jinja"):
        tree = parse_html(page(site, slug))
        scripts = find(tree, "script")
        # The templates' scripts only: nothing the content wrote became a script element.
        data = ("application/ld+json", "application/json")  # never run
        assert all(s.attr("src") or s.attr("type") in data for s in scripts)
        blocks = [s for s in scripts if s.attr("type") in data]
        assert len(blocks) == 1, slug  # the JSON-LD, one element
        for block in blocks:
            body = "".join(c for c in block.children if isinstance(c, str))
            assert not re.search(r"</script|<!--", body, re.IGNORECASE)
            json.loads(body)
    # The reading list's names of venues and tags, hostile ones among them, are data too.
    (names,) = find(parse_html(site / "reading-list" / "index.html"), "script", type="application/json")
    body = "".join(c for c in names.children if isinstance(c, str))
    assert not re.search(r"</script|<!--", body, re.IGNORECASE)
    assert json.loads(body)["v"]["hostile-2024"][0] == "<i>HOSTILE</i> 2024 {{ 7*191 }}"


def test_json_ld_names_the_paper_as_the_page_shows_it(hostile):
    """The title in JSON-LD is the title as text, not the title with its tag-like parts cut out."""
    _, site = hostile
    for slug in ("script-breakout", "xss-title", "jinja"):
        tree = parse_html(page(site, slug))
        h1 = " ".join(find(tree, "h1")[0].text().split())
        for block in find(tree, "script", type="application/ld+json"):
            data = json.loads("".join(c for c in block.children if isinstance(c, str)))
            if data.get("@type") == "ScholarlyArticle":
                assert " ".join(data["name"].split()) == h1, slug


def test_the_search_documents_are_json_that_no_page_embeds_unescaped(hostile):
    _, site = hostile
    for path in sorted((site / "search").glob("*.json")):
        json.loads(path.read_text(encoding="utf-8"))
    # If a page embeds JSON in a script element, no content can close it.
    for path in sorted(site.rglob("*.html")):
        for block in find(parse_html(path), "script"):
            body = "".join(c for c in block.children if isinstance(c, str))
            assert not re.search(r"</script", body, re.IGNORECASE), path


def test_the_search_documents_keep_hostile_titles_as_text(hostile):
    """Search results show a title as the page does (set with textContent, so no need to cut tags)."""
    _, site = hostile
    docs = [r for p in (site / "search" / "docs").glob("*.json.gz")  # stored gzip (outputs/search/stored.py)
            for r in json.loads(gzip.decompress(p.read_bytes()).decode("utf-8"))]
    records = json.dumps(docs, ensure_ascii=False)
    for title in (XSS_TITLE, BREAKOUT_TITLE, JINJA_TITLE):
        assert json.dumps(title, ensure_ascii=False)[1:-1] in records, title


def test_weird_unicode_is_kept(hostile):
    _, site = hostile
    tree = parse_html(page(site, "weird-unicode"))
    h1 = find(tree, "h1")[0].text()
    for piece in ("\u202eevil\u202c", "J\u0301ose\u0300", "张伟", "😀", "\ufb01"):
        assert piece in h1, piece
    text = visible_text(page(site, "weird-unicode"))
    assert "𝔘𝔫𝔦𝔠𝔬𝔡𝔢" in text and "﷽" in text
    html = page(site, "weird-unicode").read_text(encoding="utf-8")
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", html)  # control characters dropped


def test_a_huge_abstract_is_kept_whole(hostile):
    _, site = hostile
    text = visible_text(page(site, "huge-abstract"))
    assert "Start w0 w1 w2" in text and f"w{HUGE_WORDS - 1} THE-VERY-END" in text
    assert text.count(" w") >= HUGE_WORDS


def test_deep_nesting_builds_and_keeps_its_words(hostile):
    """Nesting deeper than the Markdown renderer goes must not swallow the text (nothing lost)."""
    _, site = hostile
    text = visible_text(page(site, "deep-nesting"))
    for word in ("quoted", "brackets", "stars"):
        assert word in text, f"{word!r} is lost from the deeply nested abstract"
    assert text.count("item") >= 60, "list items beyond the nesting limit are lost"


@pytest.mark.java
@pytest.mark.slow
def test_hostile_pages_are_valid_html_and_links_resolve(hostile):
    _, site = hostile
    assert link_problems(site, "/") == []
    code, output = validate_html(site)
    assert code == 0, output[:5000]


def test_nothing_is_written_outside_the_output_folder(hostile):
    content, site = hostile
    assert sorted(p.name for p in site.parent.iterdir()) == ["content", "site"]
    for path in site.rglob("*"):
        rel = path.relative_to(site)
        for part in rel.parts:
            assert part not in ("", ".", "..") and "\\" not in part and ":" not in part
            assert part.split(".")[0].lower() not in RESERVED, rel
    buckets = sorted(p.name for p in (site / "authors").iterdir() if p.is_dir())
    # two-character buckets of author pages, one-character letter pages of the index (a-z, 0)
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9_]|[a-z0]", b) for b in buckets), buckets
    authors = sorted(p.name for p in (site / "authors").glob("*/*") if p.is_dir())
    assert len(authors) == len(HOSTILE_NAMES) + 3  # + Ada Lovelace, "{{ 7*191 }}", "{% raw %}x"
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", a) for a in authors), authors


def test_the_same_hostile_catalog_builds_under_a_sub_path(hostile, tmp_path):
    content, _ = hostile
    out = tmp_path / "sub"
    build(BuildOptions(content=content, output=out, base_url="/catalog/"))
    assert link_problems(out, "/catalog/") == []
    assert security_problems(out) == []


# --------------------------------------------------------------------------- the preview server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_preview_server_serves_only_the_output_folder(hostile, tmp_path):
    content, _ = hostile
    secret = b"TOP-SECRET-" + os.urandom(4).hex().encode()
    (tmp_path / "secret.txt").write_bytes(secret)
    out = tmp_path / "site"
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "build", "--serve", "--quiet", "--port", str(port),
         "--content", str(content), "--output", str(out)],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body = _get(port, "/")
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "the preview server did not start"
            time.sleep(0.05)
        assert b"Shelf &lt;/title&gt;" in body
        for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt",
                     "/static/../../secret.txt", "//../secret.txt", "/..\\secret.txt", "/%2E%2E/%2E%2E/etc/passwd",
                     "/../content/site.toml", "/../../../../../../etc/passwd"):
            status, body = _get(port, path)
            assert secret not in body and b"root:" not in body and b"alert('s1')" not in body, path
            assert status in (400, 403, 404), (path, status)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# --------------------------------------------------------------------------- output paths


@pytest.mark.parametrize("path", [
    "../escape.html", "/etc/passwd", "a/../../b", "", "a//b.html", "./a.html", "a/./b.html", "C:/x.html",
    "a\\..\\b.html", "con/index.html", "papers/nul.html", "LPT1.txt", "papers/x./index.html", "x /index.html",
    "a\x00b.html", "tab\there.html", "a:b.html", 'q"uote.html', "x" * 256 + ".html",
])
def test_the_writer_refuses_paths_that_could_leave_the_folder_or_break_on_windows(tmp_path, path):
    from generator.write.writer import OutputError, atomic_output

    with pytest.raises(OutputError, match="refusing to write"):
        with atomic_output(tmp_path / "site") as w:
            w.write_text(path, "x")
    assert sorted(os.listdir(tmp_path)) == []


def test_the_writer_refuses_paths_that_differ_only_in_case(tmp_path):
    from generator.write.writer import OutputError, atomic_output

    with pytest.raises(OutputError, match="two pages want the same output file: papers/A/index.html"):
        with atomic_output(tmp_path / "site") as w:
            w.write_text("papers/a/index.html", "one")
            w.write_text("papers/A/index.html", "two")
    assert sorted(os.listdir(tmp_path)) == []


def test_every_planned_page_of_the_hostile_catalog_has_a_safe_path(hostile):
    from generator.derive.views import derive
    from generator.content.loader import load_catalog
    from generator.outputs.pages import plan_pages
    from generator.write.paths import check_output_path

    content, _ = hostile
    pages = list(plan_pages(derive(load_catalog(content))))
    assert len(pages) > 10
    paths = [p.output_path for p in pages]
    for path in paths:
        check_output_path(path)
    assert len({p.casefold() for p in paths}) == len(paths)
