"""Stage 3, derive: what the pages show, computed from the catalog: rendered text, author
identities, the papers of each venue, tag and author, related papers."""
