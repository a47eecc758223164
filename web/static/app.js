// The page: a scenario chosen or edited, run on as many Web Workers as
// the browser reports cores (each a range of chunks, as `--shard K/N`),
// merged in chunk order (as `woundsim merge`), and the CLI's reports.
import init, { builtins, builtin_text, bestiary, check, plan, Merger } from "./pkg/woundsim_web.js";
import { setupGm, gmRequest, textList } from "./gm.js";

const $ = (id) => document.getElementById(id);
const WASM_URL = new URL("./pkg/woundsim_web_bg.wasm", import.meta.url);

let module = null; // the compiled engine, shared with the workers
let workers = [];
let edited = false; // the editor's text differs from the built-in's
const added = new Map(); // the user's files beside the edited text, by name

// --- The request --------------------------------------------------------

function request() {
  const r = {};
  if (edited) {
    r.text = $("editor").value;
    if (added.size) r.files = Object.fromEntries(added);
  } else r.builtin = $("scenario").value;
  const trials = $("trials").value.trim();
  const seed = $("seed").value.trim();
  if (trials) r.trials = trials;
  if (seed) r.seed = seed;
  const layers = $("layers").value.split("\n").map((l) => l.trim()).filter((l) => l);
  if (layers.length) r.layers = layers;
  return JSON.stringify(r);
}

function message(e) {
  return String(e && e.message ? e.message : e);
}

// --- The fragment: `#run=NAME&trials=N&seed=S`, or `#toml=TEXT&...` ------

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return {
    run: params.get("run"),
    toml: params.get("toml"),
    trials: params.get("trials"),
    seed: params.get("seed"),
    layers: params.getAll("layer"),
  };
}

// The fragment of a request: a link that reproduces the run.
function fragmentOf(req) {
  const r = JSON.parse(req);
  const params = new URLSearchParams();
  if (r.text !== undefined) params.set("toml", r.text);
  else params.set("run", r.builtin);
  if (r.trials) params.set("trials", r.trials);
  if (r.seed) params.set("seed", r.seed);
  for (const l of r.layers || []) params.append("layer", l);
  return "#" + params.toString();
}

// --- The scenario and the editor -----------------------------------------

// The user's files, as chips with a remove button each.
function showFiles() {
  const list = $("file-list");
  list.replaceChildren();
  for (const name of added.keys()) {
    const li = document.createElement("li");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "×";
    remove.setAttribute("aria-label", `Remove ${name}`);
    remove.onclick = () => { added.delete(name); showFiles(); checkEditor(); };
    li.append(name, remove);
    list.append(li);
  }
}

// Adds the chosen files (read as text; the engine holds them to its limits
// and says which file and where when one cannot be read).
async function addFiles(input) {
  for (const file of input.files) added.set(file.name, await file.text());
  input.value = "";
  showFiles();
  edited = true;
  checkEditor();
}

function showPlan() {
  try {
    const p = JSON.parse(plan(request()));
    $("scenario-description").textContent = p.description;
    $("trials").placeholder = p.trials;
    $("seed").placeholder = p.seed;
    return p;
  } catch (e) {
    return null;
  }
}

function loadBuiltin(name) {
  $("editor").value = builtin_text(name);
  edited = false;
  renderGutter(null);
  $("editor-status").textContent = "The built-in text.";
  $("editor-status").className = "status";
  showPlan();
}

// The editor's line numbers, the lines in `bad` marked.
function renderGutter(bad) {
  const lines = $("editor").value.split("\n").length;
  const out = [];
  for (let i = 1; i <= lines; i++) {
    out.push(bad && bad.has(i) ? `<mark>${i}</mark>` : String(i));
  }
  $("gutter").innerHTML = out.join("\n");
}

let checkTimer = 0;
// Checks the editor's text (and the overrides) with the engine's parser,
// a moment after the last keystroke: every error at its line.
function checkEditor() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => {
    const status = $("editor-status");
    let out;
    try {
      out = JSON.parse(check(request()));
    } catch (e) {
      out = { problems: [{ message: message(e) }] };
    }
    if (out.plan) {
      const p = out.plan;
      renderGutter(null);
      status.textContent = `Valid: scenario \`${p.name}\`, ${p.variants.length} variant(s), ${p.trials} trials each.`;
      status.className = "status ok";
      $("scenario-description").textContent = p.description;
      return;
    }
    renderGutter(new Set(out.problems.filter((x) => x.line).map((x) => x.line)));
    status.replaceChildren(
      `${out.problems.length} error${out.problems.length === 1 ? "" : "s"}:`,
      textList(out.problems.map((x) => x.message)));
    status.className = "status bad";
  }, 150);
}

// --- Running ---------------------------------------------------------------

