"""docs/contributing.md, "Adding a way a game ends", tells the truth: the code files it lists
are the ones a player-made ending takes (checked by a sketch: the player to move gives up, with
2 and 4 players and by link, touched the six files listed first), each file holds what the list
says it changes, the counts it states match the list, and no other module tells the endings
apart by name (which would make it one more file to change). The behaviour that makes "nothing
else changes" true is tested in tests/app/test_outcome.py (an ending declared for the test is
read by every consumer), tests/app/test_link.py and tests/app/test_remote.py (by link)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sos.app.game import outcome as outcomes

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "contributing.md"

#: The files of the list, in its order, each with what the list says changes there (a pattern
#: that must be found in the file) and whether every such ending needs it.
FILES = [
    ("sos/app/game/outcome.py", r"^ENDINGS: Final = \(", True),
    ("sos/app/text/i18n.py", r"^EN: Final\[dict\[str, str\]\] = \{", True),
    ("sos/app/app.py", r"^class AppSession\(", True),
    ("index.html", r'<button type="button" class="button" data-testid="undo"', True),
    ("sos/web/main.py", r"    def step\(self, done: bool\) -> None:", True),
    ("sos/web/render.py", r'by_id\("undo-button"\)\.disabled = ', True),
    ("sos/app/game/view.py", r"^class ViewModel:", False),
    ("static/css/", r"", False),
]
NUMBERS = {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def section() -> str:
    text = DOC.read_text("utf-8")
    start = text.index("## Adding a way a game ends")
    return text[start : text.index("\n## ", start + 1)]


def listed() -> list[str]:
    """The first path of each numbered item of the section's list."""
    return [
        match.group(1).rstrip("…")
        for match in re.finditer(r"^\d+\. `([^`]+)`", section(), re.MULTILINE)
    ]


def test_the_list_is_the_files_an_ending_takes() -> None:
    assert listed() == [path for path, _pattern, _needed in FILES]


@pytest.mark.parametrize(("path", "pattern", "needed"), FILES)
def test_each_listed_file_holds_what_the_list_changes(
    path: str, pattern: str, needed: bool
) -> None:
    target = ROOT / path
    if path.endswith("/"):
        assert target.is_dir() and any(target.glob("*.css")), path
        return
    assert re.search(pattern, target.read_text("utf-8"), re.MULTILINE), (
        f"{path} no longer holds {pattern!r}: update docs/contributing.md and this test"
    )
    item = next(line for line in section().splitlines() if f"`{path}`" in line)
    assert ("only if" in item) != needed, f"{path}: needed for every ending is {needed}"


def test_the_stated_counts_match_the_list() -> None:
    found = re.search(r"-- (\w+), at most (\w+):", " ".join(section().split()))
    assert found, "the section states how many files (\"-- six, at most eight:\")"
    always = sum(needed for _path, _pattern, needed in FILES)
    assert (NUMBERS[found.group(1)], NUMBERS[found.group(2)]) == (always, len(FILES))


def test_the_declaration_is_the_one_the_list_describes() -> None:
    """Item 1's fields exist (an ending's author and its winner rule live in ENDINGS)."""
    fields = outcomes.Ending._fields
    for name in ("termination", "on_board", "win_text", "draw_text", "by_player", "decide"):
        assert name in fields
    assert callable(outcomes.best_other) and callable(outcomes.everyone_draws)
    assert "GameSession.end(name)" in " ".join(section().split())


def test_no_other_module_tells_the_endings_apart_by_name() -> None:
    """Only sos/app/game/outcome.py (and the engine's board endings in sos/state.py) compares an
    ending's name: every other module reads the outcome's fields, so a new ending needs no
    change there."""
    compare = re.compile(r"termination\s*(==|!=|\bin\b|\bnot in\b)|[\"']full_board[\"']")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted([*(ROOT / "sos").rglob("*.py"), *(ROOT / "static").glob("*.js")])
        if path.relative_to(ROOT).as_posix() not in {"sos/app/game/outcome.py", "sos/state.py"}
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if compare.search(line)
    ]
    assert found == [], "an ending told apart by name outside sos/app/game/outcome.py"
