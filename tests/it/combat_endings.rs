//! How a fight ends, checked against exact Markov chains.
//!
//! Two small fights have exact answers: a dying PC whose ally stabilises it
//! while a monster keeps hitting it ("stabilise under fire", where the
//! death-save tally must reset each time the PC becomes stable: SRD 5.1,
//! "The number of both is reset to zero when you regain any hit points or
//! become stable"), and a one-PC duel under both `when_party_falls`
//! readings (the monsters leave once no PC stands, or they stay and finish
//! the downed, and a PC back on its feet fights again).
//!
//! The oracle below is written from the rules, independently of the round
//! loop: a forward distribution over (PC state, monster HP, round the fight
//! was decided) through each turn of each round, for every initiative
//! order weighted by its exact probability. Monte Carlo must agree within
//! 4.5 standard errors at a fixed seed.

use crate::common;

use std::collections::HashMap;

use woundsim::results::ScenarioResult;

/// The PC's condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pc {
    Up(i32),
    Dying { successes: u8, failures: u8 },
    Stable,
    Dead,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    pc: Pc,
    monster_hp: i32,
    /// The round the fight was decided in (0: not yet).
    decided_at: u32,
}

/// One attack: `to_hit`, then `count`d`sides` + `modifier` damage.
#[derive(Clone, Copy, Debug)]
struct Attack {
    to_hit: i32,
    count: u32,
    sides: u32,
    modifier: i32,
}

/// A fight of one PC (and an optional ally who only stabilises) against one
/// monster, with no healing, no resistances and the RAW critical range.
#[derive(Clone, Debug)]
struct Fight {
    pc_max_hp: i32,
    pc_start_hp: i32,
    pc_ac: i32,
    pc_attack: Option<Attack>,
    /// An ally with this Medicine modifier who stabilises the dying PC
    /// whenever it can (`stabilize = "always"`); it cannot be hurt enough
    /// to drop within the fight.
    medic: Option<i32>,
    monster_hp: i32,
    monster_ac: i32,
    monster_attack: Attack,
    monster_attacks_per_turn: u32,
    attack_downed_always: bool,
    finish_the_downed: bool,
    round_cap: u32,
    /// Initiative modifiers: PC, medic (if any), monster.
    initiative: Vec<i32>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    p_pc_death: f64,
    p_party_win: f64,
    p_timeout: f64,
    mean_rounds: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Actor {
    Pc,
    Medic,
    Monster,
}

type Dist = HashMap<State, f64>;

fn add(d: &mut Dist, s: State, p: f64) {
    if p > 0.0 {
        *d.entry(s).or_insert(0.0) += p;
    }
}

/// The distribution of `count`d`sides` + `modifier`.
fn damage(count: u32, sides: u32, modifier: i32) -> Vec<(i32, f64)> {
    let mut sums: Vec<(i32, f64)> = vec![(modifier, 1.0)];
    for _ in 0..count {
        let mut next: HashMap<i32, f64> = HashMap::new();
        for &(v, p) in &sums {
            for face in 1..=sides as i32 {
                *next.entry(v + face).or_insert(0.0) += p / f64::from(sides);
            }
        }
        sums = next.into_iter().collect();
    }
    sums
}

/// The kept natural d20 with advantage or without, as (value, probability).
fn d20(advantage: bool) -> Vec<(i32, f64)> {
    (1..=20)
        .map(|k| {
            let p = if advantage {
                f64::from(2 * k - 1) / 400.0
            } else {
                1.0 / 20.0
            };
            (k, p)
        })
        .collect()
}

impl Fight {
    /// The probability of every initiative order: d20 + modifier, the higher
    /// total first, then the higher modifier, then the party, then list order.
    fn orders(&self) -> Vec<(Vec<Actor>, f64)> {
        let mut actors = vec![Actor::Pc];
        if self.medic.is_some() {
            actors.push(Actor::Medic);
        }
        actors.push(Actor::Monster);
        let n = actors.len();
        let mut found: HashMap<Vec<Actor>, f64> = HashMap::new();
        let total = 20usize.pow(n as u32);
        for code in 0..total {
            let rolls: Vec<i32> = (0..n)
                .map(|i| (code / 20usize.pow(i as u32) % 20) as i32 + 1)
                .collect();
            let mut idx: Vec<usize> = (0..n).collect();
            idx.sort_by_key(|&i| {
                let party = actors[i] != Actor::Monster;
                (
                    std::cmp::Reverse(rolls[i] + self.initiative[i]),
                    std::cmp::Reverse(self.initiative[i]),
                    std::cmp::Reverse(party),
                    i,
                )
            });
            let order = idx.iter().map(|&i| actors[i]).collect();
            *found.entry(order).or_insert(0.0) += 1.0 / total as f64;
        }
        found.into_iter().collect()
    }

