"""Every document the code and docs cite ("docs/matches.md", "docs/architecture.md §7") is a
file in this repository, and a cited § number is a numbered heading of that file: a
newcomer can follow every reference without the team's private notes."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SKIP_DIRS = {
    ".git", ".venv", "node_modules", "var", "staticfiles", "test-artifacts", "__pycache__",
    ".pytest_cache", ".hypothesis", ".ruff_cache",
}  # fmt: skip
_BINARY = {".png", ".jpg", ".webp", ".woff", ".woff2", ".ttf", ".mo", ".ogg", ".opus", ".mp3"}
# A Markdown file name, maybe with folders, maybe followed by a section: "x.md §3".
CITATION = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\b(?:\s*§\s*(\d+))?")
_HEADING = re.compile(r"^#{1,6}\s+(\d+)\.", re.MULTILINE)


def project_files():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
        for name in files:
            path = Path(folder) / name
            if path.suffix.lower() in _BINARY:
                continue
            try:
                yield path, path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue


def resolve(name: str, cited_from: Path, root: Path = ROOT) -> Path | None:
    """The cited file: from the repository root, else beside the citing file."""
    for candidate in (root / name, cited_from.parent / name):
        if candidate.is_file() and candidate.resolve().is_relative_to(root.resolve()):
            return candidate
    return None


def broken_citations(path: Path, text: str, root: Path = ROOT) -> list[str]:
    problems = []
    for match in CITATION.finditer(text):
        name, section = match.group(1), match.group(2)
        line = text.count("\n", 0, match.start()) + 1
        where = f"{path.relative_to(root)}:{line}: {match.group(0)}"
        target = resolve(name, path, root)
        if target is None:
            problems.append(f"{where} (no such file in the repository)")
        elif section and section not in _HEADING.findall(target.read_text(encoding="utf-8")):
            problems.append(f"{where} (no section {section} in {target.relative_to(root)})")
    return problems


# This file's own examples, and the script that rewrote the old names into docs/ paths.
_NOT_CITING = {Path(__file__)}


def test_every_cited_document_and_section_is_in_the_repository():
    problems = [
        problem
        for path, text in project_files()
        if path not in _NOT_CITING
        for problem in broken_citations(path, text)
    ]
    assert problems == []


def test_the_design_documents_keep_their_numbered_sections():
    # The section numbers are what citations point at (docs/requirements.md's preamble).
    for name, count in (("docs/requirements.md", 9), ("docs/architecture.md", 9)):
        headings = _HEADING.findall((ROOT / name).read_text(encoding="utf-8"))
        assert headings == [str(n) for n in range(1, count + 1)], name


def test_a_missing_file_or_section_is_reported(tmp_path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "guide.md").write_text("# Guide\n\n## 1. One\n\n## 2. Two\n")
    (tmp_path / "outside.md").write_text("# 1. Outside the repository\n")
    source = root / "docs" / "notes.md"
    text = (
        "See docs/guide.md §2 and guide.md (beside this file), "
        "docs/guide.md §3, GONE.md §6 and ../outside.md."
    )
    assert broken_citations(source, text, root=root) == [
        "docs/notes.md:1: docs/guide.md §3 (no section 3 in docs/guide.md)",
        "docs/notes.md:1: GONE.md §6 (no such file in the repository)",
        "docs/notes.md:1: ../outside.md (no such file in the repository)",
    ]
