"""What the public text functions do when rendering fails: raise in strict mode, else fall
back to escaped text and record the fallback for the caller to report.

Rendering a title or an abstract is not meant to fail; when a bug in the Markdown, LaTeX or
math code makes it fail all the same, a build must neither stop on one paper nor hide it:

* In strict mode the public functions re-raise, so tests and checks see the error itself.
  It is on when ``set_strict(True)`` says so or, while ``set_strict`` has not chosen (or was
  given None), when the environment variable ``PAPERSHELF_STRICT_TEXT`` is set to anything
  but "", "0", "false", "no" or "off". Both are read only when rendering fails.
* Otherwise the text is shown escaped (readers still get its words) and a ``TextFallback``
  is appended to the list of every open ``collect_fallbacks()`` block. The caller knows
  which file and field it is rendering and turns them into build notes (``derive.views``);
  the lists are the caller's own, so they travel back with its results from a forked worker.

Nothing here runs unless rendering fails: the functions cost nothing more per call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

STRICT_ENV = "PAPERSHELF_STRICT_TEXT"
_OFF = frozenset({"", "0", "false", "no", "off"})
_MAX_MESSAGE = 200  # characters of an error's message kept in a fallback

_strict: bool | None = None  # the choice of set_strict; None: the environment decides
_collectors: list[list[TextFallback]] = []  # the lists of the open collect_fallbacks blocks


@dataclass(frozen=True)
class TextFallback:
    """A text that could not be rendered, and was shown as escaped plain text instead."""

    function: str  # "render_abstract", "render_title" or "plain_text"
    error: str  # what went wrong: "ValueError: message"


def set_strict(on: bool | None) -> bool | None:
    """Strict mode on (True) or off (False) whatever the environment says, or (None) as
    ``PAPERSHELF_STRICT_TEXT`` says; returns the previous choice, to restore it."""
    global _strict
    previous, _strict = _strict, on
    return previous


def strict() -> bool:
    """Whether the public functions re-raise instead of falling back."""
    if _strict is not None:
        return _strict
    return os.environ.get(STRICT_ENV, "").strip().lower() not in _OFF


class collect_fallbacks:
    """``with collect_fallbacks() as fallbacks:``: every fallback of the public functions
    called in the block is appended to the list ``fallbacks`` (and to those of the blocks
    around it)."""

    __slots__ = ("fallbacks",)

    def __enter__(self) -> list[TextFallback]:
        self.fallbacks: list[TextFallback] = []
        _collectors.append(self.fallbacks)
        return self.fallbacks

    def __exit__(self, *exc_info: object) -> None:
        _collectors.pop()  # blocks end in the order opposite to how they began


def record(function: str, error: BaseException) -> None:
    """Tell the open ``collect_fallbacks`` blocks that ``function`` fell back after ``error``."""
    if not _collectors:
        return
    lines = str(error).strip().splitlines()
    message = lines[0] if lines else ""
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    fallback = TextFallback(function, f"{type(error).__name__}: {message}" if message else type(error).__name__)
    for fallbacks in _collectors:
        fallbacks.append(fallback)
