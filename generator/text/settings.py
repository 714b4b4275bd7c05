"""Settings the text modules share: the size of their caches and the key in markdown-it's
``env`` that marks a title (display math set inline, no links)."""

from __future__ import annotations

CACHE_SIZE = 4096
TITLE_ENV_KEY = "papershelf_title"
