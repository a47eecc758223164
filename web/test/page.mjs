// The web page in a real browser (Debian's Chromium, driven by
// playwright-core): the page served from web/dist/ over a local HTTP
// server runs built-in scenarios from the URL fragment, and its
// summary.csv must be byte for byte the command line's for the same
// scenario, trials and seed; the editor shows a validation error at its
// line; cancel stops a run within about a second; at 375 and 1280 pixels
// nothing reaches past the right edge outside a scrolling box.
//
// Usage (after web/build.sh and `cargo build --release`):
//   node web/test/page.mjs
// Environment: WOUNDSIM (the CLI, default target/release/woundsim),
// WOUNDSIM_CHROMIUM (default /usr/bin/chromium), WOUNDSIM_WEB_SCREENSHOTS
// (a folder: write a screenshot of each view there).
import { readFile, writeFile, mkdtemp, rm, mkdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { serve, launch, runFromLink, cli } from "./serve.mjs";

const shots = process.env.WOUNDSIM_WEB_SCREENSHOTS;

// The CLI's summary.csv for a built-in scenario, trials and seed.
async function cliSummary(name, trials, seed, extra = []) {
  const out = await mkdtemp(join(tmpdir(), "woundsim-web-"));
  try {
    execFileSync(cli, ["run", name, "--trials", String(trials), "--seed", String(seed), "--out", out, "--quiet", ...extra], { stdio: ["ignore", "ignore", "inherit"] });
    return await readFile(join(out, "summary.csv"), "utf8");
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

// Elements reaching past the right edge outside a scrolling box.
function overflow(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (/(auto|scroll|hidden)/.test(s.overflowX) && p !== document.documentElement && p !== document.body) return true;
      }
      return false;
    };
    const out = [];
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1 && !scrolls(el) && !el.classList.contains("visually-hidden")) {
        out.push(`${el.tagName.toLowerCase()}#${el.id} right=${Math.round(r.right)} > ${width}`);
      }
    }
    if (document.documentElement.scrollWidth > width + 1) out.push(`page scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    return out;
  });
}

const checks = [];
function check(name, fn) { checks.push({ name, fn }); }

// Runs a built-in scenario from its link and by the CLI: the same
// summary.csv, byte for byte.
async function sameAsCli(page, base, name, trials, seed) {
  const [web, native] = await Promise.all([
    runFromLink(page, base, name, trials, seed),
    cliSummary(name, trials, seed),
  ]);
  assert.ok(native.length > 100);
  assert.equal(web, native);
}

check("death-saves: summary.csv is the CLI's, byte for byte", async ({ page, base }) => {
  await sameAsCli(page, base, "death-saves", 200000, 7);
});

check("a small campaign: summary.csv is the CLI's, byte for byte", async ({ page, base }) => {
  await sameAsCli(page, base, "campaign-healing-settings", 200, 3);
  const report = page.frameLocator("#report");
  const charts = await report.locator("svg").count();
  // The report's links reach the page's files; run.json is among them.
  assert.match(await report.locator('a[download="summary.csv"]').first().getAttribute("href"), /^blob:/);
  assert.ok((await page.locator("#downloads a").allTextContents()).includes("run.json"));
  assert.ok(charts > 0, "the report in the page shows its charts");
  const drawn = await page.locator("#charts img").evaluateAll((imgs) => imgs.map((i) => i.complete && i.naturalWidth > 0));
  assert.ok(drawn.length > 0 && drawn.every(Boolean), `every chart above the report is drawn: ${drawn}`);
});

check("--set and --scan lines in the link: summary.csv is the CLI's with the same arguments", async ({ page, base }) => {
  const layers = ["--set roll=advantage", "--scan dc=10:12:1"];
  const fragment = layers.map((l) => `&layer=${encodeURIComponent(l)}`).join("");
  await page.goto(`${base}/index.html#run=death-saves&trials=50000&seed=5${fragment}`);
  await page.reload();
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 120_000 });
  assert.equal(await page.locator("#error").textContent(), "");
  assert.equal(await page.locator("#layers").inputValue(), layers.join("\n"));
  const native = await cliSummary("death-saves", 50000, 5, layers.flatMap((l) => l.split(" ")));
  assert.equal(await page.locator("#summary-csv").textContent(), native);
});

