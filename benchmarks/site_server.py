"""A local static server for the built site that behaves like GitHub Pages and counts bytes.

Used by ``benchmarks/bench_bytes.py`` (bytes per phase) and ``benchmarks/bench_boot.py`` (times),
and by the browser tests that count requests at the server (tests/e2e/test_offline.py).

- **gzip** level 6 on the fly for the types GitHub Pages compresses (text, JavaScript, JSON,
  wasm, TOML, SVG, manifests; not zip, gz or png), as Pages does (``compress=False``: none, as
  ``python -m http.server`` and many self-hosted servers);
- **validators and caching**, in one of two flavours: ``"pages"`` (GitHub Pages:
  ``Cache-Control: max-age=600``, an ``ETag`` per file, ``304`` to a matching ``If-None-Match``)
  or ``"plain"`` (``python -m http.server``: ``Last-Modified``, no ``Cache-Control``, ``304`` to
  ``If-Modified-Since``), so that a test can show a behaviour holds under both;
- **a log** of every response: path (query string kept), status, body bytes sent (after gzip,
  headers not counted), the time it was sent (``time.time()``, comparable with a page's
  ``performance.timeOrigin + performance.now()``), for counting per phase and finding a file
  fetched twice.
"""

from __future__ import annotations

import contextlib
import email.utils
import functools
import gzip
import hashlib
import http.server
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".toml": "application/toml",
    ".py": "text/x-python",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".css": "text/css",
    ".html": "text/html",
    ".txt": "text/plain",
    ".mo": "application/octet-stream",
    ".gz": "application/gzip",
}
#: Types GitHub Pages serves gzip-compressed (it compresses on the fly; zip/gz/png are not).
GZIP_TYPES = (
    "text/",
    "application/javascript",
    "application/json",
    "application/wasm",
    "application/toml",
    "image/svg+xml",
    "application/manifest+json",
)


@functools.cache
def _compressed(path: str, mtime: float) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


@functools.cache
def _etag(path: str, mtime: float) -> str:
    return '"' + hashlib.sha1(Path(path).read_bytes()).hexdigest()[:16] + '"'


@dataclass
class Hit:
    """One response: ``path`` with its query, HTTP ``status``, ``bytes`` of body sent, ``at``
    (``time.time()`` when sent, in seconds)."""

    path: str
    status: int
    bytes: int
    at: float


@dataclass
class Log:
    """Every response of a server, in order."""

    hits: list[Hit] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, hit: Hit) -> None:
        with self.lock:
            self.hits.append(hit)

    def since(self, start: float, end: float = float("inf")) -> list[Hit]:
        with self.lock:
            return [h for h in self.hits if start <= h.at < end]

    def clear(self) -> None:
        with self.lock:
            self.hits.clear()


def duplicates(hits: list[Hit]) -> dict[str, int]:
    """Paths (query string dropped) whose body was sent more than once (a 304 sends none)."""
    counts: dict[str, int] = {}
    for hit in hits:
        if hit.status == 200:
            path = hit.path.split("?", 1)[0]
            counts[path] = counts.get(path, 0) + 1
    return {path: n for path, n in counts.items() if n > 1}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves ``directory`` like GitHub Pages (``flavour`` "pages") or ``python -m http.server``
    (``flavour`` "plain"), gzip as Pages, every response logged in ``log``."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}  # noqa: RUF012
    protocol_version = "HTTP/1.1"

    def __init__(
        self,
        *args: Any,
        log: Log,
        flavour: str = "pages",
        mounts: dict[str, Path] | None = None,
        compress: bool = True,
        **kwargs: Any,
    ) -> None:
        self.log, self.flavour, self.mounts = log, flavour, mounts or {}
        self.compress = compress
        super().__init__(*args, **kwargs)

    def handle(self) -> None:
        with contextlib.suppress(ConnectionError):  # a tab closed mid-response
            super().handle()

    def translate_path(self, path: str) -> str:
        plain = path.split("?", 1)[0]
        for prefix, target in self.mounts.items():
            if plain == prefix or plain.startswith(prefix.rstrip("/") + "/"):
                rest = plain[len(prefix) :].lstrip("/")
                if target.is_dir():
                    return str(target / (rest or "index.html"))
                return str(target)
        return super().translate_path(path)

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            self.send_error(404)
            self._record(404, 0)
            return None
        stat = os.stat(path)
        kind = self.guess_type(path)
        etag = _etag(path, stat.st_mtime)
        modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        fresh = False
        if self.flavour == "pages":
            fresh = etag in self.headers.get("If-None-Match", "")
        else:
            since = self.headers.get("If-Modified-Since")
            if since and "If-None-Match" not in self.headers:
                with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
                    fresh = (
                        int(stat.st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp()
                    )
        compress = (
            self.compress
            and "gzip" in self.headers.get("Accept-Encoding", "")
            and kind.startswith(GZIP_TYPES)
        )
        if fresh:
            self.send_response(304)
            self._validators(etag, modified)
            self.send_header("Content-Length", "0")
            self.end_headers()
            self._record(304, 0)
            return None
        body = _compressed(path, stat.st_mtime) if compress else Path(path).read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", kind)
        if compress:
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self._validators(etag, modified)
        self.end_headers()
        self._record(200, len(body) if self.command != "HEAD" else 0)
        return _Body(body)

    def _validators(self, etag: str, modified: str) -> None:
        if self.flavour == "pages":
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", "max-age=600")
        self.send_header("Last-Modified", modified)

    def _record(self, status: int, size: int) -> None:
        self.log.add(Hit(self.path, status, size, time.time()))

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Body:
    """A file-like body for ``SimpleHTTPRequestHandler.copyfile``."""

    def __init__(self, data: bytes) -> None:
        self.data, self.offset = data, 0

    def read(self, size: int = -1) -> bytes:
        end = len(self.data) if size < 0 else self.offset + size
        chunk, self.offset = self.data[self.offset : end], min(end, len(self.data))
        return chunk

    def close(self) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


def serve(
    directory: Path,
    *,
    flavour: str = "pages",
    mounts: dict[str, Path] | None = None,
    host: str = "127.0.0.1",
    compress: bool = True,
) -> tuple[str, Log, Callable[[], None]]:
    """Start a server for ``directory``; returns (base URL, its log, a function that stops it).

    ``mounts`` maps URL prefixes to other files or folders (the hello page of bench_boot);
    ``compress=False`` sends every body as it is on disk.
    """
    log = Log()
    handler = functools.partial(
        SiteHandler,
        directory=str(directory),
        log=log,
        flavour=flavour,
        mounts=mounts,
        compress=compress,
    )
    server = _Server((host, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def stop() -> None:
        server.shutdown()
        server.server_close()

    return f"http://{host}:{server.server_address[1]}/", log, stop