function formatSeconds(s) {
  if (!isFinite(s)) return "…";
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function si(x) {
  if (x >= 1e9) return (x / 1e9).toFixed(2) + " G";
  if (x >= 1e6) return (x / 1e6).toFixed(2) + " M";
  if (x >= 1e3) return (x / 1e3).toFixed(1) + " k";
  return x.toFixed(0);
}

function setRunning(running) {
  $("run").disabled = running;
  $("gm-run").disabled = running;
  $("cancel").disabled = !running;
  $("scenario").disabled = running;
  $("progress-box").hidden = false;
}

function stopWorkers() {
  for (const w of workers) w.terminate();
  workers = [];
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
  if (text) $("status-panel").hidden = false;
}

let lastRequest = null;

async function run(req) {
  showError("");
  let p;
  try {
    p = JSON.parse(plan(req));
  } catch (e) {
    showError(message(e));
    return;
  }
  lastRequest = req;
  history.replaceState(null, "", fragmentOf(req));
  $("share").disabled = false;
  const count = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, p.chunks));
  const started = new Date();
  const t0 = performance.now();
  let done = 0;
  const parts = [];
  $("progress").value = 0;
  $("status-panel").hidden = false;
  $("progress-text").textContent = `Starting ${count} worker(s)…`;
  $("results").hidden = true;
  setRunning(true);
  const finished = new Promise((resolve, reject) => {
    let left = count;
    for (let index = 0; index < count; index++) {
      const w = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      w.onmessage = (event) => {
        const m = event.data;
        if (m.type === "progress") {
          done += m.work;
          const elapsed = (performance.now() - t0) / 1000;
          const share = p.work > 0 ? done / p.work : 1;
          $("progress").value = share;
          const eta = share > 0 ? elapsed * (1 - share) / share : Infinity;
          $("progress-text").textContent =
            `${(100 * share).toFixed(1)}% — ${si(done)} of ${si(p.work)} trials × variants, ${formatSeconds(elapsed)} so far, about ${formatSeconds(eta)} left (${count} worker(s))`;
        } else if (m.type === "done") {
          parts.push(m.part);
          if (--left === 0) resolve();
        } else {
          reject(new Error(m.message));
        }
      };
      w.onerror = (event) => reject(new Error(event.message || "a worker failed"));
      w.postMessage({ module, request: req, index, count });
      workers.push(w);
    }
  });
  let cancelled = false;
  const cancel = new Promise((resolve) => {
    $("cancel").onclick = () => { cancelled = true; resolve(); };
  });
  try {
    await Promise.race([finished, cancel]);
    stopWorkers();
    if (cancelled) {
      $("progress-text").textContent = "Cancelled: nothing was kept.";
      return;
    }
    const seconds = (performance.now() - t0) / 1000;
    const merger = new Merger(req);
    for (const part of parts) merger.add(part);
    const out = JSON.parse(merger.finish(seconds, count, started.toISOString().replace(/\.\d+Z$/, "Z")));
    $("progress-text").textContent = `Done in ${formatSeconds(seconds)}.`;
    showResults(p, out, seconds, count);
  } catch (e) {
    stopWorkers();
    $("progress-text").textContent = "Failed.";
    showError(message(e));
  } finally {
    setRunning(false);
  }
}

// --- Results ---------------------------------------------------------------

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name.replaceAll("/", "_");
  a.textContent = name;
  return a;
}

// The report's links to its files (summary.csv, a chart's SVG or PNG,
// run.json) made downloads of the files the page holds.
function linkReport(frame, files) {
  const doc = frame.contentDocument;
  if (!doc) return;
  const byName = new Map(files.map((f) => [f.name, f]));
  for (const a of doc.querySelectorAll("a[href]")) {
    const name = a.getAttribute("href");
    if (name.startsWith("#")) continue;
    const svg = name.endsWith(".png") ? byName.get(name.replace(/\.png$/, ".svg")) : null;
    const file = byName.get(name);
    if (file) {
      const ext = name.split(".").pop();
      a.href = URL.createObjectURL(new Blob([file.text], { type: MIME[ext] || "text/plain" }));
      a.download = name.replaceAll("/", "_");
    } else if (svg) {
      a.href = "#";
      a.onclick = async (event) => {
        event.preventDefault();
        download(name, await pngOf(svg.text)).click();
      };
    }
  }
}

const MIME = { csv: "text/csv", svg: "image/svg+xml", html: "text/html", json: "application/json" };

// A PNG of an SVG chart, drawn by the browser (the engine draws none here).
async function pngOf(svgText) {
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  await new Promise((resolve, reject) => { img.onload = resolve; img.onerror = reject; img.src = url; });
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth || 1280;
  canvas.height = img.naturalHeight || 760;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0);
  URL.revokeObjectURL(url);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

