#!/usr/bin/env node
// Check static/vendor/sos-python.zip (scripts/bytecode.mjs) under the Pyodide the page runs:
// unpacked the way PyScript unpacks a [files] archive, it holds every sos/ source as it is in the
// repository, with a pyc of it, and pycs of PyScript's own package (the modules its start imports)
// that match the sources PyScript writes; every engine module imports from its pyc (nothing compiled from source), and a
// source edited after the build is compiled from source instead (checked-hash pycs never run
// stale code).
//
// Usage: node tests/pyodide/check_bytecode.mjs   (after node scripts/build.mjs)
// Prints "bytecode: ok ..." and exits 0, or prints the problem and exits 1.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";
import { PYTHON_ZIP as zip, pyscriptSources, sources } from "../../scripts/bytecode.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const HOME = "/home/pyodide";

if (!existsSync(zip)) {
  console.error(`check_bytecode: ${relative(root, zip)} is missing: run node scripts/build.mjs`);
  process.exit(1);
}

const pyodide = await loadPyodide();
const files = sources();
// PyScript 0.7 writeFile() for `"<x>.zip" = "./*"`: unpackArchive(buffer, "zip", {extractDir: "./"})
pyodide.FS.mkdirTree(HOME);
pyodide.FS.chdir(HOME);
pyodide.unpackArchive(new Uint8Array(readFileSync(zip)).buffer, "zip", { extractDir: "./" });
const missing = files.filter((file) => {
  try {
    return !Buffer.from(pyodide.FS.readFile(`${HOME}/${file}`)).equals(readFileSync(join(root, file)));
  } catch {
    return true;
  }
});
if (missing.length) {
  console.error(`check_bytecode: the zip lacks (or holds another version of) ${missing.join(", ")}: rebuild`);
  process.exit(1);
}
// PyScript's package, written where and as PyScript writes it at start (its core's stdlib)
const theirs = await pyscriptSources();
pyodide.FS.mkdirTree(`${HOME}/pyscript`);
for (const [file, text] of theirs) pyodide.FS.writeFile(`${HOME}/${file}`, text);
// those of its modules that its start imports have a pyc (scripts/bytecode.mjs); __init__ at least
const started = theirs
  .map(([file]) => file)
  .filter((file) => {
    const pyc = pyodide.runPython(`import importlib.util; importlib.util.cache_from_source(${JSON.stringify(file)})`);
    return pyodide.FS.analyzePath(`${HOME}/${pyc}`).exists;
  });
if (!started.includes("pyscript/__init__.py")) {
  console.error("check_bytecode: no pyc of PyScript's pyscript/__init__.py in the zip");
  process.exit(1);
}
pyodide.globals.set("files", pyodide.toPy([...files, ...started]));
try {
  const report = pyodide.runPython(`
import importlib, importlib.machinery, importlib.util, os, sys

sys.path.insert(0, ${JSON.stringify(HOME)})
sys.dont_write_bytecode = True
problems = []
for file in files:  # a checked-hash pyc (PEP 552 flags = 3) of this very source, for each .py
    cached = importlib.util.cache_from_source(file)
    if not os.path.exists(cached):
        problems.append(f"no {cached} in the zip")
        continue
    with open(cached, "rb") as handle:
        header = handle.read(16)
    with open(file, "rb") as handle:
        source = handle.read()
    if header[:4] != importlib.util.MAGIC_NUMBER:
        problems.append(f"{cached}: magic {header[:4]!r} is not this Python's")
    elif int.from_bytes(header[4:8], "little") != 3:
        problems.append(f"{cached}: not a checked-hash pyc")
    elif header[8:16] != importlib.util.source_hash(source):
        problems.append(f"{cached}: stale (source changed since the build: rebuild)")

compiled = []
original = importlib.machinery.SourceFileLoader.source_to_code

def counting(self, data, path, **kwargs):
    compiled.append(os.path.relpath(path))
    return original(self, data, path, **kwargs)

importlib.machinery.SourceFileLoader.source_to_code = counting
engine = [f[:-3].replace("/", ".").removesuffix(".__init__") for f in files if f.startswith("sos/") and not f.startswith("sos/web/")]
for name in engine:
    importlib.import_module(name)
if compiled:
    problems.append(f"compiled from source despite the zip: {compiled}")

# An edit after the build: the pyc no longer matches, so the edited source runs.
with open("sos/rules.py", "a", encoding="utf-8") as handle:
    handle.write("\\nEDITED_AFTER_BUILD = True\\n")
for name in [m for m in sys.modules if m == "sos" or m.startswith("sos.")]:
    del sys.modules[name]
compiled.clear()
import sos.rules
if not getattr(sos.rules, "EDITED_AFTER_BUILD", False) or "sos/rules.py" not in compiled:
    problems.append("an edited source did not replace its stale pyc")
"; ".join(problems) or f"ok: {len(files)} pycs match their sources (PyScript's included); {len(engine)} engine modules imported without compiling; a stale pyc is ignored"
`);
  console.log(`bytecode: ${report}`);
  process.exit(report.startsWith("ok") ? 0 : 1);
} catch (error) {
  console.error(`check_bytecode: ${error.message ?? error}`);
  process.exit(1);
}
