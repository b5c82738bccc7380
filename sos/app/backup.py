"""Every game in one file, and back: the library file that "Your games" exports and imports, to
keep a copy or to move to another device. Pure: the page (``sos/web/backup.py``) reads and
downloads the file and runs :func:`export_steps` and :meth:`Importer.steps` in time slices.

The file (``sos-library``, version :data:`LIBRARY_VERSION`) is JSON Lines, UTF-8: one JSON
object a line, each with its ``format`` and ``version``::

    {"format":"sos-library","version":1,"exported":1764650000000,"games":2}
    {"format":"sos-puzzles","version":1,"results":{"5g-3f9a1c":"solved"},"days":{...}}
    {"format":"sos-puzzle-rating","version":1,"r":1532.4,"rd":212.1,"vol":0.0899,...}
    {"format":"sos-stats","version":1,"since":1764600000000}
    {"format":"sos-game","version":2,"id":"k3x9q0m2ab","rows":6,...}
    {"format":"sos-game","version":2,"id":"p0o9i8u7y6","rows":4,...}

The first line is the header (``exported``: ms since the epoch; ``games``: how many game lines
follow, so that a cut file is noticed). Then the puzzle progress, the puzzle rating and the
record's reset time, when there are any (the fields of ``sos-puzzles``, ``sos-puzzle-rating``
and ``sos-stats`` in storage, see :mod:`sos.app.learn.puzzles`, :mod:`sos.app.learn.rating`,
:mod:`sos.app.learn.stats`), then one line per game, oldest first, exactly as it is stored
(``sos-game`` version 2, :func:`sos.app.saving.library.dump_game`) without its write ``token``. The
record against the computer is computed from the games, so it follows them. Games of a newer
format are written as they are stored (a newer version can import them); damaged entries are
left out (each can be downloaded from the list).

Merge rules of an import (:class:`Importer`):

- a game whose id is not in the library is written under that id, as it is in the file;
- a game whose id is stored, when the stored game holds every line of the file's (the same
  moves, or the same and more: :meth:`~sos.app.saving.library.GameRecord.holds`), is already here:
  nothing is written (so a second import of a file adds nothing);
- otherwise (different moves, or the stored entry cannot be read) the file's game is added
  under a new id: both are kept;
- a line that cannot be read (not JSON, a damaged game, an illegal move, an unknown kind) or of
  a newer format is set aside: not written, reported with its line number; nothing else
  changes because of it (importing the file again in a newer version adds it then);
- puzzle progress: a puzzle solved in either is solved; a daily puzzle's day keeps the
  outcome stored here and gains the file's other days. The puzzle rating with more rated
  puzzles wins whole (ratings cannot be added up). The later reset of the record wins. A value
  stored here that this version cannot read is never written over;
- storage full: games are written whole, a batch at a time, the index first (never a game
  without its summary); the import stops at the first game that does not fit and says how many
  did not (importing again once there is room adds only those);
- the whole file is refused, with nothing changed, when it is too big
  (:data:`MAX_FILE_BYTES`), not text, empty, not a library file, or of a newer version.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Final

from .learn.puzzles import PROGRESS_VERSION, PUZZLES_KEY, Progress
from .learn.rating import RATING_KEY, RATING_VERSION, RatingBook
from .learn.stats import STATS_KEY, STATS_VERSION, dump_since, read_since
from .saving.library import (
    GAME_FORMAT,
    GameRecord,
    Library,
    StorageError,
    Unreadable,
    dump_game,
    is_newer,
    load_game,
)
from .saving.transcript import RecordError
from .text.message import Message, message, plural

LIBRARY_FORMAT: Final = "sos-library"
LIBRARY_VERSION: Final = 1
PUZZLES_FORMAT: Final = "sos-puzzles"
RATING_FORMAT: Final = "sos-puzzle-rating"
STATS_FORMAT: Final = "sos-stats"
#: The largest file an import reads (bytes): far above what a browser's storage holds (about
#: 5 MB of text: some 15 000 games).
MAX_FILE_BYTES: Final = 16 * 1024 * 1024
#: The longest line read (characters); a 12 x 12 game with many other lines is a few KB.
MAX_LINE: Final = 256 * 1024
#: Games written together (one index write for them).
BATCH: Final = 25
#: Lines set aside that the report lists one by one (the others are counted).
MAX_LISTED: Final = 50
#: What the page offers as the file's type.
MEDIA_TYPE: Final = "application/jsonl"


def file_name(day: date) -> str:
    """The exported file's name on ``day`` (the device's date): ``sos-games-2026-12-03.jsonl``."""
    return f"sos-games-{day.isoformat()}.jsonl"


def size_refused(size: int) -> Message | None:
    """The message refusing a file of ``size`` bytes before it is read, or None."""
    if size <= MAX_FILE_BYTES:
        return None
    mega = 1024 * 1024
    return message("backup.file.too_big", size=-(-size // mega), max=MAX_FILE_BYTES // mega)


def export_progress(done: int, total: int) -> Message:
    """The export's progress: ``done`` of ``total`` games written, plural forms by ``total``."""
    return plural("backup.exporting", total, done=done, total=total)


