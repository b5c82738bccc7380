"""The documentation stays an entry a newcomer can follow: README.md is short and gives the two
commands, every relative link in README.md and docs/*.md resolves (file, and heading anchor in a
Markdown target), and no page describes a work session instead of the product."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
MAX_README_LINES = 150

_FENCE = re.compile(r"^(```|~~~)")
_INLINE_CODE = re.compile(r"`[^`]*`")
_MD_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_WORK_SESSION = re.compile(r"\bthis (?:session|round)\b|\bsession \d+\b|\bround \d+\b", re.I)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a Markdown text outside fenced code blocks, as (line number from 1, line)."""
    lines: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def links(text: str) -> list[tuple[int, str]]:
    """Every link target of a Markdown text (Markdown links and images, HTML ``href``/``src``)
    outside code blocks and inline code, as (line number, target)."""
    found: list[tuple[int, str]] = []
    for number, line in prose_lines(text):
        line = _INLINE_CODE.sub("", line)
        found += [(number, m.group(1)) for m in _MD_LINK.finditer(line)]
        found += [(number, m.group(1)) for m in _HTML_LINK.finditer(line)]
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading text: inline markup and punctuation dropped, lower case,
    spaces as hyphens (``"How `hard` searches"`` -> ``"how-hard-searches"``)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.lower().strip()
    kept = "".join(
        ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN"
    )
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The heading anchors of a Markdown text, numbered as GitHub numbers repeated headings."""
    seen: dict[str, int] = {}
    result: set[str] = set()
    for _, line in prose_lines(text):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Relative links of ``page`` (a file under ``root``) that point at no file, or at no
    heading of a Markdown file, as ``"<path>:<line>: <target> (<why>)"``."""
    problems: list[str] = []
    text = page.read_text(encoding="utf-8")
    for number, target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue  # https:, mailto: … : not a file of the repository
        path_part, _, anchor = target.partition("#")
        where = f"{page.relative_to(root)}:{number}: {target}"
        resolved = (page.parent / path_part).resolve() if path_part else page
        if not resolved.exists():
            problems.append(f"{where} (no such file)")
            continue
        markdown = resolved.suffix == ".md"
        if anchor and markdown and anchor not in anchors(resolved.read_text(encoding="utf-8")):
            problems.append(f"{where} (no heading with that anchor)")
    return problems


def test_readme_is_short_and_gives_both_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_README_LINES
    prose = {number for number, _ in prose_lines(text)}
    fenced = [line.strip() for n, line in enumerate(text.splitlines(), 1) if n not in prose]
    commands = {line.split("#")[0].strip() for line in fenced}
    for command in ("scripts/play.sh", "scripts/test.sh"):
        assert command in commands, f"README.md shows no `{command}` in a code block"


def test_readme_shows_every_lane_of_the_test_script() -> None:
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    lanes = re.findall(r"^\s*(--[a-z][a-z-]*)\)", script, re.M)
    text = README.read_text(encoding="utf-8")
    prose = {number for number, _ in prose_lines(text)}
    fenced = {
        line.split("#")[0].strip()
        for n, line in enumerate(text.splitlines(), 1)
        if n not in prose
    }
    assert [lane for lane in lanes if f"scripts/test.sh {lane}" not in fenced] == []


def test_every_page_of_docs_can_be_reached_from_the_readme() -> None:
    reached: set[Path] = set()
    todo = [README]
    while todo:
        page = todo.pop()
        for _, target in links(page.read_text(encoding="utf-8")):
            path_part = target.partition("#")[0]
            if not path_part or re.match(r"^[a-z][a-z0-9+.-]*:", path_part, re.I):
                continue
            resolved = (page.parent / path_part).resolve()
            if resolved.suffix == ".md" and resolved.exists() and resolved not in reached:
                reached.add(resolved)
                todo.append(resolved)
    for page in PAGES[1:]:
        assert page.resolve() in reached, f"nothing links to docs/{page.name} from README.md"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


_REPO_PATH = re.compile(
    r"^(?:sos|tests|scripts|benchmarks|static|docs|locale|\.ci|\.github)/[A-Za-z0-9_./-]*$"
)


def named_paths(text: str) -> list[tuple[int, str]]:
    """Repository paths named in inline code (``sos/ai/search.py``, ``tests/e2e/test_x.py::name``),
    without placeholders (``<lang>``) and built files (``static/vendor/``)."""
    found: list[tuple[int, str]] = []
    for number, line in prose_lines(text):
        for span in _INLINE_CODE.findall(line):
            for word in span.strip("`").split():
                path = word.split("::")[0].rstrip(",;:)")
                if _REPO_PATH.match(path) and not path.startswith("static/vendor/"):
                    found.append((number, path))
    return found


