"""The dialogs' event handlers: settings, share, game record and "Your games", and the opening
of the puzzles. They read the form, call the session and redraw through the page
(:class:`~sos.web.host.Host`); the decisions (what the settings start, what an import or a
delete means) are :class:`~sos.app.app.AppSession`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import document, window

from sos.app.app import GAMES_PAGE, AppSession, SettingsForm
from sos.app.saving.transcript import format_transcript
from sos.app.text.i18n import installed
from sos.web import dialogs, guard, locale
from sos.web.backup import BackupPanel
from sos.web.dom import by_id
from sos.web.guard import spawn
from sos.web.host import Host
from sos.web.remote import RemotePanel

if TYPE_CHECKING:
    from sos.app.saving.library import GameRecord, Removed
    from sos.web.puzzles import PuzzlePanel


class Panels:
    """Handlers of the page's dialogs.

    Args:
        app: the tab's session; host: the page (handlers, redraws); remote: the page's
            "Play a friend" parts (the settings dialog fills and reads them);
        wanted_puzzle: ``?puzzle=daily`` / ``?puzzle=<id>``, opened once the page is ready.
    """

    def __init__(
        self, app: AppSession, host: Host, remote: RemotePanel, wanted_puzzle: str | None = None
    ) -> None:
        self.app = app
        self.host = host
        self.remote = remote
        self.deleted: GameRecord | Removed | None = None  # the last entry deleted (undo)
        self.games_shown = 0  # lines of "Your games" rendered (more come with "Show more")
        self.wanted_puzzle = wanted_puzzle
        self.puzzles: PuzzlePanel | None = None  # imported when first opened
        self.backup = BackupPanel(app, self.render_games, self._imported)
        self.kept: tuple[str | None, str | None, str] | None = None  # Settings open: its prefs

    def listen(self) -> None:
        """Attach the dialogs' event handlers."""
        on = self.host.on
        on(by_id("share-button"), "click", self.open_share)
        on(by_id("share-copy"), "click", lambda _e: self._copy("share-url", "share-message"))
        on(by_id("share-copy"), "click", lambda _e: self.remote.sent())  # a game by link's link
        on(by_id("record-button"), "click", self.open_transcript)
        on(by_id("record-copy"), "click", lambda _e: self._copy("record-text", "record-message"))
        on(by_id("record-import"), "click", self.on_record_import)
        on(by_id("games-button"), "click", self.open_games)
        on(by_id("notice-games"), "click", self.open_games)
        on(by_id("games-list"), "click", self.on_games_click)
        on(by_id("games-undo-button"), "click", self.on_undelete)
        on(by_id("games-more"), "click", self.on_more_games)
        on(by_id("games-search"), "input", lambda _e: self.render_games())
        on(by_id("games-dialog"), "close", lambda _e: setattr(self, "deleted", None))
        self.backup.listen(on)  # export, import
        on(by_id("settings-button"), "click", self.open_settings)
        on(by_id("settings-cancel"), "click", lambda _e: by_id("settings-dialog").close())
        on(by_id("settings-keep"), "click", lambda _e: self.close_settings(keep=True))
        on(by_id("settings-dialog"), "close", lambda _e: self.close_settings(keep=False))
        on(by_id("settings-form"), "submit", self.on_settings_submit)
        on(by_id("settings-form"), "change", lambda _e: dialogs.sync_settings())
        on(by_id("puzzles-button"), "click", lambda _e: self.open_puzzles(None))
        on(by_id("embed-puzzle"), "click", self.reopen_puzzles)
        on(by_id("puzzle-dialog"), "close", self.on_puzzle_closed)
        follow_bars()

    def open_puzzles(self, wanted: str | None) -> None:
        """Open the puzzles (``wanted``: ``daily``, an id, or None for the next one); their
        modules are imported on first use, so they cost nothing at start."""
        if self.puzzles is None:
            from sos.web.puzzles import PuzzlePanel

            self.puzzles = PuzzlePanel(self.app, self.host)
            self.puzzles.listen()
        spawn(self.puzzles.show(wanted))

    def reopen_puzzles(self, _event: Any = None) -> None:
        """Show the puzzle dialog again as it was left (the embed's "Back to the puzzle")."""
        panel = self.puzzles
        if panel is None or panel.session is None or panel.session.run is None:
            self.open_puzzles(None)
            return
        panel.render()
        by_id("puzzle-dialog").showModal()

    def on_puzzle_closed(self, _event: Any) -> None:
        """In an embed the page has no header: closing the puzzle offers the way back."""
        by_id("embed-puzzle").hidden = not self.app.embed

    def open_wanted_puzzle(self) -> None:
        """Open the puzzle the URL asked for (``?puzzle=``), if any (once the page is ready)."""
        if self.wanted_puzzle is not None:
            self.open_puzzles(self.wanted_puzzle)

    def open_settings(self, _event: Any) -> None:
        app = self.app
        dialogs.fill_settings(app.settings(), app.lang, app.prefs.theme, app.names())
        self.remote.fill_settings()
        self.kept = app.prefs_shown()  # what Cancel (or Esc) puts back
        by_id("settings-dialog").showModal()

    def close_settings(self, keep: bool) -> None:
        """Keep (``keep``) or Start keep the language and theme chosen; Cancel and Esc put
        back the ones the dialog opened with."""
        kept, self.kept = self.kept, None
        if by_id("settings-dialog").open:
            by_id("settings-dialog").close()  # (its close event comes back here: kept is None)
        if kept is None or keep:
            return
        changed = self.app.put_back(kept)
        by_id("settings-lang").value = self.app.lang  # (a language still loading is dropped)
        if not changed:
            return
        window.history.replaceState(None, "", self.app.location())
        self.host.restyle()

    def on_settings_submit(self, event: Any) -> None:
        event.preventDefault()
        form = dialogs.read_settings(self.remote.chosen())
        self.close_settings(keep=True)
        if installed(form.lang):
            self._start(form)
        else:  # a language chosen a moment ago: its catalog first (no English between)
            spawn(self._start_after(form))

    async def _start_after(self, form: SettingsForm) -> None:
        await locale.load(form.lang)
        self._start(form)

    def _start(self, form: SettingsForm) -> None:
        """Start with the settings of ``form``: its theme and language, a new game."""
        applied = self.app.apply_settings(form)
        self.host.shown()  # saved, then drawn
        if applied.theme_changed or applied.language_changed:
            self.host.restyle()

    def open_share(self, _event: Any) -> None:
        by_id("share-url").value = dialogs.share_url(self.app)
        by_id("share-message").textContent = ""
        by_id("share-dialog").showModal()
        by_id("share-url").select()

    def open_transcript(self, _event: Any) -> None:
        game = self.app.game
        names = self.app.names()
        by_id("record-text").value = format_transcript(game.state, game.outcome, names)
        by_id("record-message").textContent = ""
        by_id("record-dialog").showModal()

    def _copy(self, field: str, message: str) -> None:
        spawn(copy_text(self.app, str(by_id(field).value), by_id(message)))

    def on_record_import(self, _event: Any) -> None:
        refused = self.app.import_transcript(str(by_id("record-text").value))
        if refused is not None:  # the current game and the pasted text are kept
            by_id("record-message").textContent = refused.text(self.app.lang)
            return
        by_id("record-dialog").close()
        self.host.shown()

    def open_games(self, _event: Any) -> None:
        self.deleted = None
        by_id("games-search").value = ""  # the whole list at each opening
        self.games_shown = dialogs.render_games(self.app, "")
        if not by_id("games-dialog").open:
            by_id("games-dialog").showModal()
            # opened at its top with the title focused, as How to play (a first button focused
            # could sit under Close's bar in a small window; Tab goes on to Export)
            by_id("games-dialog").scrollTop = 0
            by_id("games-title").focus()
        self.backup.shown()

    def _imported(self) -> None:
        """After an import: the puzzle panel reads the merged progress and rating again."""
        if self.puzzles is not None and self.puzzles.session is not None:
            self.puzzles.session.reload()

    def render_games(self, deleted: str = "") -> None:
        """Render the list again (as many lines as were shown)."""
        count = max(self.games_shown, GAMES_PAGE)
        query = str(by_id("games-search").value)
        self.games_shown = dialogs.render_games(self.app, deleted, count, query)

    def on_more_games(self, _event: Any) -> None:
        query = str(by_id("games-search").value)
        self.games_shown = dialogs.more_games(self.app, self.games_shown, query)

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
            if self.app.open(str(opener.dataset.open)):
                self.host.shown()
            return
        delete = event.target.closest("[data-delete]")
        if delete:
            shown = self.app.game
            self.deleted = self.app.delete(str(delete.dataset.delete))
            if self.app.game is not shown:
                self.host.shown()
            self.render_games(self.app.t("games.deleted"))

    def _unreadable_action(self, name: str, button: Any) -> None:
        """Copy or download the saved text of an entry this version cannot open, or reload
        the page (a newer version's entry) -- nothing in storage changes."""
        game_id = str(getattr(button.dataset, name))
        if name == "reload":
            window.location.reload()
            return
        raw = self.app.library.raw(game_id)
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
        button.textContent = self.app.t("games.copied")

    def on_undelete(self, _event: Any) -> None:
        if self.deleted is not None:
            self.app.undelete(self.deleted)
            self.deleted = None
        self.render_games()


def follow_bars() -> None:
    """Settings and "Your games" bring what comes into view (a control reached by Tab, the
    import's report) above their sticky button bar, whatever its height: the bar's height is
    its dialog's ``--bar`` (the scroll padding, static/css/app.css), measured whenever it
    changes (German's Cancel / Keep / Start wrap to two rows on a phone, 116 px, where 76 px
    of padding left "Sprache" and "Farbschema" under the bar)."""

    def resized(entries: Any, _observer: Any) -> None:
        for entry in entries:
            bar = entry.target
            bar.closest("dialog").style.setProperty("--bar", f"{bar.offsetHeight}px")

    observer = window.ResizeObserver.new(guard.proxy(resized, "measure a dialog's buttons"))
    for bar in document.querySelectorAll(".settings .dialog-actions, .games .dialog-actions"):
        observer.observe(bar)


async def copy_text(app: AppSession, value: str, out: Any) -> None:
    """Put ``value`` on the clipboard and say in ``out`` whether that worked."""
    try:
        await window.navigator.clipboard.writeText(value)
        out.textContent = app.t("share.copied")
    except Exception:  # no clipboard permission (e.g. in an iframe): the text is selectable
        out.textContent = app.t("share.copy_failed")
