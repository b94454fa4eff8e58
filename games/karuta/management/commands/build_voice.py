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
        parser.add_argument("--render", help="write one reading, mixed, to this WAV file")
        parser.add_argument("--mode", default="competitive", help="with --render")
        parser.add_argument("--prev", type=int, help="with --render: the previous poem (0: 序歌)")

    def handle(self, *args, poem=None, pace=None, check=False, workers=4, **options):
        if options["render"]:
            return self.render(options["render"], options["mode"], poem, options["prev"], pace)
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

    def render(self, path, mode, poem, prev, pace):
        """A listening check: the committed clips of one reading, mixed to a WAV file."""
        if poem is None or not pace or len(pace) != 1:
            raise CommandError("--render needs --poem and one --pace")
        clips = voice.reading_clips(mode, poem, prev, pace[0], 2 if mode != "competitive" else 1)
        decoded = build.decode_files([voice.STATIC_DIR / c.file for c in clips])
        mixed, _ = build.mix(clips, decoded)
        with open(path, "wb") as out:
            out.write(build.wav_bytes(mixed, build.RATE))
        self.stdout.write(json.dumps(build.listen_report(clips, decoded), indent=1))
