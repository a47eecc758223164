#!/usr/bin/env bash
# Compares woundsim with the npm package dnd-combat-simulator on the same
# encounters (hobgoblins.toml, duel.toml and their twins in
# dnd-combat-simulator.js): win probability and other figures with 95%
# intervals, the z-score of each difference, and throughput. Run by hand
# (it needs Node.js, npm and the npm registry); not part of CI.
#
#   benches/compare/run.sh [JS_FIGHTS [WOUNDSIM_TRIALS [ENCOUNTER ...]]]
#
# Defaults: 1,000,000 fights per dnd-combat-simulator run (two runs per
# encounter: as shipped and with --skip-dead), 4,000,000 woundsim trials
# (run on 1 and on 2 threads), encounters `hobgoblins duel`.
set -euo pipefail

VERSION=0.3.15 # the dnd-combat-simulator release compared (exact pin)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
js_fights=${1:-1000000}
ws_trials=${2:-4000000}
shift $(($# < 2 ? $# : 2))
encounters=("$@")
[ ${#encounters[@]} -gt 0 ] || encounters=(hobgoblins duel)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "installing dnd-combat-simulator@$VERSION into $tmp ..." >&2
npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --silent \
  "dnd-combat-simulator@$VERSION" >&2
export DND_COMBAT_SIMULATOR="$tmp/node_modules/dnd-combat-simulator"

echo "building woundsim (release) ..." >&2
cargo build --release --locked --quiet --manifest-path "$root/Cargo.toml"
bin="${CARGO_TARGET_DIR:-$root/target}/release/woundsim"

TIMEFORMAT='%R %U %S'

echo "date: $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores ($(uname -m)); node $(node --version)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for enc in "${encounters[@]}"; do
  echo "running $enc: dnd-combat-simulator x2, woundsim x2 ..." >&2
  node "$here/dnd-combat-simulator.js" "$enc" "$js_fights" >"$tmp/js-$enc.json"
  node "$here/dnd-combat-simulator.js" "$enc" "$js_fights" --skip-dead >"$tmp/js-$enc-skip.json"
  for threads in 1 2; do
    # Wall, user and system seconds of the whole process.
    { time "$bin" run "$here/$enc.toml" --trials "$ws_trials" --threads "$threads" --quiet \
      --out "$tmp/ws-$enc-$threads"; } 2>"$tmp/ws-$enc-$threads.time"
  done
  # The thread count never changes woundsim's output.
  cmp -s "$tmp/ws-$enc-1/summary.csv" "$tmp/ws-$enc-2/summary.csv" ||
    echo "warning: woundsim's summary differs between 1 and 2 threads" >&2
  node - "$tmp" "$enc" <<'EOF'
const fs = require('fs');
const [dir, enc] = process.argv.slice(2);
const Z = 1.959963984540054;
const js = JSON.parse(fs.readFileSync(`${dir}/js-${enc}.json`, 'utf8'));
const jsSkip = JSON.parse(fs.readFileSync(`${dir}/js-${enc}-skip.json`, 'utf8'));
const ws = {};
for (const line of fs.readFileSync(`${dir}/ws-${enc}-1/summary.csv`, 'utf8').trim().split('\n').slice(1)) {
  const [, , metric, est, lo, hi, trials] = line.split(',');
  ws[metric] = { est: +est, lo: +lo, hi: +hi, n: +trials };
}
// [wall, cpu] seconds of the woundsim run on `t` threads.
const wsTime = (t) => {
  const [wall, user, sys] = fs.readFileSync(`${dir}/ws-${enc}-${t}.time`, 'utf8').trim().split(/\s+/).map(Number);
  return [wall, user + sys];
};
// A proportion: estimate, Wilson interval, standard error.
function prop(k, n) {
  const p = k / n;
  const d = 1 + (Z * Z) / n;
  const c = (p + (Z * Z) / (2 * n)) / d;
  const h = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / d;
  return { est: p, lo: Math.max(0, c - h), hi: Math.min(1, c + h), se: Math.sqrt((p * (1 - p)) / n) };
}
// A mean from a sum and a sum of squares: estimate, normal interval, standard error.
function mean(s, s2, n) {
  const m = s / n;
  const se = Math.sqrt((s2 / n - m * m) / (n - 1));
  return { est: m, lo: m - Z * se, hi: m + Z * se, se };
}
// woundsim's standard error: a proportion's from its estimate, a mean's from its interval.
const wsSe = (f, isProp) => (isProp ? Math.sqrt((f.est * (1 - f.est)) / f.n) : (f.hi - f.lo) / (2 * Z));
const pct = (f) => `${(100 * f.est).toFixed(2)}% (${(100 * f.lo).toFixed(2)}..${(100 * f.hi).toFixed(2)})`;
const num = (f) => `${f.est.toFixed(3)} (${f.lo.toFixed(3)}..${f.hi.toFixed(3)})`;
function rows(j) {
  const n = j.fights;
  const out = [
    ['p_party_win', prop(j.party_a_wins, n), true],
    ['p_pc_death', prop(j.party_a_any_death, n), true],
    ['mean_rounds', mean(j.rounds_sum, j.rounds_sum_sq, n), false],
  ];
  for (const [id, k] of Object.entries(j.party_a_deaths_by_member)) {
    out.push([`p_pc_death_${id}`, prop(k, n), true]);
  }
  return out;
}
const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log(`\n== ${enc}: dnd-combat-simulator ${fmt(js.fights)} fights per run, woundsim ${fmt(ws.p_party_win.n)} trials`);
console.log(`woundsim p_timeout: ${ws.p_timeout.est} (must be 0: the round cap never binds)`);
const header = ['metric', 'dnd-combat-simulator', 'z', '... with --skip-dead', 'z', 'woundsim'];
const table = [header];
const a = rows(js);
const b = rows(jsSkip);
for (let i = 0; i < a.length; i++) {
  const [metric, fa, isProp] = a[i];
  const fb = b[i][1];
  const w = ws[metric];
  const show = isProp ? pct : num;
  const se = wsSe(w, isProp);
  const z = (f) => ((f.est - w.est) / Math.sqrt(f.se * f.se + se * se)).toFixed(1);
  table.push([metric, show(fa), z(fa), show(fb), z(fb), show(w)]);
}
const widths = header.map((_, c) => Math.max(...table.map((r) => r[c].length)));
for (const r of table) {
  console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
}
console.log('z: (dnd-combat-simulator - woundsim) / combined standard error; |z| > 4: the models differ');
const n = ws.p_party_win.n;
const [w1, c1] = wsTime(1);
const [w2, c2] = wsTime(2);
console.log('throughput, fights per second of wall time (of CPU time):');
console.log(`  dnd-combat-simulator (${js.node}, 1 thread): ${fmt(js.fights_per_s)} (${fmt(js.fights_per_cpu_s)}); ` +
  `with --skip-dead ${fmt(jsSkip.fights_per_s)} (${fmt(jsSkip.fights_per_cpu_s)})`);
console.log(`  woundsim, 1 thread: ${fmt(n / w1)} (${fmt(n / c1)}), ${(n / w1 / js.fights_per_s).toFixed(1)}x the package`);
console.log(`  woundsim, 2 threads: ${fmt(n / w2)} (${fmt(n / c2)}), ${(n / w2 / js.fights_per_s).toFixed(1)}x the package`);
console.log('  (woundsim times are of the whole process: parsing, simulating, writing reports)');
EOF
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
