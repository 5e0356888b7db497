"""``python -m cakesim``."""

from cakesim.cli import main

raise SystemExit(main())
