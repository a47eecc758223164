//! Positions, simply (docs/combat.md, "Positions"; an approximation of
//! ours, off by default): every creature has a place in feet along one
//! line of battle. A side's front line faces the other side's, its back
//! line stands behind it. Creatures move by their speed (what wounds,
//! lingering injuries and severed legs leave of it), Dash when they cannot
//! reach their target, and stand up from prone at the cost of half their
//! speed. SRD 5.1 rules kept: a melee attack needs its target within 5
//! feet; leaving a conscious enemy's reach provokes its opportunity attack
//! (a reaction, one per round); a ranged attack with a conscious hostile
//! within 5 feet has disadvantage; attacks against a prone creature have
//! advantage within 5 feet and disadvantage from farther; a prone
//! creature's own attacks have disadvantage. Melee attackers reach a back
//! line only by moving past the front: a target that cannot be reached
//! without leaving a conscious enemy's reach is not picked unless
//! `move_past_front` says so, and then the move provokes.

use rand::Rng;

use super::fighter::{ALWAYS_PRONE, State};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Ability, Line, Reach};
use crate::combat::effect;
use crate::combat::policy::{Positions, RangedInMelee};
use crate::rules::damage::Size;

/// Feet within which a melee attack reaches, and within which a hostile
/// makes a ranged attack hard (SRD 5.1: reach 5 ft; longer reach is not
/// modelled).
pub const REACH: i32 = 5;

/// Feet beyond which a creature with a lost eye has disadvantage on ranged
/// attacks (docs/rules.md, permanent wounds: depth vision).
pub const DEPTH_VISION: i32 = 30;

/// The feet a creature can still move this turn, whether it Dashed, and
/// whether it has made an attack this turn (then it cannot Dash).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Movement {
    pub(super) left: i32,
    pub(super) dashed: bool,
    pub(super) attacked: bool,
}

/// The distance from `x` to the stretch between `a` and `b`.
fn distance_to_path(a: i32, b: i32, x: i32) -> i32 {
    let (lo, hi) = (a.min(b), a.max(b));
    if x < lo {
        lo - x
    } else if x > hi {
        x - hi
    } else {
        0
    }
}

/// Where a melee attacker at `from` stops to reach a target at `to`: 5
/// feet short of it, or where it stands when already within reach.
fn stop_for(from: i32, to: i32) -> i32 {
    if (to - from).abs() <= REACH {
        from
    } else {
        to - REACH * (to - from).signum()
    }
}

/// The conscious enemies that could stand in a melee attacker's way, in one
/// pass: a move from `from` toward `x` (ahead) stops 5 ft short, at `x − 5`,
/// and leaves the reach of every enemy placed in `[from − 5, x − 10)`; the
/// nearest enemy at or past `from − 5` is `ahead`, and symmetrically
/// `behind`. So a target is screened exactly when that nearest enemy lies
/// more than 10 ft short of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Screen {
    from: i32,
    ahead: i32,
    behind: i32,
}

impl Screen {
    /// A target at `x` can be reached without leaving a conscious enemy's reach.
    #[inline]
    pub(super) fn lets_through(self, x: i32) -> bool {
        if (x - self.from).abs() <= REACH {
            true
        } else if x > self.from {
            self.ahead >= x - 2 * REACH
        } else {
            self.behind <= x + 2 * REACH
        }
    }
}

impl Encounter {
    /// Places every creature for the start of a fight: the party's front
    /// line at 0, its back line behind it, the monsters' front line
    /// `start_distance` away and their back line behind that. Reactions are
    /// fresh; only a creature at 0 HP is prone.
    pub(super) fn place(&self, arena: &mut Arena, p: &Positions) {
        for f in arena.fighters.iter_mut() {
            let back = self.spec(f.spec).line() == Line::Back;
            f.x = match (f.party, back) {
                (true, false) => 0,
                (true, true) => -p.back_line,
                (false, false) => p.start_distance,
                (false, true) => p.start_distance + p.back_line,
            };
            f.reaction = true;
            f.prone = f.state != State::Up;
        }
    }

    /// A creature's Speed now: 0 while grappled or while a failed save
    /// holds it there (Freezing Burst), halved while one slows it
    /// (Scorching Sands), else its speed in force.
    fn speed_now(f: &super::fighter::Fighter) -> i32 {
        if f.spells.conditions & crate::combat::spell::bits::GRAPPLED != 0 || f.hampered.speed_zero
        {
            0
        } else if f.hampered.speed_halved {
            f.speed / 2
        } else {
            f.speed
        }
    }

