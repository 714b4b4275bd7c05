"""The search files of the site: a prebuilt Lunr index that lunr.js loads in the page."""

from .index import build_search

__all__ = ["build_search"]
