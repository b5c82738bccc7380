"""Games by link on the page: the "Play a friend" choice of the settings dialog and the panel
under the board (whose turn, the link to send with Share and Copy, this device's name). Every
decision (who may move, what a link means) is :mod:`sos.app.share.remote`'s."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import to_js
from pyscript import document, window

from sos.app.app import AppSession
from sos.app.share.remote import (
    NAME_FIELD_MAX,
    RemoteSession,
    encode_link,
    link_of,
    link_url,
    remote_view,
)
from sos.app.text.i18n import text
from sos.web.dialogs import page_base
from sos.web.dom import by_id, element
from sos.web.guard import spawn
from sos.web.host import Host


class RemotePanel:
    """The page's parts of a game by link (``page`` is the running :class:`~sos.web.main.Page`)."""

    def __init__(self, app: AppSession, host: Host) -> None:
        self.app = app
        self.host = host
        self._sending: bool | None = None  # was the link to send shown at the last render?

    def listen(self) -> None:
        """Attach the handlers of the panel and of the settings' "Play a friend" fields."""
        for field in ("remote-my-name", "remote-name"):  # the one limit of a name
            by_id(field).maxLength = NAME_FIELD_MAX
        on = self.host.on
        on(by_id("remote-copy"), "click", lambda _e: spawn(self._copy()))
        on(by_id("remote-share"), "click", lambda _e: spawn(self._share()))
        on(by_id("remote-link"), "copy", lambda _e: self.sent())  # copied by hand
        on(by_id("remote-my-name"), "change", self.on_name)
        on(by_id("undo-confirm"), "click", lambda _e: self.undo(confirmed=True))
        on(by_id("settings-form"), "change", lambda _e: self.sync_settings())

    # ------------------------------------------------------------------ settings dialog
    def fill_settings(self) -> None:
        """Reset the "Play a friend" fields when the settings dialog opens."""
        game = self.app.game
        by_id("settings-remote").checked = isinstance(game, RemoteSession)
        if isinstance(game, RemoteSession):
            by_id("remote-name").value = game.remote.names[game.remote.seat]
        self.sync_settings()

    def sync_settings(self) -> None:
        """One "your seat" choice per player, named in the page's language (again after a
        language change); computer seats are hidden for a game by link."""
        chosen = bool(by_id("settings-remote").checked)
        by_id("remote-fields").hidden = not chosen
        by_id("settings-seats").hidden = chosen
        select, lang = by_id("remote-seat"), self.app.lang
        players = int(by_id("settings-players").value)
        labels = [text(lang, "player.name", n=seat + 1) for seat in range(players)]
        if [str(option.textContent) for option in select.options] != labels:
            keep = min(int(select.value or 0), players - 1)
            select.replaceChildren()
            for seat, label in enumerate(labels):
                option = element("option", "", label)
                option.value = str(seat)
                select.appendChild(option)
            select.value = str(keep)

    def chosen(self) -> tuple[str, str] | None:
        """``(seat, name)`` as the form gives them when the settings ask for a game by link,
        else None."""
        if not by_id("settings-remote").checked:
            return None
        return str(by_id("remote-seat").value or "0"), str(by_id("remote-name").value)

    # ------------------------------------------------------------------ the panel
    def link(self) -> str:
        """The link this device would send now for the game shown ("" for another game)."""
        game = self.app.game
        if not isinstance(game, RemoteSession):
            return ""
        return link_url(page_base(), encode_link(link_of(game.to_record())))

    def render(self) -> None:
        """Show the panel for a game by link (hidden for other games)."""
        app, panel = self.app, by_id("remote-panel")
        game = app.game
        if not isinstance(game, RemoteSession):
            panel.hidden = True
            self._sending = None
            return
        panel.hidden = False
        view = remote_view(game, app.lang)
        by_id("remote-you").textContent = view.you
        by_id("remote-status").textContent = view.status
        by_id("remote-send").hidden = not view.send
        if view.send and self._sending is False:
            # Your move is made: sending the link is what to do next, so bring it into view
            # (on a phone it is below the fold under the board), down to the line under it
            # where "Copied" appears.
            by_id("remote-message").scrollIntoView(
                to_js({"block": "nearest"}, dict_converter=window.Object.fromEntries)
            )
        self._sending = view.send
        field = by_id("remote-link")
        link = self.link()
        if str(field.value) != link:
            field.value = link
            by_id("remote-message").textContent = ""
        name = by_id("remote-my-name")
        if document.activeElement != name:
            name.value = view.name
        by_id("remote-share").hidden = not _can_share()

    def undo(self, confirmed: bool = False) -> None:
        """Undo (button or Ctrl+Z); in a game by link whose link was on offer, only once the
        player confirms it (:meth:`sos.app.share.remote.RemoteSession.undo_may_fork`)."""
        game, dialog = self.app.game, by_id("undo-dialog")
        if dialog.open:
            dialog.close()
        if not confirmed and isinstance(game, RemoteSession) and game.undo_may_fork():
            dialog.showModal()
            return
        self.host.step(game.undo())

    def on_name(self, _event: Any) -> None:
        game = self.app.game
        if isinstance(game, RemoteSession) and game.set_name(str(by_id("remote-my-name").value)):
            self.host.changed()

    def sent(self) -> bool:
        """The link is on its way (copied or shared): its moves can no longer be taken back
        here (:meth:`sos.app.share.remote.RemoteSession.mark_sent`); save and show that. True when
        Undo lost a move to take back."""
        game = self.app.game
        if isinstance(game, RemoteSession) and game.mark_sent():
            self.host.changed()
            return True
        return False

    async def _copy(self) -> None:
        field, out = by_id("remote-link"), by_id("remote-message")
        field.select()
        sent = self.sent()
        note = " " + self.app.t("remote.sent") if sent else ""
        try:
            await window.navigator.clipboard.writeText(str(field.value))
            out.textContent = self.app.t("share.copied") + note
        except Exception:  # no clipboard permission: the link is selected in its box
            out.textContent = self.app.t("share.copy_failed") + note

    async def _share(self) -> None:
        self.sent()
        data = {"title": self.app.t("remote.share_title"), "url": self.link()}
        try:
            await window.navigator.share(to_js(data, dict_converter=window.Object.fromEntries))
        except Exception:  # cancelled by the user, or refused: Copy is still there
            return


def _can_share() -> bool:
    """True where the browser has the Web Share API (``navigator.share``)."""
    try:
        return bool(getattr(window.navigator, "share", None))
    except Exception:
        return False
