"""Render pages with Jinja2.

Autoescaping is on for every template, undefined names are errors, and content is only
ever passed as *values*: text that looks like Jinja (``{{ x }}``) is printed, never run.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from . import __version__
from .derive import SiteData
from .model import LINK_LABELS
from .pages import Page


def make_environment(templates_dir: Path) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates_dir)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


def site_globals(site: SiteData) -> dict[str, object]:
    """Values every template can use; computed once per build."""
    config = site.catalog.site
    parts = urlsplit(config.base_url)
    base_path = parts.path or "/"
    absolute = config.base_url if parts.scheme else None
    return {
        "config": config,
        "data": site,
        "base": base_path,  # prefix for every internal link: "/" or "/catalog/"
        "absolute_base": absolute,  # "https://host/path/" or None
        "link_labels": LINK_LABELS,
        "generator_version": __version__,
    }


def render_page(env: Environment, page: Page, globals_: dict[str, object]) -> str:
    template = env.get_template(page.template)
    return template.render(**globals_, page=page, **page.context)
