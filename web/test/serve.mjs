// What the browser tests share: web/dist/ served on a local port, and
// headless Chromium (Debian's, or WOUNDSIM_CHROMIUM) launched as the
// machine's closed network needs it.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, dirname, extname, resolve, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const dist = process.env.WOUNDSIM_WEB_DIST || join(root, "web/dist");
export const cli = process.env.WOUNDSIM || join(root, "target/release/woundsim");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
};

// web/dist/ on 127.0.0.1 at a free port: `{ server, base }`.
export async function serve() {
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
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.WOUNDSIM_CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

// Opens `#run=NAME&trials=N&seed=S` and waits for the run: the page's
// summary.csv (an assertion error with the page's message if it failed).
export async function runFromLink(page, base, name, trials, seed) {
  await page.goto(`${base}/index.html#run=${name}&trials=${trials}&seed=${seed}`);
  await page.reload();
  await page.waitForFunction(() => document.getElementById("summary-csv").textContent.length > 0
    || !document.getElementById("error").hidden, null, { timeout: 600_000 });
  const error = await page.locator("#error").textContent();
  if (error) throw new Error(`the page failed: ${error}`);
  return page.locator("#summary-csv").textContent();
}
