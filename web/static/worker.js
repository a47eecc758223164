// One Web Worker's share of a run: shard `index` of `count`, as
// `woundsim run --shard K/N` runs it, a chunk at a time so the page sees
// progress; the page cancels by terminating the worker.
import init, { Runner } from "./pkg/woundsim_web.js";

self.onmessage = async (event) => {
  const { module, request, index, count } = event.data;
  try {
    await init({ module_or_path: module });
    const runner = new Runner(request, index, count);
    while (runner.left() > 0) {
      const work = runner.step(1);
      self.postMessage({ type: "progress", work });
    }
    const part = runner.finish();
    self.postMessage({ type: "done", part }, [part.buffer]);
  } catch (e) {
    self.postMessage({ type: "error", message: String(e && e.message ? e.message : e) });
  }
};
