"""PyScript entry point of index.html: starts the app by importing it as a module.

PyScript compiles a ``<script type="py" src=...>`` from source on every start; a module comes
from the checked-hash bytecode the build ships (static/vendor/sos-bytecode.zip, see
scripts/bytecode.mjs). So the app lives in sos/web/main.py and this file only imports it;
``APP`` is re-exported for tests that inspect the running app.
"""

from sos.web.main import APP  # noqa: F401  (importing it starts the game)
