"""PyScript entry point: wires the page's DOM events to the app session and renders it.

Data flows one way: DOM event -> :class:`Page` handler -> :class:`~sos.app.app.AppSession` /
:class:`~sos.app.session.GameSession` (pure: every rule and policy) -> save -> render. This
module only reads events, calls the session, renders, keeps the URL and talks to storage and
timers.
"""

from __future__ import annotations

import secrets
import string
from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

from sos.app.app import AppSession, start_language
from sos.app.library import LEGACY_KEY, PREFS_KEY
from sos.app.session import GameSession
from sos.i18n import LANGUAGES, installed, pick_language
from sos.notation import Action
from sos.state import IllegalActionError
from sos.view import announcement, hint_text
from sos.web import dialogs, embed, locale
from sos.web.computer import Computer, spawn, warm_up
from sos.web.dom import by_id, hide_result
from sos.web.panels import Panels
from sos.web.remote import RemotePanel
from sos.web.render import BoardView, render, render_notices, translate_page
from sos.web.review import ReviewPanel
from sos.web.store import LocalStore

window.performance.mark("sos:imported")  # start-up marks, read by benchmarks/bench_boot.py

ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}
_ID_CHARS = string.ascii_lowercase + string.digits


def _new_id() -> str:
    return "".join(secrets.choice(_ID_CHARS) for _ in range(10))


def _browser_languages() -> list[str]:
    langs = window.navigator.languages
    return [str(x) for x in langs] if langs else [str(window.navigator.language or "en")]


