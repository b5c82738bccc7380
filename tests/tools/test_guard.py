"""Every piece of the page's Python that the browser calls goes through sos/web/guard.py
(docs/reliability.md): no other module of sos/web makes a JS function of a Python callable
(``create_proxy``, ``create_once_callable``), attaches a listener itself (``addEventListener``)
or starts a task (``asyncio.ensure_future``, ``create_task``) -- each of those would let an
exception reach the browser unreported, unsaved and unsaid."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "sos" / "web"

#: Names whose use outside guard.py registers a callable the guard does not see.
RAW = {"create_proxy", "create_once_callable", "addEventListener", "ensure_future", "create_task"}


def raw_uses(source: str) -> list[tuple[int, str]]:
    """(line, name) of every use of a :data:`RAW` name in ``source`` (a call, an attribute or
    an import)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in RAW:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and node.id in RAW:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.ImportFrom):
            found.extend((node.lineno, a.name) for a in node.names if a.name in RAW)
    return found


def test_only_the_guard_registers_python_callbacks() -> None:
    offenders = {
        path.name: uses
        for path in sorted(WEB.glob("*.py"))
        if path.name != "guard.py" and (uses := raw_uses(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}, f"register through sos.web.guard: {offenders}"


def test_the_check_finds_each_way_around_the_guard() -> None:
    """The check itself: each raw way of registering is found (else the test above could not
    fail)."""
    samples = {
        "from pyodide.ffi import create_proxy": "create_proxy",
        "import pyodide.ffi as f\nf.create_once_callable(g)": "create_once_callable",
        "node.addEventListener('click', p)": "addEventListener",
        "import asyncio\nasyncio.ensure_future(c())": "ensure_future",
        "loop.create_task(c())": "create_task",
    }
    for source, name in samples.items():
        assert [n for _line, n in raw_uses(source)] == [name], source
    assert raw_uses("from sos.web import guard\nguard.listen(node, 'click', f)") == []


def test_the_page_attaches_every_handler_through_page_on_or_the_guard() -> None:
    """``Page.on`` (what every panel calls) is the guard's ``listen``."""
    main = (WEB / "main.py").read_text(encoding="utf-8")
    tree = ast.parse(main)
    on = next(
        node for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == "on"
    )
    calls = [
        f"{n.func.value.id}.{n.func.attr}"
        for n in ast.walk(on)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
    ]
    assert calls == ["guard.listen"]
