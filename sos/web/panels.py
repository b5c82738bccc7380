"""The dialogs' event handlers: settings, share, game record and "Your games", and the opening
of the puzzles. They read the form, call the session and re-render through the
:class:`~sos.web.main.Page`; the decisions (what a new game, an import or a delete means) are
:mod:`sos.app`'s."""

from __future__ import annotations

from typing import Any

from pyscript import window

from sos.app.app import GAMES_PAGE, THEMES
from sos.app.i18n import text
from sos.app.record import RecordError, format_record, parse_record
from sos.rules import MAX_APP_SIZE, MIN_APP_SIZE
from sos.web import dialogs
from sos.web.computer import spawn
from sos.web.dom import by_id


class Panels:
    """Handlers of the page's dialogs (``page`` is the running :class:`~sos.web.main.Page`)."""

    def __init__(self, page: Any, wanted_puzzle: str | None = None) -> None:
        self.page = page
        self.deleted: Any = None  # the last game deleted from the list (for its undo)
        self.games_shown = 0  # lines of "Your games" rendered (more come with "Show more")
        #: ``?puzzle=daily`` / ``?puzzle=<id>``: the puzzle to open once the page is ready.
        self.wanted_puzzle = wanted_puzzle
        self.puzzles: Any = None  # sos.web.puzzles.PuzzlePanel, imported when first opened

    def listen(self) -> None:
        """Attach the dialogs' event handlers."""
        on = self.page.on
        on(by_id("share-button"), "click", self.open_share)
        on(by_id("share-copy"), "click", lambda _e: self._copy("share-url", "share-message"))
        on(by_id("record-button"), "click", self.open_record)
        on(by_id("record-copy"), "click", lambda _e: self._copy("record-text", "record-message"))
        on(by_id("record-import"), "click", self.on_record_import)
        on(by_id("games-button"), "click", self.open_games)
        on(by_id("notice-games"), "click", self.open_games)
        on(by_id("games-list"), "click", self.on_games_click)
        on(by_id("games-undo-button"), "click", self.on_undelete)
        on(by_id("games-more"), "click", self.on_more_games)
        on(by_id("games-dialog"), "close", lambda _e: setattr(self, "deleted", None))
        on(by_id("settings-button"), "click", self.open_settings)
        on(by_id("settings-cancel"), "click", lambda _e: by_id("settings-dialog").close())
        on(by_id("settings-form"), "submit", self.on_settings_submit)
        on(by_id("settings-form"), "change", lambda _e: dialogs.sync_settings())
        on(by_id("puzzles-button"), "click", lambda _e: self.open_puzzles(None))

    def open_puzzles(self, wanted: str | None) -> None:
        """Open the puzzles (``wanted``: ``daily``, an id, or None for the next one); their
        modules are imported on first use, so they cost nothing at start."""
        if self.puzzles is None:
            from sos.web.puzzles import PuzzlePanel

            self.puzzles = PuzzlePanel(self.page)
            self.puzzles.listen()
        spawn(self.puzzles.show(wanted))

    def open_wanted_puzzle(self) -> None:
        """Open the puzzle the URL asked for (``?puzzle=``), if any (once the page is ready)."""
        if self.wanted_puzzle is not None:
            self.open_puzzles(self.wanted_puzzle)

    def open_settings(self, _event: Any) -> None:
        app = self.page.app
        dialogs.fill_settings(app.settings(), app.lang, app.prefs.theme)
        self.page.remote.fill_settings()
        by_id("settings-dialog").showModal()

    def on_settings_submit(self, event: Any) -> None:
        event.preventDefault()
        parsed, theme = dialogs.read_settings(self.page.app.embed, self.page.app.lang)
        by_id("settings-dialog").close()
        self.page.app.prefs.theme = theme if theme in THEMES else "auto"
        self.page.apply_theme()
        lang = parsed.settings.lang
        if lang and lang != self.page.app.lang:
            self.page.app.prefs.lang = self.page.app.url_lang = lang
            self.page.translate()
        self.page.app.save_prefs()
        self.page.app.notices = list(parsed.notices)
        remote = self.page.remote.chosen()  # "Play a friend" (a game by link)
        if remote is not None:
            self.page.app.new_remote(parsed.settings, *remote)
            self.page.shown()
            return
        self.page.new_game(parsed.settings)

    def open_share(self, _event: Any) -> None:
        by_id("share-url").value = dialogs.share_url(self.page.app)
        by_id("share-message").textContent = ""
        by_id("share-dialog").showModal()
        by_id("share-url").select()

    def open_record(self, _event: Any) -> None:
        by_id("record-text").value = format_record(self.page.app.game.state)
        by_id("record-message").textContent = ""
        by_id("record-dialog").showModal()

    def _copy(self, field: str, message: str) -> None:
        spawn(self._copy_text(str(by_id(field).value), by_id(message)))

    async def _copy_text(self, value: str, out: Any) -> None:
        try:
            await window.navigator.clipboard.writeText(value)
            out.textContent = self.page.app.t("share.copied")
        except Exception:  # no clipboard permission (e.g. in an iframe): the text is selectable
            out.textContent = self.page.app.t("share.copy_failed")

    def on_record_import(self, _event: Any) -> None:
        out, lang = by_id("record-message"), self.page.app.lang
        try:
            state = parse_record(str(by_id("record-text").value))
        except RecordError as error:
            reason = error.reason_in(lang)
            if error.line is not None:
                reason = text(lang, "record.error.line", line=error.line, error=reason)
            out.textContent = text(lang, "record.error", error=reason)
            return  # the current game and the pasted text are kept
        rules = state.rules
        if rules.rows != rules.cols or not MIN_APP_SIZE <= rules.rows <= MAX_APP_SIZE:
            error_text = text(lang, "record.size_error")
            out.textContent = text(lang, "record.error", error=error_text)
            return
        seats = self.page.app.game.seats
        if len(seats) != rules.players:
            seats = ("human",) * rules.players
        by_id("record-dialog").close()
        self.page.app.load_state(state, seats, "record")
        self.page.app.notices = [self.page.app.t("record.loaded")]
        self.page.shown()

    def open_games(self, _event: Any) -> None:
        self.deleted = None
        self.games_shown = dialogs.render_games(self.page.app, "")
        if not by_id("games-dialog").open:
            by_id("games-dialog").showModal()

    def render_games(self, deleted: str = "") -> None:
        """Render the list again (as many lines as were shown)."""
        count = max(self.games_shown, GAMES_PAGE)
        self.games_shown = dialogs.render_games(self.page.app, deleted, count)

    def on_more_games(self, _event: Any) -> None:
        self.games_shown = dialogs.more_games(self.page.app, self.games_shown)

    def on_games_click(self, event: Any) -> None:
        target = event.target
        for name in ("copy", "download", "reload"):
            button = target.closest(f"[data-{name}]")
            if button:
                self._unreadable_action(name, button)
                return
        opener = target.closest("[data-open]")
        if opener:
            by_id("games-dialog").close()
            if self.page.app.open(str(opener.dataset.open)):
                self.page.shown()
            return
        delete = event.target.closest("[data-delete]")
        if delete:
            shown = self.page.app.game
            self.deleted = self.page.app.delete(str(delete.dataset.delete))
            if self.page.app.game is not shown:
                self.page.shown()
            self.render_games(self.page.app.t("games.deleted"))

    def _unreadable_action(self, name: str, button: Any) -> None:
        """Copy or download the saved text of an entry this version cannot open, or reload
        the page (a newer version's entry) -- nothing in storage changes."""
        game_id = str(getattr(button.dataset, name))
        if name == "reload":
            window.location.reload()
            return
        raw = self.page.app.library.raw(game_id)
        if raw is None:
            return
        if name == "download":
            dialogs.download(f"sos-game-{game_id}.json", raw)
            return
        spawn(self._copy_raw(button, raw))

    async def _copy_raw(self, button: Any, raw: str) -> None:
        try:
            await window.navigator.clipboard.writeText(raw)
        except Exception:  # no clipboard here: the download still works
            return
        button.textContent = self.page.app.t("games.copied")

    def on_undelete(self, _event: Any) -> None:
        if self.deleted is not None:
            self.page.app.undelete(self.deleted)
            self.deleted = None
        self.render_games()
