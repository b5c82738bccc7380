"""Generated and mutated inputs that a user or a host page controls, for the fuzz tests.

One source of inputs for both sides: the hypothesis tests (tests/app/test_fuzz.py) drive these
generators through ``st.randoms()`` (so failures shrink to a minimal sequence of choices), and
the browser test (tests/e2e/test_fuzz_browser.py) calls them with a seeded ``random.Random`` so
that every run loads the same few hundred inputs.

Each generator starts from something valid (a real query, a real game, a real save) and breaks
it in the ways people and programs do: wrong types, out-of-range numbers, truncation, flipped
characters, duplicated or missing fields, huge or unicode values.
"""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import quote

from sos import GameState, Rules, new_game
from sos.app.saving.transcript import SavedGame, dump_save, encode_moves, format_transcript
from sos.app.share.params import SEAT_KINDS
from sos.rules import APP_SIZES, MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS

TOO_SMALL, TOO_BIG = str(MIN_APP_SIZE - 1), str(MAX_APP_SIZE + 1)

GOOD_VALUES: dict[str, list[str]] = {
    "size": [str(n) for n in APP_SIZES],
    "mode": ["general", "simple", "SIMPLE"],
    "players": [str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
    "seats": ["human,easy", "easy,medium", "human,hard,easy", "human,human,human,medium"],
    "lang": ["en", "de", "DE"],
    "embed": ["0", "1", "true", ""],
}
BAD_VALUES = [
    "", "0", "-1", TOO_SMALL, TOO_BIG, "99999999999999999999", "1e3", "0x6", "\uff16", "\u00bd",
    "\u00b2", "\u0663", " 6", "6.0", "0006",
    "nan", "None", "null", "true", "[]", "{}", "<b>x</b>", "<img src=x onerror=alert(1)>",
    "javascript:alert(1)", "'; DROP TABLE", "%00", "\u202e", "😀", "a" * 300, "human,,easy",
    "human,robot", "perfect,perfect", ",", "human," * 5, "fr", "de-DE", "general;simple",
]
#: Characters a mutation may write: letters of the share code, digits, separators, junk.
JUNK = "SOsoabcdlxz0123456789@.,/#- \t\n%&=?+;:<>\"'\\{}[]éß😀\u0000\u202e"


def random_game(rules: Rules, rng: random.Random, plies: int | None = None) -> GameState:
    """A game of random legal moves (to the end, or ``plies`` moves)."""
    state = new_game(rules)
    while not state.is_terminal() and (plies is None or len(state.history) < plies):
        state.apply(rng.choice(state.legal_actions()))
    return state


def mutate_text(text: str, rng: random.Random, rounds: int | None = None) -> str:
    """``text`` with a few random edits: delete, insert, replace, duplicate, truncate, swap."""
    for _ in range(rng.randint(1, 4) if rounds is None else rounds):
        if not text:
            text = rng.choice(JUNK)
            continue
        i = rng.randrange(len(text))
        j = rng.randrange(i, min(len(text), i + 6) + 1)
        kind = rng.randrange(6)
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:i] + rng.choice(JUNK) + text[i:]
        elif kind == 2:
            text = text[:i] + rng.choice(JUNK) + text[i + 1 :]
        elif kind == 3:
            text = text[:j] + text[i:j] + text[j:]
        elif kind == 4:
            text = text[:i]
        else:
            text = text[i:j] + text[:i] + text[j:]
    return text


def game_code(rng: random.Random, size: int, mode: str = "general", players: int = 2) -> str:
    """A share code (``game=``) of a random game on that board, maybe mutated."""
    rules = Rules(size, size, mode, players)  # type: ignore[arg-type]
    code = encode_moves(random_game(rules, rng, rng.randint(0, size * size)).history)
    return mutate_text(code, rng) if rng.random() < 0.5 else code


