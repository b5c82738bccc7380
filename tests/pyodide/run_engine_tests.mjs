#!/usr/bin/env node
// Run the engine's rule cases under Pyodide in Node: the same Python (3.14) the browser uses.
//
// Usage (from any directory):
//   node tests/pyodide/run_engine_tests.mjs [CASES_FILE]
// CASES_FILE defaults to $SOS_RULE_CASES or tests/rule_cases.py. It is a plain module of
// top-level functions named case_*, each using `assert`; every one is called in turn.
// Every sos/**/*.py except sos/web/ (which needs the browser's `js`/`pyscript`) is copied
// into the Pyodide file system as /home/pyodide/sos/...

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const casesPath = resolve(process.argv[2] ?? process.env.SOS_RULE_CASES ?? join(root, "tests", "rule_cases.py"));
const HOME = "/home/pyodide";

function fail(message) {
  console.error(`run_engine_tests: ${message}`);
  process.exit(2);
}

function pythonFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "__pycache__") continue;
      if (relative(root, path) === join("sos", "web")) continue;
      out.push(...pythonFiles(path));
    } else if (entry.isFile() && entry.name.endsWith(".py")) {
      out.push(path);
    }
  }
  return out.sort();
}

const sosDir = join(root, "sos");
if (!existsSync(sosDir)) fail(`no engine package at ${sosDir}`);
if (!existsSync(casesPath)) fail(`no rule cases at ${casesPath}`);
if (!basename(casesPath).endsWith(".py")) fail(`cases file must be a .py file: ${casesPath}`);

const started = Date.now();
const pyodide = await loadPyodide({ stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
const bootSeconds = ((Date.now() - started) / 1000).toFixed(1);

const sources = pythonFiles(sosDir);
for (const src of sources) {
  const dest = `${HOME}/${relative(root, src).split(sep).join("/")}`;
  pyodide.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
  pyodide.FS.writeFile(dest, readFileSync(src));
}
const moduleName = basename(casesPath, ".py");
pyodide.FS.writeFile(`${HOME}/${moduleName}.py`, readFileSync(casesPath));

const runner = `
import importlib, inspect, os, sys, time, traceback
os.chdir(${JSON.stringify(HOME)})
sys.path.insert(0, ${JSON.stringify(HOME)})
sys.dont_write_bytecode = True
print(f"Python {sys.version.split()[0]} ({sys.platform}) under Pyodide; boot ${bootSeconds} s; ${sources.length} engine files")
module = importlib.import_module(${JSON.stringify(moduleName)})
cases = [
    (name, fn)
    for name, fn in vars(module).items()
    if name.startswith("case_") and inspect.isfunction(fn) and fn.__module__ == module.__name__
]
passed = failed = 0
t0 = time.perf_counter()
for name, fn in cases:
    try:
        fn()
    except BaseException:
        failed += 1
        print(f"FAIL {name}: {traceback.format_exc().rstrip()}")
    else:
        passed += 1
        print(f"PASS {name}")
print(f"ran {len(cases)} cases in {time.perf_counter() - t0:.2f} s")
(passed, failed)
`;

let passed = 0;
let failed = 0;
try {
  const result = await pyodide.runPythonAsync(runner);
  [passed, failed] = result.toJs();
  result.destroy();
} catch (error) {
  console.error(`run_engine_tests: could not run ${casesPath}:\n${error.message ?? error}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}
console.log(`${passed} passed, ${failed} failed`);
if (passed + failed === 0) console.error("run_engine_tests: no case_* functions found");
process.exit(failed > 0 || passed + failed === 0 ? 1 : 0);
