"""Stage 3, derive: what the pages show, computed from the catalog: rendered text, author
identities, the papers of each venue, tag and author, related papers."""

# First, before any module here imports numpy: its linear algebra on one thread (``numeric``).
from . import numeric  # noqa: E402,F401
