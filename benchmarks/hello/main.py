"""Hello world on the self-hosted PyScript/Pyodide runtime; marks the page ready when done."""

import sys

from pyscript import document

message = f"Hello from Python {sys.version.split()[0]}"
print(message)
document.getElementById("out").textContent = message
document.documentElement.dataset.ready = "1"
