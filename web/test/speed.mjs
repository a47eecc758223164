// Throughput of the page against the native CLI on the same thread count
// (docs/web.md, "Speed"): each scenario run once in headless Chromium
// (its workers: as many as the browser reports cores) and once by
// `woundsim run --threads N`, N the same count; prints a Markdown table.
//
// Usage (after web/build.sh and `cargo build --release`):
//   node web/test/speed.mjs [NAME:TRIALS ...]
import { createServer } from "node:http";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, dirname, extname, resolve, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const dist = join(root, "web/dist");
const cli = process.env.WOUNDSIM || join(root, "target/release/woundsim");
const runs = process.argv.slice(2).length ? process.argv.slice(2)
  : ["death-saves:20000000", "combat-hobgoblins:200000", "campaign-healing-settings:20000"];
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
  const file = join(dist, path);
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" }).end(body);
  } catch { res.writeHead(404).end(); }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.WOUNDSIM_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage();
console.log("| scenario (trials a variant) | page | workers | native CLI, same threads | page / native |");
console.log("|---|---|---|---|---|");
for (const run of runs) {
  const [name, trials] = run.split(":");
  await page.goto(`${base}/index.html#run=${name}&trials=${trials}&seed=1`);
  await page.reload();
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 600_000 });
  const line = await page.locator("#run-line").textContent();
  const seconds = Number(/in ([\d.]+) s/.exec(line)?.[1]);
  const workers = Number(/on (\d+) worker/.exec(line)[1]);
  const plan = await page.evaluate(() => document.getElementById("progress-text").textContent);
  const out = await mkdtemp(join(tmpdir(), "woundsim-speed-"));
  execFileSync(cli, ["run", name, "--trials", trials, "--seed", "1", "--threads", String(workers), "--out", out, "--quiet"]);
  const info = JSON.parse(await readFile(join(out, "run.json"), "utf8"));
  await rm(out, { recursive: true, force: true });
  const native = info.scenarios[0].trials_per_second;
  const variants = info.scenarios[0].variants.length;
  const web = (Number(trials) * variants) / seconds;
  const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M/s` : `${(x / 1e3).toFixed(1)} k/s`);
  console.log(`| ${name} (${trials}) | ${fmt(web)} (${seconds.toFixed(1)} s) | ${workers} | ${fmt(native)} (${info.scenarios[0].wall_seconds.toFixed(1)} s) | ${(web / native).toFixed(2)} | ${plan}`);
}
await browser.close();
server.close();
