"""Static files as the site serves them: scripts and stylesheets minified.

The theme's scripts are written to be read (a third of their bytes are comments), and the
search page loads ~35 kB of them gzip before a query: minified, ~25 kB. ``rjsmin`` and
``rcssmin`` only drop comments and whitespace (no renaming), so the code runs as written;
a file already minified (``*.min.js``, ``*.min.css``) or not UTF-8 is copied as it is.
Comments that start with ``/*!`` (licences) are kept. A script with template literals
that substitute (rjsmin reads nested ones wrong: `${`x  y`}` loses its spaces) and a
stylesheet with ``url(`` (rcssmin drops the spaces of a quoted ``url("a b.png")``) are
served as written: a catalog's own files may have them; the theme's have neither.
"""

from __future__ import annotations

import rcssmin
import rjsmin


def served(rel_path: str, data: bytes) -> bytes:
    """The bytes the site serves for the static file ``rel_path`` whose source is ``data``."""
    name = rel_path.rsplit("/", 1)[-1].lower()
    kind = name.rsplit(".", 1)[-1] if "." in name else ""
    if kind not in ("js", "css") or name.endswith((".min.js", ".min.css")):
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    if ("`" in text and "${" in text) if kind == "js" else ("url(" in text.lower()):
        return data
    small = rjsmin.jsmin(text, keep_bang_comments=True) if kind == "js" else rcssmin.cssmin(text, keep_bang_comments=True)
    return (small + "\n").encode("utf-8") if small else data
