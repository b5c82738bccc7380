"""The page's dialogs: settings (as :class:`~sos.app.share.params.Settings`), share, game record
and the "Your games" list. DOM in, plain values out; :mod:`sos.app` decides what they mean."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import to_js
from pyscript import document, window

from sos.app.app import GAMES_PAGE, AppSession, GameEntry, SettingsForm
from sos.app.game.view import player_name, seat_choice
from sos.app.share.params import SEAT_KINDS, Settings, perfect_note, seat_for, seat_kinds_for
from sos.app.share.players import NAME_FIELD_MAX
from sos.app.text.i18n import text
from sos.rules import APP_SIZES, MAX_PLAYERS, MIN_PLAYERS
from sos.web import guard
from sos.web.dom import by_id, element
from sos.web.nobreak import seat_names, set_text
from sos.web.thumbnail import draw_thumbnail


def build_seat_rows(lang: str) -> None:
    """One "Player n: human/easy/… and a name" row per possible seat, in ``lang``; the values
    already chosen are kept (the language can change while the form is open)."""
    box = by_id("settings-seats")
    kept: dict[int, tuple[str, str]] = {}
    for row in box.querySelectorAll(".seat-row"):
        seat = int(row.dataset.seat)
        kept[seat] = (str(row.querySelector("select").value),
                      str(row.querySelector("input").value))
        row.remove()
    for seat in range(MAX_PLAYERS):
        row = element("div", "seat-row")
        row.dataset.seat = str(seat)
        label = element("label", "seat-kind")
        select = element("select")
        select.name = f"seat-{seat}"
        select.dataset.testid = f"settings-seat-{seat}"
        for kind in SEAT_KINDS:
            option = element("option", "", seat_choice(lang, kind))
            option.value = kind
            select.appendChild(option)
        label.append(element("span", "", text(lang, "settings.seat", n=seat + 1)), select)
        name = element("input", "seat-name")
        name.type = "text"
        name.name = f"name-{seat}"
        name.maxLength = NAME_FIELD_MAX
        name.autocomplete = "off"
        name.dataset.testid = f"settings-name-{seat}"
        name.setAttribute("aria-label", text(lang, "settings.name", n=seat + 1))
        row.append(label, name)
        box.appendChild(row)
        if seat in kept:
            select.value, name.value = kept[seat]
    _show_seats_in_play()
    _name_placeholders(lang)


def _show_seats_in_play() -> None:
    """Only the rows of the seats in play are shown (the Players choice of the form, or every
    row before the form is first filled)."""
    players = str(by_id("settings-players").value)
    count = int(players) if players.isdigit() else MAX_PLAYERS
    for row in document.querySelectorAll(".seat-row"):
        row.hidden = int(row.dataset.seat) >= count


def _name_placeholders(lang: str) -> None:
    """Each name field shows the default name of its seat ("Player 1", "Computer 2")."""
    for row in document.querySelectorAll(".seat-row"):
        seat = int(row.dataset.seat)
        kind = str(row.querySelector("select").value)
        row.querySelector("input").placeholder = player_name(lang, seat, kind)


def read_names(players: int) -> tuple[str, ...]:
    """The names typed in the settings form for the first ``players`` seats."""
    return tuple(
        str(document.querySelector(f"input[name=name-{seat}]").value) for seat in range(players)
    )


def fill_settings(
    settings: Settings, lang: str, theme: str, names: tuple[str, ...] = ()
) -> None:
    """Show ``settings`` (and the language, theme and the players' ``names``) in the form."""
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
        document.querySelector(f"input[name=name-{seat}]").value = (
            names[seat] if seat < len(names) else ""
        )
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
    (:func:`sos.app.share.params.seat_kinds_for`: ``perfect`` only where the solver covers it)."""
    size = int(by_id("settings-size").value)
    _show_seats_in_play()
    offered = seat_kinds_for(size)
    for select in document.querySelectorAll(".seat-row select"):
        for option in select.querySelectorAll("option"):
            option.disabled = str(option.value) not in offered
        select.value = seat_for(str(select.value), size)
    _name_placeholders(lang := str(document.documentElement.lang or "en"))
    note, why = by_id("settings-perfect-note"), perfect_note(lang, size)  # "perfect" greyed
    set_text(note, why).hidden = not why  # "4 × 4" kept on one line (sos.app.game.nobreak)


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
        names=read_names(len(seats)),
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


def render_games(app: AppSession, deleted: str, count: int = GAMES_PAGE, query: str = "") -> int:
    """Fill the "Your games" list with its first ``count`` lines (the rest come with "Show
    more": :func:`more_games`), only those holding every word of ``query`` when it has one
    (:meth:`~sos.app.app.AppSession.games`); ``deleted`` is the text of the undo bar ("" hides
    it). Returns how many lines are shown."""
    box = by_id("games-list")
    box.replaceChildren()
    entries, total = app.games(count, 0, query, lambda ms: _when(ms, app.lang))
    if not entries:
        empty = app.t("games.search.none", query=query.strip()) if query.strip() else ""
        box.appendChild(element("li", "empty", empty or app.t("games.empty")))
    for entry in entries:
        box.appendChild(_entry(app, entry))
    by_id("games-undo").hidden = not deleted
    by_id("games-undo-text").textContent = deleted
    by_id("games-search-row").hidden = not (query.strip() or app.search_offered(total))
    _more(app, len(entries), total)
    return len(entries)


def more_games(app: AppSession, shown: int, query: str = "") -> int:
    """Add the next page of lines to the list (``shown`` are there); returns how many show."""
    box = by_id("games-list")
    entries, total = app.games(GAMES_PAGE, shown, query, lambda ms: _when(ms, app.lang))
    for entry in entries:
        box.appendChild(_entry(app, entry))
    _more(app, shown + len(entries), total)
    return shown + len(entries)


def _more(app: AppSession, shown: int, total: int) -> None:
    by_id("games-more-row").hidden = shown >= total
    by_id("games-count").textContent = app.t("games.count", shown=shown, total=total)


def download(name: str, content: str, media_type: str = "application/json") -> None:
    """Offer ``content`` as a file ``name`` of ``media_type`` (a link to a Blob, clicked)."""
    options = to_js({"type": media_type}, dict_converter=window.Object.fromEntries)
    blob = window.Blob.new(to_js([content]), options)
    url = window.URL.createObjectURL(blob)
    link = element("a")
    link.href = url
    link.download = name
    document.body.appendChild(link)
    link.click()
    link.remove()
    guard.later(60_000, lambda: window.URL.revokeObjectURL(url), "revoke a download")


def _unreadable(app: AppSession, entry: GameEntry) -> Any:
    """A line for an entry this version cannot open: no Open; a newer one offers a reload,
    a damaged one its saved text (copy, download) and Delete (with the list's undo)."""
    item = element("li", f"game-entry unreadable {entry.kind}")
    item.dataset.testid = "game-entry"
    item.dataset.gameId = entry.id
    item.dataset.kind = entry.kind
    info = element("div", "game-open")
    info.append(
        element("span", "game-title", entry.title),
        element("span", "game-detail", entry.detail),
        element("span", "game-when", _when(entry.updated, app.lang)),
    )
    item.appendChild(info)
    if entry.kind == "newer":
        reload = element("button", "button", app.t("update.reload"))
        reload.type = "button"
        reload.dataset.reload = entry.id
        reload.dataset.testid = "game-reload"
        item.appendChild(reload)
        return item
    copy = element("button", "button", app.t("games.copy"))
    copy.type = "button"
    copy.dataset.copy = entry.id
    copy.dataset.testid = "game-copy"
    save = element("button", "button", app.t("games.download"))
    save.type = "button"
    save.dataset.download = entry.id
    save.dataset.testid = "game-download"
    item.append(copy, save, _delete_button(app, entry))
    return item


def _delete_button(app: AppSession, entry: GameEntry) -> Any:
    delete = element("button", "button game-delete", app.t("games.delete"))
    delete.type = "button"
    delete.dataset.delete = entry.id
    delete.dataset.testid = "game-delete"
    delete.setAttribute("aria-label", app.t("games.delete.label", title=entry.title))
    return delete


def _entry(app: AppSession, entry: GameEntry) -> Any:
    if entry.kind != "game":
        return _unreadable(app, entry)
    item = element("li", "game-entry" + (" current" if entry.current else ""))
    item.dataset.testid = "game-entry"
    item.dataset.gameId = entry.id
    opener = element("button", "game-open")
    opener.type = "button"
    opener.dataset.open = entry.id
    words = element("span", "game-words")
    words.append(
        element("span", "game-title", entry.title),
        set_text(element("span", "game-detail"), entry.detail, seat_names(app.lang)),
        element("span", "game-when", _when(entry.updated, app.lang)),
    )
    if entry.current:
        opener.setAttribute("aria-current", "true")
        words.appendChild(element("span", "game-current", app.t("games.current")))
    if entry.thumb is not None:
        opener.appendChild(draw_thumbnail(entry.thumb))
    opener.appendChild(words)
    item.append(opener, _delete_button(app, entry))
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
    style = {"dateStyle": "medium", "timeStyle": "short"}
    options = to_js(style, dict_converter=window.Object.fromEntries)
    try:
        return str(window.Date.new(ms).toLocaleString(lang, options))
    except Exception:  # an engine without these options
        return str(window.Date.new(ms).toLocaleString())
