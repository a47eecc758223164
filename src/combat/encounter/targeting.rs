//! Whom a creature attacks: the enemy side as an index range, the
//! targeting policies ([`Targeting`]), monsters going for downed PCs
//! ([`AttackDowned`]) and finishing them ([`WhenPartyFalls`]).

use rand::Rng;

use super::fighter::{Fighter, State};
use super::{Arena, Encounter, TargetList};
use crate::combat::creature::Reach;
use crate::combat::policy::{AttackDowned, Targeting, WhenPartyFalls};
use crate::combat::spell::bits;

impl Encounter {
    /// Indices of one side's creatures among `n` fighters: the fighters of
    /// a trial are the party, then the monsters.
    #[inline]
    pub(super) fn side(&self, party: bool, n: usize) -> std::ops::Range<usize> {
        if party {
            0..self.party.len()
        } else {
            self.party.len()..n
        }
    }

    /// Indices of the creatures on the other side from `me`.
    #[inline]
    pub(super) fn enemies_of(&self, arena: &Arena, me: usize) -> std::ops::Range<usize> {
        self.side(!arena.fighters[me].party, arena.fighters.len())
    }

    pub(super) fn enemies_up(&self, arena: &Arena, me: usize) -> usize {
        arena.fighters[self.enemies_of(arena, me)]
            .iter()
            .filter(|f| f.state == State::Up)
            .count()
    }

    /// Fills `arena.scratch` with the conscious enemies of `me`.
    pub(super) fn collect_targets(&self, arena: &mut Arena, me: usize) {
        let range = self.enemies_of(arena, me);
        arena.scratch.clear();
        for i in range {
            if arena.fighters[i].state == State::Up {
                arena.scratch.push(i);
            }
        }
    }

