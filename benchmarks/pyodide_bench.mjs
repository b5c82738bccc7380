#!/usr/bin/env node
// Run benchmarks/bench_ai.py under Pyodide in Node: the same Python (3.14) the browser uses.
//
// Usage (from any directory):  node benchmarks/pyodide_bench.mjs [SECTIONS]
//                              node benchmarks/pyodide_bench.mjs --script FILE.py [ARGS...]
// SECTIONS defaults to playouts,hard,perfect; --script runs another script (e.g.
// benchmarks/runtime_floor.py) the same way, with sys.argv = [FILE.py, ARGS...]. Copies sos/ (without sos/web/, which needs the
// browser) and the book into the Pyodide file system, as tests/pyodide/run_engine_tests.mjs does.
// Prints the figures and a final `JSON {...}` line (read by bench_ai.py --sections pyodide).

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const HOME = "/home/pyodide";
const script = process.argv[2] === "--script" ? resolve(process.argv[3]) : null;
const sections = script ? null : (process.argv[2] ?? "playouts,hard,perfect");

function engineFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "__pycache__" || relative(root, path) === join("sos", "web")) continue;
      out.push(...engineFiles(path));
    } else if (entry.name.endsWith(".py") || entry.name.endsWith(".txt")) {
      out.push(path);
    }
  }
  return out;
}

const pyodide = await loadPyodide({ stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
for (const src of [...engineFiles(join(root, "sos")), join(root, "benchmarks", "bench_ai.py")]) {
  const dest = `${HOME}/${relative(root, src).split(sep).join("/")}`;
  pyodide.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
  pyodide.FS.writeFile(dest, readFileSync(src));
}
const prelude = `
import os, sys
os.chdir(${JSON.stringify(HOME)})
sys.path.insert(0, ${JSON.stringify(HOME)})
sys.path.insert(0, ${JSON.stringify(HOME + "/benchmarks")})
sys.dont_write_bytecode = True
`;
if (script) {
  const dest = `${HOME}/__script__/${script.split(sep).pop()}`;
  pyodide.FS.mkdirTree(`${HOME}/__script__`);
  pyodide.FS.writeFile(dest, readFileSync(script));
  pyodide.globals.set("ARGV", pyodide.toPy([dest, ...process.argv.slice(4)]));
  await pyodide.runPythonAsync(`${prelude}
import runpy
sys.argv = list(ARGV)
runpy.run_path(sys.argv[0], run_name="__main__")
`);
} else {
  await pyodide.runPythonAsync(`${prelude}
import bench_ai
bench_ai.main(["--sections", ${JSON.stringify(sections)}])
`);
}
