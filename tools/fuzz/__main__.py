"""``python -m tools.fuzz``: see ``tools.fuzz.run``."""

import sys

from tools.fuzz.run import main

sys.exit(main())
