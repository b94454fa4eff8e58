#!/usr/bin/env python3
"""Django's command-line utility for this site."""

import os
import sys
from pathlib import Path

# platform/ is a source root, not a package (it would shadow the stdlib module).
sys.path.insert(0, str(Path(__file__).resolve().parent / "platform"))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
