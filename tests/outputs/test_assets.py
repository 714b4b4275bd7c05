"""generator/outputs/assets.py: the theme's scripts and stylesheets are served minified,
and still run; other files, and files already minified, are served as they are."""

from __future__ import annotations

import gzip
import subprocess

import pytest

from generator.outputs.assets import served

from ..conftest import REPO

JS = """// A comment that goes.
/*! A licence that stays. */
(function () {
  "use strict";
  var re = /a\\/b*c/g; // a regular expression, not a comment
  var text = "// not a comment", n = 1 +
    2;
  return [re.source, text, n];
})();
"""


@pytest.mark.node
def test_scripts_lose_comments_and_whitespace_but_not_their_meaning():
    small = served("static/js/x.js", JS.encode()).decode()
    assert "A comment that goes" not in small and "/*! A licence that stays. */" in small
    assert len(small) < len(JS) * 0.8
    run = ["node", "-e", "process.stdout.write(JSON.stringify(eval(require('fs').readFileSync(0, 'utf8'))))"]
    same = [subprocess.run(run, input=code, capture_output=True, text=True, check=True).stdout for code in (JS, small)]
    assert same[0] == same[1] == '["a\\\\/b*c","// not a comment",3]'


def test_stylesheets_are_minified():
    css = "/* theme */\nbody {\n  color: red;  /* why */\n}\n\na:hover { color : blue ; }\n"
    assert served("static/css/x.css", css.encode()) == b"body{color:red}a:hover{color:blue}\n"


def test_other_files_and_minified_files_are_served_as_written():
    for path, data in [("static/vendor/lunr.min.js", b"var  a = 1; // kept\n"), ("static/x.MIN.CSS", b"a { }\n"),
                       ("static/img/logo.svg", b"<svg>  </svg>\n"), ("static/js/latin1.js", "// é".encode("latin-1")),
                       ("static/data.json", b'{ "a": 1 }'), ("static/js/empty.js", b"// nothing but a comment\n"),
                       # what the minifiers would get wrong: nested template literals, spaces in url()
                       ("static/js/t.js", b'var s = `${a.map(i => `${i}  x`).join(" ")}`; // c\n'),
                       ("static/js/u.js", b'var u = `<a href="${`https://x.org/${p}`}">`;\n'),
                       ("static/css/f.css", b'@import url("a b.css");\nbody { background: URL(\'x  y.png\') }\n')]:
        assert served(path, data) == data, path


@pytest.mark.node
def test_the_theme_is_served_smaller_and_every_script_still_parses(tmp_path):
    """Every script of the theme, minified, is valid JavaScript (the browser tests run them),
    and the search page's scripts and stylesheet cost at least a quarter less gzip."""
    sizes = [0, 0]
    for path in sorted((REPO / "static").rglob("*")):
        if path.suffix not in (".js", ".css") or path.name.endswith(".min.js"):
            continue
        rel = path.relative_to(REPO).as_posix()
        small = served(rel, path.read_bytes())
        sizes[0] += len(gzip.compress(path.read_bytes(), 6))
        sizes[1] += len(gzip.compress(small, 6))
        if path.suffix == ".js":
            target = tmp_path / path.name
            target.write_bytes(small)
            subprocess.run(["node", "--check", str(target)], check=True)
    assert sizes[1] < 0.75 * sizes[0], sizes