    /// The PC's turn: a death save if dying (a natural 20 gets it up at
    /// 1 HP and it acts at once), else an attack unless the fight is over.
    fn pc_turn(&self, s: State, p: f64, out: &mut Dist) {
        match s.pc {
            Pc::Up(_) => self.pc_attacks(s, p, out),
            Pc::Dying {
                successes,
                failures,
            } => {
                for (nat, q) in d20(false) {
                    let pc = match nat {
                        20 => {
                            self.pc_attacks(State { pc: Pc::Up(1), ..s }, p * q, out);
                            continue;
                        }
                        10..=19 if successes == 2 => Pc::Stable,
                        10..=19 => Pc::Dying {
                            successes: successes + 1,
                            failures,
                        },
                        _ => {
                            let failures = failures + if nat == 1 { 2 } else { 1 };
                            if failures >= 3 {
                                Pc::Dead
                            } else {
                                Pc::Dying {
                                    successes,
                                    failures,
                                }
                            }
                        }
                    };
                    add(out, State { pc, ..s }, p * q);
                }
            }
            Pc::Stable | Pc::Dead => add(out, s, p),
        }
    }

    fn pc_attacks(&self, s: State, p: f64, out: &mut Dist) {
        let Some(a) = self
            .pc_attack
            .filter(|_| s.decided_at == 0 && s.monster_hp > 0)
        else {
            add(out, s, p);
            return;
        };
        for (nat, q) in d20(false) {
            let crit = nat == 20;
            if nat == 1 || (!crit && nat + a.to_hit < self.monster_ac) {
                add(out, s, p * q);
                continue;
            }
            let dice = if crit { 2 * a.count } else { a.count };
            for (dmg, r) in damage(dice, a.sides, a.modifier) {
                let monster_hp = (s.monster_hp - dmg.max(0)).max(0);
                add(out, State { monster_hp, ..s }, p * q * r);
            }
        }
    }

    /// The medic stabilises the dying PC (DC 10 Medicine) and does nothing else.
    fn medic_turn(&self, s: State, p: f64, out: &mut Dist) {
        let (Some(medicine), Pc::Dying { .. }) = (self.medic, s.pc) else {
            add(out, s, p);
            return;
        };
        let success = (1..=20).filter(|k| k + medicine >= 10).count() as f64 / 20.0;
        add(
            out,
            State {
                pc: Pc::Stable,
                ..s
            },
            p * success,
        );
        add(out, s, p * (1.0 - success));
    }

    fn monster_turn(&self, s: State, p: f64, out: &mut Dist) {
        if s.monster_hp <= 0 || s.decided_at != 0 {
            add(out, s, p);
            return;
        }
        let mut now: Dist = HashMap::from([(s, p)]);
        for _ in 0..self.monster_attacks_per_turn {
            let mut next = Dist::new();
            for (&s, &p) in &now {
                self.monster_attacks(s, p, &mut next);
            }
            now = next;
        }
        for (s, p) in now {
            add(out, s, p);
        }
    }

    /// One attack of the monster: at a downed PC when the policy says so,
    /// else at a random conscious enemy, else (finishing the downed) at the
    /// downed PC, else none.
    fn monster_attacks(&self, s: State, p: f64, out: &mut Dist) {
        let downed = matches!(s.pc, Pc::Dying { .. } | Pc::Stable);
        if downed && self.attack_downed_always {
            return self.hit_downed(s, p, out);
        }
        let conscious = usize::from(matches!(s.pc, Pc::Up(_))) + usize::from(self.medic.is_some());
        if conscious == 0 {
            if downed && self.finish_the_downed {
                return self.hit_downed(s, p, out);
            }
            return add(out, s, p);
        }
        let Pc::Up(hp) = s.pc else {
            return add(out, s, p); // the medic is the only target: it shrugs it off
        };
        let at_pc = 1.0 / conscious as f64;
        add(out, s, p * (1.0 - at_pc));
        let a = self.monster_attack;
        for (nat, q) in d20(false) {
            let crit = nat == 20;
            if nat == 1 || (!crit && nat + a.to_hit < self.pc_ac) {
                add(out, s, p * at_pc * q);
                continue;
            }
            let dice = if crit { 2 * a.count } else { a.count };
            for (dmg, r) in damage(dice, a.sides, a.modifier) {
                let left = hp - dmg.max(0);
                let pc = if left > 0 {
                    Pc::Up(left)
                } else if -left >= self.pc_max_hp {
                    Pc::Dead // massive damage
                } else {
                    Pc::Dying {
                        successes: 0,
                        failures: 0,
                    }
                };
                add(out, State { pc, ..s }, p * at_pc * q * r);
            }
        }
    }

