"""Cards of each class, for stacking piles by hand in tests."""

from poems import catalogue
from poems.catalogue import PoetClass


def _of(cls: PoetClass) -> list[int]:
    return [p.number for p in catalogue.poems() if p.poet_class is cls]


NOBLES = _of(PoetClass.NOBLE)  # plain nobles (no emperors, no nyudo)
NYUDO = _of(PoetClass.NYUDO)
EMPERORS = _of(PoetClass.EMPEROR)
PRINCESSES = _of(PoetClass.PRINCESS)
MONKS = _of(PoetClass.MONK)
SEMIMARU = 10


def nobles(count: int, start: int = 0) -> list[int]:
    return NOBLES[start : start + count]
