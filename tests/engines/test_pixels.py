"""Pixels, not only the DOM: what each engine draws of the board (issue 40).

A DOM test passes when an engine draws nothing: Firefox drew the board's grid lines -- a 0.5 px
inset ``box-shadow`` -- as nothing at a device pixel ratio of 1, and the squares vanished. Here a
screenshot of a game with letters and two players' SOS marks is read with Pillow, at a phone's and
a desktop's size (and at a pixel ratio of 1.5 where the engine's automation sets one: Chromium and
Firefox; WebKitGTK's driver has no such setting, and MiniBrowser's window is no narrower than its
toolbar, 447 px, which is its phone width):

- **grid lines**: across every boundary between two empty squares, a line in the ``--line``
  colour at full strength (its darkest pixel at least :data:`LINE_CONTRAST` below the paper
  beside it, where the colours differ by 57);
- **SOS marks**: the ring of player 1 (blue) over the first row, the strike of player 2 (red)
  down the first column;
- **letters**: dark ink in the middle of each written square, none in an empty one;
- **nothing clipped**: the board inside the viewport with its frame drawn on all four sides, every
  square, letter button and score inside it, and no letter wider than its square.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from drivers import Engine, Profile, Server
from PIL import Image

#: 5 x 5: Player 1 writes S a1, Player 2 O b1, Player 1 S c1 (an SOS: ring, moves again) and
#: S a3, Player 2 O a2 (an SOS down column a: strike, moves again) and S e5.
GAME = "index.html?size=5&game=Sa1Ob1Sc1Sa3Oa2Se5"
WRITTEN = {(0, 0), (0, 1), (0, 2), (2, 0), (1, 0), (4, 4)}
#: How much darker than the paper a grid line's darkest pixel must be (0-255 luminance;
#: ``--line`` #c9c3b3 on ``--paper`` #fffdf8 differ by 57).
LINE_CONTRAST = 40

#: The geometry the checks need, in CSS px, and what the DOM says of clipping.
GEOMETRY = """() => {
  const rect = (e) => { const r = e.getBoundingClientRect();
                        return [r.left, r.top, r.right, r.bottom]; };
  const board = document.getElementById('board');
  const cells = {};
  for (const b of board.querySelectorAll('button.cell'))
    cells[b.dataset.row + ',' + b.dataset.col] = rect(b);
  const inside = [...document.querySelectorAll(
      '#board button.cell, [data-testid=letter-S], [data-testid=letter-O], [data-testid^=score-]')]
    .filter((e) => { const r = e.getBoundingClientRect();
                     return r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5; })
    .map((e) => e.dataset.testid || e.getAttribute('aria-label'));
  const wide = [...board.querySelectorAll('button.cell')]
    .filter((b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
    .map((b) => b.getAttribute('aria-label'));
  return {dpr: devicePixelRatio, board: rect(board), cells, outside: inside, wide,
          viewport: [innerWidth, innerHeight],
          marks: [...document.querySelectorAll('[data-sos]')].map(
            (m) => [m.dataset.sos, m.dataset.player])};
}"""


def luminance(pixel: tuple[int, ...]) -> float:
    r, g, b = pixel[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


class Shot:
    """A screenshot and the page's geometry: CSS px in, device pixels read."""

    def __init__(self, png: bytes, geometry: dict[str, Any]) -> None:
        self.image = Image.open(io.BytesIO(png)).convert("RGB")
        self.geometry = geometry
        # the screenshot's own scale (a driver may return CSS px or device px)
        self.scale = self.image.width / geometry["viewport"][0]

    def at(self, x: float, y: float) -> tuple[int, ...]:
        px = min(max(int(x * self.scale), 0), self.image.width - 1)
        py = min(max(int(y * self.scale), 0), self.image.height - 1)
        return self.image.getpixel((px, py))  # type: ignore[return-value]

    def darkest(self, points: list[tuple[float, float]]) -> float:
        return min(luminance(self.at(x, y)) for x, y in points)

    def cell(self, row: int, col: int) -> list[float]:
        return list(self.geometry["cells"][f"{row},{col}"])

    def across(self, x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
        """Points every device pixel along a segment (CSS px)."""
        steps = max(int(max(abs(x1 - x0), abs(y1 - y0)) * self.scale), 1)
        return [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(steps + 1)]

    def coloured(self, box: list[float], test: Callable[[tuple[int, ...]], bool]) -> int:
        """How many device pixels inside ``box`` (CSS px) pass ``test``."""
        left, top, right, bottom = (int(v * self.scale) for v in box)
        crop = self.image.crop((left, top, right, bottom))
        data = crop.tobytes()
        return sum(1 for i in range(0, len(data), 3) if test(tuple(data[i : i + 3])))


def is_blue(p: tuple[int, ...]) -> bool:
    return p[2] > p[0] + 60 and p[2] > p[1] + 40


def is_red(p: tuple[int, ...]) -> bool:
    return p[0] > p[2] + 60 and p[0] > p[1] + 60


def check(shot: Shot, where: str) -> list[str]:
    """Everything wrong in ``shot`` (empty when the board is drawn as it should be)."""
    g = shot.geometry
    problems = []
    size = 5
    cell_w = (g["cells"]["0,1"][0] - g["cells"]["0,0"][0])
    # Grid lines: every boundary between two empty squares, across its middle.
    weak = []
    for row in range(size):
        for col in range(size):
            left, top, right, bottom = shot.cell(row, col)
            mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
            for drow, dcol in ((0, 1), (1, 0)):
                other = (row + drow, col + dcol)
                if max(other) >= size or (row, col) in WRITTEN or other in WRITTEN:
                    continue
                if dcol:  # the vertical line at the right edge, across ±3 px, and the paper
                    line = shot.darkest(shot.across(right - 3, mid_y, right + 3, mid_y))
                    paper = luminance(shot.at(right - cell_w / 4, mid_y))
                else:
                    line = shot.darkest(shot.across(mid_x, bottom - 3, mid_x, bottom + 3))
                    paper = luminance(shot.at(mid_x, bottom - cell_w / 4))
                if paper - line < LINE_CONTRAST:
                    weak.append(f"{'right' if dcol else 'lower'} of {row},{col}: "
                                f"line {line:.0f} on paper {paper:.0f}")  # fmt: skip
    if weak:
        problems.append(f"{where}: {len(weak)} grid line(s) not drawn, e.g. {weak[:3]}")
    # SOS marks: player 1's over row 1 (a1-c1), player 2's down column a (a1-a3).
    if sorted(g["marks"]) != [["0,0,0,2", "0"], ["0,0,2,0", "1"]]:
        problems.append(f"{where}: marks in the DOM {g['marks']}")
    row1 = [shot.cell(0, 0)[0], shot.cell(0, 0)[1], shot.cell(0, 2)[2], shot.cell(0, 2)[3]]
    col_a = [shot.cell(0, 0)[0], shot.cell(0, 0)[1], shot.cell(2, 0)[2], shot.cell(2, 0)[3]]
    blue, red = shot.coloured(row1, is_blue), shot.coloured(col_a, is_red)
    needed = int((cell_w * shot.scale) ** 2 * 0.02)  # a stroke across a few squares
    if blue < needed:
        problems.append(f"{where}: player 1's SOS mark not drawn ({blue} blue px < {needed})")
    if red < needed:
        problems.append(f"{where}: player 2's SOS mark not drawn ({red} red px < {needed})")
    # Letters: ink in the middle of each written square, none in an empty one.
    for row in range(size):
        for col in range(size):
            left, top, right, bottom = shot.cell(row, col)
            w, h = right - left, bottom - top
            centre = [left + w * 0.3, top + h * 0.3, right - w * 0.3, bottom - h * 0.3]
            ink = shot.coloured(centre, lambda p: luminance(p) < 90)
            if ((row, col) in WRITTEN) != (ink > 0):
                problems.append(f"{where}: square {row},{col} has {ink} ink px")
    # Nothing clipped.
    left, top, right, bottom = g["board"]
    width, height = g["viewport"]
    if left < 0 or top < 0 or right > width or bottom > height:
        problems.append(f"{where}: board {g['board']} outside the viewport {g['viewport']}")
    mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
    frame = {
        "left": shot.darkest(shot.across(left, mid_y, left + 3, mid_y)),
        "right": shot.darkest(shot.across(right - 3, mid_y, right, mid_y)),
        "top": shot.darkest(shot.across(mid_x, top, mid_x, top + 3)),
        "bottom": shot.darkest(shot.across(mid_x, bottom - 3, mid_x, bottom)),
    }
    faint = {side: value for side, value in frame.items() if value > 90}
    if faint:
        problems.append(f"{where}: the board's frame not drawn on {faint}")
    if g["outside"]:
        problems.append(f"{where}: outside the viewport: {g['outside']}")
    if g["wide"]:
        problems.append(f"{where}: letters wider than their square: {g['wide']}")
    return problems


def look(
    page: Profile, url: str, width: int, height: int, name: str, save: Callable[..., Path]
) -> list[str]:
    """Open ``url`` at ``width`` x ``height``, screenshot it (test-results/), check it."""
    got = page.resize(width, height)
    page.open(url)
    page.call("() => document.activeElement && document.activeElement.blur()")
    page.wait_for(
        """() => document.getAnimations().every((a) => a.playState !== 'running'
             || a.effect === null || a.effect.getComputedTiming().endTime === Infinity)""",
        what="animations done",
    )
    page.wait_for(  # the marks fade in (opacity 0 to 1): drawn once their style says 1
        """() => { const m = [...document.querySelectorAll('[data-sos]')];
             return m.length > 0 && m.every((e) => getComputedStyle(e).opacity === '1'); }""",
        what="the SOS marks faded in",
    )
    for attempt in range(3):
        geometry = page.call(GEOMETRY)
        shot = Shot(save(page, name).read_bytes(), geometry)
        problems = check(shot, f"{name} ({got[0]}x{got[1]} at {shot.geometry['dpr']})")
        if not any("mark not drawn" in p for p in problems):
            break
        # Under load WebKitGTK has screenshotted a frame painted before the marks (0 px of
        # either colour, their style already opaque): another frame, at most twice more.
        print(f"{name}: {problems}; screenshot again ({attempt + 1})")
        time.sleep(0.5)
    return problems


def test_grid_lines_marks_and_letters_are_drawn_at_phone_and_desktop_sizes(
    engine: Engine,
    profile: Profile,
    server: Server,
    other_profile: Callable[..., Profile],
    shot: Callable[[Profile, str], Path],
) -> None:
    url = server.url + GAME
    problems = look(profile, url, 390, 844, "board-phone", shot)
    problems += look(profile, url, 1280, 800, "board-desktop", shot)
    if engine.name != "webkit":  # WebKitGTK's driver sets no pixel ratio
        scaled = other_profile(390, 844, 1.5)
        problems += look(scaled, url, 390, 844, "board-phone-1.5x", shot)
    assert not problems, f"[{engine.version}]\n" + "\n".join(problems)
