#!/usr/bin/env bash
# Builds the fuzzers' seed corpora and the scenario dictionary from the
# repository, so that neither is committed as hundreds of files and both
# follow the code:
#
#   fuzz/corpus/scenario/       every shipped scenario and every fixture
#   fuzz/corpus/scenario_file/  the same files (the on-disk target)
#   fuzz/corpus/dice/           every dice string written in those files and
#                               in data/, plus edge cases of the grammar
#   fuzz/corpus/merge/          real shards' state payloads (magic and checksum
#                               stripped: the target adds them), one file and
#                               two, of one scenario of each type; made with
#                               a built woundsim (WOUNDSIM, or target/release
#                               or target/debug), skipped without one
#   fuzz/corpus/baseline/       the golden reports' summary.csv, metrics.csv
#                               and a run.json, NUL-separated
#   fuzz/corpus/bestiary/       the built-in bestiary as a user's file (TOML,
#                               first byte 0) and a JSON one (first byte 1)
#   fuzz/corpus/import_<format>/ the import fixtures of that format
#                               (tests/data/import/), whole and per monster
#   fuzz/import.dict            the formats' JSON keys, 5etools tags and
#                               statblock phrases
#   fuzz/scenario.dict          libFuzzer dictionary: every key and value
#                               name the scenario structs deserialize, the
#                               names the files use, and TOML syntax
#
# Seeds are named seed-<origin>-<file>, so rerunning refreshes them and
# leaves what libFuzzer added to the corpus (hash-named files) alone;
# `--clean` empties the corpora first.
#
# Usage: fuzz/seed-corpus.sh [--clean]
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz")"
cd "$root"

if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$fuzz/corpus"
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--clean]" >&2
  exit 2
fi

