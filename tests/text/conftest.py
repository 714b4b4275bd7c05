"""The text tests run in strict mode: an error in the Markdown, LaTeX or math code fails the
test that meets it, instead of hiding behind the fallback to escaped text."""

from __future__ import annotations

from typing import Iterator

import pytest

from generator.text import set_strict


@pytest.fixture(autouse=True)
def strict_text() -> Iterator[None]:
    previous = set_strict(True)
    try:
        yield
    finally:
        set_strict(previous)
