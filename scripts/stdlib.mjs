#!/usr/bin/env node
// The trimmed standard library of the page (issue 16): static/vendor/pyodide/sos-stdlib.zip,
// derived at build time by scripts/stdlib_zip.py inside the very Pyodide the page runs (what
// Pyodide's start imports + every import statement of sos/, static/app.py and PyScript's own
// Python, + stdlib_zip.LAZY, with what those import in turn). pyodide-snap.mjs passes it to
// loadPyodide as `stdLibURL`; the memory snapshot is made with it (scripts/snapshot.mjs), since
// a restored interpreter keeps the zip's directory (zipimport) from the build.
// Pyodide's full python_stdlib.zip stays in static/vendor/ for the hello-world baseline of
// benchmarks/bench_boot.py; the site (scripts/site.mjs) does not ship it.
//
// Usage: node scripts/stdlib.mjs   (build.mjs calls buildStdlib() before the snapshot)

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const STDLIB_ZIP = join(root, "static", "vendor", "pyodide", "sos-stdlib.zip");
// What the derivation imported, one "<module> <file in the zip | frozen | built-in>" a line
// (tests/tools/test_stdlib_zip.py reads it; .txt: not part of the site).
export const STDLIB_MODULES = join(root, "static", "vendor", "sos-stdlib-modules.txt");
const PYSCRIPT_PY = join(root, "node_modules", "@pyscript", "core", "src", "stdlib");

function walk(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") found.push(...walk(path));
    else if (entry.isFile() && entry.name.endsWith(".py")) found.push(path);
  }
  return found.sort();
}

export async function buildStdlib(out = STDLIB_ZIP) {
  const pyodide = await loadPyodide();
  const files = [];
  const roots = [];
  const copy = (path, base, where) => {
    const dest = `${where}/${relative(base, path).split(sep).join("/")}`;
    pyodide.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    pyodide.FS.writeFile(dest, readFileSync(path));
    files.push(dest);
    roots.push(where);
  };
  for (const path of [...walk(join(root, "sos")), join(root, "static", "app.py")]) copy(path, root, "/page");
  for (const path of walk(PYSCRIPT_PY)) copy(path, PYSCRIPT_PY, "/pyscript-src");
  if (!files.some((f) => f.startsWith("/pyscript-src/pyscript/"))) {
    throw new Error(`stdlib: no PyScript Python sources under ${relative(root, PYSCRIPT_PY)}`);
  }
  // What the page does before any of its Python runs: PyScript unpacks the [files] zip
  // (pyodide.unpackArchive: shutil, zipfile, the cp437 codec), so the modules it needs are
  // recorded too.
  pyodide.unpackArchive(new Uint8Array(readFileSync(join(root, "static", "vendor", "sos-python.zip"))), "zip", {
    extractDir: "/page",
  });
  // The Python half is scripts/stdlib_zip.py, imported (not evaluated as a string).
  pyodide.FS.mkdirTree("/stdlib-tools");
  pyodide.FS.writeFile("/stdlib-tools/stdlib_zip.py", readFileSync(join(root, "scripts", "stdlib_zip.py")));
  pyodide.pyimport("sys").path.insert(0, "/stdlib-tools");
  const proxy = pyodide.pyimport("stdlib_zip").build(pyodide.toPy(files), pyodide.toPy(roots), "/sos-stdlib.zip");
  const lines = proxy.toJs();
  proxy.destroy();
  writeFileSync(STDLIB_MODULES, lines.join("\n") + "\n");
  const count = lines.filter((line) => !/ (frozen|built-in)$/.test(line)).length;
  const bytes = pyodide.FS.readFile("/sos-stdlib.zip");
  writeFileSync(out, bytes);
  const full = statSync(join(root, "node_modules", "pyodide", "python_stdlib.zip")).size;
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(
    `stdlib: ${count} modules -> ${relative(root, out)} (${kib(bytes.length)}; ` +
      `python_stdlib.zip ${kib(full)})`,
  );
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildStdlib();
