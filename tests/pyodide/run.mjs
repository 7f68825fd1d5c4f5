// Run a Python program inside Pyodide under Node, after installing requirements with micropip.
//
//   node run.mjs PYODIDE_DIR OWN_WHEELS_DIR INDEX_URL REQUIREMENTS_FILE PROGRAM_FILE [DATA_FILE...]
//
// The wheels in OWN_WHEELS_DIR stand in for Pyodide's own packages (micropip, its packaging,
// and the packages Pyodide's set has, such as tqdm): they are unpacked into site-packages as
// installed, since Pyodide's package CDN is not reached.  Then every requirement line of
// REQUIREMENTS_FILE is installed by micropip.install(lines, deps=True) from the package index
// at INDEX_URL, as xlwings Lite installs its requirements.txt; each DATA_FILE is copied to
// /data/<its name>; PROGRAM_FILE runs and what it prints goes to stdout, followed by a JSON
// line {"timing": {...}}: the milliseconds Pyodide took to load and micropip to install, the
// CPU seconds until then and those of the whole run.
// A Python error exits with status 1, its traceback on stderr.
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, ownWheels, indexUrl, requirementsFile, programFile, ...dataFiles] =
  process.argv.slice(2);
const started = performance.now();
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const out = [];
const pyodide = await loadPyodide({
  indexURL: pyodideDir + "/",
  stdout: (line) => out.push(line),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const loaded = performance.now();
try {
  for (const name of readdirSync(ownWheels).filter((n) => n.endsWith(".whl"))) {
    pyodide.unpackArchive(new Uint8Array(readFileSync(join(ownWheels, name))), "wheel");
  }
  const lines = readFileSync(requirementsFile, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  pyodide.globals.set("requirements", pyodide.toPy(lines));
  pyodide.globals.set("index_url", indexUrl);
  await pyodide.runPythonAsync(
    "import micropip\n" +
      "await micropip.install(list(requirements), deps=True, index_urls=[index_url])",
  );
  const installed = performance.now();
  const startCpu = process.cpuUsage();
  pyodide.FS.mkdirTree("/data");
  for (const file of dataFiles) {
    pyodide.FS.writeFile("/data/" + basename(file), new Uint8Array(readFileSync(file)));
  }
  await pyodide.runPythonAsync(readFileSync(programFile, "utf8"));
  const cpu = process.cpuUsage();
  const timing = {
    load_ms: loaded - started,
    install_ms: installed - loaded,
    start_cpu_s: (startCpu.user + startCpu.system) / 1e6,
    cpu_s: (cpu.user + cpu.system) / 1e6,
  };
  out.push(JSON.stringify({ timing }));
} catch (error) {
  process.stderr.write(String(error.message ?? error) + "\n");
  process.exit(1);
}
process.stdout.write(out.join("\n") + "\n");
