"""``python -m bench.synth N OUT``: write a synthetic catalog (see ``catalog``)."""

import sys

from .catalog import main

sys.exit(main())
