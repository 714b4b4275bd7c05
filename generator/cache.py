"""The build cache: results of per-file work kept across builds, by a hash of their input.

A build spends a third of its time on work that depends on one file only: parsing each
content file's front matter (YAML) and rendering each paper's title and abstract (Markdown,
LaTeX to MathML). ``cached_map`` looks such results up by a digest of everything they
depend on (the input itself, the generator's code, the Python and library versions), runs
only what is missing (on every core, as ``parallel.parallel_map``), and keeps the new
results. ``cached_call`` does the same for one value of the whole catalog (the related
papers, which only the papers' texts and tags decide: an edit of authors or venue reuses
them). A hit is the very value a fresh computation would give, so a cached build writes
exactly what a build without the cache writes.

The cache is one SQLite file, ``<folder>/cache-<SCHEMA>.sqlite``, by default in
``.papershelf-cache/`` beside the content folder (``papershelf build --no-cache`` does
without, ``papershelf clean`` removes it). Safe to share: two builds at once only ever
add values that are right for their keys (SQLite serialises the writes; a build that finds
the file locked for ``TIMEOUT_S`` keeps its results to itself). Never a reason for a build
to fail: an unreadable, corrupt or foreign file is replaced, an entry that does not load is
a miss. After a build, entries it did not use are dropped, so the file holds one catalog's
worth. Values are pickled: the folder is to be trusted as the project's own files are.
"""

from __future__ import annotations

import hashlib
import pickle
import sqlite3
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TypeVar

from .parallel import parallel_map

T = TypeVar("T")
R = TypeVar("R")

FOLDER = ".papershelf-cache"  # beside the content folder, unless told otherwise
SCHEMA = 1  # the file's layout; a new one starts a new file
TIMEOUT_S = 5.0  # how long to wait for another build's write to the file

GENERATOR = Path(__file__).resolve().parent
# Libraries whose version can change a cached value or the output: YAML, Markdown, MathML,
# templates, the search index, BibTeX, the topics' numbers, the minified CSS and JavaScript.
# One list for the build cache and the output's fingerprint (``write.freshness``).
LIBRARIES = ("PyYAML", "markdown-it-py", "mdit-py-plugins", "linkify-it-py", "latex2mathml", "markupsafe",
             "jinja2", "lunr", "bibtexparser", "numpy", "rjsmin", "rcssmin")


def default_folder(content: Path) -> Path:
    """``.papershelf-cache`` in the folder that holds the content folder (the project's)."""
    return Path(content).resolve().parent / FOLDER


def cache_file(folder: Path) -> Path:
    return Path(folder) / f"cache-{SCHEMA}.sqlite"


_version: str | None = None


