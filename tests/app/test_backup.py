"""The library file (sos.app.backup): its format, export -> cleared storage -> import giving the
same games back, the merge rules, hostile files, a full storage, puzzle progress and rating,
and the cost of a large file -- under CPython, no browser."""

from __future__ import annotations

import gc
import itertools
import json
import random
import time
from collections.abc import Generator
from datetime import date
from typing import Any, TypeVar

import pytest

from sos import Action, Rules
from sos.app.backup import (
    BATCH,
    MAX_FILE_BYTES,
    MAX_LISTED,
    Exported,
    Importer,
    ImportReport,
    ReportBox,
    export_progress,
    export_steps,
    file_name,
    import_progress,
    merge_progress,
    size_refused,
)
from sos.app.learn.puzzles import PUZZLES_KEY, Progress
from sos.app.learn.rating import RATING_KEY, RatingBook
from sos.app.learn.stats import STATS_KEY, dump_since, read_since, tally
from sos.app.saving.library import (
    GAME_PREFIX,
    GameRecord,
    Library,
    MemoryStore,
    dump_game,
    load_game,
)
from sos.app.saving.transcript import decode_moves
from sos.app.text.message import message
from tests.app.support import A1, A3, B1, C1, D4

T = TypeVar("T")


def run(steps: Generator[Any, None, T]) -> T:
    """Run a generator of steps to its end; its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


def library(store: MemoryStore | None = None) -> Library:
    ids = (f"new{n}" for n in itertools.count())
    clock = itertools.count(5_000_000)
    return Library(store if store is not None else MemoryStore(), lambda: float(next(clock)),
                   lambda: next(ids))  # fmt: skip


def game(
    game_id: str, line: tuple[Action, ...] = (A1, B1), size: int = 4, **fields: Any
) -> GameRecord:
    return GameRecord(
        game_id, Rules.square(size), fields.pop("seats", ("human", "human")), line,
        fields.pop("cursor", len(line)), created=fields.pop("created", 1_700_000_000_000.0),
        **fields,
    )  # fmt: skip


def finished_vs_computer() -> GameRecord:
    """A whole 3x3 game against the computer (hard), human seat 0."""
    state = decode_moves("", Rules.square(3))
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    line = tuple(state.history)
    return game("vs", line, 3, seats=("human", "hard"))


def full_library() -> Library:
    """Games of every kind: variations, names, a review, a game by link, a finished game
    against the computer, a game with a field of a later version; puzzle progress, rating and a
    reset of the record."""
    lib = library()
    lib.create(game("plain", (A1, C1, B1), cursor=2, variations=((A1, D4),)))
    lib.create(game("named", (A3,), 5, extra={"names": ["Ann", "Bo"]}, origin="record"))
    lib.create(game("reviewed", (A1, B1, C1), extra={"review": {"line": "Sa1Ob1Sc1", "v": [1]}}))
    lib.create(game("remote", (A1,), extra={"remote": {"seat": 1, "names": ["A", "B"]}},
                    origin="remote"))  # fmt: skip
    lib.create(finished_vs_computer())
    later = lib.create(game("later", (C1,)))
    lib.store.set(GAME_PREFIX + "later", dump_game(later).replace('"rev"', '"mood":"calm","rev"'))
    lib.create(game("empty", ()))  # nothing to keep: not exported
    progress = Progress({"5g-1": "solved", "5g-2": "failed"}, {"2026-12-01": "solved"})
    lib.store.set(PUZZLES_KEY, progress.dump())
    book = RatingBook()
    book.record("5g-1", 3, True, 1.0)
    book.record("5g-2", 4, False, 2.0)
    lib.store.set(RATING_KEY, book.dump())
    lib.store.set(STATS_KEY, dump_since(1_600_000_000_000.0))
    return lib


def same(a: GameRecord, b: GameRecord) -> bool:
    """Everything but the write token."""
    keys = ("id", "rules", "seats", "line", "cursor", "variations", "created", "updated", "rev",
            "origin", "extra", "unknown")  # fmt: skip
    return all(getattr(a, key) == getattr(b, key) for key in keys)


def test_export_then_cleared_storage_then_import_gives_every_game_back_once() -> None:
    lib = full_library()
    exported = run(export_steps(lib, 1_764_720_000_000.0))
    before = {r.id: r for r in lib.entries()}
    order = lib.recent()
    lib.store.data.clear()  # "clear site data"
    fresh = library(lib.store)
    report = run(Importer(exported.text, fresh).steps())
    assert report.refused is None and report.problems == []
    assert (report.added, report.already, report.beside) == (6, 0, 0)
    after = {r.id: r for r in fresh.entries()}
    assert set(after) == set(before) - {"empty"}
    for game_id, record in after.items():
        assert same(record, before[game_id]), game_id
    assert after["later"].unknown == {"mood": "calm"}
    assert fresh.recent() == [g for g in order if g != "empty"]  # the list's order too
    # Puzzle progress, rating and the record against the computer follow.
    assert Progress.load(fresh.store.get(PUZZLES_KEY)).results == {"5g-1": "solved",
                                                                   "5g-2": "failed"}
    assert RatingBook.load(fresh.store.get(RATING_KEY)).dump() == RatingBook.load(
        exported_value(exported, "sos-puzzle-rating")).dump()
    assert read_since(fresh.store.get(STATS_KEY)) == 1_600_000_000_000.0
    assert tally(fresh.entries()) == tally(before.values())
    assert [t.games for t in tally(fresh.entries())] == [1]
    # A second import adds nothing and writes nothing.
    stored = dict(fresh.store.data)
    again = run(Importer(exported.text, fresh).steps())
    assert (again.added, again.already, again.problems) == (0, 6, [])
    assert fresh.store.data == stored
    assert [m.text("en") for m in again.messages()][:2] == ["0 games added.",
                                                           "6 games were already here."]


def exported_value(exported: Exported, kind: str) -> str:
    """The line of ``kind`` in an exported file, as its stored value (``v`` 1)."""
    for line in exported.text.splitlines():
        data = json.loads(line)
        if data["format"] == kind:
            del data["format"], data["version"]
            return json.dumps({"v": 1, **data})
    raise AssertionError(kind)


def test_the_file_format() -> None:
    lib = full_library()
    lib.store.set(GAME_PREFIX + "cut", '{"format":"sos-game","version":2,"id":"cut","ro')
    newer = json.dumps({"format": "sos-game", "version": 3, "id": "nw", "whatever": [1]})
    lib.store.set(GAME_PREFIX + "nw", newer)
    exported = run(export_steps(lib, 1_764_720_000_000.0))
    lines = exported.text.split("\n")
    assert lines[-1] == "" and all(lines[:-1])  # one object a line, a final newline
    rows = [json.loads(line) for line in lines[:-1]]
    assert rows[0] == {"format": "sos-library", "version": 1, "exported": 1_764_720_000_000.0,
                       "games": 7}  # fmt: skip
    assert [r["format"] for r in rows[1:4]] == ["sos-puzzles", "sos-puzzle-rating", "sos-stats"]
    assert all(r["version"] == 1 for r in rows[1:4])
    games = rows[4:]
    assert len(games) == 7 and all("token" not in g for g in games[:-1])
    assert [g["id"] for g in games] == ["plain", "named", "reviewed", "remote", "vs", "later", "nw"]
    assert games[-1] == json.loads(newer)  # a newer version's entry, as stored
    assert "empty" not in [g["id"] for g in games] and "cut" not in [g["id"] for g in games]
    assert (exported.games, exported.left_out) == (7, 1)
    for text in lines[5:-2]:
        load_game(text)  # every game line is a valid sos-game version 2
    assert [m.text("en") for m in exported.messages("sos-games-2026-12-03.jsonl")] == [
        "7 games exported to sos-games-2026-12-03.jsonl.",
        "1 damaged entry was left out: it can be downloaded from the list.",
    ]
    assert file_name(date(2026, 12, 3)) == "sos-games-2026-12-03.jsonl"


def file_of(*records: GameRecord, games: int | None = None, extra: tuple[str, ...] = ()) -> str:
    head = {"format": "sos-library", "version": 1, "exported": 1.0,
            "games": len(records) if games is None else games}  # fmt: skip
    lines = [json.dumps(head), *extra, *(dump_game(r) for r in records)]
    return "\n".join(lines) + "\n"


def test_merge_rules() -> None:
    lib = library()
    lib.create(game("same", (A1, B1)))
    lib.create(game("further", (A1, B1, C1)))  # played on here after the export
    lib.create(game("differs", (A1, D4)))
    lib.store.set(GAME_PREFIX + "broken", "{cut")
    text = file_of(
        game("same", (A1, B1)),
        game("further", (A1, B1)),
        game("differs", (A1, B1)),
        game("broken", (C1,)),
        game("twice", (A3,)),
        game("twice", (A3,)),  # the same game twice in one file: once
        game("twice", (D4,)),  # another game with that id: beside it
        game("shown", (C1,)),  # the id of the tab's unsaved game
        game("fresh", (A1,)),
    )
    before = {r.id: dump_game(r) for r in lib.entries()}
    report = run(Importer(text, lib, reserved=frozenset({"shown"})).steps())
    assert (report.added, report.beside, report.already) == (6, 4, 3)
    for game_id, text_before in before.items():  # nothing stored was written over
        assert dump_game(lib.get(game_id)) == text_before  # type: ignore[arg-type]
    assert lib.raw("broken") == "{cut"
    assert lib.get("shown") is None and lib.get("fresh") is not None
    lines = sorted(encode(r) for r in lib.entries())
    assert lines == sorted(["Sa1Ob1", "Sa1Ob1Sc1", "Sa1Od4", "Sa1Ob1", "Sc1", "Sa3", "Od4",
                            "Sc1", "Sa1"])  # fmt: skip
    assert [m.text("en") for m in report.messages()] == [
        "6 games added.",
        "4 of them differ from the games here with the same ids: both are kept.",
        "3 games were already here.",
    ]


def encode(record: GameRecord) -> str:
    return "".join(f"{a.letter}{'abcdefgh'[a.col]}{a.row + 1}" for a in record.line)


NOTHING = "Nothing was imported."
HOSTILE = [
    ("binary", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + "\ufffd" * 50, "is not text"),
    ("junk", "".join(random.Random(1).choices("{}[]:,ab \"\n", k=5 * 1024 * 1024)),
     "not a SOS library file"),
    ("newer", '{"format":"sos-library","version":2,"games":1}\n{"a":1}\n',
     "newer version of SOS (library format version 2)"),
    ("other json", '{"format":"sos-puzzles","version":1}\n', "not a SOS library file"),
    ("empty", "\n\n  \n", "This file is empty"),
    ("a single game", dump_game(game("one")), "not a SOS library file"),
]


@pytest.mark.parametrize(("name", "text", "says"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_file_is_refused_whole_and_changes_nothing(
    name: str, text: str, says: str
) -> None:
    lib = full_library()
    stored = dict(lib.store.data)
    report = run(Importer(text, lib).steps())
    assert report.refused is not None
    said = [m.text("en") for m in report.messages()]
    assert len(said) == 1 and says in said[0] and said[0].endswith(NOTHING), said
    assert lib.store.data == stored
    assert report.refused.text("de")  # said in the page's language too


def test_a_file_too_big_is_refused_before_it_is_read() -> None:
    assert size_refused(MAX_FILE_BYTES) is None
    refused = size_refused(MAX_FILE_BYTES + 1)
    assert refused is not None
    assert refused.text("en") == ("This file is too big to be a SOS library (17 MB; at most 16 MB)."
                                  " Nothing was imported.")  # fmt: skip


def test_damaged_and_newer_lines_are_set_aside_one_by_one() -> None:
    lib = library()
    good = [game(f"good{n}", (A1,)) for n in range(3)]
    bad_move = dump_game(game("illegal", (A1,))).replace('"Sa1"', '"Sa1Sa1"')
    newer = json.dumps({"format": "sos-game", "version": 3, "id": "nw"})
    lines = [
        json.dumps({"format": "sos-library", "version": 1, "games": 6}),
        dump_game(good[0]),
        dump_game(good[1])[:40],  # cut
        bad_move,
        newer,
        '{"format":"sos-chess","version":1}',
        "[1, 2, 3]",
        json.dumps({"format": "sos-puzzles", "version": 9}),
        json.dumps({"format": "sos-puzzle-rating", "version": 1, "r": "high"}),
        dump_game(good[2]),
        "x" * 300_000,
    ]
    report = run(Importer("\r\n".join(lines), lib).steps())  # CRLF line ends too
    assert report.added == 2 and {r.id for r in lib.entries()} == {"good0", "good2"}
    listed = [m.text("en") for m in report.listed()]
    assert listed == [
        "Line 3: not imported: the line cannot be read (cut or changed?)",
        "Line 4: not imported: move 2 (S@a1) of the shared game is not legal",
        "Line 5: not imported: saved by a newer version of SOS (format version 3); reload the"
        " page to update, then import the file again",
        "Line 6: not imported: an entry of a kind this version does not know (sos-chess)",
        "Line 7: not imported: the line cannot be read (cut or changed?)",
        "Line 8: not imported: saved by a newer version of SOS (format version 9); reload the"
        " page to update, then import the file again",
        "Line 9: not imported: a damaged entry (sos-puzzle-rating)",
        "Line 11: not imported: longer than any entry SOS writes",
    ]
    said = [m.text("en") for m in report.messages()]
    assert said == ["2 games added.", "8 lines were set aside (nothing of them was written):"]
    assert report.listed()[0].text("de").startswith("Zeile 3:")
    assert lib.store.get(PUZZLES_KEY) is None and lib.store.get(RATING_KEY) is None


def test_many_bad_lines_are_listed_up_to_a_limit_and_counted() -> None:
    text = file_of(games=0) + "junk\n" * (MAX_LISTED + 30)
    report = run(Importer(text, library()).steps())
    assert len(report.problems) == MAX_LISTED and report.more == 30
    assert report.listed()[-1].text("en") == "… and 30 more lines."


def test_a_cut_file_says_so_and_keeps_what_it_holds() -> None:
    lib = library()
    report = run(Importer(file_of(game("a"), game("b"), games=5), lib).steps())
    assert report.added == 2
    said = report.messages()[-1].text("en")
    assert said == "The file ends early: it announces 5 games and holds 2."


def progress_of(text: str) -> list[tuple[int, int]]:
    """What an import of ``text`` yields for its progress, step by step."""
    steps, said = Importer(text, library()).steps(), []
    while True:
        try:
            said.append(next(steps))
        except StopIteration:
            return said


def test_the_progress_counts_games_as_the_report_does() -> None:
    """The progress counts games, the unit of the report, out of the games the header announces
    (not the file's lines: "line 8002 of 8002" for 8000 games and a header), the extra lines
    (puzzle progress) and a damaged game line included, up to "N of N"; a cut file ends below
    its count, as its report says; a file holding more than its header announces, or a header
    without a count, never reads "N + 1 of N"."""
    records = [game(f"g{n}") for n in range(30)]
    extra = json.dumps({"format": "sos-puzzles", "version": 1, "results": {}, "days": {}})
    text = file_of(*records, extra=(extra,)).replace(dump_game(records[7]), "junk")
    said = progress_of(text)
    assert said[0] == (0, 30) and said[-1] == (30, 30)
    assert all(total == 30 for _done, total in said)
    assert [done for done, _total in said] == sorted(done for done, _total in said)
    assert progress_of(file_of(*records[:2], games=5))[-1] == (2, 5)
    assert progress_of(file_of(*records[:4], games=2))[-1] == (4, 4)
    headless = file_of(*records[:3]).replace(',"games": 3', "").replace(', "games": 3', "")
    assert '"games"' not in headless
    assert progress_of(headless) == [(1, 3), (2, 3), (3, 3), (3, 3)]
    assert import_progress(1200, 8000).text("en") == "Importing: 1200 of 8000 games…"
    assert import_progress(1, 1).text("en") == "Importing: 1 of 1 game…"
    assert import_progress(1200, 8000).text("de") == "Importiere: 1200 von 8000 Spielen …"
    assert import_progress(1, 1).text("de") == "Importiere: 1 von 1 Spiel …"
    assert import_progress(3, 5).text("ar") == "جارٍ الاستيراد: 3 من 5 ألعاب…"


def test_export_progress_counts_games_with_plural_forms() -> None:
    """The export's progress in the page's language, singular for one game (it read "1 of 1
    games")."""
    assert export_progress(1200, 8000).text("en") == "Exporting: 1200 of 8000 games…"
    assert export_progress(1, 1).text("en") == "Exporting: 1 of 1 game…"
    assert export_progress(1, 1).text("de") == "Exportiere: 1 von 1 Spiel …"
    assert export_progress(2, 3).text("de") == "Exportiere: 2 von 3 Spielen …"
    assert export_progress(3, 5).text("ar") == "جارٍ التصدير: 3 من 5 ألعاب…"


def test_full_storage_writes_whole_games_and_a_second_import_adds_the_rest() -> None:
    """Storage full: what did not fit is said, nothing half written; with room again the same
    file adds only what did not fit."""
    records = [game(f"g{n:03}", (A1, B1, C1)) for n in range(120)]
    text = file_of(*records)
    store = MemoryStore(quota=30_000)
    lib = library(store)
    report = run(Importer(text, lib).steps())
    assert report.storage == "full" and 0 < report.added < 120
    assert report.added + report.not_fitted == 120
    # Nothing half written: each game key holds a whole game, and the index lists exactly them.
    keys = sorted(k for k in store.data if k.startswith(GAME_PREFIX))
    assert len(keys) == report.added
    for key in keys:
        load_game(store.data[key])
    assert sorted(lib.summaries()) == [k[len(GAME_PREFIX):] for k in keys]
    assert lib.count() == report.added
    said = report.messages()[-1].text("en")
    assert said.startswith(f"Storage is full: {report.not_fitted} games did not fit")
    # Room again: importing the same file adds only what did not fit.
    store.quota = None
    again = run(Importer(text, library(store)).steps())
    assert (again.added, again.already, again.beside) == (report.not_fitted, report.added, 0)
    assert library(store).count() == 120


def test_games_after_the_storage_filled_up_are_counted_as_not_fitted() -> None:
    """Storage that fills up in the first batches of a long file: the games of the batches
    read after it are counted as not fitted too, and said so (tests/e2e/test_backup.py's
    200-game case, moved here: the test above fills up in its last batch)."""
    records = [game(f"g{n:03}", (A1, B1, C1)) for n in range(200)]
    store = MemoryStore(quota=12_000)
    report = run(Importer(file_of(*records), library(store)).steps())
    assert report.storage == "full" and 0 < report.added < 200 - 2 * BATCH
    assert report.added + report.not_fitted == 200
    said = report.messages()[-1].text("en")
    assert said.startswith(f"Storage is full: {200 - report.added} games did not fit and were")


def test_storage_refused_during_an_import() -> None:
    class Refusing(MemoryStore):
        def set(self, key: str, value: str) -> None:
            from sos.app.saving.library import StorageError

            raise StorageError("refused")

    report = run(Importer(file_of(game("a"), game("b")), library(Refusing())).steps())
    assert (report.added, report.not_fitted, report.storage) == (0, 2, "refused")
    assert report.messages()[-1].text("en") == (
        "This browser does not let the page save: 2 games were not imported.")


def test_puzzle_progress_rating_and_reset_merge() -> None:
    here = Progress({"a": "failed", "b": "solved", "c": "failed"}, {"2026-12-01": "failed"})
    theirs = Progress({"a": "solved", "b": "failed", "d": "failed"},
                      {"2026-12-01": "solved", "2026-12-02": "solved"})  # fmt: skip
    merged = merge_progress(here, theirs)
    assert merged.results == {"a": "solved", "b": "solved", "c": "failed", "d": "failed"}
    assert merged.days == {"2026-12-01": "failed", "2026-12-02": "solved"}
    # The rating with more rated puzzles wins whole; a damaged one here is never written over.
    lib = library()
    mine = RatingBook()
    mine.record("p1", 3, True, 1.0)
    lib.store.set(RATING_KEY, mine.dump())
    file_book = RatingBook()
    for n in range(3):
        file_book.record(f"q{n}", 5, True, float(n))
    line = json.loads(file_book.dump())
    del line["v"]
    rating_line = json.dumps({"format": "sos-puzzle-rating", "version": 1, **line})
    report = run(Importer(file_of(extra=(rating_line,)), lib).steps())
    assert lib.store.get(RATING_KEY) == file_book.dump()
    assert [m.text("en") for m in report.notes] == ["Puzzle rating taken from the file."]
    report = run(Importer(file_of(extra=(rating_line,)), lib).steps())
    assert [m.text("en") for m in report.notes] == [
        "The puzzle rating here is kept: it counts more rated puzzles than the file’s."]
    lib.store.set(RATING_KEY, '{"v": 2}')
    lib.store.set(PUZZLES_KEY, "{damaged")
    progress_line = json.dumps({"format": "sos-puzzles", "version": 1, "results": {"a": "solved"},
                                "days": {}})  # fmt: skip
    report = run(Importer(file_of(extra=(rating_line, progress_line)), lib).steps())
    assert lib.store.get(RATING_KEY) == '{"v": 2}' and lib.store.get(PUZZLES_KEY) == "{damaged"
    assert [m.text("en") for m in report.listed()] == [
        "Line 2: not merged: the one saved here cannot be read by this version and is left as"
        " it is",
        "Line 3: not merged: the one saved here cannot be read by this version and is left as"
        " it is",
    ]
    # The later reset of the record wins.
    lib.store.set(STATS_KEY, dump_since(50.0))
    for since, kept in ((10.0, 50.0), (90.0, 90.0)):
        stats_line = json.dumps({"format": "sos-stats", "version": 1, "since": since})
        run(Importer(file_of(extra=(stats_line,)), lib).steps())
        assert read_since(lib.store.get(STATS_KEY)) == kept


def test_every_message_of_a_report_is_translated() -> None:
    report = ImportReport(added=3, beside=1, already=2, not_fitted=4, storage="full",
                          cut=(9, 8), more=2)  # fmt: skip
    report.problems.append(run_problem())
    for lang in ("en", "de", "fr", "es", "pt", "el", "tr", "hi", "ar"):
        texts = [m.text(lang) for m in report.messages() + report.listed()]
        assert all(texts) and len(texts) == 8


def run_problem() -> Any:
    report = run(Importer(file_of(games=0) + "junk\n", library()).steps())
    return report.problems[0]


def big_file(games: int) -> str:
    rng = random.Random(7)
    records = []
    for n in range(games):
        state = decode_moves("", Rules.square(6))
        for _ in range(rng.randint(4, 36)):
            state.apply(rng.choice(state.legal_actions()))
        line = tuple(state.history)
        records.append(game(f"big{n}", line, 6, seats=("human", "hard"),
                            created=1.6e12 + n))  # fmt: skip
    return file_of(*records)


def test_a_large_file_imports_in_short_steps() -> None:
    """2000 games: every step (what the page runs between two returns to the browser, at
    most a slice of them) stays short, and the whole import is a few seconds of CPU at most
    (CPython; the page's figures at 10 000 games: benchmarks/RESULTS.md)."""
    text = big_file(2000)
    lib = library()
    steps = Importer(text, lib).steps()
    # The test process's own objects (pytest's, the other tests' under xdist) are frozen out of
    # the collector: a collection that scans them is not the import's cost (it landed in one
    # step as 131 ms once). The import's own objects are still collected as they come.
    gc.collect()
    gc.freeze()
    try:
        longest, started = 0.0, time.process_time()
        while True:
            before = time.process_time()
            try:
                next(steps)
            except StopIteration as stop:
                report = stop.value
                break
            longest = max(longest, time.process_time() - before)
        total = time.process_time() - started
    finally:
        gc.unfreeze()
    assert report.added == 2000 and lib.count() == 2000
    assert longest < 0.05 and total < 4.0, (longest, total)
    assert BATCH <= 50  # a step writes at most one batch


def test_export_of_a_large_library_is_stepwise_too() -> None:
    lib = library()
    run(Importer(big_file(500), lib).steps())
    steps = export_steps(lib, 1.0)
    done = [next(steps) for _ in range(3)]
    assert done == [(1, 500), (2, 500), (3, 500)]
    exported = run(steps)
    assert exported.games == 500


def test_a_report_said_while_the_list_is_closed_stays_until_seen() -> None:
    """An import that ends while "Your games" is closed keeps its report for the next opening
    (fresh-clone CI: it was cleared by that opening, never seen); one seen goes at the next
    opening; an opening while one runs keeps nothing old."""
    box, said, listed = ReportBox(), [message("backup.file.empty")], [message("backup.more")]
    box.say(said, listed, list_open=False)
    box.opened(running=False)
    assert box.said == said and box.listed == listed  # seen now
    box.opened(running=False)
    assert box.said == [] and box.listed == []  # seen before: gone
    box.say(said, [], list_open=True)
    box.opened(running=False)
    assert box.said == []
    box.say(said, [], list_open=False)
    box.clear()  # another import starts
    box.opened(running=True)
    assert box.said == []
