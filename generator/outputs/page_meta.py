"""What a page says about itself to other sites (issue 34): its link preview (OpenGraph and a
Twitter card: title, description, URL, type, site name) and, with ``repo_url`` in site.toml,
where to edit its source file and to report a problem with it.

Edit links follow MkDocs: ``repo_url`` + ``edit_uri`` + the page's file below the content
folder (``papers/x.md``); ``edit_uri`` may be a whole URL. Without ``edit_uri``, a GitHub or
GitLab repository edits ``edit/main/content/`` (MkDocs' default, with ``main``); another host
gets no edit link. "Report a problem" opens a new issue on GitHub or GitLab with the page's
title and URL filled in.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from ..content.model import SiteConfig
from ..derive.urls import SiteUrls
from .pages import Page

DEFAULT_EDIT_URI = "edit/main/content/"
ISSUE_HOSTS = {"github.com": "github", "gitlab.com": "gitlab"}


@dataclass(frozen=True, slots=True)
class Preview:
    title: str
    url: str | None  # absolute, where base_url is
    type: str  # og:type: "article" for a paper or session, else "website"
    site_name: str


@dataclass(frozen=True, slots=True)
class EditLinks:
    edit: str | None  # the source file's edit page
    report: str | None  # a new issue with the page's title and URL


def preview(page: Page, config: SiteConfig) -> Preview:
    urls = SiteUrls.from_config(config)
    article = "paper" in page.context or "session" in page.context
    return Preview(title=page.title or config.title, url=urls.absolute(page.url),
                   type="article" if article else "website", site_name=config.title)


def source_of(page: Page) -> str | None:
    """The content file a paper's, venue's or session's page is made from."""
    for key in ("paper", "session"):
        if key in page.context:
            return getattr(page.context[key], "source", None) or None
    venue = page.context.get("venue")
    inner = getattr(venue, "venue", None)
    return getattr(inner, "source", None) or None


def issue_host(repo_url: str) -> str | None:
    host = (urlsplit(repo_url).hostname or "").lower()
    return ISSUE_HOSTS.get(host.removeprefix("www."))


def edit_url(config: SiteConfig, source: str) -> str | None:
    if not config.repo_url:
        return None
    uri = config.edit_uri or (DEFAULT_EDIT_URI if issue_host(config.repo_url) else "")
    if not uri:
        return None
    if "://" in uri:
        return uri + source if uri.endswith(("/", "=")) else f"{uri}/{source}"
    uri = uri if uri.endswith(("/", "=")) else uri + "/"
    return f"{config.repo_url.rstrip('/')}/{uri.lstrip('/')}{source}"


def report_url(config: SiteConfig, page: Page, source: str | None) -> str | None:
    host = issue_host(config.repo_url) if config.repo_url else None
    if host is None:
        return None
    urls = SiteUrls.from_config(config)
    body = (f"Page: {urls.best(page.url)}\n" + (f"File: {source}\n" if source else "")
            + "\nWhat is wrong, and what should it say?\n")
    title = f"Problem with “{page.title}”"
    repo = config.repo_url.rstrip("/")
    if host == "github":
        return f"{repo}/issues/new?" + urlencode({"title": title, "body": body})
    return f"{repo}/-/issues/new?" + urlencode({"issue[title]": title, "issue[description]": body})


def edit_links(page: Page, config: SiteConfig) -> EditLinks | None:
    """The page's edit and report links; None for a page without a source file, or without
    ``repo_url``."""
    source = source_of(page)
    if source is None or not config.repo_url:
        return None
    links = EditLinks(edit_url(config, source), report_url(config, page, source))
    return links if links.edit or links.report else None
