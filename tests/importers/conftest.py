"""What the importer tests share: an empty catalog to import into, and reading what was written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ..conftest import ContentDir
from ..sitecheck import files_of


def read(path: Path) -> tuple[dict, str]:
    """A written paper or venue file: (front matter, body)."""
    _, head, body = path.read_text(encoding="utf-8").split("---\n", 2)
    return yaml.safe_load(head), body.strip()


def tree(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` with its bytes: to check that nothing was written."""
    return files_of(root, manifest=True)


@pytest.fixture
def empty(tmp_path) -> ContentDir:
    """A content folder with the test taxonomy, no venues or papers, and an absolute base URL
    (so links into the catalog's own site can be told apart)."""
    content = ContentDir(tmp_path / "content")
    (content.root / "venues" / "test-2024.md").unlink()
    content.write("site.toml", 'title = "Imported"\nbase_url = "https://example.org/shelf/"\n')
    return content
