"""``python -m racedeck.fuzz``: see ``racedeck.fuzz.run``."""

import sys

from racedeck.fuzz.run import main

sys.exit(main())
