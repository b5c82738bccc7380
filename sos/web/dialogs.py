"""The page's dialogs: settings (read into :class:`~sos.app.params.Settings`), share, game record
and the "Your games" list. DOM in, plain values out; what they mean is decided in
:mod:`sos.app`."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import to_js
from pyscript import document, window

from sos.app.app import AppSession, GameEntry, SettingsForm
from sos.app.i18n import text
from sos.app.params import SEAT_KINDS, Settings, seat_for, seat_kinds_for
from sos.rules import APP_SIZES, MAX_PLAYERS, MIN_PLAYERS
from sos.web.dom import by_id, element


def build_seat_rows(lang: str) -> None:
    """One "Player n: human/easy/…" select per possible seat, in ``lang``."""
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
            option = element("option", "", text(lang, f"level.{kind}"))
            option.value = kind
            select.appendChild(option)
        label.append(element("span", "", text(lang, "settings.seat", n=seat + 1)), select)
        box.appendChild(label)


def fill_settings(settings: Settings, lang: str, theme: str) -> None:
    """Show ``settings`` (and the language and theme) in the settings form."""
    _options(by_id("settings-size"), {n: f"{n} × {n}" for n in APP_SIZES}, settings.size)
    players = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    _options(by_id("settings-players"), {n: str(n) for n in players}, settings.players)
    by_id("settings-lang").value = lang
    by_id("settings-theme").value = theme
    for radio in document.querySelectorAll("#settings-form input[name=mode]"):
        radio.checked = radio.value == settings.mode
    for seat in range(MAX_PLAYERS):
        kind = settings.seats[seat] if seat < len(settings.seats) else "human"
        document.querySelector(f"select[name=seat-{seat}]").value = kind
    sync_settings()


def _options(select: Any, labels: dict[int, str], value: int) -> None:
    """Replace ``select``'s options by one per ``labels`` entry (value: label); pick ``value``."""
    select.replaceChildren()
    for number, label in labels.items():
        option = element("option", "", label)
        option.value = str(number)
        select.appendChild(option)
    select.value = str(value)


def sync_settings() -> None:
    """Show one seat row per player; offer only the levels of the board's size
    (:func:`sos.app.params.seat_kinds_for`: ``perfect`` only where the solver covers it)."""
    players = int(by_id("settings-players").value)
    size = int(by_id("settings-size").value)
    for row in document.querySelectorAll(".seat-row"):
        row.hidden = int(row.dataset.seat) >= players
    offered = seat_kinds_for(size)
    for select in document.querySelectorAll(".seat-row select"):
        for option in select.querySelectorAll("option"):
            option.disabled = str(option.value) not in offered
        select.value = seat_for(str(select.value), size)


def read_settings(friend: tuple[str, str] | None) -> SettingsForm:
    """The settings form's values as given (checked by
    :meth:`~sos.app.app.AppSession.apply_settings`); ``friend``: this device's seat and name
    when "Play a friend" is ticked (:meth:`sos.web.remote.RemotePanel.chosen`)."""
    mode = "general"
    for radio in by_id("settings-form").querySelectorAll("input[name=mode]"):
        if radio.checked:
            mode = str(radio.value)
    players = str(by_id("settings-players").value)
    shown = int(players) if players.isdigit() else MAX_PLAYERS
    seats = tuple(
        str(document.querySelector(f"select[name=seat-{seat}]").value)
        for seat in range(min(shown, MAX_PLAYERS))
    )
    seat, name = friend if friend is not None else ("0", "")
    return SettingsForm(
        size=str(by_id("settings-size").value),
        mode=mode,
        players=players,
        seats=seats,
        lang=str(by_id("settings-lang").value),
        theme=str(by_id("settings-theme").value),
        friend=friend is not None,
        friend_seat=seat,
        friend_name=name,
    )


def page_base() -> str:
    """The page's URL without query and fragment."""
    return str(window.location.href).split("#", 1)[0].split("?", 1)[0]


def share_url(app: AppSession) -> str:
    """A link to the position shown (:meth:`~sos.app.app.AppSession.share_query`)."""
    return page_base() + app.share_query()


def full_game_url(app: AppSession) -> str:
    """The embed's "Open the full game" (:meth:`~sos.app.app.AppSession.full_game_query`)."""
    return page_base() + app.full_game_query()


def render_games(app: AppSession, deleted: str) -> None:
    """Fill the "Your games" list; ``deleted`` is the text of the undo bar ("" hides it)."""
    box = by_id("games-list")
    box.replaceChildren()
    entries = app.entries()
    if not entries:
        box.appendChild(element("li", "empty", app.t("games.empty")))
    for entry in entries:
        box.appendChild(_entry(app, entry))
    by_id("games-undo").hidden = not deleted
    by_id("games-undo-text").textContent = deleted


def _entry(app: AppSession, entry: GameEntry) -> Any:
    item = element("li", "game-entry" + (" current" if entry.current else ""))
    item.dataset.testid = "game-entry"
    item.dataset.gameId = entry.id
    opener = element("button", "game-open")
    opener.type = "button"
    opener.dataset.open = entry.id
    opener.append(
        element("span", "game-title", entry.title),
        element("span", "game-detail", entry.detail),
        element("span", "game-when", _when(entry.updated, app.lang)),
    )
    if entry.current:
        opener.setAttribute("aria-current", "true")
        opener.appendChild(element("span", "game-current", app.t("games.current")))
    delete = element("button", "button game-delete", app.t("games.delete"))
    delete.type = "button"
    delete.dataset.delete = entry.id
    delete.dataset.testid = "game-delete"
    delete.setAttribute("aria-label", app.t("games.delete.label", title=entry.title))
    item.append(opener, delete)
    if entry.link:  # a game by link: the link this device would send now
        link = element("a", "game-link", app.t("remote.list.link"))
        link.href = f"{page_base()}?r={entry.link}"
        link.dataset.testid = "remote-entry-link"
        item.appendChild(link)
    return item


def _when(ms: float, lang: str) -> str:
    """A date and time in the browser's format for ``lang`` (``Intl``)."""
    if not ms:
        return ""
    options = to_js(
        {"dateStyle": "medium", "timeStyle": "short"}, dict_converter=window.Object.fromEntries
    )
    try:
        return str(window.Date.new(ms).toLocaleString(lang, options))
    except Exception:  # an engine without these options
        return str(window.Date.new(ms).toLocaleString())
