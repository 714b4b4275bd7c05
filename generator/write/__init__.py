"""Stage 5, write: the output folder, updated atomically (a new folder swapped in), with a
manifest of what it holds and of the inputs it was built from."""