    /// A creature's movement at the start of its turn: its speed, less
    /// half of it to stand up from prone (it stands).
    pub(super) fn start_moving(&self, arena: &mut Arena, me: usize) -> Movement {
        let f = &mut arena.fighters[me];
        let mut left = Self::speed_now(f);
        if f.prone && f.state == State::Up {
            left -= f.speed / 2;
            f.prone = false;
        }
        Movement {
            left,
            dashed: false,
            attacked: false,
        }
    }

    /// Repelling Blast: `target`, Large or smaller, pushed `feet` straight
    /// away from `me` along the line (from the same spot, towards its own
    /// side's rear). A push is no move of its own: it provokes nothing.
    pub(super) fn repel(&self, arena: &mut Arena, me: usize, target: usize, feet: i32) {
        if matches!(
            self.spec(arena.fighters[target].spec).size,
            Size::Huge | Size::Gargantuan
        ) {
            return;
        }
        let from = arena.fighters[me].x;
        let t = &mut arena.fighters[target];
        let away = match t.x.cmp(&from) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal if t.party => -1,
            std::cmp::Ordering::Equal => 1,
        };
        t.x += away * feet;
    }

    /// A conscious enemy of `me` is within `feet` of it.
    pub(super) fn hostile_within(&self, arena: &Arena, me: usize, feet: i32) -> bool {
        let x = arena.fighters[me].x;
        arena.fighters[self.enemies_of(arena, me)]
            .iter()
            .any(|e| e.state == State::Up && (e.x - x).abs() <= feet)
    }

    /// Moving from `me`'s place to reach `target` in melee would leave a
    /// conscious enemy's reach (it would pass the front line to get there):
    /// the definition, checked against the one-pass [`Screen`] in the tests.
    #[cfg(test)]
    pub(super) fn screened(&self, arena: &Arena, me: usize, target: usize) -> bool {
        let from = arena.fighters[me].x;
        let stop = stop_for(from, arena.fighters[target].x);
        if stop == from {
            return false;
        }
        let range = self.enemies_of(arena, me);
        let first = range.start;
        arena.fighters[range].iter().enumerate().any(|(k, e)| {
            first + k != target
                && e.state == State::Up
                && distance_to_path(from, stop, e.x) <= REACH
                && (stop - e.x).abs() > REACH
        })
    }

    /// Who stands in `me`'s way, in one pass over its enemies.
    pub(super) fn screen(&self, arena: &Arena, me: usize) -> Screen {
        let from = arena.fighters[me].x;
        let mut screen = Screen {
            from,
            ahead: i32::MAX,
            behind: i32::MIN,
        };
        for e in &arena.fighters[self.enemies_of(arena, me)] {
            if e.state == State::Up {
                if e.x >= from - REACH {
                    screen.ahead = screen.ahead.min(e.x);
                }
                if e.x <= from + REACH {
                    screen.behind = screen.behind.max(e.x);
                }
            }
        }
        screen
    }

    /// Disadvantage an attack of `me` on `target` takes from positions: a
    /// ranged attack with a conscious hostile within 5 feet, any attack on a
    /// prone target from farther than 5 feet, any attack while prone; a
    /// lost eye only beyond 30 feet.
    pub(super) fn position_disadvantage(
        &self,
        arena: &Arena,
        me: usize,
        target: usize,
        melee: bool,
    ) -> bool {
        let (a, t) = (&arena.fighters[me], &arena.fighters[target]);
        a.prone
            || (t.prone && (t.x - a.x).abs() > REACH)
            || (!melee
                && (self.hostile_within(arena, me, REACH)
                    || a.effects & effect::DIS_RANGED != 0
                    || (a.effects & effect::DIS_RANGED_FAR != 0
                        && (t.x - a.x).abs() > DEPTH_VISION)))
    }

    /// Moves `me` toward `target` to attack it in melee, with what is left
    /// of its movement, then Dashes (its action) if it still has not
    /// reached it and has not attacked this turn. Opportunity attacks hit
    /// it on the way. Whether it can now attack `target`.
    pub(super) fn close_in<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        target: usize,
        movement: &mut Movement,
        out: &mut TrialOutcome,
    ) -> bool {
        let goal = stop_for(arena.fighters[me].x, arena.fighters[target].x);
        self.move_to(rng, arena, me, goal, movement, out);
        if arena.fighters[me].x == goal {
            return arena.fighters[me].state == State::Up;
        }
        if !movement.attacked && !movement.dashed && arena.fighters[me].state == State::Up {
            // Dash: the action buys another move of its speed.
            movement.dashed = true;
            movement.left += Self::speed_now(&arena.fighters[me]);
            self.move_to(rng, arena, me, goal, movement, out);
            self.fall_after_dash(rng, arena, me);
        }
        false
    }

    /// A ranged attacker in melee that steps back ([`RangedInMelee::StepBack`])
    /// moves away from the hostiles within 5 feet (all on one side of it)
    /// with the movement it has left, taking their opportunity attacks.
    /// Whether it can still attack.
    pub(super) fn step_back<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        p: &Positions,
        movement: &mut Movement,
        out: &mut TrialOutcome,
    ) -> bool {
        if p.ranged_in_melee != RangedInMelee::StepBack
            || movement.left <= 0
            || !self.hostile_within(arena, me, REACH)
        {
            return true;
        }
        let x = arena.fighters[me].x;
        let (mut ahead, mut behind) = (false, false);
        for e in &arena.fighters[self.enemies_of(arena, me)] {
            if e.state == State::Up && (e.x - x).abs() <= REACH {
                ahead |= e.x >= x;
                behind |= e.x < x;
            }
        }
        if ahead && behind {
            return true; // surrounded: it shoots where it stands
        }
        let away = if ahead { -1 } else { 1 };
        let goal = x + away * movement.left;
        self.move_to(rng, arena, me, goal, movement, out);
        arena.fighters[me].state == State::Up
    }

    /// Moves `me` toward `goal` by at most its movement left; every
    /// conscious enemy whose reach it leaves on the way makes an
    /// opportunity attack, in the order it passes them. Dropped by one, it
    /// stays where that one hit it.
    fn move_to<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        goal: i32,
        movement: &mut Movement,
        out: &mut TrialOutcome,
    ) {
        let from = arena.fighters[me].x;
        let step = (goal - from).clamp(-movement.left.max(0), movement.left.max(0));
        if step == 0 {
            return;
        }
        let to = from + step;
        movement.left -= step.abs();
        // Flyby, Nimble Escape's Disengage: no opportunity attacks.
        if self
            .spec(arena.fighters[me].spec)
            .avoids_opportunity_attacks
        {
            arena.fighters[me].x = to;
            return;
        }
        // Who gets an opportunity attack, nearest along the way first.
        arena.scratch.clear();
        for i in self.enemies_of(arena, me) {
            let e = &arena.fighters[i];
            if e.state == State::Up
                && e.reaction
                && distance_to_path(from, to, e.x) <= REACH
                && (to - e.x).abs() > REACH
                && self
                    .spec(e.spec)
                    .attacks
                    .iter()
                    .any(|a| a.reach == Reach::Melee)
            {
                arena.scratch.push(i);
            }
        }
        let fighters = &arena.fighters;
        arena
            .scratch
            .sort_by_key(|&i| ((fighters[i].x - from).abs(), i));
        for k in 0..arena.scratch.len() {
            let enemy = arena.scratch[k];
            if arena.fighters[enemy].state != State::Up {
                continue;
            }
            arena.fighters[enemy].reaction = false;
            // It is hit where it leaves the enemy's reach.
            let ex = arena.fighters[enemy].x;
            arena.fighters[me].x = (ex + REACH * step.signum()).clamp(from.min(to), from.max(to));
            self.opportunity_attack(rng, arena, enemy, me, out);
            if arena.fighters[me].state != State::Up {
                return;
            }
        }
        arena.fighters[me].x = to;
    }

    /// `enemy`'s opportunity attack on `mover`: one attack with its first
    /// melee weapon (as it holds it: one-handed, or improvised if broken).
    fn opportunity_attack<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        enemy: usize,
        mover: usize,
        out: &mut TrialOutcome,
    ) {
        let spec = self.spec(arena.fighters[enemy].spec);
        // An attack: not an action resolved by a save (Constrict).
        let Some(index) = spec
            .attacks
            .iter()
            .position(|a| a.reach == Reach::Melee && a.save.is_none())
        else {
            return;
        };
        let attack = self.attack_in_hand(arena, enemy, index, arena.fighters[enemy].effects);
        if attack.spell && self.spell_fails(rng, arena, enemy) {
            return;
        }
        self.attack::<true, R>(rng, arena, enemy, mover, attack, out);
    }

    /// After a Dash, a creature whose injury says so falls prone (or makes
    /// the Dexterity save that keeps it standing).
    fn fall_after_dash<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena, me: usize) {
        let dc = arena.fighters[me].prone_after_dash;
        if dc == 0 || arena.fighters[me].state != State::Up {
            return;
        }
        let falls =
            dc == ALWAYS_PRONE || !self.saving_throw(rng, arena, me, Ability::Dex, dc.into());
        arena.fighters[me].prone |= falls;
    }
}
