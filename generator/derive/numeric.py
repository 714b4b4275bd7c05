"""numpy for the derive stage, with its linear algebra on one thread.

Imported by the modules that use numpy instead of numpy itself, so that this comes first:
the topic model's matrices are small (at most 20,000 x 64), and a BLAS that starts a thread
per core spends more time waiting for the others than it saves, more so on a machine that
is busy with other work (measured: a QR of 18,725 x 74 took 0.13 s on one thread and 0.4 to
3 s on two). One thread also makes every sum run in the same order wherever the build runs.
A value set by the caller (``OPENBLAS_NUM_THREADS`` and the like) is kept.
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

__all__ = ["np"]
