"""PyScript entry point: wires the page's DOM events to the engine and renders its view model.

Data flows one way: DOM event -> :class:`App` -> ``state.apply(action)`` ->
``view_model(state)`` -> DOM. No game rule lives here.

Computer seats search on the main thread in time slices: the agent's ``plan`` generator is
stepped for at most :data:`SLICE_SECONDS` at a time, then control returns to the browser
(``await asyncio.sleep(0)``) so the page keeps painting and responding. A PyScript worker was
not used: it would boot a second Pyodide (seconds and tens of MB) for every page with a
computer seat.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Generator
from typing import Any, TypeVar

from pyodide.ffi import create_proxy
from pyscript import document, window

from sos import Action, GameState, Rules, new_game
from sos.i18n import LANGUAGES, pick_language, text
from sos.params import (
    PERFECT_MAX_CELLS,
    SEAT_KINDS,
    Settings,
    parse_params,
    to_query,
)
from sos.record import (
    RecordError,
    SavedGame,
    decode_moves,
    dump_save,
    encode_moves,
    format_record,
    load_save,
    parse_record,
)
from sos.rules import MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE
from sos.view import announcement, hint_text, move_list, view_model
from sos.web import embed
from sos.web.dom import (
    by_id,
    element,
    hide_result,
    render_coordinates,
    render_marks,
    render_move_list,
    render_players,
    show_result,
)
from sos.web.storage import Storage

window.performance.mark("sos:imported")  # start-up marks, read by benchmarks/bench_boot.py

#: Longest stretch of search work between two returns to the browser (seconds).
SLICE_SECONDS = 0.02
#: Visible pause before each computer move, so that a chain of extra turns can be followed.
COMPUTER_PAUSE = 0.45
THEMES = ("auto", "light", "dark")
ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}

T = TypeVar("T")


def _browser_languages() -> list[str]:
    langs = window.navigator.languages
    return [str(x) for x in langs] if langs else [str(window.navigator.language or "en")]


def _query_pairs(query: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of a URL query string, decoded by the browser's
    ``URLSearchParams`` (WHATWG URL standard, application/x-www-form-urlencoded parsing)."""
    return [(str(pair[0]), str(pair[1])) for pair in window.URLSearchParams.new(query).entries()]


def _settings_for(rules: Rules, seats: tuple[str, ...], base: Settings) -> Settings | None:
    """App settings for ``rules`` (None when the app cannot show that board)."""
    if rules.rows != rules.cols or not MIN_APP_SIZE <= rules.rows <= MAX_APP_SIZE:
        return None
    pairs = [("size", str(rules.rows)), ("mode", rules.mode), ("seats", ",".join(seats))]
    parsed = parse_params(pairs)
    if parsed.notices:
        return None
    s = parsed.settings
    return Settings(s.size, s.mode, s.players, s.seats, base.lang, base.embed, None)


