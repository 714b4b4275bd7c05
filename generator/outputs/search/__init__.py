"""The search files of the site: an index split by term, fetched by the page a query at a time."""

from .shards import build_search
from .stored import stored_files

__all__ = ["build_search", "stored_files"]
