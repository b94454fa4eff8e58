"""Synthesize, cut, level and encode the reading voice (offline; `manage.py build_voice`).

Needs the optional `voice` group (pyopenjtalk-plus for the labels and the Mei voice,
pyloudnorm) and Debian's `htsengine` and `ffmpeg`. Each take (one verse at one pace) is
rendered by `hts_engine -vp` from full-context labels whose every phoneme is timed by
`plan.py`; the clips are cut from the takes, faded at their seams, brought to one
loudness, encoded as MP3 and named by the hash of their bytes.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import shutil
import subprocess
import tempfile
import wave
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from games.karuta.voice import CLIP_DIR, MANIFEST, STATIC_DIR, plan

LEAD_MS = 300  # silence the synthesizer gets before the first kana and after the last
FRAME_MS = 5  # hts_engine's frame period with the Mei voice (240 samples at 48 kHz)
SYNTH_RATE = 48000
RATE = 24000  # the clips' sample rate
BITRATE = "24k"  # MP3, CBR, mono: every clip of every pace within the 12 MiB budget
TARGET_LUFS = -20.0  # EBU R128 loudness of every clip
FADE_MS = plan.CROSSFADE_MS
CONSONANT_SHARE = 0.45  # a mora's consonants take at most this share of it
MIN_PHONEME_MS = 25  # five HMM states of one frame each
VOWELS = set("aiueoAIUEO") | {"N", "cl"}
PAUSES = {"sil", "pau"}
FORMAT = {
    "codec": "mp3",
    "sample_rate": RATE,
    "bitrate": BITRATE,
    "channels": 1,
    "loudness_lufs": TARGET_LUFS,
    "voice": "HTS voice Mei (MMDAgent, CC BY 3.0) via pyopenjtalk-plus",
}


class VoiceBuildError(RuntimeError):
    pass


def voice_file() -> Path:
    import pyopenjtalk

    return Path(pyopenjtalk.__file__).parent / "htsvoice" / "mei_normal.htsvoice"


def synthesizer_missing() -> str | None:
    """Why the synthesizer cannot run here, or None when it can."""
    for tool in ("hts_engine", "ffmpeg"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: htsengine, ffmpeg)"
    try:
        import pyloudnorm  # noqa: F401
        import pyopenjtalk  # noqa: F401
    except ImportError as error:
        return f"the optional 'voice' group is not installed ({error.name})"
    return None


# -- labels -----------------------------------------------------------------------------

_KATA = {chr(c): chr(c + 0x60) for c in range(0x3041, 0x3097)}


def synth_text(verse: plan.Verse) -> str:
    """The verse as the synthesizer reads it: katakana (so no particle is re-read: は, へ
    stay ha, he), phrases separated by 、 (a pause)."""
    phrases = []
    i = 0
    for phrase in verse.phrases:
        phrases.append("".join(verse.sounds[i : i + len(phrase)]))
        i += len(phrase)
    return "、".join("".join(_KATA.get(ch, ch) for ch in p) for p in phrases)


def _phoneme(label: str) -> str:
    return label.split("-", 1)[1].split("+", 1)[0]


def morae(labels: list[str]) -> list[list[int]]:
    """Indices of each mora's phoneme labels (consonants, then the vowel, N or cl)."""
    out: list[list[int]] = []
    current: list[int] = []
    for index, label in enumerate(labels):
        ph = _phoneme(label)
        if ph in PAUSES:
            if current:
                raise VoiceBuildError(f"a consonant without a vowel before {ph}")
            continue
        current.append(index)
        if ph in VOWELS:
            out.append(current)
            current = []
    if current:
        raise VoiceBuildError("the labels end on a consonant")
    return out


@cache
def predicted_durations(text: str) -> tuple[int, ...]:
    """The voice's own duration of every phoneme label (ms), for the consonant/vowel split."""
    labels = _labels_of_text(text)
    return tuple(_hts(labels, timed=False)["durations"])


