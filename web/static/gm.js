// The game master's form: a party, a career, a monster pool and the
// town's prices, turned into a campaign scenario (TOML) that runs the
// standard and the harsh healing settings on the same dice. A PC may be a
// character sheet the game master imports (Foundry VTT, D&D Beyond): as
// the sheet (a fixed member at its own level) or as its class, levelled
// with the party.
import { character } from "./pkg/woundsim_web.js";

const $ = (id) => document.getElementById(id);

const CLASSES = ["barbarian", "bard", "cleric", "druid", "fighter", "monk",
  "paladin", "ranger", "rogue", "sorcerer", "warlock", "wizard"];
const PARTY = ["fighter", "cleric", "rogue", "wizard"];
const POOL = ["goblin-warrior", "hobgoblin-warrior", "bugbear-warrior", "ogre",
  "owlbear", "troll", "hill-giant"];
const MAX_PARTY = 8;
const MAX_POOL = 32;

let known = new Set();

function addPc(cls, name) {
  const list = $("party");
  if (list.children.length >= MAX_PARTY) return;
  const li = document.createElement("li");
  const row = document.createElement("div");
  row.className = "pc";
  const select = document.createElement("select");
  select.setAttribute("aria-label", "Class");
  for (const c of CLASSES) select.append(new Option(c, c, false, c === cls));
  const input = document.createElement("input");
  input.setAttribute("aria-label", "Name");
  input.placeholder = "name";
  input.value = name;
  input.maxLength = 40;
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "Remove";
  remove.onclick = () => { if (list.children.length > 1) li.remove(); };
  row.append(select, input, remove);
  li.append(row);
  list.append(li);
}

// A list of `lines` as text (no markup read from them).
export function textList(lines) {
  const ul = document.createElement("ul");
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    ul.append(li);
  }
  return ul;
}

// The character sheets imported, by the file name the scenario gives them.
const sheets = new Map();

// A file name for `sheet` not yet taken by another sheet's text.
function sheetName(name, text) {
  const base = name.replace(/[\/\\\p{Cc}]/gu, "_").slice(0, 50).trim() || "character.json";
  let key = base;
  for (let n = 2; sheets.has(key) && sheets.get(key) !== text; n++) key = `${n}-${base}`;
  return key;
}

// A row for the character sheet `file` (its text read as `info`).
function addSheet(file, text, info) {
  const list = $("party");
  if (list.children.length >= MAX_PARTY) throw new Error(`a party has at most ${MAX_PARTY} PCs`);
  const key = sheetName(file, text);
  sheets.set(key, text);
  const li = document.createElement("li");
  const row = document.createElement("div");
  row.className = "pc imported";
  row.dataset.file = key;
  row.dataset.class = info.class;
  const what = document.createElement("span");
  what.textContent = `${info.name}: ${info.class} ${info.level} (${info.format} sheet)`;
  const as = document.createElement("select");
  as.setAttribute("aria-label", `How ${info.name} plays`);
  as.append(new Option(`as the sheet, level ${info.level} at every level`, "sheet"),
    new Option(`as a ${info.class} levelled with the party`, "class"));
  const input = document.createElement("input");
  input.setAttribute("aria-label", "Name");
  input.value = info.name.slice(0, 40);
  input.maxLength = 40;
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "Remove";
  remove.onclick = () => { if (list.children.length > 1) li.remove(); };
  row.append(what, as, input, remove);
  li.append(row);
  if (info.not_modelled.length) {
    const note = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = `${info.not_modelled.length} thing${info.not_modelled.length === 1 ? "" : "s"} on the sheet not modelled`;
    note.append(summary, textList(info.not_modelled));
    li.append(note);
  }
  list.append(li);
}

// Reads the chosen character sheet into the party, or says why not.
async function importSheet(input) {
  const error = $("import-error");
  error.hidden = true;
  const file = input.files[0];
  input.value = "";
  if (!file) return;
  try {
    if (file.size > 1 << 20) throw new Error(`${file.name}: larger than 1048576 bytes, the most a file may have`);
    const text = await file.text();
    addSheet(file.name, text, JSON.parse(character(file.name, text)));
  } catch (e) {
    error.textContent = String(e && e.message ? e.message : e);
    error.hidden = false;
  }
}

function addMonster(name) {
  name = name.trim().toLowerCase();
  const pool = $("pool");
  const have = [...pool.querySelectorAll("li")].map((li) => li.dataset.name);
  if (!known.has(name) || have.includes(name) || have.length >= MAX_POOL) return false;
  const li = document.createElement("li");
  li.dataset.name = name;
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "×";
  remove.setAttribute("aria-label", `Remove ${name}`);
  remove.onclick = () => li.remove();
  li.append(name, remove);
  pool.append(li);
  return true;
}

