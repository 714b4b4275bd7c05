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

Both the strict choice and the open blocks are context variables, not module globals: the
preview derives a paper on its watcher thread while a rebuild derives on another, and each
thread's fallbacks must reach its own blocks only (tests/text/test_fallbacks.py).

Nothing here runs unless rendering fails: the functions cost nothing more per call.
"""

from __future__ import annotations

import os
from contextvars import ContextVar
from dataclasses import dataclass

STRICT_ENV = "PAPERSHELF_STRICT_TEXT"
_OFF = frozenset({"", "0", "false", "no", "off"})
_MAX_MESSAGE = 200  # characters of an error's message kept in a fallback

_STRICT: ContextVar[bool | None] = ContextVar("papershelf_strict_text", default=None)  # None: the environment
_COLLECTORS: ContextVar[tuple[list, ...]] = ContextVar("papershelf_fallbacks", default=())  # open blocks' lists


@dataclass(frozen=True)
class TextFallback:
    """A text that could not be rendered, and was shown as escaped plain text instead."""

    function: str  # "render_abstract", "render_title" or "plain_text"
    error: str  # what went wrong: "ValueError: message"


def set_strict(on: bool | None) -> bool | None:
    """Strict mode on (True) or off (False) whatever the environment says, or (None) as
    ``PAPERSHELF_STRICT_TEXT`` says; returns the previous choice, to restore it."""
    previous = _STRICT.get()
    _STRICT.set(on)
    return previous


def strict() -> bool:
    """Whether the public functions re-raise instead of falling back."""
    chosen = _STRICT.get()
    if chosen is not None:
        return chosen
    return os.environ.get(STRICT_ENV, "").strip().lower() not in _OFF


class collect_fallbacks:
    """``with collect_fallbacks() as fallbacks:``: every fallback of the public functions
    called in the block is appended to the list ``fallbacks`` (and to those of the blocks
    around it)."""

    __slots__ = ("fallbacks", "_token")

    def __enter__(self) -> list[TextFallback]:
        self.fallbacks: list[TextFallback] = []
        self._token = _COLLECTORS.set((*_COLLECTORS.get(), self.fallbacks))
        return self.fallbacks

    def __exit__(self, *exc_info: object) -> None:
        _COLLECTORS.reset(self._token)


def record(function: str, error: BaseException) -> None:
    """Tell the open ``collect_fallbacks`` blocks that ``function`` fell back after ``error``."""
    collectors = _COLLECTORS.get()
    if not collectors:
        return
    lines = str(error).strip().splitlines()
    message = lines[0] if lines else ""
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    fallback = TextFallback(function, f"{type(error).__name__}: {message}" if message else type(error).__name__)
    for fallbacks in collectors:
        fallbacks.append(fallback)
