"""The search files as the site stores them (issue 25): the numbered dictionary, postings and
title files (``search/dict/<n>.json``, ``terms/``, ``docs/``: all but ~1% of the index's bytes)
gzip, as ``<n>.json.gz``, a third of their size; ``meta.json`` and ``facets.json`` stay plain.

A static host serves a ``.gz`` file as its bytes (``application/gzip``, GitHub Pages) and the
page's engine unpacks them (``fetchJSON`` in static/js/search-engine.js, DecompressionStream);
a host that sends them unpacked (``Content-Encoding: gzip``) gives JSON, which it reads as it
is. ``build_search`` (and the tests of the index) keep the text of each file."""

from __future__ import annotations

import re
from typing import Iterator, Mapping

from ..catalog import gzip_bytes

STORED_GZIP = re.compile(r"search/(?:dict|terms|docs|people|ids)/\d+\.json")


def stored_files(files: Mapping[str, str]) -> Iterator[tuple[str, str | bytes]]:
    """``build_search``'s files by the path and bytes (or text) the site stores them as."""
    for path, text in files.items():
        if STORED_GZIP.fullmatch(path):
            yield path + ".gz", gzip_bytes(text)
        else:
            yield path, text