check("the editor shows a validation error at its line", async ({ page, base }) => {
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => document.getElementById("scenario").options.length > 0);
  await page.locator("#tab-designer").click();
  await page.locator("#editor-box summary").click();
  await page.locator("#editor").fill('version = 1\nname = "x"\ntype = "death_saves"\ndescription = "a test"\ntrials = "many"\nseed = 1\n');
  await page.waitForFunction(() => document.getElementById("editor-status").classList.contains("bad"));
  const status = await page.locator("#editor-status").textContent();
  assert.match(status, /:5:\d+/, `an error names line 5: ${status}`);
  const marked = await page.locator("#gutter mark").allTextContents();
  assert.ok(marked.includes("5"), `line 5 is marked: ${marked}`);
  // Fixed, the text is valid again.
  await page.locator("#editor").fill('version = 1\nname = "x"\ntype = "death_saves"\ndescription = "a test"\ntrials = 1000\nseed = 1\n');
  await page.waitForFunction(() => document.getElementById("editor-status").classList.contains("ok"));
  assert.equal(await page.locator("#gutter mark").count(), 0);
});

check("the game master's form: a verdict, and the CLI's summary.csv for the same scenario", async ({ page, base }) => {
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => document.getElementById("pool").children.length > 0);
  await page.locator("#end-level").fill("3");
  await page.locator("#gm-trials").fill("300");
  await page.locator("#gm-seed").fill("11");
  await page.locator("#gm-run").click();
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 300_000 });
  assert.equal(await page.locator("#error").textContent(), "");
  const verdicts = await page.locator("#verdicts .verdict").count();
  assert.ok(verdicts >= 1, "the verdict is shown");
  assert.match(await page.locator("#verdicts h4").first().textContent(), /harsh/);
  // The link reproduces the run: the fragment holds the scenario's text.
  const toml = new URLSearchParams(new URL(page.url()).hash.slice(1)).get("toml");
  assert.ok(toml && toml.includes('type = "campaign"'));
  const dir = await mkdtemp(join(tmpdir(), "woundsim-web-"));
  try {
    await writeFile(join(dir, "my-campaign.toml"), toml);
    execFileSync(cli, ["run", join(dir, "my-campaign.toml"), "--out", join(dir, "out"), "--quiet"], { stdio: ["ignore", "ignore", "inherit"] });
    const native = await readFile(join(dir, "out/summary.csv"), "utf8");
    assert.equal(await page.locator("#summary-csv").textContent(), native);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const fixtures = new URL("../../tests/data/import/", import.meta.url).pathname;

// Runs `toml` by the CLI with `files` (name → path of a fixture) beside
// it: its summary.csv.
async function cliWithFiles(toml, files) {
  const dir = await mkdtemp(join(tmpdir(), "woundsim-web-"));
  try {
    await writeFile(join(dir, "s.toml"), toml);
    for (const [name, path] of Object.entries(files)) await writeFile(join(dir, name), await readFile(path));
    execFileSync(cli, ["run", join(dir, "s.toml"), "--out", join(dir, "out"), "--quiet"], { stdio: ["ignore", "ignore", "inherit"] });
    return await readFile(join(dir, "out/summary.csv"), "utf8");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

check("the game master's form: an imported character sheet joins the party, as the CLI reads it", async ({ page, base }) => {
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => document.getElementById("pool").children.length > 0);
  // A monster's file is not a character: the error says so, nothing is added.
  await page.locator("#import-pc").setInputFiles(join(fixtures, "foundry-owlbear.json"));
  await page.waitForFunction(() => !document.getElementById("import-error").hidden);
  assert.match(await page.locator("#import-error").textContent(), /foundry-owlbear\.json:1:1.*not a character sheet/);
  assert.equal(await page.locator("#party .pc").count(), 4);
  const sheet = "dndbeyond-character-fighter.json";
  await page.locator("#import-pc").setInputFiles(join(fixtures, sheet));
  await page.waitForFunction(() => document.querySelectorAll("#party .pc").length === 5);
  assert.equal(await page.locator("#import-error").isHidden(), true);
  assert.match(await page.locator("#party .imported span").textContent(), /fighter 5 \(D&D Beyond sheet\)/);
  await page.locator("#end-level").fill("3");
  await page.locator("#gm-trials").fill("200");
  await page.locator("#gm-seed").fill("5");
  await page.locator("#gm-run").click();
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 300_000 });
  assert.equal(await page.locator("#error").textContent(), "");
  const toml = new URLSearchParams(new URL(page.url()).hash.slice(1)).get("toml");
  assert.ok(toml.includes(`{ fixed = { import = "${sheet}" }`), toml);
  const web = await page.locator("#summary-csv").textContent();
  assert.ok(toml.includes(`name = "Brom"`), toml);
  assert.equal(web, await cliWithFiles(toml, { [sheet]: join(fixtures, sheet) }));
});