class App:
    """The controller of one page: settings, the line of play, computer seats, storage."""

    def __init__(self) -> None:
        self.storage = Storage()
        browser_lang = pick_language(_browser_languages())
        parsed = parse_params(_query_pairs(str(window.location.search)), browser_lang)
        self.settings: Settings = parsed.settings
        notices = list(parsed.notices)

        saved: tuple[SavedGame, GameState] | None = None
        save_broken = False
        saved_text = self.storage.read()
        if saved_text is not None:
            try:
                saved = load_save(saved_text, SEAT_KINDS)
            except RecordError:
                save_broken = True
        prefs = saved[0].prefs if saved else {}
        pref_lang = prefs.get("lang", "")
        self.lang: str = parsed.settings.lang or (
            pref_lang if pref_lang in LANGUAGES else browser_lang
        )
        self.theme = prefs.get("theme", "auto") if prefs.get("theme") in THEMES else "auto"
        self.letter = prefs.get("letter", "S") if prefs.get("letter") in ("S", "O") else "S"

        self.line: list[Action] = []  # every action of this line of play, undone ones too
        self.state: GameState = new_game(self._rules())
        if self.settings.game is not None:
            try:
                self.state = decode_moves(self.settings.game, self._rules())
                self.line = list(self.state.history)
                notices.append(text(self.lang, "notice.shared_loaded", moves=len(self.line)))
            except RecordError:
                notices.append(text(self.lang, "notice.shared_bad"))
            self.settings = Settings(
                self.settings.size,
                self.settings.mode,
                self.settings.players,
                self.settings.seats,
                self.settings.lang,
                self.settings.embed,
                None,
            )
        elif saved is not None:
            restored = _settings_for(saved[1].rules, saved[0].seats, self.settings)
            wanted = not parsed.explicit or (
                restored is not None
                and (restored.size, restored.mode, restored.players, restored.seats)
                == (self.settings.size, self.settings.mode, self.settings.players,
                    self.settings.seats)
            )
            if restored is None:
                save_broken = True
            elif wanted:
                self.settings = restored
                self.state = saved[1]
                self.line = list(decode_moves(saved[0].moves, saved[1].rules).history)
        if save_broken:
            notices.append(text(self.lang, "notice.save_bad"))
            self.storage.remove()
        if not self.storage.available:
            if self.settings.embed:  # expected in a frame: a quiet note, not a banner
                by_id("embed-note").textContent = text(self.lang, "embed.not_saved")
            else:
                notices.append(text(self.lang, "notice.no_storage"))

        self.thinking = False
        self.paused = False  # viewing an earlier position from the move list
        self.epoch = 0  # bumped by every jump in the game: stale computer moves are dropped
        self.hint: Action | None = None
        self.focus = (0, 0)
        self._agents: dict[int, Any] = {}
        self._task: Any = None
        self._background: set[Any] = set()
        self._book_task: Any = None  # the opening book's download (see _fetch_book)
        self.cells: list[list[Any]] = []
        self._cell_cache: dict[tuple[int, int], tuple[object, ...]] = {}
        self._proxies: list[Any] = []
        self._apply_theme()
        self._translate_page()
        self._build_seat_rows()
        self._fill_settings_form()
        self._build_board()
        self._listen()
        self.select_letter(self.letter)
        self.show_notices(notices)
        self.render()
        self.save()

    # ------------------------------------------------------------ setup
    def _rules(self) -> Rules:
        s = self.settings
        return Rules.square(s.size, s.mode, s.players)

    def _on(self, target: Any, event: str, handler: Any) -> None:
        proxy = create_proxy(handler)
        self._proxies.append(proxy)  # created once for the page's lifetime
        target.addEventListener(event, proxy)

    def _listen(self) -> None:
        self._on(by_id("board"), "click", self.on_board_click)
        self._on(by_id("board"), "focusin", self.on_board_focus)
        self._on(document, "keydown", self.on_key)
        for button in document.querySelectorAll(".letter-button"):
            self._on(button, "click", self.on_letter_click)
        self._on(by_id("new-game-button"), "click", lambda _e: self.new_game())
        self._on(by_id("play-again"), "click", lambda _e: self.new_game())
        self._on(by_id("result-close"), "click", lambda _e: hide_result())
        self._on(by_id("hint-button"), "click", self.on_hint)
        self._on(by_id("undo-button"), "click", lambda _e: self.undo())
        self._on(by_id("redo-button"), "click", lambda _e: self.redo())
        self._on(by_id("move-list"), "click", self.on_move_list_click)
        self._on(by_id("share-button"), "click", self.open_share)
        self._on(by_id("share-copy"), "click", self.on_share_copy)
        self._on(by_id("record-button"), "click", self.open_record)
        self._on(by_id("record-copy"), "click", self.on_record_copy)
        self._on(by_id("record-import"), "click", self.on_record_import)
        self._on(by_id("help-button"), "click", lambda _e: by_id("help-dialog").showModal())
        self._on(by_id("settings-button"), "click", self.open_settings)
        self._on(by_id("settings-cancel"), "click", lambda _e: by_id("settings-dialog").close())
        self._on(by_id("settings-form"), "submit", self.on_settings_submit)
        self._on(by_id("settings-form"), "change", lambda _e: self._sync_settings_form())
        self._on(by_id("notice-close"), "click", lambda _e: self.show_notices([]))
        for button in document.querySelectorAll("[data-close]"):
            self._on(button, "click", self.on_close_dialog)

    def _apply_theme(self) -> None:
        root = document.documentElement
        if self.theme == "auto":
            root.removeAttribute("data-theme")
        else:
            root.dataset.theme = self.theme

    def _translate_page(self) -> None:
        document.documentElement.lang = self.lang
        for node in document.querySelectorAll("[data-i18n]"):
            node.textContent = text(self.lang, node.dataset.i18n)
        for node in document.querySelectorAll("[data-i18n-aria]"):
            node.setAttribute("aria-label", text(self.lang, node.dataset.i18nAria))
        for node in document.querySelectorAll("[data-i18n-title]"):
            node.setAttribute("title", text(self.lang, node.dataset.i18nTitle))
        document.title = text(self.lang, "app.title")

    def _build_seat_rows(self) -> None:
        box = by_id("settings-seats")
        for row in box.querySelectorAll(".seat-row"):
            row.remove()
        for seat in range(MAX_PLAYERS):
            label = element("label", "seat-row")
            label.dataset.seat = str(seat)
            select = element("select")
            select.name = f"seat-{seat}"
            select.dataset.testid = f"settings-seat-{seat}"
            for kind in SEAT_KINDS:
                option = element("option", "", text(self.lang, f"level.{kind}"))
                option.value = kind
                select.appendChild(option)
            label.append(element("span", "", text(self.lang, "settings.seat", n=seat + 1)), select)
            box.appendChild(label)

    def _fill_settings_form(self) -> None:
        size_select = by_id("settings-size")
        size_select.replaceChildren()
        for n in range(MIN_APP_SIZE, MAX_APP_SIZE + 1):
            option = element("option", "", f"{n} × {n}")
            option.value = str(n)
            size_select.appendChild(option)
        size_select.value = str(self.settings.size)
        by_id("settings-players").value = str(self.settings.players)
        by_id("settings-lang").value = self.lang
        by_id("settings-theme").value = self.theme
        for radio in document.querySelectorAll("#settings-form input[name=mode]"):
            radio.checked = radio.value == self.settings.mode
        for seat in range(MAX_PLAYERS):
            kind = self.settings.seats[seat] if seat < len(self.settings.seats) else "human"
            document.querySelector(f"select[name=seat-{seat}]").value = kind
        self._sync_settings_form()

    def _sync_settings_form(self) -> None:
        players = int(by_id("settings-players").value)
        size = int(by_id("settings-size").value)
        for row in document.querySelectorAll(".seat-row"):
            row.hidden = int(row.dataset.seat) >= players
        perfect_ok = size * size <= PERFECT_MAX_CELLS
        for select in document.querySelectorAll(".seat-row select"):
            select.querySelector("option[value=perfect]").disabled = not perfect_ok
            if not perfect_ok and select.value == "perfect":
                select.value = "hard"

    def _build_board(self) -> None:
        rules = self.state.rules
        board = by_id("board")
        board.replaceChildren()
        board.style.setProperty("--rows", str(rules.rows))
        board.style.setProperty("--cols", str(rules.cols))
        by_id("board-wrap").style.setProperty("--cols", str(rules.cols))
        self.cells = []
        self._cell_cache = {}
        self.focus = (min(self.focus[0], rules.rows - 1), min(self.focus[1], rules.cols - 1))
        for r in range(rules.rows):
            row = element("div", "board-row")
            row.setAttribute("role", "row")
            buttons = []
            for c in range(rules.cols):
                gridcell = element("div", "gridcell")
                gridcell.setAttribute("role", "gridcell")
                button = element("button", "cell")
                button.type = "button"
                button.dataset.row = str(r)
                button.dataset.col = str(c)
                gridcell.appendChild(button)
                row.appendChild(gridcell)
                buttons.append(button)
            board.appendChild(row)
            self.cells.append(buttons)
        marks = by_id("marks")
        marks.replaceChildren()
        marks.setAttribute("viewBox", f"0 0 {rules.cols} {rules.rows}")
        marks.setAttribute("preserveAspectRatio", "none")
        render_coordinates(rules.rows, rules.cols)
        board.removeAttribute("aria-busy")

    # ------------------------------------------------------------ queries
    def seat_kind(self, seat: int) -> str:
        seats = self.settings.seats
        return seats[seat] if 0 <= seat < len(seats) else "human"

    def has_computer(self) -> bool:
        return any(kind != "human" for kind in self.settings.seats)

    def human_to_move(self) -> bool:
        """True when a human may write a letter now."""
        if self.thinking or self.state.is_terminal():
            return False
        return self.seat_kind(self.state.current_player()) == "human"

    @property
    def cursor(self) -> int:
        """How many actions of :attr:`line` are applied to the position shown."""
        return len(self.state.history)

    # ------------------------------------------------------------ events
    def on_board_click(self, event: Any) -> None:
        button = event.target.closest("button.cell")
        if button is None:
            return
        self.play(int(button.dataset.row), int(button.dataset.col))

    def on_board_focus(self, event: Any) -> None:
        button = event.target.closest("button.cell")
        if button is not None:
            self.focus = (int(button.dataset.row), int(button.dataset.col))
            self._update_tabindex()

    def on_letter_click(self, event: Any) -> None:
        self.select_letter(str(event.currentTarget.dataset.letter))
        self.save()

    def on_key(self, event: Any) -> None:
        target = event.target
        tag = str(target.tagName).lower() if target else ""
        if tag in ("input", "select", "textarea") or document.querySelector("dialog[open]"):
            return
        key = str(event.key)
        if (event.ctrlKey or event.metaKey) and not event.altKey:
            lower = key.lower()
            if lower == "z" and not event.shiftKey:
                self.undo()
            elif lower == "y" or (lower == "z" and event.shiftKey):
                self.redo()
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
            self.save()
            event.preventDefault()
        elif on_cell and (key in ARROWS or key in ("Home", "End")):
            self.move_focus(key)
            event.preventDefault()

    def move_focus(self, key: str) -> None:
        rows, cols = self.state.rules.rows, self.state.rules.cols
        r, c = self.focus
        if key == "Home":
            c = 0
        elif key == "End":
            c = cols - 1
        else:
            dr, dc = ARROWS[key]
            r, c = min(max(r + dr, 0), rows - 1), min(max(c + dc, 0), cols - 1)
        self.focus = (r, c)
        self._update_tabindex()
        self.cells[r][c].focus()

    def on_close_dialog(self, event: Any) -> None:
        by_id(str(event.currentTarget.dataset.close)).close()

    def open_settings(self, _event: Any) -> None:
        self._fill_settings_form()
        by_id("settings-dialog").showModal()

    def on_settings_submit(self, event: Any) -> None:
        event.preventDefault()
        form = by_id("settings-form")
        mode = "general"
        for radio in form.querySelectorAll("input[name=mode]"):
            if radio.checked:
                mode = str(radio.value)
        players = int(by_id("settings-players").value)
        seats = ",".join(
            str(document.querySelector(f"select[name=seat-{seat}]").value)
            for seat in range(players)
        )
        query = [
            ("size", str(by_id("settings-size").value)),
            ("mode", str(mode)),
            ("players", str(players)),
            ("seats", seats),
            ("lang", str(by_id("settings-lang").value)),
        ]
        if self.settings.embed:
            query.append(("embed", "1"))
        parsed = parse_params(query, self.lang)
        by_id("settings-dialog").close()
        self.settings = parsed.settings
        theme = str(by_id("settings-theme").value)
        self.theme = theme if theme in THEMES else "auto"
        self._apply_theme()
        if parsed.settings.lang and parsed.settings.lang != self.lang:
            self.lang = parsed.settings.lang
            self._translate_page()
            self._build_seat_rows()
        window.history.replaceState(None, "", to_query(self.settings))
        self.show_notices(parsed.notices)
        self.new_game()

    def on_hint(self, _event: Any) -> None:
        if not self.human_to_move():
            return
        self._spawn(self._show_hint(self.epoch))

    def on_move_list_click(self, event: Any) -> None:
        button = event.target.closest("button.ply")
        if button is not None:
            self.go_to(int(button.dataset.ply))

    # ------------------------------------------------------------ actions
    def select_letter(self, letter: str) -> None:
        if letter not in ("S", "O"):
            return
        self.letter = letter
        for button in document.querySelectorAll(".letter-button"):
            pressed = "true" if button.dataset.letter == letter else "false"
            button.setAttribute("aria-pressed", pressed)

    def play(self, row: int, col: int) -> None:
        """A human writes the selected letter on (row, col), if it is a human's turn."""
        if not self.human_to_move():
            return  # a computer's turn, or the game is over
        action = Action(row, col, self.letter)
        if not self.state.is_legal(action):
            return  # a written square: nothing to do
        self._apply(action)
        self.after_change(announce=True)

    def _apply(self, action: Action) -> None:
        del self.line[self.cursor :]  # a new move drops the undone ones
        self.state.apply(action)
        self.line.append(action)
        self.paused = False

    def after_change(self, announce: bool = False) -> None:
        self.hint = None
        by_id("hint-text").textContent = ""
        self.render()
        if announce:
            by_id("announce").textContent = announcement(
                self.state, self.lang, self.settings.seats
            )
        self.save()
        self._schedule_computer()

    def _interrupt(self) -> None:
        """Drop a computer move or hint in progress."""
        self.epoch += 1
        self.thinking = False

    def new_game(self) -> None:
        self._interrupt()
        self._agents = {}
        self.paused = False
        self.line = []
        self.state = new_game(self._rules())
        self._build_board()
        self.after_change()
        by_id("announce").textContent = by_id("status").textContent

    def undo(self) -> None:
        """Take back one action; against the computer, back to the human's previous turn."""
        if self.cursor == 0:
            return
        self._interrupt()
        self.state.undo()
        if self.has_computer():
            while self.cursor > 0 and self.seat_kind(self.state.current_player()) != "human":
                self.state.undo()
        self.paused = False
        self.after_change()
        by_id("announce").textContent = by_id("status").textContent

    def redo(self) -> None:
        """Replay one undone action; against the computer, up to the human's next turn."""
        if self.cursor >= len(self.line):
            return
        self._interrupt()
        self.state.apply(self.line[self.cursor])
        if self.has_computer():
            while (
                self.cursor < len(self.line)
                and not self.state.is_terminal()
                and self.seat_kind(self.state.current_player()) != "human"
            ):
                self.state.apply(self.line[self.cursor])
        self.paused = False
        self.after_change()
        by_id("announce").textContent = by_id("status").textContent

    def go_to(self, ply: int) -> None:
        """Show the position after ``ply`` actions of the line (from the move list)."""
        if not 0 <= ply <= len(self.line) or ply == self.cursor:
            return
        self._interrupt()
        while self.cursor > ply:
            self.state.undo()
        while self.cursor < ply:
            self.state.apply(self.line[self.cursor])
        # Browsing the past does not let a computer seat play over the later moves.
        self.paused = self.cursor < len(self.line)
        self.after_change()

    # ------------------------------------------------------------ share, records
    def share_url(self) -> str:
        base = str(window.location.href).split("#", 1)[0].split("?", 1)[0]
        s = self.settings
        query = to_query(Settings(s.size, s.mode, s.players, s.seats))
        return f"{base}{query}&game={encode_moves(self.state.history)}"

    def open_share(self, _event: Any) -> None:
        by_id("share-url").value = self.share_url()
        by_id("share-message").textContent = ""
        by_id("share-dialog").showModal()
        by_id("share-url").select()

    def on_share_copy(self, _event: Any) -> None:
        self._spawn(self._copy(by_id("share-url").value, by_id("share-message")))

    def open_record(self, _event: Any) -> None:
        by_id("record-text").value = format_record(self.state)
        by_id("record-message").textContent = ""
        by_id("record-dialog").showModal()

    def on_record_copy(self, _event: Any) -> None:
        self._spawn(self._copy(by_id("record-text").value, by_id("record-message")))

    async def _copy(self, value: str, out: Any) -> None:
        try:
            await window.navigator.clipboard.writeText(value)
            out.textContent = text(self.lang, "share.copied")
        except Exception:  # no clipboard permission (e.g. in an iframe): the text is selectable
            out.textContent = text(self.lang, "share.copy_failed")

    def on_record_import(self, _event: Any) -> None:
        out = by_id("record-message")
        try:
            state = parse_record(str(by_id("record-text").value))
        except RecordError as error:
            reason = error.reason_in(self.lang)
            if error.line is not None:
                reason = text(self.lang, "record.error.line", line=error.line, error=reason)
            out.textContent = text(self.lang, "record.error", error=reason)
            return  # the current game and the pasted text are kept
        seats = self.settings.seats
        if len(seats) != state.rules.players:
            seats = ("human",) * state.rules.players
        settings = _settings_for(state.rules, seats, self.settings)
        if settings is None:
            out.textContent = text(
                self.lang, "record.error", error=text(self.lang, "record.size_error")
            )
            return
        by_id("record-dialog").close()
        self._interrupt()
        self.settings = settings
        self.state = state
        self.line = list(state.history)
        self.paused = False
        self._agents = {}
        window.history.replaceState(None, "", to_query(self.settings))
        self._build_board()
        self.show_notices([text(self.lang, "record.loaded")])
        self.after_change()

    # ------------------------------------------------------------ storage
    def save(self) -> None:
        if not self.storage.available:
            return
        saved = SavedGame(
            self.state.rules,
            tuple(self.settings.seats),
            encode_moves(self.line),
            self.cursor,
            {"lang": self.lang, "theme": self.theme, "letter": self.letter},
        )
        self.storage.write(dump_save(saved))

    # ------------------------------------------------------------ computer seats
    def _spawn(self, coroutine: Any) -> Any:
        """Run ``coroutine`` as a task, keeping a reference until it is done."""
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def _agent(self, seat: int) -> Any:
        if seat not in self._agents:
            from sos.agents import HardAgent, hard_budget, make_agent  # on first use only

            seed = random.SystemRandom().randrange(2**32)
            agent = make_agent(self.seat_kind(seat), seed=seed)
            if isinstance(agent, HardAgent):
                agent.budget = hard_budget(self.state.rules)
            self._agents[seat] = agent
        return self._agents[seat]

    def _schedule_computer(self) -> None:
        if self.paused or (self._task is not None and not self._task.done()):
            return
        if self.state.is_terminal() or self.seat_kind(self.state.current_player()) == "human":
            return
        self._task = self._spawn(self._computer_turns(self.epoch))

    async def _computer_turns(self, epoch: int) -> None:
        try:
            await self._play_computer_seats(epoch)
        finally:
            self._task = None
            if epoch != self.epoch:  # interrupted by undo, new game...: maybe play on anew
                self._schedule_computer()

    async def _play_computer_seats(self, epoch: int) -> None:
        while epoch == self.epoch and not self.state.is_terminal() and not self.paused:
            seat = self.state.current_player()
            if self.seat_kind(seat) == "human":
                break
            self.thinking = True
            self.render()
            # The computer thinks during the visible pause: a move appears COMPUTER_PAUSE after
            # the previous one, or when the search ends if that takes longer.
            shown_at = time.perf_counter() + COMPUTER_PAUSE
            agent = self._agent(seat)
            if agent.level == "perfect":
                await self._fetch_book()
                if epoch != self.epoch:
                    return
            action = await self._run_sliced(agent.plan(self.state.clone()), epoch)
            if action is None or epoch != self.epoch:
                return
            await asyncio.sleep(max(0.0, shown_at - time.perf_counter()))
            if epoch != self.epoch:
                return
            self._apply(action)
            self.thinking = False
            self.render()
            by_id("announce").textContent = announcement(
                self.state, self.lang, self.settings.seats
            )
            self.save()
        if epoch == self.epoch:
            self.thinking = False
            self.render()

    async def _fetch_book(self) -> None:
        """Put the solver's opening book into the file system, if this board can use it.

        Not in pyscript.toml ``[files]``: most games never read it, and 185 KB fetched and
        written at start-up is boot time. Fetched from our origin (the service worker has it
        precached); when that fails the solver searches without it (slower, still exact).
        """
        from sos.solver import BOOK_SHAPE

        rules = self.state.rules
        if (rules.rows, rules.cols) != BOOK_SHAPE or rules.players != 2:
            return
        if self._book_task is None:  # one download per page, however many callers wait for it
            self._book_task = asyncio.ensure_future(_download_book())
        await self._book_task

    async def _run_sliced(self, gen: Generator[None, None, T], epoch: int) -> T | None:
        """Step ``gen`` in slices of at most SLICE_SECONDS, yielding to the browser between."""
        while True:
            deadline = time.perf_counter() + SLICE_SECONDS
            try:
                while time.perf_counter() < deadline:
                    next(gen)
            except StopIteration as stop:
                result: T = stop.value
                return result
            await asyncio.sleep(0)
            if epoch != self.epoch:
                gen.close()
                return None

    async def _show_hint(self, epoch: int) -> None:
        from sos.agents import analyse_steps

        out = by_id("hint-text")
        button = by_id("hint-button")
        out.textContent = text(self.lang, "hint.thinking")
        button.disabled = True
        try:
            await self._fetch_book()
            analysis = await self._run_sliced(analyse_steps(self.state.clone()), epoch)
        finally:
            button.disabled = not self.human_to_move()
        if analysis is None or analysis.action is None or epoch != self.epoch:
            return
        self.hint = analysis.action
        out.textContent = hint_text(
            self.state, self.lang, analysis.action, analysis.value, analysis.exact
        )
        self.render()

    # ------------------------------------------------------------ rendering
    def _update_tabindex(self) -> None:
        for r, row in enumerate(self.cells):
            for c, button in enumerate(row):
                button.tabIndex = 0 if (r, c) == self.focus else -1

    def render(self) -> None:
        vm = view_model(self.state, self.lang, self.settings.seats, self.thinking)
        board = by_id("board")
        board.setAttribute("aria-label", vm.board_label)
        board.classList.toggle("thinking", vm.thinking)
        locked = not self.human_to_move()
        hint = self.hint
        for row in vm.cells:
            for cell in row:
                hinted = ""
                if hint is not None and (hint.row, hint.col) == (cell.row, cell.col):
                    hinted = hint.letter
                focus = (cell.row, cell.col) == self.focus
                wanted = (cell.letter, cell.label, cell.last, bool(cell.letter) or locked, hinted)
                key = (cell.row, cell.col)
                if self._cell_cache.get(key) != wanted:  # touch the DOM only where it changed
                    self._cell_cache[key] = wanted
                    button = self.cells[cell.row][cell.col]
                    button.textContent = cell.letter
                    button.setAttribute("aria-label", cell.label)
                    button.classList.toggle("last", cell.last)
                    button.classList.toggle("hint", bool(hinted))
                    button.dataset.hint = hinted
                    if wanted[3]:
                        button.setAttribute("aria-disabled", "true")
                    else:
                        button.removeAttribute("aria-disabled")
                    button.tabIndex = 0 if focus else -1
        render_marks(vm.lines)
        render_players(vm.players, vm.thinking)
        status = vm.status
        if self.paused and not vm.game_over:
            status = text(self.lang, "status.viewing", ply=self.cursor, total=len(self.line))
        by_id("status").textContent = status
        by_id("mode-text").textContent = text(self.lang, f"mode.{vm.mode}")
        by_id("hint-button").disabled = locked
        by_id("undo-button").disabled = self.cursor == 0
        by_id("redo-button").disabled = self.cursor >= len(self.line)
        render_move_list(
            move_list(self.state.rules, self.line, self.cursor, self.lang, self.settings.seats),
            text(self.lang, "moves.empty"),
            lambda action: text(self.lang, "moves.ply.label", action=action),
        )
        show_result(vm.result)
        if vm.result is not None:
            embed.post_game_over(self.state, vm.result, self.settings, self.lang)

    # ------------------------------------------------------------ notices
    def show_notices(self, notices: list[str]) -> None:
        items = by_id("notice-list")
        items.replaceChildren()
        for message in notices:
            items.appendChild(element("li", "", message))  # text only, never HTML
        by_id("notice").hidden = not notices


