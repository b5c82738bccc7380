"""sos/web's feature modules depend on a small page interface (sos/web/page.py, a
``Protocol``), not on main.py: no module of sos/web but main.py imports ``sos.web.main`` (not
even under ``TYPE_CHECKING``), and main.py's ``Page`` has every member of the interface (mypy
checks their types where main.py hands itself to the feature modules)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "sos" / "web"


def imported(path: Path) -> set[str]:
    """Every module an import of ``path`` names (inside functions and ``TYPE_CHECKING`` too);
    ``from sos.web import main`` names ``sos.web`` and ``sos.web.main``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            source = "sos.web" if node.level == 1 else node.module
            if node.level == 1 and node.module:
                source = f"sos.web.{node.module}"
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


def members(tree: ast.Module, name: str) -> set[str]:
    """The members of class ``name`` in ``tree``: its methods and properties, the attributes
    annotated in its body and those its methods set on ``self``."""
    cls = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name
    )
    found: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self"):
                found.add(target.attr)
    return {member for member in found if not member.startswith("__")}


def interface() -> set[str]:
    """The members of the page interface: ``Page`` of sos/web/page.py and ``Host`` of
    sos/web/host.py, which it extends."""
    page = ast.parse((WEB / "page.py").read_text("utf-8"))
    host = ast.parse((WEB / "host.py").read_text("utf-8"))
    return members(page, "Page") | members(host, "Host")


def test_no_module_of_the_page_imports_main() -> None:
    modules = sorted(WEB.glob("*.py"))
    assert len(modules) > 10
    found = [
        path.name for path in modules
        if path.name != "main.py" and "sos.web.main" in imported(path)
    ]
    assert found == [], "import the page interface (sos.web.page.Page), not sos.web.main"
    users = {path.name for path in modules if "sos.web.page" in imported(path)}
    assert {"early.py", "keys.py", "recovery.py", "start.py"} <= users


def test_the_import_reader_sees_every_form(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    for line in (
        "from sos.web import main\n",
        "from .main import Page\n",
        "import sos.web.main\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sos.web.main import Page\n",
    ):
        probe.write_text(line, "utf-8")
        assert "sos.web.main" in imported(probe), line
    probe.write_text("from sos.web.page import Page\n", "utf-8")
    assert "sos.web.main" not in imported(probe)


def test_the_page_has_every_member_of_the_interface() -> None:
    wanted = interface()
    assert {"app", "board", "on", "refresh", "play"} <= wanted  # the interface is read
    page = members(ast.parse((WEB / "main.py").read_text("utf-8")), "Page")
    assert not wanted - page, f"sos.web.main.Page lacks {sorted(wanted - page)}"


def test_the_member_reader_finds_a_missing_member() -> None:
    tree = ast.parse(
        "class Page:\n"
        "    x: int\n"
        "    def __init__(self) -> None:\n"
        "        self.app = 1\n"
        "    def refresh(self) -> None:\n"
        "        self.board: int = 2\n"
    )
    assert members(tree, "Page") == {"x", "app", "refresh", "board"}