def import_progress(done: int, total: int) -> Message:
    """The import's progress in games (:attr:`Importer.progress`), plural forms by ``total``."""
    return plural("backup.importing", total, done=done, total=total)


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


# ---------------------------------------------------------------------------------- export


@dataclass(frozen=True)
class Exported:
    """A finished export: the file's ``text``, how many ``games`` it holds, and how many
    damaged entries were ``left_out``."""

    text: str
    games: int
    left_out: int

    def messages(self, name: str) -> list[Message]:
        """What the page says once the file ``name`` is offered."""
        said = [plural("backup.exported", self.games, games=self.games, file=name)]
        if self.left_out:
            said.append(plural("backup.left_out", self.left_out, entries=self.left_out))
        return said


def _extra_lines(library: Library) -> list[str]:
    """The puzzle progress, rating and record reset stored here, as lines of the file (only
    those that exist and can be read)."""
    store, lines = library.store, []
    raw = store.get(PUZZLES_KEY)
    if raw is not None and _readable_progress(raw):
        progress = json.loads(Progress.load(raw).dump())
        del progress["v"]
        lines.append(_line({"format": PUZZLES_FORMAT, "version": PROGRESS_VERSION, **progress}))
    raw = store.get(RATING_KEY)
    book = RatingBook.load(raw)
    if raw is not None and not book.damaged and book.rated:
        rating = json.loads(book.dump())
        del rating["v"]
        lines.append(_line({"format": RATING_FORMAT, "version": RATING_VERSION, **rating}))
    since = read_since(store.get(STATS_KEY))
    if since:
        lines.append(_line({"format": STATS_FORMAT, "version": STATS_VERSION, "since": since}))
    return lines


def export_steps(library: Library, exported: float) -> Generator[tuple[int, int], None, Exported]:
    """Write the library file: yields (games read, games in all) after each entry; returns the
    :class:`Exported` file. ``exported``: ms since the epoch (the header's time). Games with no
    move and nothing else are left out (they hold nothing); so are damaged entries."""
    ids = library.recent()[::-1]  # oldest first: an import gives them back in this order
    lines, left_out = [], 0
    for done, game_id in enumerate(ids, 1):
        found = library.read(game_id)
        if isinstance(found, GameRecord):
            if not found.is_empty():
                lines.append(dump_game(replace(found, token="")))
        elif isinstance(found, Unreadable):
            raw = library.raw(game_id) or ""
            if found.kind == "newer" and "\n" not in raw and "\r" not in raw:
                lines.append(raw)  # for a newer version to import
            else:
                left_out += 1
        yield done, len(ids)
    head = {"format": LIBRARY_FORMAT, "version": LIBRARY_VERSION, "exported": exported}
    text = "\n".join([_line({**head, "games": len(lines)}), *_extra_lines(library), *lines])
    return Exported(text + "\n", len(lines), left_out)


# ---------------------------------------------------------------------------------- import


