"""User-facing text in English and German, one catalog per language.

Every visible string and ``aria-label`` of the app comes from here. :func:`text` fills
``{placeholders}`` with ``str.format``. A test checks that both catalogs have the same keys.
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final[tuple[str, ...]] = ("en", "de")
DEFAULT_LANGUAGE: Final = "en"

EN: Final[dict[str, str]] = {
    "app.title": "SOS",
    "app.tagline": "The paper-and-pencil game",
    "player.name": "Player {n}",
    "player.computer": "Computer {n}",
    "level.human": "human",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    "level.perfect": "perfect",
    "status.thinking": "{name} is thinking…",
    "settings.seat": "Player {n}",
    "button.hint": "Hint",
    "hint.label": "Show the best move",
    "hint.thinking": "Looking for the best move…",
    "hint.move": "Hint: write {letter} on {square}.",
    "hint.exact.win": "Perfect play: you win by {points}.",
    "hint.exact.draw": "Perfect play: draw.",
    "hint.exact.loss": "Perfect play: you lose by {points}.",
    "hint.exact.simple.win": "Perfect play: you win.",
    "hint.exact.simple.draw": "Perfect play: draw.",
    "hint.exact.simple.loss": "Perfect play: you lose.",
    "hint.estimate.ahead": "Estimate: you gain about {points} more than the others from here.",
    "hint.estimate.even": "Estimate: about even from here.",
    "hint.estimate.behind": "Estimate: the others gain about {points} more than you from here.",
    "player.style.0": "circled",
    "player.style.1": "struck through",
    "player.style.2": "dashed",
    "player.style.3": "double line",
    "status.turn": "{name} to move",
    "status.scored": "{name} scored {points} and moves again",
    "status.scored.one": "{name} scored 1 and moves again",
    "status.loading": "Loading the game engine…",
    "result.win": "{name} wins, {scores}",
    "result.win.simple": "{name} wins with the first SOS",
    "result.draw": "Draw, {scores}",
    "result.draw.between": "Draw between {names}, {points} each",
    "result.draw.simple": "Draw: the board is full without an SOS",
    "result.and": " and ",
    "cell.empty": "{square}, empty",
    "cell.letter": "{square}, {letter}",
    "cell.last": "{square}, {letter}, last move",
    "board.label": "SOS board, {rows} by {cols}",
    "letter.choose": "Letter to write",
    "letter.S": "Write S",
    "letter.O": "Write O",
    "score.label": "{name}: {score} points, marks SOSs {style}",
    "score.label.computer": "{name}, computer ({level}): {score} points, marks SOSs {style}",
    "button.new_game": "New game",
    "button.settings": "Settings",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "settings.title": "New game",
    "settings.size": "Board size",
    "settings.mode": "Mode",
    "settings.mode.general": "General: most SOSs wins",
    "settings.mode.simple": "Simple: first SOS wins",
    "settings.players": "Players",
    "settings.language": "Language",
    "mode.general": "General game",
    "mode.simple": "Simple game",
    "notice.bad_param": "Ignored {name}={value}: {reason}; using {default}.",
    "notice.reason.size": "the board size must be a whole number from 3 to 12",
    "notice.reason.mode": "the mode must be general or simple",
    "notice.reason.players": "the number of players must be 2, 3 or 4",
    "notice.reason.seats": "seats must be a comma list of human, easy, medium, hard or perfect",
    "notice.reason.seats_count": "there must be one seat per player",
    "notice.reason.lang": "the language must be en or de",
    "notice.reason.perfect": "perfect play is offered on boards up to 4 × 4",
    "notice.reason.embed": "embed must be 1 or 0",
    "notice.dismiss": "Dismiss",
    "game.over": "Game over",
}

DE: Final[dict[str, str]] = {
    "app.title": "SOS",
    "app.tagline": "Das Spiel mit Papier und Bleistift",
    "player.name": "Spieler {n}",
    "player.computer": "Computer {n}",
    "level.human": "Mensch",
    "level.easy": "leicht",
    "level.medium": "mittel",
    "level.hard": "schwer",
    "level.perfect": "perfekt",
    "status.thinking": "{name} denkt nach …",
    "settings.seat": "Spieler {n}",
    "button.hint": "Tipp",
    "hint.label": "Den besten Zug zeigen",
    "hint.thinking": "Der beste Zug wird gesucht …",
    "hint.move": "Tipp: {letter} auf {square} schreiben.",
    "hint.exact.win": "Bei perfektem Spiel gewinnst du mit {points}.",
    "hint.exact.draw": "Bei perfektem Spiel: unentschieden.",
    "hint.exact.loss": "Bei perfektem Spiel verlierst du mit {points}.",
    "hint.exact.simple.win": "Bei perfektem Spiel gewinnst du.",
    "hint.exact.simple.draw": "Bei perfektem Spiel: unentschieden.",
    "hint.exact.simple.loss": "Bei perfektem Spiel verlierst du.",
    "hint.estimate.ahead": "Schätzung: Du holst von hier etwa {points} mehr als die anderen.",
    "hint.estimate.even": "Schätzung: von hier etwa ausgeglichen.",
    "hint.estimate.behind": "Schätzung: Die anderen holen von hier etwa {points} mehr als du.",
    "player.style.0": "eingekreist",
    "player.style.1": "durchgestrichen",
    "player.style.2": "gestrichelt",
    "player.style.3": "doppelt unterstrichen",
    "status.turn": "{name} ist am Zug",
    "status.scored": "{name} hat {points} Punkte erzielt und ist noch einmal am Zug",
    "status.scored.one": "{name} hat 1 Punkt erzielt und ist noch einmal am Zug",
    "status.loading": "Die Spiel-Engine wird geladen …",
    "result.win": "{name} gewinnt, {scores}",
    "result.win.simple": "{name} gewinnt mit dem ersten SOS",
    "result.draw": "Unentschieden, {scores}",
    "result.draw.between": "Unentschieden zwischen {names}, je {points}",
    "result.draw.simple": "Unentschieden: Das Feld ist voll, ohne SOS",
    "result.and": " und ",
    "cell.empty": "{square}, leer",
    "cell.letter": "{square}, {letter}",
    "cell.last": "{square}, {letter}, letzter Zug",
    "board.label": "SOS-Spielfeld, {rows} mal {cols}",
    "letter.choose": "Zu schreibender Buchstabe",
    "letter.S": "S schreiben",
    "letter.O": "O schreiben",
    "score.label": "{name}: {score} Punkte, markiert SOS {style}",
    "score.label.computer": "{name}, Computer ({level}): {score} Punkte, markiert SOS {style}",
    "button.new_game": "Neues Spiel",
    "button.settings": "Einstellungen",
    "button.start": "Starten",
    "button.cancel": "Abbrechen",
    "settings.title": "Neues Spiel",
    "settings.size": "Spielfeldgröße",
    "settings.mode": "Spielart",
    "settings.mode.general": "Normal: die meisten SOS gewinnen",
    "settings.mode.simple": "Einfach: das erste SOS gewinnt",
    "settings.players": "Spieler",
    "settings.language": "Sprache",
    "mode.general": "Normales Spiel",
    "mode.simple": "Einfaches Spiel",
    "notice.bad_param": "{name}={value} ignoriert: {reason}; es gilt {default}.",
    "notice.reason.size": "die Spielfeldgröße muss eine ganze Zahl von 3 bis 12 sein",
    "notice.reason.mode": "die Spielart muss general oder simple sein",
    "notice.reason.players": "es können 2, 3 oder 4 Spieler sein",
    "notice.reason.seats": (
        "seats muss eine Komma-Liste aus human, easy, medium, hard oder perfect sein"
    ),
    "notice.reason.seats_count": "es muss einen Platz pro Spieler geben",
    "notice.reason.lang": "die Sprache muss en oder de sein",
    "notice.reason.perfect": "perfektes Spiel gibt es auf Feldern bis 4 × 4",
    "notice.reason.embed": "embed muss 1 oder 0 sein",
    "notice.dismiss": "Schließen",
    "game.over": "Spiel vorbei",
}

CATALOGS: Final[dict[str, dict[str, str]]] = {"en": EN, "de": DE}


def text(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang`` (``"en"`` or ``"de"``), placeholders filled from ``values``.

    Raises:
        KeyError: for an unknown key (a programming error, caught by the catalog test).
    """
    catalog = CATALOGS.get(lang, EN)
    return catalog[key].format(**values)


def pick_language(preferred: list[str]) -> str:
    """The first supported language among browser ``preferred`` tags (``"de-AT"`` -> ``"de"``)."""
    for tag in preferred:
        base = str(tag).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE
