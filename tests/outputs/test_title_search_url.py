"""The title search offered where no PDF is known (``derive.urls.scholar_search``) encodes a
title exactly as the page's JavaScript does (``encodeURIComponent``, under Node): the list
items static/js/paper-item.js builds link to the same search as the pages Jinja renders."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from generator.derive import urls

pytestmark = pytest.mark.node

TITLES = ["On $K$-means", "A (Very) Fast Method: 100% * Faster!", "Café & Crème — “quoted” 'title'",
          "Graphs/Trees? #1 + x=y ~ z", "张伟的论文 𝔼[x]"]


def test_a_title_search_encodes_the_title_as_encode_uri_component():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = "const ts = JSON.parse(process.argv[1]); console.log(JSON.stringify(ts.map(encodeURIComponent)))"
    encoded = json.loads(subprocess.run([node, "-e", script, json.dumps(TITLES)], check=True, capture_output=True,
                                        text=True).stdout)
    assert [urls.scholar_search(t) for t in TITLES] == [urls.SCHOLAR_SEARCH.format(query=e) for e in encoded]