@dataclass
class ImportReport:
    """What an import did.

    ``refused``: the whole file was refused (nothing changed; every other field is empty).
    ``added``: games written; ``beside``: how many of them went under a new id because the
    stored game with their id differs; ``already``: games already here (nothing written).
    ``not_fitted``: games that did not fit (``storage``: ``full`` or ``refused``).
    ``problems``: the lines set aside, one message each (the first :data:`MAX_LISTED`);
    ``more``: how many more. ``notes``: puzzle progress and rating, as merged. ``cut``:
    (games the header announces, game lines found) when the file ends early.
    """

    refused: Message | None = None
    added: int = 0
    beside: int = 0
    already: int = 0
    not_fitted: int = 0
    storage: str = ""
    problems: list[Message] = field(default_factory=list)
    more: int = 0
    notes: list[Message] = field(default_factory=list)
    cut: tuple[int, int] | None = None

    @property
    def set_aside(self) -> int:
        """Lines set aside in all."""
        return len(self.problems) + self.more

    def listed(self) -> list[Message]:
        """The lines set aside, one message each, and how many more there are."""
        more = [plural("backup.more", self.more, lines=self.more)] if self.more else []
        return [*self.problems, *more]

    def messages(self) -> list[Message]:
        """The summary the page shows (the lines set aside follow: :meth:`listed`)."""
        if self.refused is not None:
            return [self.refused]
        said = [plural("backup.added", self.added, games=self.added)]
        if self.beside:
            said.append(plural("backup.beside", self.beside, games=self.beside))
        if self.already:
            said.append(plural("backup.already", self.already, games=self.already))
        said += self.notes
        if self.not_fitted:
            key = "backup.full" if self.storage == "full" else "backup.storage_refused"
            said.append(plural(key, self.not_fitted, games=self.not_fitted))
        if self.cut is not None:
            expected, found = self.cut
            said.append(plural("backup.cut", expected, expected=expected, found=found))
        if self.set_aside:
            said.append(plural("backup.set_aside", self.set_aside, lines=self.set_aside))
        return said


class ReportBox:
    """What the export and import box of "Your games" says: the last export's or import's
    report, kept until it was seen. One that ends while the list is closed stays for the next
    opening (fresh-clone CI under load: an import that ended while the list was closed had its
    report -- what was added, what was set aside -- cleared by that opening, never seen)."""

    def __init__(self) -> None:
        #: The report's summary and the lines set aside (empty: the box says nothing).
        self.said: list[Message] = []
        self.listed: list[Message] = []
        #: Said while the list was closed: not seen yet.
        self.unseen = False

    def say(self, said: list[Message], listed: list[Message], list_open: bool) -> None:
        """An export or import ended (``list_open``: "Your games" is open) with ``said`` and
        the lines set aside, ``listed``."""
        self.said, self.listed = list(said), list(listed)
        self.unseen = not list_open

    def clear(self) -> None:
        """An export or import starts: the last report goes."""
        self.said, self.listed, self.unseen = [], [], False

    def opened(self, running: bool) -> None:
        """ "Your games" was opened (``running``: an export or import still runs): a report
        seen at an earlier opening goes, one not seen yet stays for this one."""
        if not running and not self.unseen:
            self.said, self.listed = [], []
        self.unseen = False


def _readable_progress(raw: str) -> bool:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("v") == PROGRESS_VERSION


def _newer(version: object, ours: int) -> bool:
    return isinstance(version, int) and not isinstance(version, bool) and version > ours