    /// A melee attack on the unconscious PC: advantage, and any hit is a
    /// critical hit (two failures, doubled dice); massive damage kills.
    fn hit_downed(&self, s: State, p: f64, out: &mut Dist) {
        let (successes, failures) = match s.pc {
            Pc::Dying {
                successes,
                failures,
            } => (successes, failures),
            _ => (0, 0), // stable: the tally was reset
        };
        let a = self.monster_attack;
        for (nat, q) in d20(true) {
            if nat == 1 || (nat < 20 && nat + a.to_hit < self.pc_ac) {
                add(out, s, p * q);
                continue;
            }
            for (dmg, r) in damage(2 * a.count, a.sides, a.modifier) {
                let pc = if dmg >= self.pc_max_hp || failures + 2 >= 3 {
                    Pc::Dead
                } else {
                    Pc::Dying {
                        successes,
                        failures: failures + 2,
                    }
                };
                add(out, State { pc, ..s }, p * q * r);
            }
        }
    }

    fn solve(&self) -> Outcome {
        let mut result = Outcome::default();
        for (order, weight) in self.orders() {
            let start = State {
                pc: if self.pc_start_hp > 0 {
                    Pc::Up(self.pc_start_hp)
                } else {
                    Pc::Dying {
                        successes: 0,
                        failures: 0,
                    }
                },
                monster_hp: self.monster_hp,
                decided_at: 0,
            };
            let mut now: Dist = HashMap::from([(start, weight)]);
            let mut round = 0;
            while !now.is_empty() {
                round += 1;
                if round > self.round_cap {
                    for (s, p) in now.drain() {
                        let beaten = s.monster_hp <= 0;
                        result.p_pc_death += p * f64::from(u8::from(s.pc == Pc::Dead));
                        result.p_party_win += p * f64::from(u8::from(s.decided_at > 0 && beaten));
                        result.p_timeout += p * f64::from(u8::from(s.decided_at == 0));
                        let rounds = if s.decided_at > 0 {
                            s.decided_at
                        } else {
                            self.round_cap
                        };
                        result.mean_rounds += p * f64::from(rounds);
                    }
                    break;
                }
                for actor in &order {
                    let mut next = Dist::new();
                    for (&s, &p) in &now {
                        match actor {
                            Actor::Pc => self.pc_turn(s, p, &mut next),
                            Actor::Medic => self.medic_turn(s, p, &mut next),
                            Actor::Monster => self.monster_turn(s, p, &mut next),
                        }
                    }
                    now = next;
                }
                let mut next = Dist::new();
                for (mut s, p) in now.drain() {
                    let party_up = matches!(s.pc, Pc::Up(_)) || self.medic.is_some();
                    let downed = matches!(s.pc, Pc::Dying { .. } | Pc::Stable);
                    let monsters_active = s.monster_hp > 0;
                    let stay = self.finish_the_downed && monsters_active && downed;
                    if s.decided_at == 0 && ((!party_up && !stay) || !monsters_active) {
                        s.decided_at = round;
                    }
                    if s.decided_at > 0 && !matches!(s.pc, Pc::Dying { .. }) {
                        result.p_pc_death += p * f64::from(u8::from(s.pc == Pc::Dead));
                        result.p_party_win += p * f64::from(u8::from(party_up && !monsters_active));
                        result.mean_rounds += p * f64::from(s.decided_at);
                    } else {
                        add(&mut next, s, p);
                    }
                }
                now = next;
            }
        }
        result
    }
}

fn run(text: &str, trials: u64) -> ScenarioResult {
    let s = woundsim::types::parse(common::catalog(), "endings.toml", text).unwrap();
    common::run(&s, trials, 2)
}

/// Monte Carlo agrees with the chain on every headline figure of `variant`.
fn assert_matches(mc: &ScenarioResult, variant: &str, exact: Outcome) {
    let n = mc.trials as f64;
    for (metric, e) in [
        ("p_pc_death", exact.p_pc_death),
        ("p_party_win", exact.p_party_win),
        ("p_timeout", exact.p_timeout),
    ] {
        let e = e.clamp(0.0, 1.0); // float sums of the chain may overshoot 1 by 1e-13
        let got = mc.figure(variant, metric).unwrap().estimate.value;
        let tolerance = common::SIGMAS * common::binomial_sigma(e, n) + 1e-12;
        assert!(
            (got - e).abs() <= tolerance,
            "{variant}/{metric}: Monte Carlo {got} vs exact {e} (tolerance {tolerance})"
        );
    }
    let f = mc.figure(variant, "mean_rounds").unwrap();
    let tolerance = common::SIGMAS * common::interval_sigma(mc, f) + 1e-9;
    assert!(
        (f.estimate.value - exact.mean_rounds).abs() <= tolerance,
        "{variant}/mean_rounds: Monte Carlo {} vs exact {} (tolerance {tolerance})",
        f.estimate.value,
        exact.mean_rounds
    );
}

/// The issue's reproduction: a dying PC, an ally with Medicine +20 who
/// stabilises it whenever it can, a monster at +30 that hits the downed.
/// `initiative` = the PC's, the medic's and the monster's modifiers.
fn under_fire_text(initiative: [i32; 3]) -> String {
    let [pc, medic, monster] = initiative;
    format!(
        r#"
        version = 1
        name = "stabilise-under-fire"
        type = "combat"
        trials = 400000
        seed = 7
        [options]
        party = [
          {{ name = "pc", hp = 20, start_hp = 0, ac = 10, initiative = {pc}, attacks = [] }},
          {{ name = "medic", hp = 1000, ac = 10, initiative = {medic}, medicine = 20, attacks = [] }},
        ]
        monsters = [{{ name = "brute", hp = 1000, ac = 10, initiative = {monster}, attacks = [
          {{ name = "club", to_hit = 30, damage = "1d4", type = "bludgeoning" }},
        ] }}]
        stabilize = "always"
        attack_downed = "always"
        round_cap = 5
        "#
    )
}

fn under_fire(initiative: [i32; 3]) -> Fight {
    Fight {
        pc_max_hp: 20,
        pc_start_hp: 0,
        pc_ac: 10,
        pc_attack: None,
        medic: Some(20),
        monster_hp: 1000,
        monster_ac: 10,
        monster_attack: Attack {
            to_hit: 30,
            count: 1,
            sides: 4,
            modifier: 0,
        },
        monster_attacks_per_turn: 1,
        attack_downed_always: true,
        finish_the_downed: false,
        round_cap: 5,
        initiative: initiative.to_vec(),
    }
}

#[test]
fn a_pc_stabilised_under_fire_starts_each_new_tally_from_zero() {
    // Mostly monster, then medic, then PC: each hit's two failures are wiped
    // by the medic before the PC rolls. With the tally kept through
    // stabilisation, the PC died in 99.8% of these fights.
    let issue_order = [-10, 5, 20];
    let exact = under_fire(issue_order).solve();
    assert!(exact.p_pc_death < 0.2, "{exact:?}");
    assert_matches(&run(&under_fire_text(issue_order), 400_000), "base", exact);
    // Every order equally likely.
    let even = [0, 0, 0];
    let exact = under_fire(even).solve();
    assert_matches(&run(&under_fire_text(even), 400_000), "base", exact);
}

const DUEL: &str = r#"
    version = 1
    name = "duel"
    type = "combat"
    trials = 400000
    seed = 11
    [options]
    party = [{ name = "pc", hp = 9, ac = 12, initiative = 1, attacks = [
      { name = "sword", to_hit = 4, damage = "1d6+1", type = "slashing" },
    ] }]
    monsters = [{ name = "beast", hp = 10, ac = 12, initiative = 1, attacks = [
      { name = "claw", to_hit = 4, damage = "1d4+1", type = "slashing" },
    ], multiattack = ["claw", "claw"] }]
    round_cap = 20

