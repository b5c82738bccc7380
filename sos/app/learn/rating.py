"""The puzzle rating: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2022 revision of the
2001 paper, http://www.glicko.net/glicko/glicko2.pdf) with the settings Lichess uses for puzzles,
each puzzle's fixed rating from its difficulty, the choice of puzzles near the player's rating,
and the rating with its history kept in storage. Pure: standard library only, no DOM.

Settings (Lichess, ``lila`` ``modules/rating`` and ``modules/puzzle``): a new player starts at
1500 with rating deviation (RD) 500 and volatility 0.09; system constant τ = 0.75; RD never below
45 (:data:`MIN_RD`) nor above 500; a rating is *provisional* while RD ≥ 110. Every result is its
own rating period (one puzzle, one update). One result moves the rating by at most
:data:`MAX_CHANGE` points (our choice: Lichess also damps single puzzle results; a cap keeps the
first answers of a new player, at RD 500, from swinging the rating by 300 points).

A puzzle's rating is fixed (it has no server to learn from its solvers): difficulty 1…5 maps to
1100…1900 in steps of 200 (:func:`puzzle_rating`), RD :data:`PUZZLE_RD`. A puzzle is rated once:
the first time it is solved or failed (a replay changes nothing).

Storage (``sos-puzzle-rating``, JSON, version 1)::

    {"v": 1, "r": 1532.4, "rd": 212.1, "vol": 0.0899, "rated": ["5g-3f9a1c", ...],
     "history": [[1764600000000, 1532], ...], "d": "normal"}

``history``: (time in ms since the Unix epoch, rating rounded) after each rated result, the
last :data:`KEEP_HISTORY`; ``d``: the difficulty chosen (:data:`DIFFICULTIES`). A stored
value that cannot be read (damaged, or another version) is never overwritten: the reader
starts from a new rating in memory and :attr:`RatingBook.damaged` says so
(:class:`sos.app.learn.puzzles.PuzzleSession` then does not write the rating).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

#: Glicko-2's scale factor between the Glicko rating scale and the internal μ/φ scale.
SCALE: Final = 173.7178
START_RATING: Final = 1500.0
START_RD: Final = 500.0
START_VOLATILITY: Final = 0.09
TAU: Final = 0.75
MIN_RD: Final = 45.0
MAX_RD: Final = 500.0
#: RD from which a rating is shown as provisional ("1500?").
PROVISIONAL_RD: Final = 110.0
#: The largest change of the rating one result can make, in rating points.
MAX_CHANGE: Final = 100.0
#: Convergence tolerance of the volatility iteration (Glickman step 5).
EPSILON: Final = 1e-6
#: The fixed rating deviation of every puzzle.
PUZZLE_RD: Final = 80.0
#: Difficulty choices: offset from the player's rating of the puzzles offered (Lichess's).
DIFFICULTIES: Final[dict[str, int]] = {
    "easiest": -600, "easier": -300, "normal": 0, "harder": 300, "hardest": 600,
}
RATING_KEY: Final = "sos-puzzle-rating"
RATING_VERSION: Final = 1
KEEP_HISTORY: Final = 500


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` (points), ``rd`` (rating deviation,
    points), ``volatility`` (sigma, internal scale)."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        """True while the deviation is at least :data:`PROVISIONAL_RD`."""
        return self.rd >= PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2_update(
    player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU
) -> Rating:
    """The player's rating after one rating period, exactly as Glickman's steps 1–8 (no RD
    floor, no cap: see :func:`rate` for Lichess's puzzle settings).

    Args:
        player: the rating before the period.
        results: (opponent's rating, score) per game; score 1 win, 0.5 draw, 0 loss.
        tau: the system constant τ (volatility change), 0.3–1.2 in the paper.

    Returns:
        The new :class:`Rating`. With no games only RD grows (step 6's φ* = √(φ² + σ²)).
    """
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        return replace(player, rd=math.sqrt(phi * phi + sigma * sigma) * SCALE)
    inv_v = 0.0
    total = 0.0
    for opponent, score in results:
        mu_j, phi_j = (opponent.rating - START_RATING) / SCALE, opponent.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    # Step 5: the new volatility by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (
            2.0 * (phi * phi + v + ex) ** 2
        ) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(new_mu * SCALE + START_RATING, new_phi * SCALE, new_sigma)


def rate(player: Rating, opponent: Rating, score: float) -> Rating:
    """One puzzle result with Lichess's puzzle settings: Glicko-2 with τ = :data:`TAU`, RD
    kept in [:data:`MIN_RD`, :data:`MAX_RD`], the change capped at ±:data:`MAX_CHANGE`.

    Args:
        score: 1.0 solved, 0.0 failed.
    """
    new = glicko2_update(player, [(opponent, score)])
    change = max(-MAX_CHANGE, min(MAX_CHANGE, new.rating - player.rating))
    return Rating(player.rating + change, max(MIN_RD, min(MAX_RD, new.rd)), new.volatility)


def puzzle_rating(difficulty: int) -> Rating:
    """The fixed rating of a puzzle of ``difficulty`` 1 (easiest) … 5: 1100 … 1900, RD
    :data:`PUZZLE_RD` (values outside 1…5 are clamped)."""
    level = max(1, min(5, difficulty))
    return Rating(1100.0 + 200.0 * (level - 1), PUZZLE_RD, START_VOLATILITY)


def choose_near(
    target: float, ratings: Sequence[int], skip: set[int] | frozenset[int] = frozenset(),
    after: int = -1,
) -> int | None:
    """Index of the puzzle to offer: the difficulty whose rating is nearest ``target`` among
    the indices not in ``skip``; among equals the first after index ``after`` (wrapping), so
    the set is walked in order. None when every index is skipped.

    Args:
        target: the player's rating plus the difficulty offset (:data:`DIFFICULTIES`).
        ratings: each puzzle's difficulty (1…5), in the set's order.
    """
    count = len(ratings)
    best: int | None = None
    best_key: tuple[float, int] | None = None
    for offset in range(count):
        index = (after + 1 + offset) % count
        if index in skip:
            continue
        key = (abs(puzzle_rating(ratings[index]).rating - target), offset)
        if best_key is None or key < best_key:
            best, best_key = index, key
    return best


@dataclass
class RatingBook:
    """The player's puzzle rating, the puzzles already rated, and the history (module
    docstring); ``damaged`` is True when stored text could not be read."""

    rating: Rating = field(default_factory=Rating)
    rated: list[str] = field(default_factory=list)
    history: list[tuple[float, int]] = field(default_factory=list)
    damaged: bool = False
    #: The difficulty chosen last (a key of :data:`DIFFICULTIES`).
    difficulty: str = "normal"

    @classmethod
    def load(cls, raw: str | None) -> RatingBook:
        """Read the stored text (None: a new player). Never raises."""
        if not raw:
            return cls()
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("v") != RATING_VERSION:
                raise ValueError("version")
            r, rd, vol = float(data["r"]), float(data["rd"]), float(data["vol"])
            if not (0 < r < 4000 and MIN_RD <= rd <= MAX_RD and 0 < vol < 1):
                raise ValueError("range")
            rated = [str(x) for x in data.get("rated", [])]
            history = [(float(t), int(v)) for t, v in data.get("history", [])]
        except (ValueError, TypeError, KeyError):
            return cls(damaged=True)
        chosen = data.get("d")
        difficulty = chosen if isinstance(chosen, str) and chosen in DIFFICULTIES else "normal"
        return cls(Rating(r, rd, vol), rated, history, difficulty=difficulty)

    def dump(self) -> str:
        """The stored text (version :data:`RATING_VERSION`)."""
        return json.dumps(
            {
                "v": RATING_VERSION,
                "r": round(self.rating.rating, 2),
                "rd": round(self.rating.rd, 2),
                "vol": round(self.rating.volatility, 6),
                "rated": self.rated,
                "history": [[t, v] for t, v in self.history[-KEEP_HISTORY:]],
                "d": self.difficulty,
            },
            separators=(",", ":"),
        )

    def record(self, puzzle_id: str, difficulty: int, solved: bool, now_ms: float) -> int:
        """Rate a result; returns the change in whole points (0 when ``puzzle_id`` was rated
        before: nothing changes then)."""
        if puzzle_id in self.rated:
            return 0
        before = round(self.rating.rating)
        self.rating = rate(self.rating, puzzle_rating(difficulty), 1.0 if solved else 0.0)
        self.rated.append(puzzle_id)
        self.history.append((now_ms, round(self.rating.rating)))
        return round(self.rating.rating) - before

    def shown(self) -> str:
        """``1532`` or ``1532?`` while provisional."""
        value = str(round(self.rating.rating))
        return value + "?" if self.rating.provisional else value


@dataclass(frozen=True)
class Chart:
    """A line chart as SVG data: ``points`` for a ``<polyline>`` in a ``width`` × ``height``
    box (y down), the value range ``low``…``high`` shown, and ``last`` (the last point)."""

    width: int
    height: int
    points: str
    low: int
    high: int
    last: tuple[float, float] | None


def history_chart(
    history: Sequence[tuple[float, int]], width: int = 300, height: int = 80, pad: int = 4,
    left: int = 0,
) -> Chart:
    """The rating history as a polyline, one point per rated result, evenly spaced; the
    vertical range is the values' range widened to at least 100 points and rounded to 50.
    ``left``: SVG units kept free at the left edge (for the range's labels)."""
    values = [v for _, v in history]
    if not values:
        return Chart(width, height, "", 0, 0, None)
    low = int(math.floor(min(values) / 50.0) * 50)
    high = int(math.ceil(max(values) / 50.0) * 50)
    if high - low < 100:
        middle = (high + low) // 2
        low, high = middle - 50, middle + 50
    step = (width - left - 2 * pad) / max(1, len(values) - 1)
    coords = [
        (round(left + pad + i * step, 1),
         round(pad + (high - v) * (height - 2 * pad) / (high - low), 1))
        for i, v in enumerate(values)
    ]
    return Chart(width, height, " ".join(f"{x:g},{y:g}" for x, y in coords), low, high,
                 coords[-1])


__all__ = [
    "DIFFICULTIES", "MAX_CHANGE", "MIN_RD", "PROVISIONAL_RD", "PUZZLE_RD", "RATING_KEY",
    "START_RATING", "START_RD", "START_VOLATILITY", "TAU", "Chart", "Rating", "RatingBook",
    "choose_near", "glicko2_update", "history_chart", "puzzle_rating", "rate",
]
