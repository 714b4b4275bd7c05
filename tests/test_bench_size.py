"""bench/harness/sizes.py: a site's tar size is the one GNU tar writes (what GitHub Pages counts), and the
widest folder and largest file are found."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench.harness import sizes as size



def tar_bytes(folder: Path, *extra: str) -> int:
    done = subprocess.run(["tar", "--format=gnu", *extra, "-cf", "-", "-C", str(folder), "."], capture_output=True,
                          check=True)
    return len(done.stdout)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    # names around tar's 100-byte field, files around its 512-byte blocks, empty ones, a deep folder
    for length in (95, 98, 99, 100, 101, 102, 200, 250):
        folder = root / "papers" / ("v" * 8) / ("s" * max(1, length - 2 - 7 - 9 - 11))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_bytes(b"x" * (length * 7 % 1500))
    deep = root / "papers" / ("w" * 200) / ("z" * 250)  # a name past 512 bytes: two blocks of it
    deep.mkdir(parents=True)
    (deep / "index.html").write_bytes(b"y" * 1025)
    for n, data in enumerate((b"", b"a", b"b" * 511, b"c" * 512, b"d" * 513, b"e" * 20_000, b"f" * 1024)):
        (root / f"file-{n}.txt").write_bytes(data)
    (root / "authors" / "ab" / "ada").mkdir(parents=True)
    (root / "authors" / "ab" / "ada" / "index.html").write_text("é" * 300, encoding="utf-8")
    (root / ".papershelf-site").write_text("manifest\n" * 2000, encoding="utf-8")
    return root


@pytest.mark.skipif(shutil.which("tar") is None, reason="tar missing")
def test_the_tar_size_is_gnu_tar_s(site):
    report = size.size_report(site)
    assert report["tar_all"] == tar_bytes(site)
    assert report["tar"] == tar_bytes(site, "--exclude=./.papershelf-site")  # as the upload action leaves dot files out
    assert report["tar"] % size.RECORD == 0 and report["tar"] < report["tar_all"]


def test_widest_folder_largest_file_and_parts(site):
    report = size.size_report(site)
    assert report["widest"] == ["./", 9]  # papers/, authors/, seven files, the manifest not counted
    assert report["largest"] == ["file-5.txt", 20_000]
    parts = report["parts"]
    assert parts["papers/ pages"][1] == 9 and parts["authors/ pages"][:2] == [600, 1]
    assert sum(b for b, _, _ in parts.values()) == report["bytes"]
    assert size.part_of("papers-2024.bib.gz") == "papers-<year>.bib.gz"
    assert size.part_of("papers/iclr-2024/x/index.html") == "papers/ pages"
    assert size.part_of("venues/x/x.bib") == "venues/ BibTeX"