def query(rng: random.Random) -> str:
    """A URL query string (with ``?``): a mix of valid, invalid, repeated and unknown params."""
    pairs: list[tuple[str, str]] = []
    for name in rng.sample(list(GOOD_VALUES), rng.randint(0, len(GOOD_VALUES))):
        roll = rng.random()
        if roll < 0.55:
            value = rng.choice(GOOD_VALUES[name])
        elif roll < 0.9:
            value = rng.choice(BAD_VALUES)
        else:
            value = mutate_text(rng.choice(GOOD_VALUES[name]), rng)
        pairs.append((name, value))
        if rng.random() < 0.1:  # a repeated parameter: the last one counts
            pairs.append((name, rng.choice(BAD_VALUES + GOOD_VALUES[name])))
    if rng.random() < 0.35:
        size = next((int(v) for n, v in pairs if n == "size" and v.isascii() and v.isdigit()), 6)
        size = size if size in APP_SIZES else 6
        code = game_code(rng, size) if rng.random() < 0.8 else rng.choice(BAD_VALUES)
        pairs.append(("game", code))
    if rng.random() < 0.2:
        pairs.append((rng.choice(["pace", "x", "__proto__", "size[]", ""]), rng.choice(BAD_VALUES)))
    rng.shuffle(pairs)
    encoded = "&".join(
        f"{quote(name, safe='')}={quote(value, safe='') if rng.random() < 0.9 else value}"
        for name, value in pairs
    )
    return "?" + encoded if rng.random() < 0.95 else encoded


def valid_save(rng: random.Random) -> dict[str, Any]:
    """The JSON object of a valid save of a random game (app-sized square board)."""
    size = rng.randint(3, 8)
    mode = rng.choice(["general", "simple"])
    players = rng.randint(2, 4)
    rules = Rules(size, size, mode, players)  # type: ignore[arg-type]
    state = random_game(rules, rng, rng.randint(0, rules.cells))
    seats = tuple(rng.choice(["human", "human", "easy", "medium"]) for _ in range(players))
    cursor = rng.randint(0, len(state.history))
    prefs = {"lang": rng.choice(["en", "de"]), "theme": "auto", "letter": rng.choice("SO")}
    saved = SavedGame(rules, seats, encode_moves(state.history), cursor, prefs)
    data: dict[str, Any] = json.loads(dump_save(saved))
    return data


JSON_JUNK: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, MAX_APP_SIZE, MAX_APP_SIZE + 1, 2**31, 2**64, -(2**63), 1.5,
    1e308, float("nan"),
    "", "3", "general", "Sa1", "human", [], [3], ["human"], {}, {"a": 1}, "x" * 1000,
]