function showVerdicts(verdicts) {
  const box = $("verdicts");
  box.replaceChildren();
  for (const v of verdicts) {
    const div = document.createElement("div");
    div.className = "verdict";
    const h = document.createElement("h4");
    h.textContent = v.heading;
    div.append(h, textList(v.lines));
    box.append(div);
  }
}

function showResults(p, out, seconds, count) {
  const files = out.files;
  showVerdicts(out.verdicts);
  const rate = p.work / seconds;
  $("run-line").textContent =
    `Scenario ${p.name}: ${p.trials} trials × ${p.variants.length} variant(s), seed ${p.seed}, in ${formatSeconds(seconds)} on ${count} worker(s) (${si(rate)} trials/s).`;
  const list = $("downloads");
  list.replaceChildren();
  for (const f of files) {
    const ext = f.name.split(".").pop();
    const li = document.createElement("li");
    li.append(download(f.name, new Blob([f.text], { type: MIME[ext] || "text/plain" })));
    if (ext === "svg") {
      const png = document.createElement("button");
      png.type = "button";
      png.className = "link";
      png.textContent = "PNG";
      png.onclick = async () => {
        const a = download(f.name.replace(/\.svg$/, ".png"), await pngOf(f.text));
        a.click();
      };
      li.append(" · ", png);
    }
    list.append(li);
  }
  // The charts, first of all for the game master: each SVG as drawn.
  const charts = $("charts");
  charts.replaceChildren();
  for (const f of files.filter((f) => f.name.endsWith(".svg"))) {
    const img = document.createElement("img");
    img.src = URL.createObjectURL(new Blob([f.text], { type: "image/svg+xml" }));
    img.alt = `Chart ${f.name}`;
    img.loading = "lazy";
    charts.append(img);
  }
  const summary = files.find((f) => f.name === "summary.csv");
  $("summary-csv").textContent = summary ? summary.text : "";
  const report = files.find((f) => f.name === "index.html");
  $("report").onload = () => linkReport($("report"), files);
  $("report").srcdoc = report ? report.text : "";
  $("results").hidden = false;
}

// --- Start -------------------------------------------------------------------

async function start() {
  module = await WebAssembly.compileStreaming(fetch(WASM_URL));
  await init({ module_or_path: module });
  const select = $("scenario");
  for (const b of JSON.parse(builtins())) {
    const option = document.createElement("option");
    option.value = b.name;
    option.textContent = `${b.name} (${b.kind.replaceAll("_", " ")})`;
    select.append(option);
  }
  select.onchange = () => loadBuiltin(select.value);
  $("editor").addEventListener("input", () => { edited = true; checkEditor(); });
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  $("revert").onclick = () => loadBuiltin(select.value);
  $("layers").addEventListener("input", checkEditor);
  $("files").onchange = (e) => addFiles(e.target);
  $("trials").addEventListener("input", showPlan);
  $("seed").addEventListener("input", showPlan);
  $("run-form").onsubmit = (event) => { event.preventDefault(); run(request()); };
  $("tab-gm").onclick = () => showView("gm");
  $("tab-designer").onclick = () => showView("designer");
  setupGm(JSON.parse(bestiary()));
  $("gm-form").onsubmit = (event) => {
    event.preventDefault();
    try { run(gmRequest()); } catch (e) { showError(message(e)); }
  };
  $("share").onclick = async () => {
    const url = location.href.split("#")[0] + fragmentOf(lastRequest);
    const files = Object.keys(JSON.parse(lastRequest).files || {});
    const note = files.length ? ` It does not carry your files (${files.join(", ")}): add them again after opening it.` : "";
    try { await navigator.clipboard.writeText(url); $("progress-text").textContent = `Link copied.${note}`; }
    catch { prompt("The link to this run:", url); }
  };
  const f = readFragment();
  if (f.run || f.toml) showView("designer");
  if (f.run && [...select.options].some((o) => o.value === f.run)) select.value = f.run;
  loadBuiltin(select.value);
  if (f.layers.length) $("layers").value = f.layers.join("\n");
  if (f.toml) {
    $("editor").value = f.toml;
    edited = true;
    $("editor-box").open = true;
    checkEditor();
  }
  if (f.trials) $("trials").value = f.trials;
  if (f.seed) $("seed").value = f.seed;
  showPlan();
  if (f.run || f.toml) run(request());
}

function showView(view) {
  const gm = view === "gm";
  $("gm-panel").hidden = !gm;
  $("run-panel").hidden = gm;
  $("tab-gm").setAttribute("aria-pressed", String(gm));
  $("tab-designer").setAttribute("aria-pressed", String(!gm));
}

start().catch((e) => showError(`The engine did not load: ${message(e)}`));

// Offline once loaded (sw.js); where service workers are unavailable
// (a file: URL, a private window) the page simply needs its host.
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("sw.js").catch(() => {});
}
