"""PyScript entry point: wires the page's DOM events to the app session and renders it.

Data flows one way: DOM event -> :class:`Page` handler -> :class:`~sos.app.app.AppSession` /
:class:`~sos.app.game.session.GameSession` (pure: every rule and policy) -> save -> render. This
module only reads events, calls the session, renders, keeps the URL and talks to storage and
timers.
"""

from __future__ import annotations

import secrets
import string
from typing import Any

from pyscript import document, window

from sos.app.app import AppSession
from sos.app.game.computer import load_ai
from sos.app.game.session import GameSession
from sos.app.game.view import announcement
from sos.app.learn.stats import StatsBook
from sos.app.share.embed import GameOverReports, ready_message
from sos.app.share.players import names_of
from sos.app.text.i18n import installed, pick_language
from sos.notation import Action
from sos.state import IllegalActionError
from sos.web import dialogs, early, embed, guard, keys, locale, players, sound, start, testing
from sos.web.computer import Computer, warm_up
from sos.web.dom import by_id, hide_result
from sos.web.guard import spawn
from sos.web.hint import Hint
from sos.web.panels import Panels
from sos.web.recovery import Recovery
from sos.web.remote import RemotePanel
from sos.web.render import BoardView, render, render_notices, translate_page
from sos.web.review import ReviewPanel
from sos.web.saving import Saving
from sos.web.stats import StatsPanel
from sos.web.store import LocalStore

window.performance.mark("sos:imported")  # start-up marks, read by benchmarks/bench_boot.py

_ID_CHARS = string.ascii_lowercase + string.digits


def _new_id() -> str:
    return "".join(secrets.choice(_ID_CHARS) for _ in range(10))


class Page:
    """The page: event handlers, rendering and the URL of the game shown."""

    def __init__(self, app: AppSession) -> None:
        self.app = app
        self.board = BoardView()
        self.game_over = GameOverReports()  # the embed's sos:game-over, once per game
        self.hints = Hint(self)
        self.remote = RemotePanel(app, self)
        self.panels = Panels(app, self, self.remote, app.wanted_puzzle)
        self.review = ReviewPanel(app, self, self.board)
        self.computer = Computer(lambda: self.app.game, self._computer_played, self._thinking)
        self.saving = Saving(self)
        self.recovery = Recovery(self)  # from here on a fault is said, saved, drawn
        self.apply_theme()
        self.translate()
        note = app.embed_note()
        if note is not None:
            by_id("embed-note").textContent = note.text(app.lang)
        window.history.replaceState(None, "", self.app.location())
        self._listen()
        self.stats = StatsPanel(
            StatsBook(self.app.library, lambda: float(window.Date.now())),
            lambda: self.app.lang,
            self.on,
        )
        self.select_letter(self.app.prefs.letter)
        self.refresh()

    # ------------------------------------------------------------------ wiring
    def on(self, target: Any, event: str, handler: Any) -> None:
        guard.listen(target, event, handler)  # for the page's lifetime; a fault is reported

    def _listen(self) -> None:
        on = self.on

        def game() -> GameSession:
            return self.app.game

        on(by_id("board"), "click", self.on_board_click)
        on(by_id("board"), "focusin", self.on_board_focus)
        on(document, "keydown", lambda e: keys.on_key(self, e))
        on(by_id("skip-board"), "click", lambda e: keys.to_board(self, e))
        for button in document.querySelectorAll(".letter-button"):
            on(button, "click", lambda e: self.select_letter(str(e.currentTarget.dataset.letter)))
        on(by_id("new-game-button"), "click", lambda _e: self.new_game())
        on(by_id("play-again"), "click", lambda _e: self.new_game())
        on(by_id("result-close"), "click", lambda _e: hide_result())
        self.hints.listen()
        on(by_id("undo-button"), "click", lambda _e: self.remote.undo())  # (asks, by link)
        on(by_id("redo-button"), "click", lambda _e: self.step(game().redo()))
        on(by_id("move-list"), "click", self.on_move_list_click)
        on(by_id("other-lines"), "click", self.on_other_line)
        players.listen(self)  # rematch, skip ahead, language/theme at once, How to play
        sound.listen(self)  # the Sounds checkbox
        start.listen(self)  # the first screen's start choice
        on(by_id("notice-close"), "click", self.on_notice_close)
        for button in document.querySelectorAll("[data-close]"):
            on(button, "click", lambda e: by_id(str(e.currentTarget.dataset.close)).close())
        on(window, "popstate", self.on_popstate)
        self.saving.listen()
        self.recovery.listen()  # bfcache, resume, Export this game
        self.panels.listen()  # (the puzzles' button too)
        self.remote.listen()
        self.review.listen()

    def restyle(self) -> None:
        """The theme or the language changed: apply both to the whole page, the game drawn,
        the live region and an open Statistics included (:meth:`translate`)."""
        self.apply_theme()
        self.translate()
        self.refresh()
        by_id("announce").textContent = by_id("status").textContent
        if by_id("stats-dialog").open:
            self.stats.render()

    def apply_theme(self) -> None:
        root = document.documentElement
        if self.app.prefs.theme == "auto":
            root.removeAttribute("data-theme")
        else:
            root.dataset.theme = self.app.prefs.theme

    def translate(self) -> None:
        """The page's own texts in the app's language: the fixed ones (``data-i18n*``), the
        language menu and the settings form (seat rows, the perfect-play note, this device's
        seat); the game's texts come with :meth:`refresh`. A language is applied once its
        catalog is in (:func:`sos.web.players.choose_language`); one that is not yet (Start
        pressed at once) is shown again when it comes."""
        lang = self.app.lang
        if not installed(lang):
            spawn(self._load_language(lang))
        translate_page(lang)
        locale.apply(lang)
        dialogs.build_seat_rows(lang)
        if by_id("settings-size").options.length:  # the form was filled: its texts again
            dialogs.sync_settings()
            self.remote.sync_settings()

    async def _load_language(self, lang: str) -> None:
        if await locale.load(lang) and self.app.lang == lang:
            self.restyle()

    @property
    def hint(self) -> Action | None:
        """The hint's action marked on the board, if any (:class:`sos.web.hint.Hint`)."""
        return self.hints.action

    # ------------------------------------------------------------------ the cycle
    def refresh(self, announce: bool = False) -> None:
        """Render the game shown and the notices, then let a computer seat play."""
        render(
            self.app, self.board, self.computer.thinking, self.hint, dialogs.full_game_url(self.app)
        )
        render_notices(self.app)
        self.hints.render(self.app.lang)
        start.render(self)
        self.remote.render()
        self.review.render()
        game = self.app.game
        if announce:
            by_id("announce").textContent = announcement(
                game.state, self.app.lang, game.seats, names_of(game.record),
                outcome=game.outcome,
            )
        embed.post(self.game_over.message(game, self.app.settings(), self.app.lang))
        self.computer.schedule()
        by_id("skip-button").hidden = not self.computer.long_run()

    def changed(self, announce: bool = False) -> None:
        """After a change of the game shown: save it under the library's lock (two-tab rules;
        :func:`sos.web.store.with_lock`), then render it -- saving first, so that a failing
        render cannot cost the change (docs/reliability.md)."""
        self.saving.save_later()
        self.hints.clear()
        self.refresh(announce)
        if announce:  # a move was played
            sound.after_move(self.app)

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

    def _computer_played(self, _game: Any, cut_off: Any) -> None:
        self.app.computer_played(cut_off)  # a budget's cut-off is said (sos.app.app)
        if self.computer.skipping:  # skip ahead: saved now, shown once the run ends
            self.app.commit()
            return
        self.changed(announce=True)

    def _thinking(self, on: bool) -> None:
        render(
            self.app, self.board, self.computer.thinking, self.hint, dialogs.full_game_url(self.app)
        )
        self.review.render()
        by_id("skip-button").hidden = not (on and self.computer.long_run())
        if not on:
            by_id("announce").textContent = by_id("status").textContent

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
        self.app.moved_on()
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
        """A new game with ``settings`` (default: the settings and names of the game shown)."""
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

    def on_move_list_click(self, event: Any) -> None:
        button = event.target.closest("button.ply")
        if button:
            self.step(self.app.game.go_to(int(button.dataset.ply)))

    def on_other_line(self, event: Any) -> None:
        button = event.target.closest("button.other-line")
        if button:
            self.step(self.app.game.switch_line(int(button.dataset.line)))

    def on_notice_close(self, _event: Any) -> None:
        self.app.notices = []
        render_notices(self.app)

    def on_popstate(self, _event: Any) -> None:
        """Back/Forward: show the game named in the URL's ``#g=<id>``."""
        if self.app.open_fragment(str(window.location.hash).lstrip("#")):
            self.changed()