check("the editor runs a scenario with the user's own bestiary file, as the CLI does", async ({ page, base }) => {
  const toml = [
    "version = 1", 'name = "own-owlbear"', 'type = "combat"',
    'description = "Two PCs against the 5etools owlbear"', "trials = 2000", "seed = 4",
    'bestiary = ["5etools-srd.json"]', "", "[options]",
    'party = [{ template = "fighter-3" }, { template = "cleric-3" }]',
    'monsters = [{ creature = "owlbear" }]', "",
  ].join("\n");
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => document.getElementById("scenario").options.length > 0);
  await page.locator("#tab-designer").click();
  await page.locator("#editor-box summary").click();
  await page.locator("#editor").fill(toml);
  // Without the file: an error at the `bestiary` line, naming the file.
  await page.waitForFunction(() => document.getElementById("editor-status").classList.contains("bad"));
  assert.match(await page.locator("#editor-status").textContent(), /:7:\d+.*5etools-srd\.json.*cannot be read/);
  await page.locator("#files").setInputFiles(join(fixtures, "5etools-srd.json"));
  await page.waitForFunction(() => document.getElementById("editor-status").classList.contains("ok"));
  assert.deepEqual(await page.locator("#file-list li").allTextContents(), ["5etools-srd.json×"]);
  await page.locator("#run").click();
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 120_000 });
  assert.equal(await page.locator("#error").textContent(), "");
  const web = await page.locator("#summary-csv").textContent();
  assert.equal(web, await cliWithFiles(toml, { "5etools-srd.json": join(fixtures, "5etools-srd.json") }));
});

check("offline once loaded: a run with the network gone", async ({ page, context, base }) => {
  await page.goto(`${base}/index.html`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
  await context.setOffline(true);
  const web = await runFromLink(page, base, "death-saves", 100000, 3);
  await context.setOffline(false);
  assert.equal(web, await cliSummary("death-saves", 100000, 3));
});

check("cancel stops a run within about a second", async ({ page, base }) => {
  await page.goto(`${base}/index.html#run=death-saves&trials=10000000000&seed=1`);
  await page.waitForFunction(() => document.getElementById("progress").value > 0, null, { timeout: 60_000 });
  const t0 = Date.now();
  await page.locator("#cancel").click();
  await page.waitForFunction(() => /Cancelled/.test(document.getElementById("progress-text").textContent));
  assert.ok(Date.now() - t0 < 1500, `cancelled after ${Date.now() - t0} ms`);
  assert.equal(await page.locator("#run").isDisabled(), false);
});

for (const width of [375, 1280]) {
  check(`nothing overflows at ${width} pixels, in either view`, async ({ context, base }) => {
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${base}/index.html`);
    await page.waitForFunction(() => document.getElementById("pool").children.length > 0);
    assert.deepEqual(await overflow(page), [], "the game master's form");
    await page.locator("#end-level").fill("4");
    await page.locator("#gm-trials").fill("400");
    await page.locator("#gm-run").click();
    await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0, null, { timeout: 120_000 });
    assert.deepEqual(await overflow(page), [], "the game master's form and its verdict");
    if (shots) {
      await mkdir(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `web-gm-${width}.png`), fullPage: true });
    }
    await page.goto(`${base}/index.html#run=combat-goblin-ambush&trials=2000&seed=1`);
    await page.reload();
    await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0, null, { timeout: 120_000 });
    await page.locator("#editor-box summary").click();
    await page.locator("#editor").press("End");
    await page.locator("#editor").type("\nnot toml");
    await page.waitForFunction(() => document.getElementById("editor-status").classList.contains("bad"));
    assert.deepEqual(await overflow(page), [], "the designer's editor and the results");
    if (shots) {
      await page.screenshot({ path: join(shots, `web-designer-${width}.png`), fullPage: width === 1280 });
    }
    await page.close();
  });
}

const { server, base } = await serve();
const browser = await launch();
let failed = 0;
try {
  for (const { name, fn } of checks) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const logs = [];
    page.on("pageerror", (e) => logs.push(String(e)));
    const t0 = Date.now();
    try {
      await fn({ page, context, base });
      console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}\n     ${String(e.message || e).split("\n").join("\n     ")}`);
      for (const l of logs) console.log(`     page error: ${l}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
console.log(failed ? `${failed} of ${checks.length} checks failed` : `all ${checks.length} checks passed`);
process.exit(failed ? 1 : 0);
