"""PyScript entry point: wires the page's DOM events to the engine and renders its view model.

Data flows one way: DOM event -> :class:`App` -> ``state.apply(action)`` ->
``view_model(state)`` -> DOM. No game rule lives here.
"""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

from sos import Action, GameState, Rules, new_game
from sos.i18n import CATALOGS, pick_language, text
from sos.params import Settings, parse_params, to_query
from sos.rules import MAX_APP_SIZE, MIN_APP_SIZE
from sos.view import LineView, ViewModel, view_model

SVG_NS = "http://www.w3.org/2000/svg"


def _by_id(element_id: str) -> Any:
    return document.getElementById(element_id)


def _browser_languages() -> list[str]:
    langs = window.navigator.languages
    return [str(x) for x in langs] if langs else [str(window.navigator.language or "en")]


class App:
    """The controller of one page: current settings, game state and selected letter."""

    def __init__(self) -> None:
        parsed = parse_params(str(window.location.search), pick_language(_browser_languages()))
        self.settings: Settings = parsed.settings
        self.lang: str = parsed.settings.lang or pick_language(_browser_languages())
        self.letter = "S"
        self.state: GameState = new_game(self._rules())
        self.cells: list[list[Any]] = []
        self._proxies: list[Any] = []
        self._translate_page()
        self._fill_settings_form()
        self._build_board()
        self._listen()
        self.show_notices(parsed.notices)
        self.render()

    # ------------------------------------------------------------ setup
    def _rules(self) -> Rules:
        s = self.settings
        return Rules.square(s.size, s.mode, s.players)

    def _on(self, target: Any, event: str, handler: Any) -> None:
        proxy = create_proxy(handler)
        self._proxies.append(proxy)  # created once for the page's lifetime
        target.addEventListener(event, proxy)

    def _listen(self) -> None:
        self._on(_by_id("board"), "click", self.on_board_click)
        self._on(document, "keydown", self.on_key)
        for button in document.querySelectorAll(".letter-button"):
            self._on(button, "click", self.on_letter_click)
        self._on(_by_id("new-game-button"), "click", lambda _e: self.new_game())
        self._on(_by_id("play-again"), "click", lambda _e: self.new_game())
        self._on(_by_id("settings-button"), "click", self.open_settings)
        self._on(_by_id("settings-cancel"), "click", lambda _e: _by_id("settings-dialog").close())
        self._on(_by_id("settings-form"), "submit", self.on_settings_submit)
        self._on(_by_id("notice-close"), "click", lambda _e: self.show_notices([]))

    def _translate_page(self) -> None:
        document.documentElement.lang = self.lang
        for element in document.querySelectorAll("[data-i18n]"):
            element.textContent = text(self.lang, element.dataset.i18n)
        for element in document.querySelectorAll("[data-i18n-aria]"):
            element.setAttribute("aria-label", text(self.lang, element.dataset.i18nAria))
        document.title = text(self.lang, "app.title")

    def _fill_settings_form(self) -> None:
        size_select = _by_id("settings-size")
        size_select.replaceChildren()
        for n in range(MIN_APP_SIZE, MAX_APP_SIZE + 1):
            option = document.createElement("option")
            option.value = str(n)
            option.textContent = f"{n} × {n}"
            size_select.appendChild(option)
        size_select.value = str(self.settings.size)
        _by_id("settings-players").value = str(self.settings.players)
        _by_id("settings-lang").value = self.lang
        for radio in document.querySelectorAll("#settings-form input[name=mode]"):
            radio.checked = radio.value == self.settings.mode

    def _build_board(self) -> None:
        rules = self.state.rules
        board = _by_id("board")
        board.replaceChildren()
        board.style.setProperty("--rows", str(rules.rows))
        board.style.setProperty("--cols", str(rules.cols))
        _by_id("board-wrap").style.setProperty("--cols", str(rules.cols))
        self.cells = []
        for r in range(rules.rows):
            row = document.createElement("div")
            row.className = "board-row"
            row.setAttribute("role", "row")
            buttons = []
            for c in range(rules.cols):
                gridcell = document.createElement("div")
                gridcell.className = "gridcell"
                gridcell.setAttribute("role", "gridcell")
                button = document.createElement("button")
                button.type = "button"
                button.className = "cell"
                button.dataset.row = str(r)
                button.dataset.col = str(c)
                gridcell.appendChild(button)
                row.appendChild(gridcell)
                buttons.append(button)
            board.appendChild(row)
            self.cells.append(buttons)
        marks = _by_id("marks")
        marks.setAttribute("viewBox", f"0 0 {rules.cols} {rules.rows}")
        marks.setAttribute("preserveAspectRatio", "none")
        board.removeAttribute("aria-busy")

    # ------------------------------------------------------------ events
    def on_board_click(self, event: Any) -> None:
        button = event.target.closest("button.cell")
        if button is None:
            return
        self.play(int(button.dataset.row), int(button.dataset.col))

    def on_letter_click(self, event: Any) -> None:
        self.select_letter(str(event.currentTarget.dataset.letter))

    def on_key(self, event: Any) -> None:
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        tag = str(event.target.tagName).lower() if event.target else ""
        if tag in ("input", "select", "textarea") or _by_id("settings-dialog").open:
            return
        key = str(event.key).upper()
        if key in ("S", "O"):
            self.select_letter(key)
            event.preventDefault()

    def open_settings(self, _event: Any) -> None:
        self._fill_settings_form()
        _by_id("settings-dialog").showModal()

    def on_settings_submit(self, event: Any) -> None:
        event.preventDefault()
        form = _by_id("settings-form")
        mode = "general"
        for radio in form.querySelectorAll("input[name=mode]"):
            if radio.checked:
                mode = str(radio.value)
        query = (
            f"?size={_by_id('settings-size').value}&mode={mode}"
            f"&players={_by_id('settings-players').value}&lang={_by_id('settings-lang').value}"
        )
        if self.settings.embed:
            query += "&embed=1"
        parsed = parse_params(query, self.lang)
        _by_id("settings-dialog").close()
        self.settings = parsed.settings
        if parsed.settings.lang and parsed.settings.lang != self.lang:
            self.lang = parsed.settings.lang
            self._translate_page()
        window.history.replaceState(None, "", to_query(self.settings))
        self.show_notices(parsed.notices)
        self.new_game()

    # ------------------------------------------------------------ actions
    def select_letter(self, letter: str) -> None:
        if letter not in ("S", "O"):
            return
        self.letter = letter
        for button in document.querySelectorAll(".letter-button"):
            pressed = "true" if button.dataset.letter == letter else "false"
            button.setAttribute("aria-pressed", pressed)

    def play(self, row: int, col: int) -> None:
        action = Action(row, col, self.letter)
        if not self.state.is_legal(action):
            return  # a written square or a finished game: nothing to do
        self.state.apply(action)
        self.render()

    def new_game(self) -> None:
        self.state = new_game(self._rules())
        self._build_board()
        self.render()

    # ------------------------------------------------------------ rendering
    def render(self) -> None:
        vm = view_model(self.state, self.lang)
        _by_id("board").setAttribute("aria-label", vm.board_label)
        over = "true" if vm.game_over else None
        for row in vm.cells:
            for cell in row:
                button = self.cells[cell.row][cell.col]
                if button.textContent != cell.letter:
                    button.textContent = cell.letter
                button.setAttribute("aria-label", cell.label)
                button.classList.toggle("last", cell.last)
                if cell.letter or over:
                    button.setAttribute("aria-disabled", "true")
                else:
                    button.removeAttribute("aria-disabled")
        self._render_marks(vm.lines)
        self._render_players(vm)
        _by_id("status").textContent = vm.status
        _by_id("mode-text").textContent = text(self.lang, f"mode.{vm.mode}")
        result = _by_id("result")
        if vm.result is not None:
            _by_id("result-text").textContent = vm.result
            result.hidden = False
        else:
            result.hidden = True

    def _render_players(self, vm: ViewModel) -> None:
        players = _by_id("players")
        players.replaceChildren()
        for p in vm.players:
            item = document.createElement("li")
            classes = ["player", f"p{p.index}"]
            if p.current:
                classes.append("current")
            if p.winner:
                classes.append("winner")
            item.className = " ".join(classes)
            item.dataset.player = str(p.index)
            item.setAttribute("aria-label", p.label)
            if p.current:
                item.setAttribute("aria-current", "true")
            swatch = document.createElementNS(SVG_NS, "svg")
            swatch.setAttribute("class", "swatch")
            swatch.setAttribute("viewBox", "0 0 3 1")
            swatch.setAttribute("aria-hidden", "true")
            self._draw_mark(swatch, LineView(0, 0, 0, 2, p.index), p.style, legend=True)
            name = document.createElement("span")
            name.className = "name"
            name.textContent = p.name
            score = document.createElement("span")
            score.className = "score"
            score.dataset.testid = f"score-{p.index}"
            score.textContent = str(p.score)
            item.append(swatch, name, score)
            players.appendChild(item)

    def _render_marks(self, lines: tuple[LineView, ...]) -> None:
        marks = _by_id("marks")
        drawn = int(marks.childElementCount)
        if drawn > len(lines):  # a new game (or, later, an undo): draw afresh
            marks.replaceChildren()
            drawn = 0
        for line in lines[drawn:]:  # only the new SOSs, so only they animate in
            style = ("ring", "strike", "dash", "double")[line.player % 4]
            self._draw_mark(marks, line, style)

    def _draw_mark(self, parent: Any, line: LineView, style: str, legend: bool = False) -> None:
        x1, y1 = line.c1 + 0.5, line.r1 + 0.5
        x2, y2 = line.c2 + 0.5, line.r2 + 0.5
        group = document.createElementNS(SVG_NS, "g")
        if not legend:  # legend swatches are not SOSs on the board
            group.setAttribute("data-sos", line.key)
            group.setAttribute("data-player", str(line.player))
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, dy / length
        cls = f"mark {style} p{line.player}"
        if style == "ring":
            angle = _degrees(dy, dx)
            rect = document.createElementNS(SVG_NS, "rect")
            height = 0.78
            for name, value in (
                ("x", (x1 + x2) / 2 - (length + height) / 2),
                ("y", (y1 + y2) / 2 - height / 2),
                ("width", length + height),
                ("height", height),
                ("rx", height / 2),
                ("transform", f"rotate({angle:.2f} {(x1 + x2) / 2} {(y1 + y2) / 2})"),
                ("class", cls),
            ):
                rect.setAttribute(name, str(value))
            group.appendChild(rect)
        else:
            ext = 0.32
            offsets = [(0.0, 0.0)]
            if style == "double":  # two parallel strokes, 0.2 squares apart
                offsets = [(-uy * 0.1, ux * 0.1), (uy * 0.1, -ux * 0.1)]
            for ox, oy in offsets:
                seg = document.createElementNS(SVG_NS, "line")
                for name, value in (
                    ("x1", x1 - ux * ext + ox),
                    ("y1", y1 - uy * ext + oy),
                    ("x2", x2 + ux * ext + ox),
                    ("y2", y2 + uy * ext + oy),
                    ("class", cls),
                ):
                    seg.setAttribute(name, str(value))
                group.appendChild(seg)
        parent.appendChild(group)

    # ------------------------------------------------------------ notices
    def show_notices(self, notices: list[str]) -> None:
        box = _by_id("notice")
        items = _by_id("notice-list")
        items.replaceChildren()
        for message in notices:
            li = document.createElement("li")
            li.textContent = message  # text only: user input never becomes HTML
            items.appendChild(li)
        box.hidden = not notices


def _degrees(dy: float, dx: float) -> float:
    import math

    return math.degrees(math.atan2(dy, dx))


def main() -> App:
    """Start the app and mark the page ready (``<html data-ready="1">``)."""
    app = App()
    for element in document.querySelectorAll(
        "#new-game-button, #settings-button, .letter-button"
    ):
        element.disabled = False
    document.documentElement.dataset.ready = "1"
    return app


assert set(CATALOGS["en"]) == set(CATALOGS["de"])
APP = main()
