// Run a Python program inside Pyodide under Node, with a wheel installed by micropip.
//
//   node run.mjs PYODIDE_DIR WHEELS_DIR PACKAGE_WHEEL PROGRAM_FILE [DATA_FILE...]
//
// The wheels in WHEELS_DIR (micropip, packaging, openpyxl...) are unpacked into site-packages
// (no network); PACKAGE_WHEEL is copied into Pyodide's file system and installed with
// micropip.install("emfs:...", deps=False), as xlwings Lite installs a wheel named in
// requirements.txt; each DATA_FILE is copied to /data/<its name>; then PROGRAM_FILE runs and
// what it prints is written to stdout. A Python error exits with status 1, its traceback on
// stderr.
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir, packageWheel, programFile, ...dataFiles] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const out = [];
const pyodide = await loadPyodide({
  indexURL: pyodideDir + "/",
  stdout: (line) => out.push(line),
  stderr: (line) => process.stderr.write(line + "\n"),
});
try {
  for (const name of readdirSync(wheelsDir).filter((n) => n.endsWith(".whl"))) {
    pyodide.unpackArchive(new Uint8Array(readFileSync(join(wheelsDir, name))), "wheel");
  }
  pyodide.FS.mkdirTree("/wheels");
  const target = "/wheels/" + basename(packageWheel);
  pyodide.FS.writeFile(target, new Uint8Array(readFileSync(packageWheel)));
  await pyodide.runPythonAsync(
    `import micropip\nawait micropip.install("emfs:${target}", deps=False)`,
  );
  pyodide.FS.mkdirTree("/data");
  for (const file of dataFiles) {
    pyodide.FS.writeFile("/data/" + basename(file), new Uint8Array(readFileSync(file)));
  }
  await pyodide.runPythonAsync(readFileSync(programFile, "utf8"));
} catch (error) {
  process.stderr.write(String(error.message ?? error) + "\n");
  process.exit(1);
}
process.stdout.write(out.join("\n") + "\n");