export function setupGm(entries) {
  known = new Set(entries.map((e) => e.name));
  const list = $("monster-names");
  for (const e of entries) {
    const o = document.createElement("option");
    o.value = e.name;
    o.label = `CR ${e.cr}`;
    list.append(o);
  }
  for (const c of PARTY) addPc(c, c);
  for (const m of POOL) addMonster(m);
  $("add-pc").onclick = () => addPc("fighter", `pc-${$("party").children.length + 1}`);
  $("import-pc").onchange = (e) => importSheet(e.target);
  const add = () => {
    if (addMonster($("monster-search").value)) $("monster-search").value = "";
  };
  $("add-monster").onclick = add;
  $("monster-search").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); add(); }
  });
}

const str = (s) => JSON.stringify(String(s)); // a TOML basic string

function int(id, low, high, what) {
  const v = Number($(id).value);
  if (!Number.isInteger(v) || v < low || v > high) {
    throw new Error(`${what}: ${$(id).value || "nothing"} is not a whole number from ${low} to ${high}`);
  }
  return v;
}

// The form as a scenario request: `{text}` of a campaign scenario.
export function gmRequest() {
  const files = {};
  const party = [...$("party").querySelectorAll(".pc")].map((row, i) => {
    const sheet = row.dataset.file;
    const cls = sheet ? row.dataset.class : row.querySelector("select").value;
    const name = row.querySelector("input").value.trim() || `${cls}-${i + 1}`;
    if (sheet && row.querySelector("select").value === "sheet") {
      files[sheet] = sheets.get(sheet);
      return `  { fixed = { import = ${str(sheet)} }, name = ${str(name)} },`;
    }
    return `  { class = ${str(cls)}, name = ${str(name)} },`;
  });
  const pool = [...$("pool").querySelectorAll("li")].map((li) => str(li.dataset.name));
  if (!pool.length) throw new Error("the monster pool is empty: add at least one monster");
  const start = int("start-level", 1, 20, "From level");
  const end = int("end-level", start, 20, "To level");
  const fights = int("fights", 1, 20, "Fights a day");
  const tiers = [1, 2, 3, 4].map((t) => int(`treasure-${t}`, 0, 1000000000, "Treasure"));
  const treasure = [];
  for (let level = 1; level <= 20; level++) {
    treasure.push(tiers[level <= 4 ? 0 : level <= 10 ? 1 : level <= 16 ? 2 : 3]);
  }
  const injuries = $("gm-injuries").checked;
  const variants = [
    '[[variant]]\nname = "standard"\nhealing = "standard"',
    '[[variant]]\nname = "harsh"\nhealing = "harsh"',
  ];
  if (injuries) {
    variants.push(
      '[[variant]]\nname = "standard-injuries"\nhealing = "standard"\nfights = { lingering_injuries = true }',
      '[[variant]]\nname = "harsh-injuries"\nhealing = "harsh"\nfights = { lingering_injuries = true }');
  }
  const text = [
    "# Made by the game master's form of woundsim's web page.",
    "version = 1",
    'name = "my-campaign"',
    'type = "campaign"',
    `description = ${str(`A level ${start}-${end} career of ${party.length} PCs in ${$("difficulty").value} fights: the standard against the harsh healing setting${injuries ? ", with and without lingering injuries" : ""}`)}`,
    `trials = ${int("gm-trials", 100, 10000000, "Careers per setting")}`,
    `seed = ${/^\d{1,20}$/.test($("gm-seed").value.trim()) ? $("gm-seed").value.trim() : (() => { throw new Error("Seed: a whole number, at least 0"); })()}`,
    "",
    "[options]",
    "party = [",
    ...party,
    "]",
    `start_level = ${start}`,
    `end_level = ${end}`,
    `days_per_level = ${int("days", 1, 100, "Days at each level")}`,
    `fights_per_day = ${fights}`,
    `short_rests = ${$("short-rests").checked ? fights - 1 : 0}`,
    `difficulty = ${str($("difficulty").value)}`,
    `monster_pool = [${pool.join(", ")}]`,
    `temple_spell_level = ${int("temple", 0, 9, "Temple")}`,
    `starting_gold = ${int("gold", 0, 1000000000, "Starting gold")}`,
    `treasure = [${treasure.join(", ")}]`,
    "",
    "[options.fights]",
    'wound_policy = "accept_least_severe"',
    "",
    variants.join("\n\n"),
    "",
  ].join("\n");
  return JSON.stringify({ text, files });
}
