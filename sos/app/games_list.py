"""The "Your games" list as text in the page's language, with no DOM: one line per game (its
board, moves, result or whose turn, who plays, its link and thumbnail) and per entry this
version cannot open, a page at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .game import outcome as outcomes
from .game.thumbnail import Thumbnail, thumbnail
from .game.view import player_name, result_text
from .saving.library import LEGACY_ID, GameRecord, Unreadable
from .share import remote
from .share.players import names_of, opponents_text
from .tab import TabCore

#: Lines of "Your games" rendered at a time (the page adds as many on "Show more").
GAMES_PAGE = 30

#: "Your games" offers its search once it holds this many lines (fewer fit on a screen or two).
SEARCH_FROM = 10


def search_words(query: str) -> list[str]:
    """The words of a search typed in "Your games", as :func:`matches` compares them: case
    folded, ``×`` read as ``x`` (so ``6x6`` finds a 6 × 6 board)."""
    return query.casefold().replace("×", "x").split()


def matches(words: list[str], text: str) -> bool:
    """Whether every word of :func:`search_words` is in ``text`` (a line of the list as
    shown: title, detail and date), case folded, or in ``text`` without its spaces (``6x6``
    in "6 × 6")."""
    folded = text.casefold().replace("×", "x")
    compact = "".join(folded.split())
    return all(word in folded or word in compact for word in words)


@dataclass(frozen=True)
class GameEntry:
    """One line of the "Your games" list (text in the page's language)."""

    id: str
    title: str  # "6 × 6 · general · 2 players"
    detail: str  # "12 moves · Player 2 to move" / "… · Player 1 wins, 5–3"
    updated: float  # ms since the epoch (the page formats it with the browser's Intl)
    current: bool
    finished: bool
    #: For a game by link: the code of the link this device would send now (else "").
    link: str = ""
    #: ``game``, or an entry this version cannot open: ``newer`` (reload to update) or
    #: ``damaged`` (its saved text can be copied).
    kind: str = "game"
    #: The drawing of the game's board (None for an entry this version cannot open).
    thumb: Thumbnail | None = None


class GamesList(TabCore):
    """The "Your games" list of a tab."""

    #: The searchable text and date of each game read by :meth:`matching`, by (id, index
    #: ``seq``, language); made on the first search.
    _search_texts: dict[tuple[str, int, str], tuple[str, float]] | None = None

    def entries(self) -> list[GameEntry]:
        """The whole "Your games" list (reads every game: see :meth:`games` for a page)."""
        return self.games(None)[0]

    def search_offered(self, total: int) -> bool:
        """Whether "Your games" shows its search, the list holding ``total`` lines."""
        return total >= SEARCH_FROM

    def games(
        self,
        count: int | None = GAMES_PAGE,
        start: int = 0,
        query: str = "",
        when: Callable[[float], str] | None = None,
    ) -> tuple[list[GameEntry], int]:
        """``count`` lines of "Your games" from line ``start`` (None: all the rest) and how
        many lines there are in all: the game shown first when it is not stored, then every
        stored entry, most recently written first; one this version cannot open is a line of
        kind ``newer`` or ``damaged``. Reads the index and the games returned, not the whole
        library -- unless ``query`` has a word: then the lines are those whose text holds
        every word (:func:`matches`; ``when`` writes a line's date as the page shows it, from
        ms since the epoch), read once per game and version (the texts are kept)."""
        if search_words(query):
            found = self.matching(query, when or (lambda _ms: ""))
            end = None if count is None else start + count
            return self._entries_of(found[start:end]), len(found)
        shown = self.game.to_record()
        lead = [] if self.library.summary(shown.id) is not None else [shown.id]
        stored = self.library.count()
        end = None if count is None else start + count
        first = max(0, start - len(lead))
        last = None if end is None else max(first, end - len(lead))
        ids = lead[start:end]
        if last is None or last > first:
            ids += self.library.recent(None if last is None else last - first, first)
        result = self._entries_of(ids)
        total = len(lead) + stored
        if self.legacy is not None:  # the oldest entry: the first version's save
            if start <= total and (end is None or total < end):
                result.append(self.unreadable_entry(self.legacy))
            total += 1
        return result, total

    def matching(self, query: str, when: Callable[[float], str]) -> list[str]:
        """The ids of the lines of "Your games" (in the list's order) whose text -- title,
        detail and ``when(updated)`` in the page's language -- holds every word of
        ``query``. A game's text is made once per version of the game (its index ``seq``)
        and language, so typing on reads no game again."""
        words = search_words(query)
        shown = self.game.to_record()
        stored = self.library.summary(shown.id) is not None
        ids = ([] if stored else [shown.id]) + self.library.recent(None, 0)
        if self.legacy is not None:
            ids.append(self.legacy.id)
        if self._search_texts is None:
            self._search_texts = {}
        cache = self._search_texts
        found = []
        for game_id in ids:
            summary = self.library.summary(game_id)
            key = (game_id, -1 if summary is None else summary.seq, self.lang)
            kept = None if game_id == shown.id else cache.get(key)
            if kept is None:
                entries = self._entries_of([game_id])
                if not entries:
                    continue
                kept = (f"{entries[0].title} {entries[0].detail}", entries[0].updated)
                if game_id != shown.id:
                    cache[key] = kept
            if matches(words, f"{kept[0]} {when(kept[1])}"):
                found.append(game_id)
        return found

    def _entries_of(self, ids: list[str]) -> list[GameEntry]:
        """The list lines of ``ids`` (the shown game, stored games, the first version's
        save); an id no longer stored is left out."""
        shown = self.game.to_record()
        result = []
        for game_id in ids:
            if self.legacy is not None and game_id == self.legacy.id:
                result.append(self.unreadable_entry(self.legacy))
                continue
            if game_id == shown.id:
                result.append(self.entry(shown))
                continue
            found = self.library.read(game_id)
            if isinstance(found, GameRecord):
                result.append(self.entry(found))
            elif found is not None:
                result.append(self.unreadable_entry(found))
        return result

    def unreadable_entry(self, found: Unreadable) -> GameEntry:
        """The list line of an entry this version cannot open."""
        detail = self.t(f"games.unreadable.{found.kind}", reason=found.error.reason_in(self.lang))
        if found.id == LEGACY_ID:
            title = self.t("games.unreadable.first")
        else:
            title = self.t("games.unreadable.title", game=found.id)
        updated = found.summary.updated
        return GameEntry(found.id, title, detail, updated, False, False, "", found.kind)

    def entry(self, record: GameRecord) -> GameEntry:
        """The list line of one game."""
        rules, lang = record.rules, self.lang
        title = self.nt(
            "games.title",
            rules.players,
            size=rules.rows,
            mode=self.t(f"games.mode.{rules.mode}"),
            players=rules.players,
        )
        state, outcome = outcomes.line_outcome(record)  # the game, not a browsed position
        count = len(state.history)
        moves = self.nt("games.moves", count, moves=count)
        names = names_of(record)
        result = result_text(state, lang, record.seats, names, outcome=outcome)
        link = ""
        if remote.is_remote(record):
            link = remote.encode_link(remote.link_of(record))
            names = remote.info(record).names
            if result is None:
                who = remote.display_name(names, state.current_player(), lang)
                result = self.t("status.turn", name=who)
            me = remote.info(record).seat
            players = ", ".join(
                remote.display_name(names, s, lang) for s in range(rules.players) if s != me
            )
            mine = remote.display_name(names, me, lang)
            result += " · " + self.t("remote.list", me=mine, players=players)
        if result is None:
            seat = state.current_player()
            who = names[seat] or player_name(lang, seat, record.seats[seat])
            result = self.t("status.turn", name=who)
        if not remote.is_remote(record) and (
            any(names) or record.seats.count("human") < len(record.seats)
        ):  # who plays, unless it is just "Player 1 vs Player 2": "Alice vs Computer 2 · hard"
            result = f"{opponents_text(lang, record)} · {result}"
        return GameEntry(
            record.id,
            title,
            f"{moves} · {result}",
            record.updated,
            record.id == self.game.record.id,
            outcome is not None,
            link,
            thumb=thumbnail(state),
        )
