"""The browser layer: the only code that imports ``pyscript``/``js``. Loaded by PyScript."""