def open_app(query: list[tuple[str, str]]) -> AppSession:
    """The tab's :class:`~sos.app.app.AppSession`, started on the page's URL: it decides the
    game shown and the page's language (the URL's, the saved preference, the browser's)."""
    app = AppSession(
        LocalStore.open(),
        lambda: float(window.Date.now()),
        _new_id,
        pick_language(locale.browser_languages()),
    )
    boot = getattr(window, "sosBoot", None)  # static/boot.js: an embed's key, if any
    key = getattr(boot, "embedKey", None) if boot else None
    old = getattr(boot, "embedOldKeys", None) if boot else None
    old_keys = [str(name) for name in old] if old is not None else []
    app.start(
        query,
        str(window.location.hash).lstrip("#"),
        key if isinstance(key, str) else None,
        old_keys,
    )
    return app


async def main() -> Page:
    """Start the page and mark it ready (``<html data-ready="1">``): the session first (it
    decides the language), then the catalog of that language (none for English), then the
    page, so that even the first notices are shown in it (notices are translated when shown),
    then the taps made before Python ran (:func:`sos.web.early.hand_over`)."""
    testing.capture()  # (only for the browser tests: sos/web/testing.py)
    query = locale.query_pairs(str(window.location.search))
    app = open_app(query)
    await locale.load(app.lang)
    page = Page(app)
    for node in document.querySelectorAll(
        "#new-game-button, #settings-button, #help-button, #share-button, #record-button, "
        "#games-button, #puzzles-button, #stats-button, .letter-button"
    ):
        node.disabled = False
    early.hand_over(page)  # the taps made before Python ran (static/boot.js), same task
    if page.app.game.has_computer():
        load_ai()  # needed at once: compile it before the game starts
    window.performance.mark("sos:ready")
    document.documentElement.dataset.ready = "1"
    spawn(warm_up())
    page.panels.open_wanted_puzzle()
    embed.post(ready_message(page.app.settings(), page.app.lang, page.app.names()))
    testing.expose(main, page)
    return page

