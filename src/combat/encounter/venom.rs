//! Spreading venom (docs/combat.md, "Spreading venom"): our extension for
//! the amputation seed's situation — "wyvern venom spreading and no help
//! nearby" — not a rule of any source.
//!
//! A monster attack whose rider spreads ([`SpreadingVenom::attacks`], e.g.
//! the wyvern's stinger) does not deal its rider at once when it hits a
//! party creature: it poisons one of its limbs still attached (drawn
//! uniformly) and spreads past it `clock` rounds later, at the start of the
//! creature's turn, dealing the rider's damage then (its saving throw for
//! half as the rider says). A creature already poisoned takes a second
//! sting's rider at once, as the statblock says.
//!
//! Once the fight is decided and nobody is dying, the party races what is
//! left of each clock: the best severing weapon of a conscious ally (the
//! creature itself when it is the only one standing) cuts the limb with
//! the amputation model ([`AmputationRules`]: the limb's own HP by size,
//! only severing damage, the creature's damage modifiers, every blow
//! hitting a willing creature, attack rolls with advantage against a
//! helpless one). A limb cut off in time stops the venom and is lost —
//! the matching tragic injury — unless the party heals the limb itself
//! back to full within `reattach_minutes` ([`ReattachRules`]: the allies'
//! healing features and the potions they carry, poured on the limb, spent
//! in that order). A venom not stopped spreads then.

use rand::Rng;

use super::damage::Blow;
use super::fighter::{LIMBS, State, Venom, limb_hp};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Ability, HealTarget as FeatureTarget, POTIONS, Reach, Rider};
use crate::combat::policy::SpreadingVenom;
use crate::dice::{DiceExpr, RollMode, uniform_below};
use crate::rules::amputation::{AmputationRules, AtZeroHp, Creature, Cutter, Outcome, Target};
use crate::rules::damage::{DamageType, DamageTypes};
use crate::rules::limbs::{LimbEffect, Purpose, limb_effect};
use crate::rules::reattachment::{HealTarget, HealingCategory, HealingSource, ReattachRules};

/// Where a healing source of a reattachment comes from: a creature's
/// healing feature, or its potions of one rarity.
#[derive(Clone, Copy)]
enum Supply {
    Feature(usize),
    Potions(usize, usize),
}

impl Encounter {
    /// Whether a hit by a spreading `rider` on `target` poisons a limb:
    /// venom is on, the target is of the party, alive, not yet poisoned,
    /// and has a limb still attached.
    #[inline]
    pub(super) fn poisons(&self, arena: &Arena, target: usize, rider: Option<Rider>) -> bool {
        // The rules and the rider first: most attacks stop there.
        self.rules.venom.is_some() && rider.is_some_and(|r| r.spreads) && {
            let f = &arena.fighters[target];
            f.party && f.venom.is_none() && f.severed.count_ones() < LIMBS.len() as u32
        }
    }