def _query_pairs(query: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of a URL query string, decoded by the browser's
    ``URLSearchParams`` (WHATWG URL standard, application/x-www-form-urlencoded parsing)."""
    return [(str(pair[0]), str(pair[1])) for pair in window.URLSearchParams.new(query).entries()]


class Page:
    """The page: event handlers, rendering and the URL of the game shown."""

    def __init__(self) -> None:
        self.app = AppSession(
            LocalStore.open(),
            lambda: float(window.Date.now()),
            _new_id,
            pick_language(_browser_languages()),
        )
        query = _query_pairs(str(window.location.search))
        self.app.start(query, str(window.location.hash).lstrip("#"))
        #: ``?puzzle=daily`` / ``?puzzle=<id>``: the puzzle to open once the page is ready.
        self.wanted_puzzle = dict(query).get("puzzle")
        self.board = BoardView()
        self.hint: Action | None = None
        self.panels = Panels(self)
        self.remote = RemotePanel(self)
        self.puzzles: Any = None  # sos.web.puzzles.PuzzlePanel, imported when first opened
        self.review = ReviewPanel(self)
        self.computer = Computer(lambda: self.app.game, self._computer_played, self._thinking)
        self._proxies: list[Any] = []
        self.apply_theme()
        self.translate()
        if self.app.storage == "refused" and self.app.embed:  # (a notice elsewhere: AppSession)
            by_id("embed-note").textContent = self.app.t("embed.not_saved")
        window.history.replaceState(None, "", self.app.location())
        self._listen()
        self.select_letter(self.app.prefs.letter)
        self.refresh()

    # ------------------------------------------------------------------ wiring
    def on(self, target: Any, event: str, handler: Any) -> None:
        proxy = create_proxy(handler)
        self._proxies.append(proxy)  # created once for the page's lifetime
        target.addEventListener(event, proxy)

    def _listen(self) -> None:
        on = self.on

        def game() -> GameSession:
            return self.app.game

        on(by_id("board"), "click", self.on_board_click)
        on(by_id("board"), "focusin", self.on_board_focus)
        on(document, "keydown", self.on_key)
        for button in document.querySelectorAll(".letter-button"):
            on(button, "click", lambda e: self.select_letter(str(e.currentTarget.dataset.letter)))
        on(by_id("new-game-button"), "click", lambda _e: self.new_game())
        on(by_id("play-again"), "click", lambda _e: self.new_game())
        on(by_id("result-close"), "click", lambda _e: hide_result())
        on(by_id("hint-button"), "click", self.on_hint)
        on(by_id("undo-button"), "click", lambda _e: self.step(game().undo()))
        on(by_id("redo-button"), "click", lambda _e: self.step(game().redo()))
        on(by_id("move-list"), "click", self.on_move_list_click)
        on(by_id("other-lines"), "click", self.on_other_line)
        on(by_id("help-button"), "click", lambda _e: by_id("help-dialog").showModal())
        on(by_id("notice-close"), "click", self.on_notice_close)
        for button in document.querySelectorAll("[data-close]"):
            on(button, "click", lambda e: by_id(str(e.currentTarget.dataset.close)).close())
        on(window, "popstate", self.on_popstate)
        on(window, "storage", self.on_storage)
        self.panels.listen()
        self.remote.listen()
        on(by_id("puzzles-button"), "click", lambda _e: self.open_puzzles(None))
        self.review.listen()

    def apply_theme(self) -> None:
        root = document.documentElement
        if self.app.prefs.theme == "auto":
            root.removeAttribute("data-theme")
        else:
            root.dataset.theme = self.app.prefs.theme

    def translate(self) -> None:
        lang = self.app.lang
        if not installed(lang):  # chosen in Settings: shown in English until its catalog is in
            spawn(self._load_language(lang))
        translate_page(lang)
        locale.apply(lang)
        dialogs.build_seat_rows(lang)

    async def _load_language(self, lang: str) -> None:
        if await locale.load(lang) and self.app.lang == lang:
            self.translate()
            self.refresh()

    # ------------------------------------------------------------------ the cycle
    def refresh(self, announce: bool = False) -> None:
        """Render the game shown and the notices, then let a computer seat play."""
        render(
            self.app, self.board, self.computer.thinking, self.hint, dialogs.full_game_url(self.app)
        )
        render_notices(self.app)
        self.remote.render()
        self.review.render()
        if announce:
            by_id("announce").textContent = announcement(
                self.app.game.state, self.app.lang, self.app.game.seats
            )
        self.computer.schedule()

    def changed(self, announce: bool = False) -> None:
        """After a change of the game shown: save it (two-tab rules), then render."""
        before = self.app.game
        self.hint = None
        by_id("hint-text").textContent = ""
        self.app.commit()
        if self.app.game is not before:  # followed another tab or kept as a copy
            window.history.replaceState(None, "", self.app.location())
        self.refresh(announce)

    def shown(self) -> None:
        """After another game was opened or started: a new history entry, then render."""
        window.history.pushState(None, "", self.app.location())
        self.changed()
        by_id("announce").textContent = by_id("status").textContent

    def step(self, done: bool) -> None:
        """After undo/redo/go-to: save and render when something moved."""
        if done:
            self.changed()
            by_id("announce").textContent = by_id("status").textContent

    def _computer_played(self, _game: Any) -> None:
        self.changed(announce=True)

    def _thinking(self, _on: bool) -> None:
        render(
            self.app, self.board, self.computer.thinking, self.hint, dialogs.full_game_url(self.app)
        )
        self.review.render()

    # ------------------------------------------------------------------ play
    def play(self, row: int, col: int) -> None:
        """A person writes the selected letter on (row, col), if it is a person's turn."""
        game = self.app.game
        if self.computer.thinking or not game.human_to_move():
            return  # a computer's turn, or the game is over
        try:
            game.play(Action(row, col, self.app.prefs.letter))
        except IllegalActionError:
            return  # a written square: nothing to do
        self.changed(announce=True)

    def select_letter(self, letter: str) -> None:
        if letter not in ("S", "O"):
            return
        for button in document.querySelectorAll(".letter-button"):
            pressed = "true" if button.dataset.letter == letter else "false"
            button.setAttribute("aria-pressed", pressed)
        if letter != self.app.prefs.letter:
            self.app.prefs.letter = letter
            self.app.save_prefs()

    def new_game(self, settings: Any = None) -> None:
        self.app.new_game(settings)
        self.shown()

    # ------------------------------------------------------------------ events
    def on_board_click(self, event: Any) -> None:
        button = event.target.closest("button.cell")
        if button:
            self.play(int(button.dataset.row), int(button.dataset.col))

    def on_board_focus(self, event: Any) -> None:
        button = event.target.closest("button.cell")
        if button:
            self.board.focus = (int(button.dataset.row), int(button.dataset.col))
            self.board.update_tabindex()

    def on_key(self, event: Any) -> None:
        target = event.target
        tag = str(target.tagName).lower() if target else ""
        if tag in ("input", "select", "textarea") or document.querySelector("dialog[open]"):
            return
        key = str(event.key)
        if (event.ctrlKey or event.metaKey) and not event.altKey:
            lower = key.lower()
            if lower == "z" and not event.shiftKey:
                self.step(self.app.game.undo())
            elif lower == "y" or (lower == "z" and event.shiftKey):
                self.step(self.app.game.redo())
            else:
                return
            event.preventDefault()
            return
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        on_cell = bool(target and target.classList and target.classList.contains("cell"))
        if key.upper() in ("S", "O"):
            self.select_letter(key.upper())
            if on_cell:
                self.play(int(target.dataset.row), int(target.dataset.col))
            event.preventDefault()
        elif on_cell and (key in ARROWS or key in ("Home", "End")):
            self.move_focus(key)
            event.preventDefault()

    def move_focus(self, key: str) -> None:
        rules = self.app.game.state.rules
        r, c = self.board.focus
        if key == "Home":
            c = 0
        elif key == "End":
            c = rules.cols - 1
        else:
            dr, dc = ARROWS[key]
            r, c = min(max(r + dr, 0), rules.rows - 1), min(max(c + dc, 0), rules.cols - 1)
        self.board.focus = (r, c)
        self.board.update_tabindex()
        self.board.cells[r][c].focus()

    def on_move_list_click(self, event: Any) -> None:
        button = event.target.closest("button.ply")
        if button:
            self.step(self.app.game.go_to(int(button.dataset.ply)))

    def on_other_line(self, event: Any) -> None:
        button = event.target.closest("button.other-line")
        if button:
            self.step(self.app.game.switch_line(int(button.dataset.line)))

    def on_hint(self, _event: Any) -> None:
        if self.computer.thinking or not self.app.game.human_to_move():
            return
        spawn(self._show_hint())

    async def _show_hint(self) -> None:
        out, button, game = by_id("hint-text"), by_id("hint-button"), self.app.game
        out.textContent = self.app.t("hint.thinking")
        button.disabled = True
        try:
            found = await self.computer.hint(game)
        finally:
            button.disabled = not game.human_to_move()
        if found is None:
            return
        self.hint = found.action
        out.textContent = hint_text(
            game.state, self.app.lang, found.action, found.value, found.exact, result=found.result
        )
        self.refresh()

    def open_puzzles(self, wanted: str | None) -> None:
        """Open the puzzles (``wanted``: ``daily``, an id, or None for the next one); their
        modules are imported on first use, so they cost nothing at start."""
        if self.puzzles is None:
            from sos.web.puzzles import PuzzlePanel

            self.puzzles = PuzzlePanel(self)
            self.puzzles.listen()
        spawn(self.puzzles.show(wanted))

    def on_notice_close(self, _event: Any) -> None:
        self.app.notices = []
        render_notices(self.app)

    def on_popstate(self, _event: Any) -> None:
        """Back/Forward: show the game named in the URL's ``#g=<id>``."""
        fragment = str(window.location.hash).lstrip("#")
        if fragment.startswith("g=") and self.app.open(fragment[2:]):
            self.changed()

    def on_storage(self, event: Any) -> None:
        """Another tab wrote to storage: follow the game shown if it changed there."""
        key = event.key
        if isinstance(key, str) and self.app.external_change(key):
            self.refresh()
        if by_id("games-dialog").open:
            dialogs.render_games(self.app, "")


def _start_language() -> str:
    """The language the page starts in (:func:`sos.app.app.start_language`)."""
    query = dict(_query_pairs(str(window.location.search)))
    url_lang = query.get("lang", "").lower()

    def read(key: str) -> str | None:
        try:
            value = window.localStorage.getItem(key)
        except Exception:  # storage refused: nothing saved
            return None
        return str(value) if value is not None else None

    return start_language(
        url_lang if url_lang in LANGUAGES else None,
        read(PREFS_KEY),
        read(LEGACY_KEY),
        pick_language(_browser_languages()),
    )


async def main() -> Page:
    """Start the page and mark it ready (``<html data-ready="1">``): first the catalog of the
    page's language (none for English), so that even the first notices are in it."""
    await locale.load(_start_language())
    page = Page()
    for node in document.querySelectorAll(
        "#new-game-button, #settings-button, #help-button, #share-button, #record-button, "
        "#games-button, #puzzles-button, .letter-button"
    ):
        node.disabled = False
    if page.app.game.has_computer():
        import sos.agents  # noqa: F401  # needed at once: compile it before the game starts
    window.performance.mark("sos:ready")
    document.documentElement.dataset.ready = "1"
    spawn(warm_up())
    if page.wanted_puzzle is not None:
        page.open_puzzles(page.wanted_puzzle)
    embed.post_ready(page.app.settings(), page.app.lang)
    return page