def main() -> App:
    """Start the app and mark the page ready (``<html data-ready="1">``)."""
    app = App()
    for node in document.querySelectorAll(
        "#new-game-button, #settings-button, #help-button, #share-button, #record-button, "
        ".letter-button"
    ):
        node.disabled = False
    if app.has_computer():
        import sos.agents  # noqa: F401  # needed at once: compile it before the game starts
    window.performance.mark("sos:ready")
    document.documentElement.dataset.ready = "1"
    app._spawn(_warm_up())
    app._schedule_computer()  # a game of computer seats only starts by itself
    embed.post_ready(app.settings, app.lang)
    return app


async def _download_book() -> None:
    from sos.solver import BOOK_PATH

    try:
        response = await window.fetch("./sos/book_4x4.txt")
        if not response.ok:
            return
        body = str(await response.text())
    except Exception:  # a JsException (offline without the service worker): no book
        return
    with open(BOOK_PATH, "w", encoding="ascii") as handle:
        handle.write(body)


async def _warm_up() -> None:
    """Import the AI once the page is ready, before a hint or a computer seat needs it.

    Compiling the search modules takes one long task (about 100 ms in Pyodide); done here, at
    idle time after start-up, it is neither on the start path of a game between people nor
    inside a computer move. (A game with computer seats imports it before ``data-ready``.)
    """
    await asyncio.sleep(0.05)
    import sos.agents  # noqa: F401


APP = main()