    /// The sting of `rider` poisons a limb of `target` still attached, to
    /// spread `clock` rounds from now (a creature the blow killed keeps no
    /// venom).
    #[cold]
    #[inline(never)]
    pub(super) fn envenom<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        rider: Rider,
    ) {
        let Some(venom) = &self.rules.venom else {
            return;
        };
        if arena.fighters[target].state == State::Dead {
            return;
        }
        let attached: Vec<usize> = (0..LIMBS.len())
            .filter(|&i| arena.fighters[target].severed & (1 << i) == 0)
            .collect();
        let limb = attached[uniform_below(rng, attached.len() as u64) as usize];
        let clock = venom.clock.sample(rng).clamp(0, 1_000) as u32;
        let spreads_at = (arena.round + clock).min(u32::from(u16::MAX)) as u16;
        let index = self
            .venom_riders
            .iter()
            .position(|r| *r == rider)
            .unwrap_or(0);
        arena.fighters[target].venom = Some(Venom {
            limb: limb as u8,
            spreads_at,
            rider: index as u8,
        });
    }

    /// At the start of `me`'s turn: a venom whose clock has run out spreads.
    #[inline]
    pub(super) fn venom_at_turn_start<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) {
        if let Some(v) = arena.fighters[me].venom {
            if arena.round >= u32::from(v.spreads_at) {
                arena.fighters[me].venom = None;
                self.spread(rng, arena, me, v, out);
            }
        }
    }

    /// The venom `v` spreads past the limb: its rider's damage (halved on
    /// a successful save) to `me`.
    #[cold]
    #[inline(never)]
    fn spread<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        v: Venom,
        out: &mut TrialOutcome,
    ) {
        let Some(rider) = self.venom_riders.get(usize::from(v.rider)).copied() else {
            return;
        };
        if let Some(n) = out.pc_venom_spread.get_mut(me) {
            *n = n.saturating_add(1);
        }
        let rolled = rider.dice.sample(rng).max(0) as i32;
        let amount = match rider.save {
            Some((ability, dc)) if self.saving_throw(rng, arena, me, ability, dc) => rolled / 2,
            _ => rolled,
        };
        let dealt = self.after_defenses(arena, me, rider.kind, amount);
        self.deal_total(
            rng,
            arena,
            me,
            Blow {
                amount: dealt,
                types: DamageTypes::of([rider.kind]),
                crit: false,
            },
            out,
        );
    }

    /// After a fight is decided and nobody is dying: each party creature
    /// still poisoned races the rest of its clock (see the module's docs).
    /// Returns whether some creature is dying now (the fight's loop goes on
    /// for its death saves).
    #[cold]
    #[inline(never)]
    pub(super) fn after_fight_venom<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        out: &mut TrialOutcome,
    ) -> bool {
        let Some(rules) = &self.rules.venom else {
            return false;
        };
        let mut dying = false;
        for me in 0..self.party.len() {
            let Some(v) = arena.fighters[me].venom.take() else {
                continue;
            };
            if arena.fighters[me].state == State::Dead {
                continue;
            }
            let left = u32::from(v.spreads_at).saturating_sub(arena.round);
            let stopped = match self.cutter(arena, me, rules).filter(|_| rules.amputate) {
                Some(cutter) => self.amputate(rng, arena, me, v, left, cutter, rules, out),
                None => false,
            };
            if !stopped {
                self.spread(rng, arena, me, v, out);
            }
            dying |= arena.fighters[me].state == State::Dying;
        }
        dying
    }

    /// The cutter for `me`'s poisoned limb: the conscious ally (else `me`
    /// itself, if conscious) whose severing melee weapon deals the most per
    /// round (its mean damage times its uses in the Attack action).
    fn cutter(&self, arena: &Arena, me: usize, rules: &SpreadingVenom) -> Option<Cutter> {
        let best = |k: usize| -> Option<(f64, Cutter)> {
            let f = &arena.fighters[k];
            if f.state != State::Up {
                return None;
            }
            let spec = self.spec(f.spec);
            spec.attacks
                .iter()
                .enumerate()
                .filter(|(_, a)| {
                    a.reach == Reach::Melee
                        && !a.spell
                        && limb_effect(a.kind, rules.piercing_severs) == LimbEffect::Sever
                })
                .map(|(i, a)| {
                    let uses = spec.multiattack.iter().filter(|&&m| m == i).count().max(1);
                    let per_round = a.damage.mean() * uses as f64;
                    let cutter = Cutter {
                        name: a.name.clone(),
                        damage: a.damage,
                        damage_type: a.kind,
                        attacks: uses as u32,
                        attack_bonus: a.to_hit,
                        roll: RollMode::Normal,
                        crit_on: spec.crit_range,
                    };
                    (per_round, cutter)
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))
        };
        (0..self.party.len())
            .filter(|&k| k != me)
            .filter_map(best)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .or_else(|| best(me))
            .map(|(_, cutter)| cutter)
    }

    /// The amputation race for `me`'s poisoned limb, `left` rounds before
    /// the venom spreads, and the reattachment after it; whether the venom
    /// was stopped (the limb cut off in time).
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    fn amputate<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        v: Venom,
        left: u32,
        cutter: Cutter,
        rules: &SpreadingVenom,
        out: &mut TrialOutcome,
    ) -> bool {
        let f = arena.fighters[me];
        let spec = self.spec(f.spec);
        let limb = usize::from(v.limb);
        let full_hp = limb_hp(spec)[limb].max(1);
        let mut allowed = vec![DamageType::Slashing];
        if rules.piercing_severs {
            allowed.push(DamageType::Piercing);
        }
        let (sources, supplies) = self.limb_healing(arena);
        let race = AmputationRules {
            creature: Creature {
                size: spec.size,
                limb: LIMBS[limb],
                limb_hp: u32::from(f.limb_hp[limb].max(1)),
                hp: f.hp.max(0) as u32,
                max_hp: f.max_hp.max(1) as u32,
                con_save: spec.save(Ability::Con),
                ac: spec.ac,
                modifiers: spec.defenses,
                armor: Vec::new(),
                at_zero_hp: AtZeroHp::DeathSaves,
            },
            cutters: vec![cutter],
            purpose: Purpose::StopPoison,
            allowed_types: DamageTypes::of(allowed),
            piercing_severs: rules.piercing_severs,
            target: if f.state == State::Up {
                Target::Willing
            } else {
                Target::Helpless
            },
            called_shot_penalty: 0,
            clock: Some(DiceExpr::constant(left.min(1_000) as i32)),
            max_rounds: left.clamp(1, 1_000),
            // The venom's damage is the fight's own (its saves, its
            // death saves with help), dealt by the caller.
            poison: None,
            reattach: (rules.reattach_minutes > 0).then(|| ReattachRules {
                window_minutes: f64::from(rules.reattach_minutes),
                delay_minutes: DiceExpr::constant(1),
                sources,
            }),
        };
        let outcome = race.resolve(&race.slots(), rng.next_u64());
        if outcome.outcome != Outcome::Severed {
            return false;
        }
        let bump = |n: &mut u8| *n = n.saturating_add(1);
        bump(&mut out.pc_limbs_amputated[me]);
        let reattached = match outcome.reattach {
            Some(r) => {
                self.spend_limb_healing(arena, &race, &supplies, r.uses);
                r.reattached
            }
            None => false,
        };
        let f = &mut arena.fighters[me];
        if reattached {
            bump(&mut out.pc_limbs_reattached[me]);
            f.limb_hp[limb] = full_hp;
        } else {
            f.limb_hp[limb] = 0;
            f.severed |= 1 << limb;
            self.recompute_effects(arena, me);
        }
        true
    }

    /// The party's healing that can be aimed at a severed limb, in the
    /// order it is spent: each conscious creature's healing feature that
    /// heals others (spells, Lay on Hands), then the potions the conscious
    /// carry, weakest first.
    fn limb_healing(&self, arena: &Arena) -> (Vec<HealingSource>, Vec<Supply>) {
        let mut sources = Vec::new();
        let mut supplies = Vec::new();
        let conscious = || (0..self.party.len()).filter(|&k| arena.fighters[k].state == State::Up);
        for k in conscious() {
            let f = &arena.fighters[k];
            let Some(heal) = self.spec(f.spec).heal else {
                continue;
            };
            if heal.target == FeatureTarget::Ally && f.heal_uses > 0 {
                sources.push(HealingSource {
                    name: "healing feature".into(),
                    heal: heal.dice,
                    uses: u32::from(f.heal_uses),
                    gp: 0.0,
                    minutes: 0.1,
                    target: HealTarget::Limb,
                    category: if heal.spell {
                        HealingCategory::Spell
                    } else {
                        HealingCategory::Other
                    },
                });
                supplies.push(Supply::Feature(k));
            }
        }
        for (rarity, (name, dice)) in POTIONS.iter().enumerate() {
            for k in conscious() {
                let n = arena.fighters[k].potions[rarity];
                if n > 0 {
                    sources.push(HealingSource {
                        name: (*name).into(),
                        heal: *dice,
                        uses: u32::from(n),
                        gp: 0.0,
                        minutes: 0.1,
                        target: HealTarget::Limb,
                        category: HealingCategory::Potion,
                    });
                    supplies.push(Supply::Potions(k, rarity));
                }
            }
        }
        (sources, supplies)
    }

    /// Takes the first `uses` uses of the race's healing sources from the
    /// creatures that supplied them.
    fn spend_limb_healing(
        &self,
        arena: &mut Arena,
        race: &AmputationRules,
        supplies: &[Supply],
        uses: u32,
    ) {
        let Some(reattach) = &race.reattach else {
            return;
        };
        let mut left = uses;
        for (source, supply) in reattach.sources.iter().zip(supplies) {
            let spent = left.min(source.uses) as u8;
            left -= u32::from(spent);
            match *supply {
                Supply::Feature(k) => {
                    let f = &mut arena.fighters[k];
                    f.heal_uses = f.heal_uses.saturating_sub(spent);
                }
                Supply::Potions(k, rarity) => {
                    let p = &mut arena.fighters[k].potions[rarity];
                    *p = p.saturating_sub(spent);
                }
            }
        }
    }
}
