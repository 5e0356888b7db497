"""``python -m cakesim``."""

from cakesim.app.cli import main

raise SystemExit(main())
