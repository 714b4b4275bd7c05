"""COinS: a paper as an OpenURL ContextObject (``coins_kev``), which Zotero reads from list items."""

from __future__ import annotations

from ...derive.views import PaperView
from .links import best_link
from .names import name_parts
from .plain import one_line, text_as_shown


def coins_kev(view: PaperView, url: str | None = None) -> str:
    """The OpenURL (Z39.88-2004) ContextObject of a paper, for a COinS ``<span title>``.

    ``url``: the paper's page (default: its best external link). Zotero reads this as a
    conference paper: title, authors, proceedings title, year.
    """
    pairs: list[tuple[str, str]] = [
        ("ctx_ver", "Z39.88-2004"),
        ("rft_val_fmt", "info:ofi/fmt:kev:mtx:book"),
        ("rfr_id", "info:sid/papershelf"),
        ("rft.genre", "proceeding"),
        ("rft.atitle", text_as_shown(view.paper.title)),
        ("rft.btitle", one_line(view.venue.full_name)),
        ("rft.date", str(view.venue.year)),
    ]
    authors = view.paper.authors
    if authors:
        parts = name_parts(authors[0])
        if parts is not None and parts.first:
            pairs += [("rft.aulast", " ".join(parts.von + parts.last).replace("{", "").replace("}", "")),
                      ("rft.aufirst", " ".join(parts.first).replace("{", "").replace("}", ""))]
        else:
            pairs.append(("rft.au", one_line(authors[0])))
        pairs += [("rft.au", one_line(a)) for a in authors[1:]]
    target = url or best_link(view)
    if target:
        pairs.append(("rft_id", target))
    return "&".join(f"{_percent_encode(k)}={_percent_encode(v)}" for k, v in pairs)


# Percent-encoding of each UTF-8 byte as ``urllib.parse.quote(text, safe="")`` does it:
# letters, digits and ``_.-~`` as they are, every other byte as ``%XX``.
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")
_PERCENT_BYTES = tuple(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in range(256))


def _percent_encode(text: str) -> str:
    """``quote(text, safe="")`` (what ``urlencode(pairs, quote_via=quote, safe="")`` applies
    to each key and value), without its per-byte Python calls."""
    return "".join(map(_PERCENT_BYTES.__getitem__, text.encode("utf-8")))
