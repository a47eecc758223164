#!/usr/bin/env node
// Runs the encounters of benches/compare/*.toml in the model of the npm
// package dnd-combat-simulator (BSD-2-Clause, Max Kasperowski,
// github.com/Eddykasp/dnd-combat-sim) and prints one JSON object, with
// fights per second of wall time and of CPU time (the latter is less
// sensitive to a machine loaded by other work).
//
//   node dnd-combat-simulator.js ENCOUNTER FIGHTS [--skip-dead]
//
// ENCOUNTER is `hobgoblins` or `duel` (the same creatures as
// hobgoblins.toml and duel.toml here: keep them in step). --skip-dead makes
// each attack pick among opponents still alive (see README.md: the package
// builds its opponent list once per turn, so after a kill the rest of a
// multiattack goes to the corpse). The package is loaded from
// $DND_COMBAT_SIMULATOR (a folder) if set, else through Node's module
// resolution (NODE_PATH); run.sh installs a pinned version in a temporary
// folder. Math.random cannot be seeded: every run draws new dice.
'use strict';

const dnd = require(process.env.DND_COMBAT_SIMULATOR || 'dnd-combat-simulator');

// [id, hp, ac, initiative, attack bonus, [[die, count, bonus], ...]]:
// every attack of a combatant uses its one attack bonus.
const ENCOUNTERS = {
  hobgoblins: {
    a: [
      ['rogue', 38, 15, 4, 7, [[6, 4, 5]]],
      ['wizard', 32, 15, 2, 7, [[10, 2, 0]]],
      ['fighter', 44, 18, 1, 7, [[8, 1, 6], [8, 1, 6]]],
      ['cleric', 38, 18, 1, 5, [[6, 1, 2]]],
    ],
    b: Array.from({ length: 6 }, (_, i) => [`hobgoblin-${i + 1}`, 11, 18, 1, 3, [[6, 3, 2]]]),
  },
  duel: {
    a: [['knight', 52, 18, 0, 5, [[6, 2, 3]]]],
    b: [['brute', 59, 11, 0, 6, [[8, 2, 4]]]],
  },
};

function usage(message) {
  process.stderr.write(
    `${message}\nusage: node dnd-combat-simulator.js ENCOUNTER FIGHTS [--skip-dead]\n` +
      `  ENCOUNTER: ${Object.keys(ENCOUNTERS).join(', ')}; FIGHTS: a positive integer\n`,
  );
  process.exit(2);
}

function party(members, skipDead) {
  const p = new dnd.Party();
  for (const [id, hp, ac, init, atk, attacks] of members) {
    const [[die, count, bonus], ...more] = attacks;
    const c = new dnd.Combatant(id, hp, ac, init, atk, die, count, bonus);
    for (const [d, n, b] of more) {
      c.addAttack(new dnd.Attack(d, n, b));
    }
    p.addMember(c);
  }
  // The default strategy is `lowest_hp` (a stable sort by current HP, ties
  // to member order). With --skip-dead, the dead are filtered out first.
  if (skipDead) {
    const select = p.selectTarget.bind(p);
    p.selectTarget = (opponents) => select(opponents.filter((c) => !c.isDead()));
  }
  return p;
}

function main() {
  const args = process.argv.slice(2);
  const skipDead = args.includes('--skip-dead');
  const [name, fightsArg, ...rest] = args.filter((a) => a !== '--skip-dead');
  if (rest.length > 0) usage(`unexpected arguments: ${rest.join(' ')}`);
  const encounter = ENCOUNTERS[name];
  if (!encounter) usage(`unknown encounter \`${name}\``);
  const fights = Number(fightsArg);
  if (!Number.isSafeInteger(fights) || fights < 1) usage(`bad FIGHTS \`${fightsArg}\``);

  const a = party(encounter.a, skipDead);
  const b = party(encounter.b, skipDead);
  const combat = new dnd.Combat();
  // Non-numeric ids keep insertion order: party A is first in the turn
  // list, so it wins initiative ties.
  combat.addParty(a, 'A');
  combat.addParty(b, 'B');

  let winsA = 0;
  let anyDeathA = 0;
  let deathsA = 0;
  let rounds = 0;
  let rounds2 = 0;
  const deathsBy = Object.fromEntries(encounter.a.map(([id]) => [id, 0]));
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < fights; i++) {
    combat.reset();
    // combat.runFight() without its return value, counting rounds.
    combat.initiateCombat();
    let r = 0;
    while (combat.isFightOnGoing()) {
      combat.runRound();
      r++;
    }
    rounds += r;
    rounds2 += r * r;
    let dead = 0;
    for (const c of a.members) {
      if (c.isDead()) {
        dead++;
        deathsBy[c.id]++;
      }
    }
    deathsA += dead;
    if (dead > 0) anyDeathA++;
    if (dead < a.members.length) winsA++;
  }
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuUsed = process.cpuUsage(cpuStart);
  const cpu = (cpuUsed.user + cpuUsed.system) / 1e6;
  const pkg = require(`${process.env.DND_COMBAT_SIMULATOR || 'dnd-combat-simulator'}/package.json`);
  process.stdout.write(
    `${JSON.stringify({
      simulator: `${pkg.name}@${pkg.version}`,
      node: process.version,
      encounter: name,
      skip_dead: skipDead,
      fights,
      party_a_wins: winsA,
      p_party_a_win: winsA / fights,
      party_a_any_death: anyDeathA,
      party_a_deaths: deathsA,
      party_a_deaths_by_member: deathsBy,
      rounds_sum: rounds,
      rounds_sum_sq: rounds2,
      mean_rounds: rounds / fights,
      wall_s: wall,
      cpu_s: cpu,
      fights_per_s: fights / wall,
      fights_per_cpu_s: fights / cpu,
    })}\n`,
  );
}

main();
