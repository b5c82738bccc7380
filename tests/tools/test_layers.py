"""The page layer stays thin (docs/architecture): sos/web reaches the AI only through sos/app,
no sos/web module grows past about 300 lines and no sos/app module past about 500."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = sorted((ROOT / "sos" / "web").glob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module named by an import in ``path`` (also inside functions and TYPE_CHECKING)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add("." * node.level + node.module)
    return names


def test_the_page_reaches_the_ai_only_through_the_app() -> None:
    assert len(WEB) >= 10
    for path in WEB:
        bad = {n for n in imported(path) if n.startswith(("sos.ai", "..ai"))}
        assert not bad, f"{path.name} imports {sorted(bad)}: go through sos.app"


#: Known to be over the limit, with the most it may have until it is split: main.py grew past
#: 300 lines with the in-place language and theme change, Skip and Rematch (to be split: the
#: Page's event handlers of the board and of the header into modules of their own).
OVER: dict[str, int] = {"main.py": 360, "dom.py": 310, "dialogs.py": 305}


def test_page_modules_stay_small() -> None:
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in WEB}
    for name, lines in sizes.items():
        assert lines <= OVER.get(name, 300), f"{name}: {lines} lines; split it"


#: The app modules allowed past 500 lines: the message table of every text (i18n.py); view.py
#: and backup.py, to be split (the hint's texts; the import's report box).
APP_OVER: dict[str, int] = {"i18n.py": 720, "view.py": 505, "backup.py": 535}


def test_app_modules_stay_readable() -> None:
    """A module of sos/app (or of one of its subpackages) holds one concern: split one that
    grows past about 500 lines."""
    for path in sorted((ROOT / "sos" / "app").rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= APP_OVER.get(path.name, 500), f"{path.name}: {lines} lines; split it"


#: The test folder of each layer of the pure code (docs/contributing.md, "Layers").
TEST_FOLDERS = {"sos": "engine", "sos/ai": "ai", "sos/app": "app"}


def test_every_module_of_the_pure_layers_has_its_test_file() -> None:
    """A reader finds a module's tests in one step: sos/<layer>/<module>.py is tested in
    tests/<layer>/test_<module>.py."""
    root = Path(__file__).resolve().parents[2]
    missing = [
        f"{folder}/{path.name} -> tests/{tests}/test_{path.name}"
        for folder, tests in TEST_FOLDERS.items()
        # sos/app/<group>/<module>.py is tested in tests/app/test_<module>.py too
        for path in sorted((root / folder).rglob("*.py") if folder == "sos/app"
                           else (root / folder).glob("*.py"))
        if path.name != "__init__.py"
        and not (root / "tests" / tests / f"test_{path.name}").is_file()
    ]
    assert not missing, f"modules without their test file: {missing}"