class Importer:
    """An import of the library file ``text`` into ``library``, a line at a time
    (:meth:`steps`), under the merge rules of the module docstring.

    Args:
        text: the file's text (a byte-order mark is ignored; lines end with LF or CRLF).
        library: the library written into (its store also holds the puzzle progress, rating
            and the record's reset).
        reserved: ids not to write under (the game the tab shows before it is stored).
    """

    def __init__(
        self, text: str, library: Library, reserved: frozenset[str] = frozenset()
    ) -> None:
        self.library = library
        self.reserved = reserved
        self.report = ImportReport()
        text = text.removeprefix("\ufeff")
        self._head = text[:4096]  # a binary file shows itself here (NUL, undecodable bytes)
        self._lines = text.split("\n")
        self._pending: list[GameRecord] = []
        self._expected: int | None = None
        self._games = 0  # lines seen that are (or were meant to be) games
        self._unheaded: int | None = None  # lines that may be games, for a header without a count
        self._stopped = False  # storage full or refused: nothing more is written

    @property
    def progress(self) -> tuple[int, int]:
        """(games read, games in all), in the unit of the report: out of the games the headers
        announce, or of the games read when more (without a count, SOS always writes one: of
        the lines that are not blank). A set-aside game line counts: a whole file ends at
        "N of N", a cut one below its count, as its report says."""
        announced = self._expected
        if announced is None:
            if self._unheaded is None:
                self._unheaded = sum(1 for line in self._lines[1:] if line and not line.isspace())
            announced = self._unheaded
        return self._games, max(announced, self._games)

    @property
    def writes_next(self) -> bool:
        """True when the next step writes a batch of games (the page runs it in a task of its
        own: a write may fold the library's index, the one write whose cost grows with it)."""
        return len(self._pending) >= BATCH

    def steps(self) -> Generator[tuple[int, int], None, ImportReport]:
        """Import: yields its :attr:`progress` (games read, games in all) after each line;
        returns the :class:`ImportReport`. A refused file changes nothing and yields nothing."""
        refused = self._check_header()
        if refused is not None:
            self.report.refused = refused
            return self.report
        for number, raw in enumerate(self._lines[1:], 2):
            self._read_line(number, raw.strip())
            yield self.progress
            if self.writes_next:
                self._flush()
                yield self.progress
        self._flush()
        if self._expected is not None and self._games < self._expected:
            self.report.cut = (self._expected, self._games)
        return self.report

    def _check_header(self) -> Message | None:
        first, head = self._lines[0].strip(), self._head
        if "\x00" in head or head.count("\ufffd") > 2:
            return message("backup.file.not_text")
        if not first and all(not line.strip() for line in self._lines):
            return message("backup.file.empty")
        try:
            data = json.loads(first) if len(first) <= MAX_LINE else None
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or data.get("format") != LIBRARY_FORMAT:
            return message("backup.file.not_library")
        version = data.get("version")
        if _newer(version, LIBRARY_VERSION):
            return message("backup.file.newer", version=version)
        if version != LIBRARY_VERSION:
            return message("backup.file.not_library")
        self._count_header(data)
        return None

    def _count_header(self, data: dict[str, Any]) -> None:
        games = data.get("games")
        if isinstance(games, int) and not isinstance(games, bool) and games >= 0:
            self._expected = (self._expected or 0) + games

    def _problem(self, number: int, error: Message) -> None:
        if len(self.report.problems) < MAX_LISTED:
            self.report.problems.append(message("record.error.line", line=number, error=error))
        else:
            self.report.more += 1

    def _read_line(self, number: int, raw: str) -> None:
        if not raw:
            return
        self._games += 1  # a game line, or what is left of one (undone below for the others)
        if len(raw) > MAX_LINE:
            self._problem(number, message("backup.line.too_long"))
            return
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            self._problem(number, message("backup.line.unreadable"))
            return
        kind = data.get("format")
        if not isinstance(kind, str):
            self._problem(number, message("backup.line.unreadable"))
        elif kind == GAME_FORMAT:
            self._read_game(number, raw)
        elif kind in (PUZZLES_FORMAT, RATING_FORMAT, STATS_FORMAT):
            self._games -= 1
            self._read_extra(number, kind, data)
        elif kind == LIBRARY_FORMAT and data.get("version") == LIBRARY_VERSION:
            self._games -= 1
            self._count_header(data)  # two files joined into one: the second one's header
        else:
            self._problem(number, message("backup.line.unknown", kind=kind[:40]))

    def _read_game(self, number: int, raw: str) -> None:
        try:
            record = load_game(raw)
        except RecordError as error:
            if is_newer(error):
                self._problem(number, message("backup.line.newer", version=error.params["version"]))
            else:
                self._problem(number, message("backup.line.damaged", reason=error.message))
            return
        self._pending.append(record)

    # ------------------------------------------------------------------ games
    def _flush(self) -> None:
        """Write the games read since the last flush: those already here are counted, the
        others written (or counted as not fitted once storage is full)."""
        batch, self._pending = self._pending, []
        report, fresh = self.report, []
        earlier: dict[str, GameRecord] = {}  # this batch's games by id
        for record in batch:
            prior = earlier.get(record.id)
            if prior is None and record.id not in self.reserved:
                found = self.library.read(record.id)
                prior = found if isinstance(found, GameRecord) else None
            if prior is not None and prior.holds(record):
                report.already += 1
                continue
            earlier.setdefault(record.id, record)
            fresh.append(replace(record, id="") if record.id in self.reserved else record)
        if self._stopped:
            report.not_fitted += len(fresh)
            return
        written, error = self.library.add_all(fresh)
        if error is not None and len(fresh) > 1:  # the batch's index did not fit: one by one
            for record in fresh[len(written) :]:
                one, error = self.library.add_all([record])
                written += one
                if error is not None:
                    break
        for wanted, stored in zip(fresh, written, strict=False):
            report.added += 1
            report.beside += stored.id != wanted.id
        if error is not None:
            self._stopped = True
            report.storage = error.kind
            report.not_fitted += len(fresh) - len(written)

    # ------------------------------------------------------------------ the rest
    def _read_extra(self, number: int, kind: str, data: dict[str, Any]) -> None:
        version = data.get("version")
        ours = {PUZZLES_FORMAT: PROGRESS_VERSION, RATING_FORMAT: RATING_VERSION}
        if _newer(version, ours.get(kind, STATS_VERSION)):
            self._problem(number, message("backup.line.newer", version=version))
            return
        if version != ours.get(kind, STATS_VERSION):
            self._problem(number, message("backup.line.damaged_entry", kind=kind))
            return
        stored = {k: v for k, v in data.items() if k not in ("format", "version")}
        merge = {
            PUZZLES_FORMAT: self._merge_progress,
            RATING_FORMAT: self._merge_rating,
            STATS_FORMAT: self._merge_since,
        }[kind]
        try:
            problem = merge(kind, stored)
        except StorageError as error:
            problem = message("backup.line.full" if error.kind == "full" else "backup.line.refused")
        if problem is not None:
            self._problem(number, problem)

    def _merge_progress(self, kind: str, data: dict[str, Any]) -> Message | None:
        raw = _line({"v": PROGRESS_VERSION, **data})
        theirs = Progress.load(raw)
        if not _shaped(data, ("results", "days")):
            return message("backup.line.damaged_entry", kind=kind)
        here_raw = self.library.store.get(PUZZLES_KEY)
        if here_raw is not None and not _readable_progress(here_raw):
            return message("backup.line.here_unreadable")
        here = Progress.load(here_raw)
        merged = merge_progress(here, theirs)
        if merged.dump() != here.dump():
            self.library.store.set(PUZZLES_KEY, merged.dump())
        self.report.notes.append(message("backup.puzzles"))
        return None

    def _merge_rating(self, kind: str, data: dict[str, Any]) -> Message | None:
        theirs = RatingBook.load(_line({"v": RATING_VERSION, **data}))
        if theirs.damaged:
            return message("backup.line.damaged_entry", kind=kind)
        here_raw = self.library.store.get(RATING_KEY)
        here = RatingBook.load(here_raw)
        if here_raw is not None and here.damaged:
            return message("backup.line.here_unreadable")
        if len(theirs.rated) > len(here.rated):
            self.library.store.set(RATING_KEY, theirs.dump())
            self.report.notes.append(message("backup.rating.taken"))
        elif theirs.rated:
            self.report.notes.append(message("backup.rating.kept"))
        return None

    def _merge_since(self, kind: str, data: dict[str, Any]) -> Message | None:
        since = data.get("since")
        if isinstance(since, bool) or not isinstance(since, (int, float)) or since < 0:
            return message("backup.line.damaged_entry", kind=kind)
        if since > read_since(self.library.store.get(STATS_KEY)):
            self.library.store.set(STATS_KEY, dump_since(float(since)))
        return None


def _shaped(data: dict[str, Any], keys: tuple[str, ...]) -> bool:
    return all(isinstance(data.get(key, {}), dict) for key in keys)


def merge_progress(here: Progress, theirs: Progress) -> Progress:
    """Puzzle progress of both devices: a puzzle solved in either is solved (else failed); a
    daily puzzle's day keeps the outcome stored ``here`` and gains ``theirs``'s other days."""
    results = dict(here.results)
    for puzzle_id, outcome in theirs.results.items():
        if results.get(puzzle_id) != "solved":
            results[puzzle_id] = outcome
    days = dict(theirs.days)
    days.update(here.days)
    return Progress(results, dict(sorted(days.items())))


__all__ = [
    "BATCH", "LIBRARY_FORMAT", "LIBRARY_VERSION", "MAX_FILE_BYTES", "MAX_LINE", "MAX_LISTED",
    "MEDIA_TYPE", "Exported", "ImportReport", "Importer", "ReportBox", "export_steps", "file_name",
    "merge_progress", "size_refused",
]
