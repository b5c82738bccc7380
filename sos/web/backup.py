"""Export and import of the whole library in "Your games" (``[data-testid=games-export]``,
``[data-testid=games-import]``), and what the dialog says about keeping it
(:mod:`sos.web.keep`). The file format and the merge rules are :mod:`sos.app.backup`'s; this
module reads the chosen file, offers the exported one as a download, and runs the work in time
slices of at most :data:`~sos.web.computer.SLICE_SECONDS`, each under the library's Web Lock
(other tabs write between two slices, never inside one), with a progress bar when it takes
more than a moment."""

from __future__ import annotations

import asyncio
import codecs
import gc
import time
from collections.abc import Callable, Generator
from datetime import date
from typing import Any, TypeVar

from pyodide.ffi import to_js
from pyscript import window

from sos.app.app import AppSession
from sos.app.backup import (
    MEDIA_TYPE,
    Importer,
    ReportBox,
    export_progress,
    export_steps,
    file_name,
    import_progress,
    size_refused,
)
from sos.app.text.message import Message, message
from sos.web import dialogs
from sos.web.computer import SLICE_SECONDS
from sos.web.dom import by_id, element
from sos.web.guard import spawn
from sos.web.keep import KeepPanel
from sos.web.store import with_lock

#: Work shorter than this shows no progress bar (seconds).
PROGRESS_AFTER = 0.25
#: A chosen file is read in pieces of this many bytes, one task each (a 3 MB file read and
#: turned into a Python string at once is one long task).
CHUNK_BYTES = 256 * 1024

T = TypeVar("T")


def locked(task: Callable[[], None]) -> asyncio.Future[None]:
    """Run ``task`` under the library's Web Lock (:func:`~sos.web.store.with_lock`); the
    future is done when it has run."""
    done: asyncio.Future[None] = asyncio.get_event_loop().create_future()

    def run() -> None:
        try:
            task()
        except Exception as error:
            if not done.done():
                done.set_exception(error)
            return
        if not done.done():
            done.set_result(None)

    with_lock(run)
    return done