_DEVOICED = str.maketrans("AIUEO", "aiueo")


def voiced(label: str) -> str:
    """The label with its phonemes voiced: Open JTalk marks a devoiced vowel as a capital
    (fU), which the voice renders as near-silence; a reader voices every mora."""
    phonemes, sep, rest = label.partition("/A:")
    return phonemes.translate(_DEVOICED) + sep + rest


@cache
def _labels_of_text(text: str) -> tuple[str, ...]:
    import pyopenjtalk

    return tuple(voiced(label) for label in pyopenjtalk.extract_fullcontext(text))


def _frames(ms: float) -> int:
    return round(ms / FRAME_MS)


def timed_labels(take: plan.Take) -> tuple[list[str], list[int]]:
    """Labels with HTK times imposing plan's onsets; and each mora's onset frame."""
    text = synth_text(take.verse)
    labels = list(_labels_of_text(text))
    groups = morae(labels)
    if len(groups) != take.verse.size:
        raise VoiceBuildError(
            f"{take.name}: {len(groups)} morae for {take.verse.size} kana ({text})"
        )
    natural = predicted_durations(text)
    bounds: dict[int, tuple[int, int]] = {}  # label index -> (start frame, end frame)
    onsets = []
    for kana, group in enumerate(groups):
        start = LEAD_MS + take.onsets[kana]
        end = start + take.voiced[kana]
        consonants = group[:-1]
        budget = CONSONANT_SHARE * take.voiced[kana]
        wanted = [max(MIN_PHONEME_MS, natural[i]) for i in consonants]
        scale = min(1.0, budget / sum(wanted)) if wanted else 1.0
        t = start
        onsets.append(_frames(start))
        for i, ms in zip(consonants, wanted, strict=True):
            step = max(MIN_PHONEME_MS, ms * scale)
            bounds[i] = (_frames(t), _frames(t + step))
            t += step
        bounds[group[-1]] = (_frames(t), _frames(end))
    # Pauses fill what the morae leave: the lead, the breaths between phrases, the tail.
    last_end = _frames(LEAD_MS + take.end + LEAD_MS)
    out = []
    for index, label in enumerate(labels):
        if index not in bounds:
            before = max((bounds[j][1] for j in bounds if j < index), default=0)
            after = min((bounds[j][0] for j in bounds if j > index), default=last_end)
            bounds[index] = (before, after)
        a, b = bounds[index]
        if b - a < MIN_PHONEME_MS // FRAME_MS:
            raise VoiceBuildError(f"{take.name}: label {index} gets {b - a} frames")
        out.append(f"{a * FRAME_MS * 10000} {b * FRAME_MS * 10000} {label}")
    return out, onsets


def _hts(labels: Iterable[str], timed: bool) -> dict[str, Any]:
    """Run hts_engine; the waveform (float, 48 kHz) and each label's duration in ms."""
    with tempfile.TemporaryDirectory() as tmp:
        lab, dur, wav = Path(tmp, "in.lab"), Path(tmp, "dur.lab"), Path(tmp, "out.wav")
        lab.write_text("\n".join(labels) + "\n", encoding="utf-8")
        cmd = ["hts_engine", "-m", str(voice_file()), "-od", str(dur)]
        if timed:  # the waveform, with the labels' times
            cmd += ["-ow", str(wav), "-vp"]
        subprocess.run([*cmd, str(lab)], check=True, capture_output=True)
        durations = []
        for line in dur.read_text(encoding="utf-8").splitlines():
            a, b, _ = line.split(" ", 2)
            durations.append(round((int(b) - int(a)) / 10000))
        audio = read_wav(wav.read_bytes())[0] if timed else None
        return {"durations": durations, "audio": audio}


