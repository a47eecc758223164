// Throughput of the page against the native CLI on the same thread count
// (docs/web.md, "Speed"): each scenario run once in headless Chromium
// (its workers: as many as the browser reports cores) and once by
// `woundsim run --threads N`, N the same count; prints a Markdown table.
//
// Usage (after web/build.sh and `cargo build --release`):
//   node web/test/speed.mjs [NAME:TRIALS ...]
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, launch, runFromLink, cli } from "./serve.mjs";

const runs = process.argv.slice(2).length ? process.argv.slice(2)
  : ["death-saves:20000000", "combat-hobgoblins:200000", "campaign-healing-settings:20000"];
const { server, base } = await serve();
const browser = await launch();
const page = await browser.newPage();
console.log("| scenario (trials a variant) | page | workers | native CLI, same threads | page / native |");
console.log("|---|---|---|---|---|");
for (const run of runs) {
  const [name, trials] = run.split(":");
  await runFromLink(page, base, name, trials, 1);
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
