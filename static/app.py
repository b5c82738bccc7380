"""PyScript entry point of index.html: starts the app by importing it as a module.

PyScript compiles a ``<script type="py" src=...>`` from source on every start; a module comes
from the checked-hash bytecode the build ships (static/vendor/sos-python.zip, see
scripts/bytecode.mjs). So the app lives in sos/web/main.py and this file only imports it;
``APP`` is the running app, for tests that inspect it.

When the interpreter was restored from the build's memory snapshot (scripts/snapshot.mjs),
``sos.web.snapshot`` is already imported: it reseeds ``random`` and drops any pre-imported
``sos`` module whose source differs from the served file, before the app is imported.
"""

import sys

_snapshot = sys.modules.get("sos.web.snapshot")
if _snapshot is not None and (_stale := _snapshot.after_restore()):
    from js import console

    console.warn(f"SOS: memory snapshot older than the served {', '.join(_stale)}; reloaded")

from sos.web.main import main  # noqa: E402

APP = await main()  # noqa: F704  (PyScript runs this file with top-level await)