    [[variant]]
    name = "leave"
    attack_downed = "always"
    when_party_falls = "monsters_leave"

    [[variant]]
    name = "finish"
    attack_downed = "always"
    when_party_falls = "finish_the_downed"

    [[variant]]
    name = "finish-only-once-all-fall"
    when_party_falls = "finish_the_downed"
"#;

fn duel(attack_downed_always: bool, finish_the_downed: bool) -> Fight {
    Fight {
        pc_max_hp: 9,
        pc_start_hp: 9,
        pc_ac: 12,
        pc_attack: Some(Attack {
            to_hit: 4,
            count: 1,
            sides: 6,
            modifier: 1,
        }),
        medic: None,
        monster_hp: 10,
        monster_ac: 12,
        monster_attack: Attack {
            to_hit: 4,
            count: 1,
            sides: 4,
            modifier: 1,
        },
        monster_attacks_per_turn: 2,
        attack_downed_always,
        finish_the_downed,
        round_cap: 20,
        initiative: vec![1, 1],
    }
}

#[test]
fn a_duel_ends_as_the_when_party_falls_option_says() {
    let mc = run(DUEL, 400_000);
    let leave = duel(true, false).solve();
    let finish = duel(true, true).solve();
    let finish_late = duel(false, true).solve();
    // The readings differ by far more than the noise: the test can tell them apart.
    assert!(
        finish.p_pc_death > leave.p_pc_death + 0.05,
        "{leave:?} {finish:?}"
    );
    assert_matches(&mc, "leave", leave);
    assert_matches(&mc, "finish", finish);
    assert_matches(&mc, "finish-only-once-all-fall", finish_late);
}