async def read_text(chosen: Any) -> str:
    """The text of the file ``chosen`` (a ``File``), read in :data:`CHUNK_BYTES` pieces and
    decoded as UTF-8 (bytes that are not UTF-8 become U+FFFD, as ``File.text()`` does)."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    parts = []
    size = int(chosen.size)
    for start in range(0, size, CHUNK_BYTES):
        buffer = await chosen.slice(start, start + CHUNK_BYTES).arrayBuffer()
        parts.append(decoder.decode(buffer.to_bytes()))
    parts.append(decoder.decode(b"", final=True))
    return "".join(parts)


def today() -> date:
    """The device's local date (the browser's clock and time zone)."""
    now = window.Date.new()
    return date(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))


def download(name: str, content: str) -> None:
    """Offer the library file ``content`` as ``name`` (:data:`MEDIA_TYPE`)."""
    dialogs.download(name, content, MEDIA_TYPE)


def _in_view(node: Any) -> None:
    """Scroll ``node`` into view inside the dialog, as little as needed."""
    node.scrollIntoView(to_js({"block": "nearest"}, dict_converter=window.Object.fromEntries))


class BackupPanel:
    """The export, import and keep parts of "Your games".

    Args:
        app: the tab's session; render_games: redraws the list (after an import);
        imported: called after an import (e.g. the puzzle panel reads its progress again).
    """

    def __init__(
        self, app: AppSession, render_games: Callable[[], None], imported: Callable[[], None]
    ) -> None:
        self.app = app
        self.render_games = render_games
        self.imported = imported
        self.keep = KeepPanel(app, self.show_status)
        self.running = False
        self.box = ReportBox()  # the last report, kept until seen (sos.app.backup)
        self._row_height = 0  # the progress row's height when last brought into view (px)

    def listen(self, on: Callable[[Any, str, Callable[[Any], object]], None]) -> None:
        """Attach the buttons' handlers (``on``: the page's :meth:`~sos.web.host.Host.on`)."""
        on(by_id("games-export"), "click", lambda _e: self._start(self._export()))
        on(by_id("games-import"), "click", self.on_import)
        on(by_id("games-import-file"), "change", self.on_file)

    def on_import(self, _event: Any) -> None:
        """Import: choose a file (not while an export or import runs)."""
        if not self.running:
            by_id("games-import-file").click()

    def shown(self) -> None:
        """ "Your games" was opened: say whether the library is kept (and ask, once). The last
        export's or import's report goes once it was seen: an import that ended while the list
        was closed keeps its report (what was added, what was set aside) for this opening."""
        self.box.opened(self.running)
        if not self.box.said:
            by_id("games-backup-message").replaceChildren()
        self.keep.games_opened()
        self.show_status()

    def game_saved(self) -> None:
        """After a save of the game shown (a finished game asks the browser to keep)."""
        self.keep.game_saved()

    def show_status(self) -> None:
        spawn(self._status())

    async def _status(self) -> None:
        said = await self.keep.status()
        by_id("games-keep").textContent = said.text(self.app.lang)

    # ------------------------------------------------------------------ the work
    def _start(self, work: Any) -> None:
        if self.running:
            work.close()
            return
        self.running = True
        self._available(False)
        self.box.clear()
        by_id("games-backup-message").replaceChildren()
        spawn(self._guarded(work))

    async def _guarded(self, work: Any) -> None:
        try:
            await work
        finally:
            self.running = False
            self._available(True)
            by_id("games-progress-row").hidden = True
            report = by_id("games-backup-message")
            if by_id("games-dialog").open and report.firstChild:
                _in_view(report)  # the report, where the progress bar was

    @staticmethod
    def _available(yes: bool) -> None:
        """Export and Import available, or not while one runs: aria-disabled, not disabled, so
        the one pressed keeps the focus (a disabled button lost it to <body>, and the next Tab
        ringed the games list) and a screen reader says it is unavailable."""
        for name in ("games-export", "games-import"):
            if yes:
                by_id(name).removeAttribute("aria-disabled")
            else:
                by_id(name).setAttribute("aria-disabled", "true")

    async def _sliced(
        self,
        steps: Generator[tuple[int, int], None, T],
        say: Callable[[int, int], Message],
        alone: Callable[[], bool] = lambda: False,
    ) -> T:
        """Run ``steps`` to its end in slices under the lock, with a progress bar after
        :data:`PROGRESS_AFTER` seconds (``say(done, total)``: its text, of what ``steps``
        yields); its return value. A step for which ``alone()`` is True
        before it runs gets a slice of its own."""
        started = time.perf_counter()
        result: list[T] = []
        done = [(0, 0)]

        def one_slice() -> None:
            deadline = time.perf_counter() + SLICE_SECONDS
            first = True
            try:
                while time.perf_counter() < deadline:
                    heavy = alone()
                    if heavy and not first:
                        return
                    done[0] = next(steps)
                    if heavy:
                        return
                    first = False
            except StopIteration as stop:
                result.append(stop.value)

        # No cyclic garbage collection meanwhile: a collection of the app's heap takes tens of
        # ms in one task (measured in the page), and the work makes no cycles (its objects go
        # by reference counting); collections resume after it.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while not result:
                await locked(one_slice)
                if not result and time.perf_counter() - started > PROGRESS_AFTER:
                    self._progress(say, *done[0])
                await asyncio.sleep(0)
        finally:
            if collecting:
                gc.enable()
        return result[0]

    def _progress(self, say: Callable[[int, int], Message], done: int, total: int) -> None:
        row = by_id("games-progress-row")
        bar = by_id("games-progress")
        bar.max = max(total, 1)
        bar.value = done
        by_id("games-progress-text").textContent = say(done, total).text(self.app.lang)
        if row.hidden:
            row.hidden = False
            self._row_height = 0
        # In view when it appears, and again when its text grows to a second line ("Importiere:
        # 140 von 1500 Spielen …" at 320 px): a 320 x 420 frame had it below the dialog's fold.
        height = int(row.offsetHeight)
        if height > self._row_height:
            self._row_height = height
            _in_view(row)

    def _say(self, said: list[Message], listed: list[Message] | None = None) -> None:
        self.box.say(said, listed or [], bool(by_id("games-dialog").open))
        box = by_id("games-backup-message")
        box.replaceChildren()
        for one in self.box.said:
            box.appendChild(element("p", "", one.text(self.app.lang)))
        if self.box.listed:
            items = element("ul", "games-set-aside")
            items.dataset.testid = "games-import-problems"
            for one in self.box.listed:
                items.appendChild(element("li", "", one.text(self.app.lang)))
            box.appendChild(items)

    async def _export(self) -> None:
        steps = export_steps(self.app.library, float(window.Date.now()))
        exported = await self._sliced(steps, export_progress)
        name = file_name(today())
        download(name, exported.text)
        self._say(exported.messages(name))

    def on_file(self, _event: Any) -> None:
        chooser = by_id("games-import-file")
        files = chooser.files
        if not files or not files.length:
            return
        chosen = files.item(0)
        chooser.value = ""  # the same file chosen again is another import
        self._start(self._import(chosen))

    async def _import(self, chosen: Any) -> None:
        refused = size_refused(int(chosen.size))
        if refused is not None:
            self._say([refused])
            return
        try:
            text = await read_text(chosen)
        except Exception:  # the file went away, or the browser cannot read it
            self._say([message("backup.file.unreadable")])
            return
        app = self.app
        shown = app.game.record.id
        reserved: frozenset[str] = frozenset({shown} if app.library.summary(shown) is None else ())
        importer = Importer(text, app.library, reserved)
        report = await self._sliced(
            importer.steps(), import_progress, lambda: importer.writes_next
        )
        self._say(report.messages(), report.listed())
        self.render_games()
        self.imported()