    /// The enemy `me` attacks with an attack of `reach`, if any. Scans the
    /// enemy side in index order (no allocation): the same choice, and the
    /// same random draws, as picking from the list of candidates. With
    /// positions, a melee attacker picks only among the enemies it can
    /// reach without passing a conscious one, unless it may move past the
    /// front; `POSITIONS` is whether the encounter has them (the loop's
    /// constant: without them the filter is compiled out).
    #[inline]
    pub(super) fn choose_target<const POSITIONS: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
        reach: Reach,
    ) -> Option<usize> {
        self.choose_target_where::<POSITIONS, R>(rng, arena, me, reach, |_| true)
    }

    /// [`Encounter::choose_target`] for `attack`: one that spares a
    /// creature `me` grapples (the tyrannosaurus rex's Tail) chooses
    /// among the others.
    #[inline]
    pub(super) fn choose_target_for<const POSITIONS: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
        attack: &crate::combat::creature::Attack,
    ) -> Option<usize> {
        if attack.spares_grappled {
            self.choose_target_where::<POSITIONS, R>(rng, arena, me, attack.reach, |t| {
                self.grappler(arena, t) != Some(me)
            })
        } else {
            self.choose_target::<POSITIONS, R>(rng, arena, me, attack.reach)
        }
    }

    /// [`Encounter::choose_target`] among the enemies `allowed` accepts.
    #[inline]
    fn choose_target_where<const POSITIONS: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
        reach: Reach,
        allowed: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        // Grappled: its grappler, the one target without Disadvantage.
        if let Some(g) = self.grappler(arena, me) {
            let f = &arena.fighters[g];
            if f.state == State::Up && f.spells.conditions & bits::BANISHED == 0 && allowed(g) {
                return Some(g);
            }
        }
        if !POSITIONS {
            return self.choose_among(rng, arena, me, reach, allowed);
        }
        match self.rules.positions {
            Some(p) if reach == Reach::Melee && !p.move_past_front => {
                let screen = self.screen(arena, me);
                let fighters = &arena.fighters;
                self.choose_among(rng, arena, me, reach, |t| {
                    screen.lets_through(fighters[t].x) && allowed(t)
                })
            }
            _ => self.choose_among(rng, arena, me, reach, allowed),
        }
    }

    /// [`Encounter::choose_target`] among the enemies `reachable` accepts
    /// (by index among all fighters).
    #[inline]
    pub(super) fn choose_among<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
        reach: Reach,
        reachable: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let range = self.enemies_of(arena, me);
        let enemies = &arena.fighters[range.clone()];
        let first = range.start;
        let monster = !arena.fighters[me].party;
        let downed = |f: &Fighter| matches!(f.state, State::Dying | State::Stable);
        if monster && reach == Reach::Melee {
            let go_for_downed = match self.rules.attack_downed {
                AttackDowned::Never => false,
                AttackDowned::Always => true,
                AttackDowned::Sometimes(chance) => chance.sample(rng),
            };
            if go_for_downed {
                if let Some(k) =
                    (0..enemies.len()).position(|k| downed(&enemies[k]) && reachable(first + k))
                {
                    return Some(first + k);
                }
            }
        }
        if let Some(k) =
            self.pick_conscious(rng, enemies, range, &arena.listed, |k| reachable(first + k))
        {
            return Some(first + k);
        }
        // No one is standing: monsters that stay finish the downed.
        if monster && self.rules.when_party_falls == WhenPartyFalls::FinishTheDowned {
            return enemies.iter().position(downed).map(|k| first + k);
        }
        None
    }

    /// The conscious enemy (index within `enemies`, the fighters of
    /// `range`) that `reachable` accepts (by that index), picked by the
    /// targeting policy, if any: among those not held by an effect that
    /// damage would end (*hypnotic pattern*, a turned undead), or, when
    /// only such are left, among them.
    #[inline]
    pub(super) fn pick_conscious<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        enemies: &[Fighter],
        range: std::ops::Range<usize>,
        listed: &TargetList,
        reachable: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        // A banished creature is out of reach while it is away.
        let up = |k: usize, f: &Fighter| {
            f.state == State::Up && f.spells.conditions & bits::BANISHED == 0 && reachable(k)
        };
        let free =
            |k: usize, f: &Fighter| f.spells.conditions & bits::HELD_UNTIL_DAMAGED == 0 && up(k, f);
        self.pick_by_policy(rng, enemies, range.clone(), listed, free)
            .or_else(|| self.pick_by_policy(rng, enemies, range, listed, up))
    }

    /// The enemy among those `up` accepts, by the targeting policy.
    #[inline]
    fn pick_by_policy<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        enemies: &[Fighter],
        range: std::ops::Range<usize>,
        listed: &TargetList,
        up: impl Fn(usize, &Fighter) -> bool,
    ) -> Option<usize> {
        let k = match self.rules.targeting {
            Targeting::Random => {
                // One branch-free pass lists the conscious enemies (write
                // every index, advance past the conscious ones): a branch on
                // each enemy's state would mispredict. The list is the
                // arena's, written before it is read: nothing to clear.
                let listed = &listed.0;
                let mut n = 0;
                for (k, f) in enemies.iter().enumerate() {
                    listed[n].set(k as u8);
                    n += usize::from(up(k, f));
                }
                if n == 0 {
                    return None;
                }
                usize::from(listed[crate::dice::uniform_below(rng, n as u64) as usize].get())
            }
            Targeting::FocusFire => (0..enemies.len()).position(|k| up(k, &enemies[k]))?,
            Targeting::LowestHp => {
                let mut best: Option<(i32, usize)> = None;
                for (k, f) in enemies.iter().enumerate() {
                    if up(k, f) && best.is_none_or(|(hp, _)| f.hp < hp) {
                        best = Some((f.hp, k));
                    }
                }
                best?.1
            }
            Targeting::HighestThreat => {
                let threat = &self.threat[range];
                let mut best: Option<usize> = None;
                for (k, f) in enemies.iter().enumerate() {
                    if up(k, f) && best.is_none_or(|b| threat[k] > threat[b]) {
                        best = Some(k);
                    }
                }
                best?
            }
        };
        Some(k)
    }
}