def mutated_save(rng: random.Random) -> str:
    """Text for ``localStorage["sos-game"]``: a valid save with fields or characters broken."""
    data = valid_save(rng)
    roll = rng.random()
    if roll < 0.2:
        return json.dumps(data)  # some stay valid: the page must restore them
    for _ in range(rng.randint(1, 3)):
        key = rng.choice([*data, "extra"])
        kind = rng.randrange(5)
        if kind == 0:
            data.pop(key, None)
        elif kind == 1:
            data[key] = rng.choice(JSON_JUNK)
        elif kind == 2 and isinstance(data.get("moves"), str):
            data["moves"] = mutate_text(data["moves"], rng)
        elif kind == 3:
            data["cursor"] = rng.choice([-1, 0, 10**6, len(str(data.get("moves", ""))) // 3 + 1])
        else:
            data["seats"] = rng.choice(
                [list(SEAT_KINDS), ["human"] * 5, ["Human", "easy"], "human,easy", [1, 2]]
            )
    text = json.dumps(data)
    if roll > 0.85:
        text = mutate_text(text, rng)  # not even JSON any more, maybe
    return text


def mutated_library_game(rng: random.Random, game_id: str = "fuzz1") -> str:
    """Text for ``localStorage["sos-g:<id>"]``: a valid library game with fields or characters
    broken (some stay valid)."""
    from sos.app.saving.library import GameRecord, dump_game
    from sos.rules import Rules

    save = valid_save(rng)
    rules = Rules(save["rows"], save["cols"], save["mode"], save["players"])
    line = random_game(rules, rng).history
    record = GameRecord(game_id, rules, tuple(save["seats"]), line, len(line), (), 1.0, 2.0, 1)
    data = json.loads(dump_game(record))
    roll = rng.random()
    if roll < 0.3:
        return json.dumps(data)
    for _ in range(rng.randint(1, 3)):
        key = rng.choice([*data, "extra"])
        kind = rng.randrange(4)
        if kind == 0:
            data.pop(key, None)
        elif kind == 1:
            data[key] = rng.choice(JSON_JUNK)
        elif kind == 2 and isinstance(data.get("line"), str):
            data["line"] = mutate_text(data["line"], rng)
        else:
            data["cursor"] = rng.choice([-1, 0, 10**6, len(line) + 1])
    text = json.dumps(data)
    if roll > 0.85:
        text = mutate_text(text, rng)
    return text


def mutated_record(rng: random.Random) -> str:
    """Text for the game-record import: a valid record with lines or characters broken."""
    size = rng.randint(3, 7)
    rules = Rules(size, size, rng.choice(["general", "simple"]), rng.randint(2, 4))  # type: ignore[arg-type]
    lines = format_transcript(random_game(rules, rng, rng.randint(0, rules.cells))).splitlines()
    roll = rng.random()
    if roll < 0.15:
        return "\n".join(lines)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.randrange(6)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:
            lines[i] = mutate_text(lines[i], rng)
        elif kind == 3:
            lines[0] = rng.choice(
                [
                    "SOS 2x2 general, 2 players",
                    f"SOS {TOO_BIG}x{TOO_BIG} general, 2 players",
                    f"SOS {TOO_SMALL}x{TOO_SMALL} general, 2 players",
                    f"SOS 99x3 simple, {MAX_PLAYERS + 1} players",
                    f"SOS 4x{TOO_BIG} simple, {MIN_PLAYERS} players",
                    "sos 4×4 SIMPLE , 3 players",
                    "# comment only",
                    "",
                ]
            )
        elif kind == 4:
            lines.append(rng.choice(["", "# note", "99. S@a1", f"{len(lines)}. O@z99", "<script>"]))
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        if not lines:
            lines = [""]
    return "\n".join(lines)


#: Strings the runtime's own "message" listeners act on (Pyodide 314's scheduler, emscripten's
#: setImmediate): a host page must not reach them (static/start.js drops foreign messages).
RUNTIME_MESSAGES: list[Any] = ["_si", "_si", "setimmediate", {"target": "setimmediate"}, "sched$0"]


def host_message(rng: random.Random) -> Any:
    """Something a host page might ``postMessage`` to the game (which must ignore it)."""
    kinds: list[Any] = [
        {"source": "sos-game", "version": 1, "type": "sos:ready"},
        {"type": "sos:play", "row": 0, "col": 0, "letter": "S"},
        {"type": "sos:new-game", "settings": {"size": rng.randint(-5, 50)}},
        {"__proto__": {"polluted": True}},
        "S@a1",
        "<img src=x onerror=alert(1)>",
        rng.choice(JSON_JUNK),
        [rng.choice(JSON_JUNK) for _ in range(3)],
        {"eval": "alert(1)", "code": "import js"},
        rng.choice(RUNTIME_MESSAGES),
    ]
    return rng.choice(kinds)


# ---------------------------------------------------------------------------- games by link
#: Characters of a game link's code (sos.app.share.remote.ALPHABET): edits with these reach the
#: check code rather than stopping at "unreadable".
LINK_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
NAMES = ["", "Anna", "Ben", "Zoë", "Jürgen Groß", "李雷", "😀 x", "a" * 24]


def remote_link(rng: random.Random) -> Any:
    """A valid :class:`~sos.app.share.remote.RemoteLink` of a random game (maybe finished)."""
    from sos.app.share.remote import RemoteLink

    size = rng.randint(MIN_APP_SIZE, MAX_APP_SIZE)
    players = rng.randint(MIN_PLAYERS, MAX_PLAYERS)
    rules = Rules(size, size, rng.choice(["general", "simple"]), players)  # type: ignore[arg-type]
    plies = None if rng.random() < 0.2 else rng.randint(0, size * size)
    state = random_game(rules, rng, plies)
    game_id = "".join(rng.choice(LINK_CHARS[:62]) for _ in range(rng.randint(1, 32)))
    names = tuple(rng.choice(NAMES) for _ in range(players))
    return RemoteLink(game_id, rules, state.history, rng.randrange(players), names)


def remote_code(rng: random.Random) -> str:
    """The code (``r=``) of a random game by link, then maybe broken: truncated, characters
    changed within the code's alphabet or outside it, added, swapped."""
    from sos.app.share.remote import encode_link

    code = encode_link(remote_link(rng))
    roll = rng.random()
    if roll < 0.2:
        return code
    if roll < 0.6:  # stays in the alphabet: the check code must catch it
        for _ in range(rng.randint(1, 3)):
            if not code:
                break
            i = rng.randrange(len(code))
            kind = rng.randrange(3)
            if kind == 0:
                code = code[:i] + rng.choice(LINK_CHARS) + code[i + 1 :]
            elif kind == 1:
                code = code[:i]
            else:
                code = code[:i] + rng.choice(LINK_CHARS) + code[i:]
        return code
    return mutate_text(code, rng)
