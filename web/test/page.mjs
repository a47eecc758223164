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
import { createServer } from "node:http";
import { readFile, writeFile, mkdtemp, rm, mkdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, dirname, extname, resolve, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const dist = join(root, "web/dist");
const cli = process.env.WOUNDSIM || join(root, "target/release/woundsim");
const browserPath = process.env.WOUNDSIM_CHROMIUM || "/usr/bin/chromium";
const shots = process.env.WOUNDSIM_WEB_SCREENSHOTS;

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
};

function serve() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    const file = join(dist, path.endsWith("/") ? path + "index.html" : path);
    if (!file.startsWith(dist)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

// The CLI's summary.csv for a built-in scenario, trials and seed.
async function cliSummary(name, trials, seed) {
  const out = await mkdtemp(join(tmpdir(), "woundsim-web-"));
  try {
    execFileSync(cli, ["run", name, "--trials", String(trials), "--seed", String(seed), "--out", out, "--quiet"], { stdio: ["ignore", "ignore", "inherit"] });
    return await readFile(join(out, "summary.csv"), "utf8");
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

// The run of `#run=NAME&trials=N&seed=S`: the page's summary.csv.
async function pageSummary(page, base, name, trials, seed) {
  await page.goto(`${base}/index.html#run=${name}&trials=${trials}&seed=${seed}`);
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 300_000 });
  const error = await page.locator("#error").textContent();
  assert.equal(error, "", `the page failed: ${error}`);
  return page.locator("#summary-csv").textContent();
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

check("death-saves: summary.csv is the CLI's, byte for byte", async ({ page, base }) => {
  const [web, native] = await Promise.all([
    pageSummary(page, base, "death-saves", 200000, 7),
    cliSummary("death-saves", 200000, 7),
  ]);
  assert.ok(native.length > 100);
  assert.equal(web, native);
});

check("a small campaign: summary.csv is the CLI's, byte for byte", async ({ page, base }) => {
  const [web, native] = await Promise.all([
    pageSummary(page, base, "campaign-healing-settings", 200, 3),
    cliSummary("campaign-healing-settings", 200, 3),
  ]);
  assert.ok(native.length > 100);
  assert.equal(web, native);
  const charts = await page.frameLocator("#report").locator("svg").count();
  assert.ok(charts > 0, "the report in the page shows its charts");
});

check("the editor shows a validation error at its line", async ({ page, base }) => {
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => document.getElementById("scenario").options.length > 0);
  await page.locator("#tab-designer").click();
  await page.locator("#editor-box summary").click();
  await page.locator("#editor").fill('version = 1\nname = "x"\ntype = "death_saves"\ndescription = "a test"\ntrials = "many"\nseed = 1\n');
  await page.waitForFunction(() => document.getElementById("editor-status").classList.contains("bad"));
  const status = await page.locator("#editor-status").textContent();
  assert.match(status, /:5:\d+/, `the error names line 5: ${status}`);
  assert.equal(await page.locator("#gutter mark").textContent(), "5");
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

check("offline once loaded: a run with the network gone", async ({ page, context, base }) => {
  await page.goto(`${base}/index.html`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
  await context.setOffline(true);
  await page.goto(`${base}/index.html#run=death-saves&trials=100000&seed=3`);
  await page.reload();
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 120_000 });
  assert.equal(await page.locator("#error").textContent(), "");
  const web = await page.locator("#summary-csv").textContent();
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

const server = await serve();
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: browserPath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
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
