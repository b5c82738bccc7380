"""scripts/play.sh: a free port or a one-line refusal, npm only after a lock change, no
rebuild when nothing changed.

The real script runs in a temporary copy of the project skeleton with stand-ins for ``npm``
(records each call, creates node_modules) and for ``scripts/build.mjs`` (records each build), so
the test checks the script's own decisions without touching this checkout's node_modules.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE_NPM = """#!/usr/bin/env bash
echo "npm $*" >> "$CALLS"
mkdir -p node_modules
"""
FAKE_BUILD = """import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
appendFileSync(process.env.CALLS, "build\\n");
mkdirSync("static/vendor", { recursive: true });
writeFileSync("sw.js", "// sw");
console.log("build: done");
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "scripts").mkdir(parents=True)
    for name in ("play.sh", "npm_deps.sh"):
        shutil.copy2(ROOT / "scripts" / name, root / "scripts" / name)
    (root / "scripts" / "build.mjs").write_text(FAKE_BUILD)
    (root / "package-lock.json").write_text('{"lockfileVersion": 3}\n')
    (root / "index.html").write_text("<!doctype html><title>SOS test copy</title>\n")
    (root / "pyscript.toml").write_text("")
    (root / "sos").mkdir()
    (root / "sos" / "a.py").write_text("")
    (root / "static").mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text(FAKE_NPM)
    (bin_dir / "npm").chmod(0o755)
    return root


def _env(project: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PORT"}
    env["PATH"] = f"{project.parent / 'bin'}:{env['PATH']}"
    env["CALLS"] = str(project.parent / "calls.txt")
    env.update(extra)
    return env


def _calls(project: Path) -> list[str]:
    path = project.parent / "calls.txt"
    return path.read_text().split("\n")[:-1] if path.exists() else []


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port on 127.0.0.1 held by a listening socket (another program)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


def _serve(project: Path, env: dict[str, str]) -> tuple[int, float]:
    """Start play.sh, wait for its "Open http://127.0.0.1:N/" line, check that N serves this
    copy's index.html, stop it; return N and the seconds until it served."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        ["bash", "scripts/play.sh"], cwd=project, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        port = 0
        for line in proc.stdout:
            if line.startswith("Open http://127.0.0.1:"):
                port = int(line.split(":")[2].split("/")[0])
                break
        assert port, f"no URL printed; stderr: {proc.stderr.read() if proc.stderr else ''}"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=10) as r:
            assert r.read() == (project / "index.html").read_bytes()
        return port, time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_busy_port_is_refused_in_one_line_before_installing(
    project: Path, busy_port: int
) -> None:
    run = subprocess.run(
        ["bash", "scripts/play.sh"], cwd=project, env=_env(project, PORT=str(busy_port)),
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode != 0
    assert run.stdout == ""
    lines = run.stderr.strip().split("\n")
    assert len(lines) == 1, run.stderr
    assert f"port {busy_port}" in lines[0] and "in use" in lines[0]
    assert _calls(project) == []  # refused before npm or the build ran


@pytest.mark.slow
def test_without_port_a_free_one_is_chosen_and_npm_runs_only_after_a_lock_change(
    project: Path,
) -> None:
    env = _env(project)
    with socket.socket() as holder:  # the first port tried is taken by another program
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            holder.bind(("127.0.0.1", 8000))
            holder.listen()
        except OSError:
            pass  # already taken by someone else: the same situation
        port, _ = _serve(project, env)
        assert port != 8000
    assert _calls(project) == ["npm ci --no-audit --no-fund --loglevel=error", "build"]

    _, seconds = _serve(project, env)  # nothing changed: neither npm nor a build
    assert _calls(project) == ["npm ci --no-audit --no-fund --loglevel=error", "build"]
    print(f"second start served after {seconds:.2f} s")

    time.sleep(0.01)
    (project / "sos" / "a.py").write_text("x = 1\n")  # a source change: build, no npm
    _serve(project, env)
    assert _calls(project)[2:] == ["build"]

    (project / "package-lock.json").write_text('{"lockfileVersion": 3, "x": 1}\n')
    _serve(project, env)
    assert _calls(project)[3:] == ["npm ci --no-audit --no-fund --loglevel=error", "build"]
