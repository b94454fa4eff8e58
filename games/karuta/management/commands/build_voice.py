"""Build the reading voice's clips and manifest (games/karuta/voice; docs/voice.md)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.karuta import voice
from games.karuta.voice import build


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # offline tooling: no site settings needed
    help = (
        "Synthesize the reading voice: every clip of every voiced pace into "
        "static/karuta/voice/ and the manifest into games/karuta/voice/manifest.json. "
        "With --check, rebuild (one poem's clips with --poem) and compare with what is committed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--poem", type=int, help="only the clips this poem's readings play")
        parser.add_argument("--pace", action="append", choices=sorted(voice.PACES))
        parser.add_argument("--check", action="store_true", help="compare, write nothing")
        parser.add_argument("--workers", type=int, default=4)

    def handle(self, *args, poem=None, pace=None, check=False, workers=4, **options):
        missing = build.synthesizer_missing()
        if missing:
            raise CommandError(f"cannot synthesize: {missing}")
        if poem is not None and not 1 <= poem <= 100:
            raise CommandError("--poem must lie between 1 and 100")
        paces = sorted(pace or voice.PACES)
        if not check and (poem is not None or set(paces) != voice.PACES):
            raise CommandError("writing needs every clip: use --check with --poem or --pace")
        log = self.stdout.write if options["verbosity"] > 1 else (lambda _: None)
        built = build.build(paces, poem, workers=workers, log=log)
        if check:
            differences = build.compare(built, voice.manifest())
            if differences:
                raise CommandError("the rebuild differs:\n" + "\n".join(differences))
            count = sum(len(entries) for entries in built.values())
            self.stdout.write(f"{count} clip(s) rebuilt identical to the manifest")
            return
        build.write(built)
        voice.manifest.cache_clear()
        self.stdout.write(json.dumps(build.summary(voice.manifest()), indent=1))