def generator_version() -> str:
    """A digest of the generator's code (its bytes, not mtimes: a fresh clone in CI hits the
    cache its last deploy left), Python's version and the libraries'."""
    global _version
    if _version is None:
        digest = hashlib.blake2b(digest_size=16)
        for path in sorted(GENERATOR.rglob("*.py")):
            digest.update(path.relative_to(GENERATOR).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        versions = []
        for name in LIBRARIES:
            try:
                versions.append(f"{name} {metadata.version(name)}")
            except metadata.PackageNotFoundError:
                versions.append(f"{name} -")
        digest.update(repr([sys.version, *versions]).encode())
        _version = digest.hexdigest()
    return _version


class BuildCache:
    """One build's view of the cache file: what it holds is read once per kind of value;
    what the build computed is written, and what it did not use dropped, by ``save``."""

    def __init__(self, folder: Path):
        self.path = cache_file(folder)
        self.version = generator_version().encode()
        self.loaded: dict[str, dict[bytes, bytes]] = {}  # kind -> key -> pickled value, as in the file
        self.used: dict[str, set[bytes]] = {}
        self.new: dict[str, dict[bytes, bytes]] = {}
        self.hits = 0
        self.misses = 0

    def key(self, kind: str, parts: Sequence[object]) -> bytes:
        digest = hashlib.blake2b(self.version + b"\0" + kind.encode(), digest_size=20)
        digest.update(pickle.dumps(tuple(parts), protocol=5))
        return digest.digest()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """The file, its table made if new; committed at the end of the block, and closed."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=TIMEOUT_S)
        try:
            with db:
                db.execute("CREATE TABLE IF NOT EXISTS entries (kind TEXT, key BLOB, value BLOB, PRIMARY KEY (kind, key))")
                yield db
        finally:
            db.close()

    def _read(self, kind: str) -> dict[bytes, bytes]:
        if kind not in self.loaded:
            try:
                with self._connect() as db:
                    rows = db.execute("SELECT key, value FROM entries WHERE kind = ?", (kind,)).fetchall()
                self.loaded[kind] = {bytes(k): bytes(v) for k, v in rows}
            except sqlite3.OperationalError as exc:
                self.loaded[kind] = {}
                if "locked" not in str(exc):  # not a file another build holds: a foreign layout
                    self._remove()
            except (sqlite3.Error, OSError):  # corrupt, truncated, not a database at all
                self.loaded[kind] = {}
                self._remove()
        return self.loaded[kind]

    def _remove(self) -> None:
        """Start afresh: the file is not a cache this generator can read."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass

    def get(self, kind: str, key: bytes) -> tuple[bool, Any]:
        """(True, value) for a hit; (False, None) for a miss or an entry that does not load."""
        data = self._read(kind).get(key)
        self.used.setdefault(kind, set()).add(key)
        if data is not None:
            try:
                value = pickle.loads(data)
            except Exception:  # noqa: BLE001 - a damaged entry is a miss, computed afresh
                pass
            else:
                self.hits += 1
                return True, value
        self.misses += 1
        return False, None

    def put(self, kind: str, key: bytes, value: Any) -> None:
        self.used.setdefault(kind, set()).add(key)
        self.new.setdefault(kind, {})[key] = pickle.dumps(value, protocol=5)

    def save(self) -> None:
        """Write the new entries and drop the ones of each kind read that this build did not
        use. Best effort: a locked or unwritable file keeps what it had."""
        try:
            with self._connect() as db:
                for kind, entries in self.new.items():
                    db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)",
                                   [(kind, k, v) for k, v in entries.items()])
                for kind, entries in self.loaded.items():
                    unused = set(entries) - self.used.get(kind, set())
                    db.executemany("DELETE FROM entries WHERE kind = ? AND key = ?", [(kind, k) for k in unused])
        except (sqlite3.Error, OSError):
            return
        self.new = {}


# The cache of the build running in this thread (``build --serve``'s fast path runs beside
# a rebuild and uses none).
_current: ContextVar[BuildCache | None] = ContextVar("papershelf_build_cache", default=None)


@contextmanager
def cache_used(cache: BuildCache | None) -> Iterator[None]:
    """Within the block, ``cached_map`` keeps its results in ``cache`` (None: no cache)."""
    token = _current.set(cache)
    try:
        yield
    finally:
        _current.reset(token)


def cached_call(kind: str, func: Callable[[], R], parts: Sequence[object]) -> R:
    """``func()``, looked up in the build's cache first by ``kind`` and ``parts``: everything
    besides the generator's code that it depends on (one value for the whole catalog)."""
    return cached_map(kind, lambda _: func(), [None], lambda _: parts)[0]


def cached_map(kind: str, func: Callable[[T], R], items: Sequence[T], parts: Callable[[T], Sequence[object]]) -> list[R]:
    """``[func(x) for x in items]`` (on every core for many items, ``parallel_map``), with
    each result looked up in the build's cache first by ``kind`` and ``parts(x)``: everything
    besides the generator's code that ``func(x)`` depends on."""
    cache = _current.get()
    if cache is None:
        return parallel_map(func, items)
    keys = [cache.key(kind, parts(item)) for item in items]
    results: list[Any] = [None] * len(items)
    missing = []
    for i, key in enumerate(keys):
        hit, value = cache.get(kind, key)
        if hit:
            results[i] = value
        else:
            missing.append(i)
    for i, value in zip(missing, parallel_map(func, [items[i] for i in missing])):
        results[i] = value
        cache.put(kind, keys[i], value)
    return results