def built_by_a_command(path: str) -> bool:
    """Whether ``path`` is ignored by git: a file a build makes (``benchmarks/csos/csos``),
    named in the docs before it exists. False where git or the repository is not at hand."""
    try:
        run = subprocess.run(
            ["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT, check=False
        )
    except OSError:
        return False
    return run.returncode == 0


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_file_named_in_code_exists(page: Path) -> None:
    missing = [
        f"{number}: {path}"
        for number, path in named_paths(page.read_text(encoding="utf-8"))
        if not (ROOT / path).exists() and not built_by_a_command(path)
    ]
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_docs_describe_the_product_not_a_work_session(page: Path) -> None:
    hits = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if _WORK_SESSION.search(line)
    ]
    assert hits == [], "dated work logs belong in benchmarks/RESULTS.md"


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text(
        "# Title\n\n## How `hard` searches: fast!\n\n## Title\n", encoding="utf-8"
    )
    page = tmp_path / "README.md"
    page.write_text(
        "[ok](docs/a.md#how-hard-searches-fast) [dup](docs/a.md#title-1) [web](https://x.org/y)\n"
        "[gone](docs/b.md) [bad anchor](docs/a.md#nope) <img src=\"docs/c.png\">\n"
        "`[in code](docs/d.md)`\n```\n[in a block](docs/e.md)\n```\n[self](#missing)\n",
        encoding="utf-8",
    )
    assert [problem.split(": ", 1)[1] for problem in broken_links(page, tmp_path)] == [
        "docs/b.md (no such file)",
        "docs/a.md#nope (no heading with that anchor)",
        "docs/c.png (no such file)",
        "#missing (no heading with that anchor)",
    ]
    assert named_paths("Run `scripts/x.sh --quick`, `tests/e2e/t.py::test_a`, `sos/<m>.py`.") == [
        (1, "scripts/x.sh"),
        (1, "tests/e2e/t.py"),
    ]
    assert built_by_a_command("static/vendor/anything.js")
    assert not built_by_a_command("sos/no_such_module.py")
    assert _WORK_SESSION.search("Figures of Session 7 follow")
    assert _WORK_SESSION.search("measured in this round")
    assert not _WORK_SESSION.search("GameSession keeps the line; a long-session test")


def test_the_documented_policy_is_the_page_s_policy() -> None:
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    served = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert served is not None
    documented = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    block = re.search(r"## Content-Security-Policy.*?```\n(.*?)```", documented, re.S)
    assert block is not None, "docs/security.md shows the policy in a code block"
    assert " ".join(block.group(1).split()) == " ".join(served.group(1).split())


def test_the_ai_page_states_the_code_s_budgets_and_limits() -> None:
    from sos.ai import EXACT_MAX_CELLS, agents, review

    page = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    prose = " ".join(page.split())

    def number(value: float) -> str:
        text = f"{value:,}".replace(",", " ")
        return text[:-2] if text.endswith(".0") else text

    stated = [
        f"{number(agents.HARD_BUDGET_SMALL)} s of search a move on boards up to 7×7",
        f"{number(agents.HARD_BUDGET)} s on larger ones",
        f"({number(agents.HARD_BUDGET_PROOF)} s on 5×5, where the endgame proof decides)",
        f"`sos.ai.EXACT_MAX_CELLS` = {EXACT_MAX_CELLS} squares",
        f"at most {agents.ENDGAME_EMPTIES} empty squares",
        f"(`Solver.secure_action`, {round(agents.SMALL_PROOF_SHARE * 100)} % of the budget",
        f"spends up to {round(agents.HINT_PROOF_SHARE * 100)} % of the budget proving",
        {0.5: "in half its budget"}.get(
            agents.ENDGAME_SHARE, f"in {round(agents.ENDGAME_SHARE * 100)} % of its budget"
        ),
        {0.5: "(half in simple mode)"}.get(
            agents.SIMPLE_ENDGAME_SHARE, f"({round(agents.SIMPLE_ENDGAME_SHARE * 100)} % in"
        ),
        f"from {review.EXACT_EMPTIES} empty squares down, each within "
        f"{number(review.EXACT_NODES)} nodes",
        f"The estimates of a review share {number(review.ESTIMATE_TOTAL)} nodes",
        f"{number(review.ESTIMATE_NODES)} each up to 7×7",
        f"never under {number(review.ESTIMATE_MIN)}",
        f"{number(review.ESTIMATE_TOTAL // (12 * 12 - review.EXACT_EMPTIES))} on 12×12",
    ]
    assert agents.SMALL_BOARD_CELLS == 7 * 7 and agents.PROOF_BOARD_CELLS == 5 * 5
    assert [text for text in stated if text not in prose] == []


def test_every_stable_hook_in_the_docs_is_in_the_page() -> None:
    """docs/architecture.md lists the page's stable hooks (the DOM contract); each must be in
    index.html or be set by the page's code (``score-N``: an f-string ``score-{...}``)."""
    doc = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    section = doc.split("## The page's stable hooks", 1)[1].split("\n## ", 1)[0]
    hooks = re.findall(r"\[data-testid=([\w-]+)\]", section)
    assert len(hooks) >= 25, hooks
    page = "\n".join(
        path.read_text("utf-8")
        for path in [ROOT / "index.html", *(ROOT / "sos" / "web").glob("*.py"),
                     *(ROOT / "static").glob("*.js")]
    )
    for hook in hooks:
        if hook.endswith("-N"):
            assert re.search(re.escape(hook[:-1]) + r"\{", page), f"nothing sets {hook}"
        else:
            assert re.search(rf"""["']{re.escape(hook)}["']""", page), f"no element is {hook}"