def read_wav(data: bytes) -> tuple[np.ndarray, int]:
    with wave.open(io.BytesIO(data)) as w:
        frames = w.readframes(w.getnframes())
        return np.frombuffer(frames, "<i2").astype(np.float64) / 32768.0, w.getframerate()


def wav_bytes(samples: np.ndarray, rate: int) -> bytes:
    pcm = np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2")
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return out.getvalue()


@dataclass
class Rendered:
    audio: np.ndarray  # at RATE, t = 0 at LEAD_MS before the first kana
    onset_frames: list[int]  # each mora's onset as hts_engine placed it (frames)
    imposed_ms: int  # the labels' total length


def render(take: plan.Take) -> Rendered:
    labels, _ = timed_labels(take)
    result = _hts(labels, timed=True)
    # Onsets as the engine used them: its own output labels, summed.
    ends = np.cumsum(result["durations"])
    groups = morae(list(_labels_of_text(synth_text(take.verse))))
    starts = [int(ends[g[0] - 1]) if g[0] else 0 for g in groups]
    from scipy.signal import resample_poly

    audio = resample_poly(result["audio"], RATE, SYNTH_RATE)
    return Rendered(audio, [round(s / FRAME_MS) for s in starts], int(ends[-1]))


# -- clips --------------------------------------------------------------------------------


def _fade(n: int) -> np.ndarray:
    return 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, n, endpoint=False))


TRIM_BELOW_DB = 35  # a verse's last clip ends where its 5 ms level falls this far below its top