scenario_files=(scenarios/*.toml tests/scenarios/good/*.toml tests/scenarios/bad/*.toml)

for target in scenario scenario_file; do
  dir="$fuzz/corpus/$target"
  mkdir -p "$dir"
  rm -f "$dir"/seed-*
  for f in "${scenario_files[@]}"; do
    origin="$(basename "$(dirname "$f")")"
    cp "$f" "$dir/seed-$origin-$(basename "$f")"
  done
done

# Dice strings: every quoted string (TOML basic or literal) that is a whole
# dice expression or number, in the scenario files and the data files.
dice="$fuzz/corpus/dice"
mkdir -p "$dice"
rm -f "$dice"/seed-*
{
  cat "${scenario_files[@]}" data/*.toml \
    | grep -aoE "[\"'][^\"']{1,40}[\"']" \
    | sed -E "s/^[\"'](.*)[\"']$/\\1/" \
    | grep -aE '^ *[+-]?[0-9]* *[dD]? *[0-9]* *([+-] *[0-9]+)? *$' \
    | grep -aE '[0-9]'
  # Edge cases of the grammar (src/dice/expr.rs): the limits, signs, case,
  # spaces, the one-faced die, and the errors next to each.
  printf '%s\n' d20 D20 1d1 5d1+2 -0 +7 -10000 10000 10001 100d1000 101d6 \
    1d1000+10000 100d1000-10000 '1d1001' '0d6' 'd0' '2d' '1d6+' '1dd6' \
    ' 1D10 - 1 ' '1d6+2+3' '1.5d6' '999999999d6' '1d999999999' '-1d6' \
    '1d6-0' 'x' ''
} | sort -u | {
  n=0
  while IFS= read -r line; do
    printf '%s' "$line" > "$dice/seed-$n"
    n=$((n + 1))
  done
}

# The dictionary. Keys: the fields of every `#[derive(Deserialize)]` struct
# and enum variant in src/ (a `#[serde(rename = "...")]` wins), and a
# `tag = "..."` key; values: every enum variant in snake_case (the
# `rename_all` the scenario enums use) and every short name-like string
# the scenario and data files write.
escape() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'; }
{
  find src -name '*.rs' -print0 | sort -z | xargs -0 awk '
    function snake(s,   out, i, c) {
      out = ""
      for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c ~ /[A-Z]/) { if (i > 1) out = out "_"; out = out tolower(c) }
        else out = out c
      }
      return out
    }
    /#\[derive\(.*Deserialize/ { pending = 1 }
    pending && /^(pub(\([a-z]+\))? )?(struct|enum) / {
      pending = 0; if ($0 !~ /;[[:space:]]*$/) inside = 1; next
    }
    inside && /^}/ { inside = 0; rename = ""; next }
    /serde\(.*tag = "/ { t = $0; sub(/.*tag = "/, "", t); sub(/".*/, "", t); print "key " t }
    inside && /serde\(.*rename = "/ {
      rename = $0; sub(/.*rename = "/, "", rename); sub(/".*/, "", rename); next
    }
    inside && /^    (pub )?[a-z_][a-z0-9_]*: / {
      k = $0; sub(/^ *(pub )?/, "", k); sub(/:.*/, "", k)
      print "key " (rename != "" ? rename : k); rename = ""; next
    }
    inside && /^        (pub )?[a-z_][a-z0-9_]*: / {
      k = $0; sub(/^ *(pub )?/, "", k); sub(/:.*/, "", k)
      print "key " (rename != "" ? rename : k); rename = ""; next
    }
    inside && /^    [A-Z][A-Za-z0-9]*[ ,({]?/ {
      v = $0; sub(/^ */, "", v); sub(/[^A-Za-z0-9].*/, "", v)
      print "value " (rename != "" ? rename : snake(v)); rename = ""; next
    }
  '
  cat "${scenario_files[@]}" data/*.toml \
    | grep -aoE '"[a-z][a-z0-9_-]{0,31}"' | tr -d '"' | sed 's/^/value /'
} | sort -u | {
  echo "# libFuzzer dictionary for the scenario targets, made by fuzz/seed-corpus.sh."
  while read -r kind token; do
    case "$kind" in
      key) printf '"%s"\n' "$(printf '%s' "$token" | escape)" ;;
      value) printf '"%s"\n' "$(printf '"%s"' "$token" | escape)" ;;
    esac
  done
  # TOML syntax, escapes (a message must show them escaped) and the
  # header every scenario starts with.
  for token in 'version = 1' '[options]' '[[variant]]' ' = ' '"""' "'''" \
    '{ ' ' }' '[' ']' ', ' '.' '#' 'true' 'false' 'inf' '-inf' 'nan' \
    '1e400' '18446744073709551615' '-9223372036854775808' '0x7f' '0o17' \
    '0b101' '1_000' '1979-05-27T07:32:00Z' '\n' '"\n"' '\t' '\r' '\u001b' \
    '\U0010FFFF' '\u0000' '\\'; do
    printf '"%s"\n' "$(printf '%s' "$token" | escape)"
  done
} > "$fuzz/scenario.dict"

# State payloads: a state file less its 16-byte magic and 64-byte checksum.
merge="$fuzz/corpus/merge"
mkdir -p "$merge"
rm -f "$merge"/seed-*
woundsim="${WOUNDSIM:-}"
for candidate in target/release/woundsim target/debug/woundsim; do
  [[ -z "$woundsim" && -x "$candidate" ]] && woundsim="$candidate"
done
if [[ -n "$woundsim" ]]; then
  tmp="$(mktemp -d)"
  for name in death-saves lingering-injuries festering-wounds amputation \
    combat-goblin-ambush campaign-healing-settings; do
    "$woundsim" run "$name" --trials 1000 --threads 1 --shard 0/1 \
      --state-out "$tmp/$name.state" -q
    tail -c +81 "$tmp/$name.state" > "$merge/seed-one-$name"
  done
  # Two shards of two chunks: first byte odd, then the first payload's
  # length (two bytes, big-endian), then both payloads.
  for k in 0 1; do
    "$woundsim" run death-saves --trials 70000 --threads 1 --shard "$k/2" \
      --state-out "$tmp/two-$k.state" -q
    tail -c +81 "$tmp/two-$k.state" > "$tmp/two-$k.payload"
  done
  size="$(stat -c %s "$tmp/two-0.payload")"
  {
    printf '\x01'
    printf "\\x$(printf %02x $((size >> 8)))\\x$(printf %02x $((size & 255)))"
    cat "$tmp/two-0.payload" "$tmp/two-1.payload"
  } > "$merge/seed-two-death-saves"
  for f in "$merge"/seed-one-*; do
    { printf '\x00'; cat "$f"; } > "$f.tmp" && mv "$f.tmp" "$f"
  done
  rm -rf "$tmp"
else
  echo "no woundsim binary (cargo build, or WOUNDSIM=...): the merge corpus is empty" >&2
fi

# Baselines: summary.csv, NUL, metrics.csv, NUL, run.json.
baseline="$fuzz/corpus/baseline"
mkdir -p "$baseline"
rm -f "$baseline"/seed-*
for kind in mc exact; do
  cp "tests/golden/$kind/summary.csv" "$baseline/seed-$kind-summary"
done
{
  cat tests/golden/mc/summary.csv
  printf '\0'
  cat tests/golden/mc/metrics.csv
} > "$baseline/seed-mc-both"
if [[ -n "$woundsim" ]]; then
  tmp="$(mktemp -d)"
  "$woundsim" run death-saves festering-wounds --trials 1000 --threads 1 -q --out "$tmp/r"
  {
    cat "$tmp/r/summary.csv"
    printf '\0'
    cat "$tmp/r/metrics.csv"
    printf '\0'
    cat "$tmp/r/run.json"
  } > "$baseline/seed-run-all"
  rm -rf "$tmp"
fi

# Bestiaries: the target's scenario fights `cave-gremlin`.
bestiary="$fuzz/corpus/bestiary"
mkdir -p "$bestiary"
rm -f "$bestiary"/seed-*
{ printf '\x00'; sed '0,/^\[goblin\]/s//[cave-gremlin]/' data/bestiary.toml; } \
  > "$bestiary/seed-builtin-toml"
{
  printf '\x01'
  printf '{"cave-gremlin": {"hp": 18, "ac": 13, "cr": "1", "xp": 200, '
  printf '"attacks": [{"name": "claw", "to_hit": 4, "damage": "1d6+2", "type": "slashing"}]}}'
} > "$bestiary/seed-json"

# Imports: each format's fixtures, whole and one monster at a time, and
# the import dictionary (the formats' keys, 5etools tags, statblock words).
for format in 5etools open5e foundry dndbeyond; do
  dir="$fuzz/corpus/import_$format"
  mkdir -p "$dir"
  rm -f "$dir"/seed-*
  for f in tests/data/import/"$format"-*.json; do
    cp "$f" "$dir/seed-$(basename "$f")"
  done
done
python3 - "$fuzz/corpus" <<'PY'
import json, pathlib, sys
corpus = pathlib.Path(sys.argv[1])
for f in sorted(pathlib.Path("tests/data/import").glob("5etools-*.json")):
    for i, m in enumerate(json.loads(f.read_text())["monster"]):
        (corpus / "import_5etools" / f"seed-{f.stem}-{i}").write_text(json.dumps({"monster": [m]}))
for f in sorted(pathlib.Path("tests/data/import").glob("open5e-*.json")):
    for i, m in enumerate(json.loads(f.read_text())["results"]):
        (corpus / "import_open5e" / f"seed-{f.stem}-{i}").write_text(json.dumps(m))
PY
{
  echo "# libFuzzer dictionary for the import targets, made by fuzz/seed-corpus.sh."
  cat tests/data/import/*.json | grep -aoE '"[A-Za-z_][A-Za-z0-9_]{0,31}":' | tr -d ':' | sort -u \
    | grep -vE '^"[A-Za-z0-9]{16}"$' | sed 's/"/\\"/g; s/^/"/; s/$/"/'
  for token in '{@atk mw}' '{@atkr m}' '{@hit 7}' '{@h}' '{@damage 2d6 + 3}' '{@dc 15}' \
    '{@recharge 5}' '{@spell fireball}' '{@actSave dex}' '{@actSaveFail}' \
    'Melee Weapon Attack: +5 to hit, reach 5 ft., one target.' 'Hit: 7 (1d8 + 3) slashing damage' \
    ' plus 7 (2d6) fire damage' 'DC 15 Dexterity saving throw' '60-foot cone' \
    'half as much damage on a successful one' 'makes two attacks: one with its bite and one with its claws' \
    '(Recharge 5-6)' '(3/Day)' '(Costs 2 Actions)' 'Legendary Resistance' 'Multiattack' \
    'spell save DC 15, +7 to hit with spell attacks' 'At will: ' '1/day each: ' '3rd level (3 slots): ' \
    'null' 'true' '[]' '{}' '-1' '1e400'; do
    printf '"%s"\n' "$(printf '%s' "$token" | escape)"
  done
} > "$fuzz/import.dict"

for target in scenario scenario_file dice merge baseline bestiary import_5etools import_open5e import_foundry import_dndbeyond; do
  printf '%-14s %4d seeds\n' "$target" "$(find "$fuzz/corpus/$target" -name 'seed-*' | wc -l)"
done
printf '%-14s %4d entries\n' scenario.dict "$(grep -c '^"' "$fuzz/scenario.dict")"
