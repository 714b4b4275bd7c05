"""The synthetic inputs of the suites, generated once and cached in ``OUT`` (regenerated when
``bench/synth/`` or ``content/tags.toml`` change): catalogs, and the seed-format files."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import time
from pathlib import Path

from bench import synth

from . import OUT, REPO


def digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for root in paths:
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
        for path in files:
            h.update(path.relative_to(REPO).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cached_catalog(n: int, seed: int) -> Path:
    """The synthetic catalog of size ``n``, regenerated when bench/synth/ or tags.toml changed."""
    path = OUT / f"catalog-{n}-seed{seed}"
    stamp = OUT / f"catalog-{n}-seed{seed}.stamp"
    want = digest([*synth.SOURCES, synth.TAGS_TOML])
    if path.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return path
    print(f"  generating {n} papers into {path} ...", flush=True)
    started = time.perf_counter()
    synth.generate(n, path, seed)
    stamp.write_text(want)
    print(f"  generated in {time.perf_counter() - started:.1f}s", flush=True)
    return path


def cached_seeds(n: int, seed: int) -> Path:
    """The seed-format files (``*.txt`` + ``metadata/``) of the synthetic catalog of size ``n``,
    regenerated when bench/synth/ or tags.toml changed."""
    path = OUT / f"seeds-{n}-seed{seed}"
    stamp = OUT / f"seeds-{n}-seed{seed}.stamp"
    want = digest([*synth.SOURCES, synth.TAGS_TOML])
    if path.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return path
    print(f"  writing the seed files of {n} papers into {path} ...", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=OUT))
    try:
        synth.write_seed_files(n, seed, work)
        shutil.rmtree(path, ignore_errors=True)
        work.rename(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    stamp.write_text(want)
    return path