def _sounding_end(clip: np.ndarray, floor: int) -> int:
    """Samples up to the last 5 ms frame still sounding (never before `floor`): the held
    last kana's final HMM state fades into silence, which the clip does not carry."""
    step = FRAME_MS * (RATE // 1000)
    frames = len(clip) // step
    rms = np.sqrt(np.mean(clip[: frames * step].reshape(frames, step) ** 2, axis=1) + 1e-20)
    db = 20 * np.log10(rms)
    loud = np.nonzero(db > db.max() - TRIM_BELOW_DB)[0]
    return max(floor, (int(loud[-1]) + 1) * step)


def cut(rendered: Rendered, segment: plan.Segment) -> np.ndarray:
    """The segment's samples at RATE, faded in at its start and out over its tail/end. A
    clip that silence follows (a verse's last, or a shared one ending on a held
    phrase-final kana) ends where its sound does, at the latest at the schedule's end of
    its last kana (its tail, if any, would only carry the breath)."""
    per_ms = RATE // 1000
    a = (LEAD_MS + segment.begin) * per_ms
    clip = rendered.audio[a : a + segment.length * per_ms].copy()
    if segment.ends_in_silence:
        last = segment.take.onsets[segment.stop - 1] - segment.begin
        floor = (last + min(segment.take.voiced[segment.stop - 1], 100)) * per_ms
        end = _sounding_end(clip, floor)
        clip = clip[: -(-end // per_ms) * per_ms]  # whole ms
    fade = FADE_MS * per_ms
    clip[:fade] *= _fade(fade)
    clip[-fade:] *= _fade(fade)[::-1]
    return clip


def loudness(samples: np.ndarray, rate: int = RATE) -> float:
    """EBU R128 / BS.1770 loudness (LUFS); clips shorter than the 400 ms block are one block."""
    import pyloudnorm

    block = min(0.4, len(samples) / rate)
    if block * rate > len(samples):  # len / rate * rate rounded up: pyloudnorm refuses it
        block = float(np.nextafter(block, 0.0))
    return float(pyloudnorm.Meter(rate, block_size=block).integrated_loudness(samples))


def level(clip: np.ndarray) -> np.ndarray:
    gain = 10 ** ((TARGET_LUFS - loudness(clip)) / 20)
    return clip * gain


ENCODE_ARGS = [
    "-c:a", "libmp3lame", "-b:a", BITRATE, "-ar", str(RATE), "-ac", "1",
    "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact",
    "-id3v2_version", "0", "-write_xing", "1",
]  # fmt: skip
BATCH = 40  # clips per ffmpeg process: its start-up, not the coding, is the cost


def encode_many(clips: list[np.ndarray]) -> list[bytes]:
    """Encode clips as MP3, a few ffmpeg processes in all. Each file gets its Info/LAME
    header (encoder delay and padding, which gapless decoders trim); ffmpeg writes that
    header only to a seekable file, never to a pipe."""
    out: list[bytes] = []
    for i in range(0, len(clips), BATCH):
        group = clips[i : i + BATCH]
        with tempfile.TemporaryDirectory() as tmp:
            cmd = ["ffmpeg", "-v", "error"]
            for n, clip in enumerate(group):
                Path(tmp, f"{n}.wav").write_bytes(wav_bytes(clip, RATE))
                cmd += ["-i", str(Path(tmp, f"{n}.wav"))]
            for n in range(len(group)):
                cmd += ["-map", f"{n}:a", *ENCODE_ARGS, str(Path(tmp, f"{n}.mp3"))]
            subprocess.run(cmd, capture_output=True, check=True)
            out += [Path(tmp, f"{n}.mp3").read_bytes() for n in range(len(group))]
    return out


def decode_many(files: list[bytes]) -> list[np.ndarray]:
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n, data in enumerate(files):
            paths.append(Path(tmp, f"{n}.mp3"))
            paths[-1].write_bytes(data)
        return decode_files(paths)


LOUDNESS_TOLERANCE = 0.5  # LU: a clip further than this from the target is coded again
MAX_PASSES = 6


def encode_levelled(clips: list[np.ndarray]) -> list[bytes]:
    """Encoded at TARGET_LUFS as decoded. The encoder's low-pass takes some loudness (a
    lot from a clip that is mostly noise, such as a devoiced つ), so the gain is set again
    from each decoded clip; those still off are coded again, keeping the closest pass."""
    levelled = [level(c) for c in clips]
    first = encode_many(levelled)
    gains = [TARGET_LUFS - loudness(d) for d in decode_many(first)]
    files = encode_many([c * 10 ** (g / 20) for c, g in zip(levelled, gains, strict=True)])
    errors = [TARGET_LUFS - loudness(d) for d in decode_many(files)]
    best = [(abs(e), data) for e, data in zip(errors, files, strict=True)]
    for _ in range(MAX_PASSES - 2):
        todo = [i for i, e in enumerate(errors) if abs(e) > LOUDNESS_TOLERANCE]
        if not todo:
            break
        for i in todo:
            gains[i] += errors[i]
        again = encode_many([levelled[i] * 10 ** (gains[i] / 20) for i in todo])
        for i, data, decoded in zip(todo, again, decode_many(again), strict=True):
            errors[i] = TARGET_LUFS - loudness(decoded)
            best[i] = min(best[i], (abs(errors[i]), data))
    return [data for _, data in best]


def _entry(rendered: Rendered, segment: plan.Segment, data: bytes, ms: int) -> dict[str, Any]:
    stem = hashlib.sha256(data).hexdigest()[:24]
    onsets = [
        f * FRAME_MS - LEAD_MS - segment.begin
        for f in rendered.onset_frames[segment.first : segment.stop]
    ]
    return {
        "id": stem,
        "file": f"{CLIP_DIR}/{stem}.mp3",
        "duration": ms,  # decoded gapless, as the tests check
        "onsets": onsets,  # ms from the clip's start at which hts_engine began each mora
        "node": segment.key,
        "imposed_ms": rendered.imposed_ms,
        "bytes": data,
    }


def _cut_take(take: plan.Take, segments: list[plan.Segment]):
    rendered = render(take)
    return [(rendered, segment, cut(rendered, segment)) for segment in segments]


def build(
    paces: Iterable[str], poem: int | None = None, workers: int = 4, log=print
) -> dict[str, Any]:
    """Build the clips (all, or those one poem's readings play) and their manifest entries;
    returns {pace: {segment key: entry}} with each entry's bytes under "bytes".

    The work is in hts_engine and ffmpeg processes: threads render takes side by side,
    and the clips are encoded in batches."""
    from concurrent.futures import ThreadPoolExecutor

    paces = list(paces)
    jobs: list[tuple[str, plan.Take, list[plan.Segment]]] = []
    for pace in paces:
        segments = plan.all_segments(pace)
        if poem is not None:
            wanted = {s.key for s in plan.upper_segments(pace)[poem]}
            wanted.add(plan.lower_segment(poem, pace).key)
            segments = {k: s for k, s in segments.items() if k in wanted}
        by_take: dict[str, list[plan.Segment]] = {}
        for segment in segments.values():
            by_take.setdefault(segment.take.name, []).append(segment)
        for _, group in sorted(by_take.items()):
            jobs.append((pace, group[0].take, group))
    texts = sorted({synth_text(take.verse) for _, take, _ in jobs})
    for text in texts:  # the text front end (not thread-safe) in this thread
        _labels_of_text(text)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(predicted_durations, texts))
        log(f"{len(texts)} verses timed by the voice")
        cuts = []
        futures = [(pace, pool.submit(_cut_take, take, group)) for pace, take, group in jobs]
        for done, (pace, future) in enumerate(futures, 1):
            cuts += [(pace, *c) for c in future.result()]
            if done % 20 == 0 or done == len(futures):
                log(f"[{done}/{len(futures)}] takes rendered")
        chunks = [cuts[i : i + BATCH] for i in range(0, len(cuts), BATCH)]
        encoded = pool.map(lambda chunk: encode_levelled([c[3] for c in chunk]), chunks)
        out: dict[str, Any] = {pace: {} for pace in paces}
        for chunk, files in zip(chunks, encoded, strict=True):
            for (pace, rendered, segment, clip), data in zip(chunk, files, strict=True):
                ms = len(clip) // (RATE // 1000)
                out[pace][segment.key] = _entry(rendered, segment, data, ms)
    log(f"{len(cuts)} clips encoded")
    return out


def write(built: dict[str, Any], only_some: bool = False) -> None:
    """Write the clip files and the manifest: the whole of it, or (`only_some`) the built
    entries over the committed ones. Files no entry names any more are removed."""
    folder = STATIC_DIR / CLIP_DIR
    folder.mkdir(parents=True, exist_ok=True)
    committed = json.loads(MANIFEST.read_text(encoding="utf-8")) if only_some else None
    paces: dict[str, Any] = committed["paces"] if committed else {}
    for pace, entries in sorted(built.items()):
        paces.setdefault(pace, {})
        for key, entry in sorted(entries.items()):
            data = entry.pop("bytes")
            (STATIC_DIR / entry["file"]).write_bytes(data)
            paces[pace][key] = entry
    paces = {p: dict(sorted(e.items())) for p, e in sorted(paces.items())}
    keep = {Path(e["file"]).name for entries in paces.values() for e in entries.values()}
    for old in folder.glob("*.mp3"):
        if old.name not in keep:
            old.unlink()
    manifest = {"version": 1, "format": FORMAT, "paces": paces}
    MANIFEST.write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")


def compare(built: dict[str, Any], manifest: dict[str, Any] | None) -> list[str]:
    """How a rebuild differs from the committed manifest (and clip files)."""
    if manifest is None:
        return ["no manifest is committed"]
    out = []
    for pace, entries in built.items():
        committed = manifest["paces"].get(pace, {})
        for key, entry in sorted(entries.items()):
            old = committed.get(key)
            new = {k: v for k, v in entry.items() if k != "bytes"}
            if old != new:
                out.append(f"{pace} {key}: {old} != {new}")
            elif (STATIC_DIR / old["file"]).read_bytes() != entry["bytes"]:
                out.append(f"{pace} {key}: {old['file']} differs")
    return out


def summary(manifest: dict[str, Any]) -> dict[str, Any]:
    """Clip count and bytes per pace."""
    out = {}
    for pace, entries in manifest["paces"].items():
        files = {e["file"] for e in entries.values()}
        size = sum((STATIC_DIR / f).stat().st_size for f in files)
        out[pace] = {"clips": len(files), "bytes": size}
    out["total_bytes"] = sum(v["bytes"] for v in out.values())
    return out


def decode_files(paths: list[Path], batch: int = 60) -> list[np.ndarray]:
    """Decode many MP3 files, a few ffmpeg processes in all (one input and output each)."""
    out: list[np.ndarray] = []
    for i in range(0, len(paths), batch):
        group = paths[i : i + batch]
        with tempfile.TemporaryDirectory() as tmp:
            cmd = ["ffmpeg", "-v", "error"]
            for path in group:
                cmd += ["-i", str(path)]
            raws = [Path(tmp, f"{n}.raw") for n in range(len(group))]
            for n, raw in enumerate(raws):
                cmd += ["-map", f"{n}:a", "-ac", "1", "-f", "s16le", str(raw)]
            subprocess.run(cmd, capture_output=True, check=True)
            for raw in raws:
                out.append(np.frombuffer(raw.read_bytes(), "<i2").astype(np.float64) / 32768.0)
    return out


def true_peak_db(samples: np.ndarray) -> float:
    """Peak in dBFS after 4x oversampling (BS.1770's true-peak method, near enough)."""
    from scipy.signal import resample_poly

    peak = float(np.max(np.abs(resample_poly(samples, 4, 1))))
    return 20 * np.log10(max(peak, 1e-12))


def mix(clips: list[Any], decoded: list[np.ndarray]) -> tuple[np.ndarray, int]:
    """Clips placed at their starts as the page plays them; and the sample of t = 0."""
    origin = -min(c.start for c in clips)
    length = max(c.start + int(np.ceil(c.duration)) for c in clips) + origin
    out = np.zeros(length * (RATE // 1000) + 1)
    for clip, audio in zip(clips, decoded, strict=True):
        a = (clip.start + origin) * (RATE // 1000)
        out[a : a + len(audio)] += audio
    return out, origin * (RATE // 1000)


def listen_report(clips: list[Any], decoded: list[np.ndarray]) -> dict[str, Any]:
    """What a listener would check, measured: each seam's jump against the joined clips'
    99th percentile jump, the quietest voiced kana, the whole reading's loudness."""
    mixed, zero = mix(clips, decoded)
    per_ms = RATE // 1000
    seams = []
    for (before, a), (after, b) in itertools.pairwise(zip(clips, decoded, strict=True)):
        if after.start > before.start + before.duration:
            continue  # silence between them, not a seam
        at = zero + after.start * per_ms
        jump = float(np.max(np.abs(np.diff(mixed[at - 2 : at + 3]))))
        p99 = float(np.percentile(np.abs(np.diff(np.concatenate([a, b]))), 99))
        seams.append({"at_ms": after.start, "jump": round(jump, 5), "p99": round(p99, 5)})
    quietest = 0.0
    for clip, audio in zip(clips, decoded, strict=True):
        for i, onset in enumerate(clip.onsets):
            end = clip.onsets[i + 1] if i + 1 < len(clip.onsets) else len(audio) // per_ms
            span = audio[onset * per_ms : end * per_ms]  # consonant and vowel
            db = 10 * np.log10(float(np.mean(span**2)) + 1e-12)
            quietest = min(quietest, db) if quietest else db
    return {
        "seconds": round(len(mixed) / RATE, 2),
        "loudness_lufs": round(loudness(mixed), 2),
        "seams": seams,
        "quietest_kana_db": round(quietest, 1),
    }
