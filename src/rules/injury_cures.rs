//! Healing cost and downtime of lingering injuries (docs/rules.md, lingering injuries cures, §2
//! prices): which remedy ends an injury most cheaply under a party's
//! resources, what it costs in gold and rest days, and whether it can be
//! cured at all.
//!
//! Prices are data ([`PriceList`], overridable per scenario): the seeds'
//! ritual material costs for the party's own castings, potions of healing at
//! 50 gp, and a casting-services list for a temple (the organized-play list
//! of docs/rules.md, permanent wounds). Spell facts (level, which cure classes a spell meets)
//! are SRD data in [`SPELLS`].
//!
//! For each entry, every cure the table lists is priced under the
//! [`Resources`]; the cheapest by `gold + day_value_gp × expected days`
//! (ties: fewer days) becomes the entry's [`Plan`]. Plans with random parts
//! (a Medicine check retried daily, the festering-wound tending process, the
//! broken-item sub-table) are sampled by the Monte Carlo and averaged exactly
//! by [`Plan::expected`].

use crate::rules::festering::FesteringRules;
use crate::rules::lingering::{Cure, Injury, MagicClass};

pub use crate::rules::prices::{
    FightEffect, InFight, PriceList, RestorationReading, SPELLS, Spell, full_caster_slots,
    spell_index,
};

/// What the party can bring to bear on an injury.
#[derive(Clone, Debug, PartialEq)]
pub struct Resources {
    /// Spells the party's healer knows or prepares (indices into [`SPELLS`]).
    pub healer_spells: Vec<usize>,
    /// The healer's slots per spell level (from its level, or given).
    pub spell_slots: [u8; 9],
    /// Potions of healing carried.
    pub potions: u32,
    /// A temple with the casting services of the price list is reachable.
    pub temple: bool,
    /// A market sells potions and replacement items.
    pub market: bool,
    /// The best Wisdom (Medicine) modifier in the party; `None`: nobody tries.
    pub medicine_bonus: Option<i8>,
    /// Max HP of the injured creature (for the tending process).
    pub max_hp: u32,
    /// Gold a day of downtime is worth when comparing remedies (0: gold first).
    pub day_value_gp: f64,
    /// Which spell "restoration" means.
    pub restoration_reading: RestorationReading,
}

impl Default for Resources {
    /// No healer, no potions, no temple, a market, Medicine +2, 25 max HP.
    fn default() -> Self {
        Resources {
            healer_spells: Vec::new(),
            spell_slots: [0; 9],
            potions: 0,
            temple: false,
            market: true,
            medicine_bonus: Some(2),
            max_hp: 25,
            day_value_gp: 0.0,
            restoration_reading: RestorationReading::GreaterRestoration,
        }
    }
}

impl Resources {
    /// Whether the healer can cast `spell` (knows it and has a slot of its level or higher).
    pub fn can_cast(&self, spell: usize) -> bool {
        let level = usize::from(SPELLS[spell].level);
        self.healer_spells.contains(&spell) && self.spell_slots[level - 1..].iter().any(|&n| n > 0)
    }
}

/// The remedy an entry's plan uses (for reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remedy {
    /// The party's healer casts this spell.
    HealerSpell(usize),
    /// A temple casts this spell for a fee.
    TempleSpell(usize),
    /// A potion of healing from the pack.
    CarriedPotion,
    /// A potion of healing bought at the market.
    BoughtPotion,
    /// Rest.
    Rest,
    /// A Medicine check (retried daily), then rest.
    MedicineAndRest,
    /// The festering-wound tending process.
    Tending,
    /// Buy a replacement.
    ReplaceItem,
    /// Nothing available.
    None,
}

impl Remedy {
    /// Kinds of remedy, in report order (metric names `p_remedy_<kind>`).
    pub const KINDS: [&'static str; 9] = [
        "healer_spell",
        "temple_service",
        "potion_carried",
        "potion_bought",
        "rest",
        "medicine_and_rest",
        "tending",
        "replace_item",
        "none",
    ];

    /// Index of this remedy's kind in [`Remedy::KINDS`].
    pub fn kind(self) -> usize {
        match self {
            Remedy::HealerSpell(_) => 0,
            Remedy::TempleSpell(_) => 1,
            Remedy::CarriedPotion => 2,
            Remedy::BoughtPotion => 3,
            Remedy::Rest => 4,
            Remedy::MedicineAndRest => 5,
            Remedy::Tending => 6,
            Remedy::ReplaceItem => 7,
            Remedy::None => 8,
        }
    }
}

/// How one entry gets cured under the resources: the cheapest remedy.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// A fixed price and downtime.
    Fixed {
        /// Gold.
        gold: f64,
        /// Days.
        days: f64,
        /// Which remedy.
        remedy: Remedy,
    },
    /// A daily Medicine check until it succeeds (each failure costs a day), then rest.
    Medicine {
        /// Chance of success of one check, as a numerator over `den`.
        num: u64,
        /// Denominator (20).
        den: u64,
        /// Rest days after the success.
        days: f64,
        /// The check's DC (for sampling).
        dc: u8,
        /// The modifier.
        bonus: i8,
    },
    /// The tending process: days until the wound closes; death = not cured.
    Tending(FesteringRules),
    /// Replace the item the sub-table breaks.
    Replace {
        /// Die of the sub-table.
        die: u8,
        /// Price of the item of each sub-table result (index = roll - 1).
        prices: Vec<f64>,
    },
    /// No remedy is available.
    Uncurable,
}

/// Expected gold, downtime days and probability of no cure of a plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Expected {
    /// Mean gold.
    pub gold: f64,
    /// Mean days.
    pub days: f64,
    /// Probability the injury is never cured.
    pub uncurable: f64,
}

impl Plan {
    /// The cheapest plan for `injury` under `resources` and `prices`.
    pub fn cheapest(injury: &Injury, resources: &Resources, prices: &PriceList) -> Plan {
        let mut options: Vec<Plan> = Vec::new();
        for cure in &injury.cures {
            match *cure {
                Cure::Magic { class } => {
                    for (i, spell) in SPELLS.iter().enumerate() {
                        if !spell.meets(class, resources.restoration_reading) {
                            continue;
                        }
                        let materials = prices.material(i);
                        if resources.can_cast(i) {
                            options.push(Plan::Fixed {
                                gold: materials,
                                days: 0.0,
                                remedy: Remedy::HealerSpell(i),
                            });
                        }
                        let temple = prices.temple_price(i, materials);
                        if let (true, Some(gold)) = (resources.temple, temple) {
                            options.push(Plan::Fixed {
                                gold,
                                days: 0.0,
                                remedy: Remedy::TempleSpell(i),
                            });
                        }
                    }
                    if class == MagicClass::MagicalHealing {
                        let gold = prices.potion_of_healing;
                        if resources.potions > 0 {
                            options.push(Plan::Fixed {
                                gold,
                                days: 0.0,
                                remedy: Remedy::CarriedPotion,
                            });
                        } else if resources.market {
                            options.push(Plan::Fixed {
                                gold,
                                days: 0.0,
                                remedy: Remedy::BoughtPotion,
                            });
                        }
                    }
                }
                Cure::Rest { days } => options.push(Plan::Fixed {
                    gold: 0.0,
                    days: f64::from(days),
                    remedy: Remedy::Rest,
                }),
                Cure::MedicineAndRest { dc, days } => {
                    if let Some(bonus) = resources.medicine_bonus {
                        let num = (1..=20i16)
                            .filter(|n| n + i16::from(bonus) >= i16::from(dc))
                            .count() as u64;
                        if num > 0 {
                            options.push(Plan::Medicine {
                                num,
                                den: 20,
                                days: f64::from(days),
                                dc,
                                bonus,
                            });
                        }
                    }
                }
                Cure::Tending { dc, successes } => {
                    if let Some(bonus) = resources.medicine_bonus {
                        let hp_per_day = injury
                            .effects
                            .iter()
                            .find_map(|e| match e {
                                crate::rules::lingering::Effect::MaxHpLossPerDay { amount } => {
                                    Some(*amount)
                                }
                                _ => None,
                            })
                            .unwrap_or(1);
                        let rules = FesteringRules {
                            medicine_bonus: bonus,
                            dc,
                            successes,
                            hp_per_day,
                            max_hp: resources.max_hp,
                            ..FesteringRules::default()
                        };
                        if rules.success_chance() > 0.0 {
                            options.push(Plan::Tending(rules));
                        }
                    }
                }
                Cure::ReplaceItem => {
                    if let (true, Some((die, rows))) = (resources.market, injury.item_table()) {
                        let prices = (1..=die)
                            .map(|r| {
                                rows.iter()
                                    .find(|row| (row.d[0]..=row.d[1]).contains(&r))
                                    .map_or(0.0, |row| prices.item(row.item))
                            })
                            .collect();
                        options.push(Plan::Replace { die, prices });
                    }
                }
            }
        }
        let score = |p: &Plan| {
            let e = p.expected();
            (
                e.uncurable,
                e.gold + resources.day_value_gp * e.days,
                e.days,
            )
        };
        let mut best: Option<(Plan, (f64, f64, f64))> = None;
        for option in options {
            let s = score(&option);
            let better = match &best {
                None => true,
                Some((_, b)) => s.partial_cmp(b).is_some_and(|o| o.is_lt()),
            };
            if better {
                best = Some((option, s));
            }
        }
        best.map_or(Plan::Uncurable, |(p, _)| p)
    }

    /// The remedy the plan uses.
    pub fn remedy(&self) -> Remedy {
        match self {
            Plan::Fixed { remedy, .. } => *remedy,
            Plan::Medicine { .. } => Remedy::MedicineAndRest,
            Plan::Tending(_) => Remedy::Tending,
            Plan::Replace { .. } => Remedy::ReplaceItem,
            Plan::Uncurable => Remedy::None,
        }
    }

    /// Exact expectations.
    pub fn expected(&self) -> Expected {
        match self {
            Plan::Fixed { gold, days, .. } => Expected {
                gold: *gold,
                days: *days,
                uncurable: 0.0,
            },
            Plan::Medicine { num, den, days, .. } => {
                let p = *num as f64 / *den as f64;
                Expected {
                    gold: 0.0,
                    days: days + (1.0 - p) / p,
                    uncurable: 0.0,
                }
            }
            Plan::Tending(rules) => {
                let d = rules.distribution(rules.max_hp);
                Expected {
                    gold: 0.0,
                    days: d.mean_days_open,
                    uncurable: d.p_death,
                }
            }
            Plan::Replace { prices, .. } => Expected {
                gold: prices.iter().sum::<f64>() / prices.len().max(1) as f64,
                days: 0.0,
                uncurable: 0.0,
            },
            Plan::Uncurable => Expected {
                gold: 0.0,
                days: 0.0,
                uncurable: 1.0,
            },
        }
    }

    /// Samples one cure: `(gold, days, cured)`.
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> (f64, f64, bool) {
        use crate::dice::roll_die;
        match self {
            Plan::Fixed { gold, days, .. } => (*gold, *days, true),
            Plan::Medicine {
                days, dc, bonus, ..
            } => {
                let mut failures = 0u32;
                while (roll_die(rng, 20) as i16) + i16::from(*bonus) < i16::from(*dc) {
                    failures += 1;
                }
                (0.0, days + f64::from(failures), true)
            }
            Plan::Tending(rules) => {
                let cap = rules.death_day(rules.max_hp) + 1;
                let day = tending_day(rules, cap, rng);
                let o = rules.resolve(rules.max_hp, day, None);
                (
                    0.0,
                    f64::from(o.days_open),
                    o.ending != crate::rules::festering::Ending::Dead,
                )
            }
            Plan::Replace { die, prices } => {
                let r = roll_die(rng, u32::from(*die)) as usize;
                (prices[r - 1], 0.0, true)
            }
            Plan::Uncurable => (0.0, 0.0, false),
        }
    }
}

/// Rolls tending checks (at most `max_checks`) and returns the day the
/// wound closes, or `None` if it is still open after them.
pub fn tending_day<R: rand::Rng + ?Sized>(
    rules: &FesteringRules,
    max_checks: u32,
    rng: &mut R,
) -> Option<u32> {
    let mut successes = 0;
    for n in 1..=max_checks {
        if rules.passes(rules.roll.roll(rng)) {
            successes += 1;
            if successes >= rules.successes {
                return Some(rules.check_day(n));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleric(level: u8) -> Resources {
        Resources {
            healer_spells: [
                "cure_wounds",
                "lesser_restoration",
                "greater_restoration",
                "heal",
                "regenerate",
            ]
            .iter()
            .filter_map(|n| spell_index(n))
            .collect(),
            spell_slots: full_caster_slots(level),
            ..Resources::default()
        }
    }

    fn plan(id: &str, r: &Resources) -> Plan {
        let t = &crate::fixtures::catalog().injury_table;
        Plan::cheapest(t.entry(id).unwrap(), r, &PriceList::default())
    }

    #[test]
    fn full_casters_reach_spell_levels_as_in_rules_md() {
        for (level, top) in [(1, 1), (3, 2), (9, 5), (11, 6), (13, 7), (17, 9)] {
            let slots = full_caster_slots(level);
            let highest = slots.iter().rposition(|&n| n > 0).unwrap() + 1;
            assert_eq!(highest, top, "level {level}");
        }
        assert_eq!(full_caster_slots(0), [0; 9]);
    }

    #[test]
    fn a_party_healer_cures_magical_healing_injuries_for_free() {
        let p = plan("limp", &cleric(1));
        assert_eq!(
            p.expected(),
            Expected {
                gold: 0.0,
                days: 0.0,
                uncurable: 0.0
            }
        );
        assert_eq!(
            p.remedy(),
            Remedy::HealerSpell(spell_index("cure_wounds").unwrap())
        );
    }

    #[test]
    fn without_a_healer_rest_beats_a_potion_when_gold_comes_first() {
        let r = Resources::default();
        assert_eq!(plan("blurred_vision", &r).expected().days, 3.0);
        assert_eq!(plan("limp", &r).expected().gold, 50.0, "bought potion");
        let hurry = Resources {
            day_value_gp: 20.0,
            ..Resources::default()
        };
        assert_eq!(
            plan("blurred_vision", &hurry).remedy(),
            Remedy::BoughtPotion
        );
    }

    #[test]
    fn bones_need_a_medicine_check_retried_daily_then_rest() {
        let r = Resources {
            medicine_bonus: Some(5),
            market: false,
            ..Resources::default()
        };
        // DC 15 with +5: 11/20 per day; expected failures 9/11.
        let e = plan("broken_arm_or_hand", &r).expected();
        assert!((e.days - (30.0 + 9.0 / 11.0)).abs() < 1e-12);
        let nobody = Resources {
            medicine_bonus: None,
            market: false,
            ..Resources::default()
        };
        assert_eq!(plan("broken_arm_or_hand", &nobody), Plan::Uncurable);
        let e = plan(
            "broken_finger",
            &Resources {
                medicine_bonus: Some(0),
                market: false,
                ..Resources::default()
            },
        )
        .expected();
        assert!(
            (e.days - (10.0 + 9.0 / 11.0)).abs() < 1e-12,
            "DC 10 with +0: 11/20"
        );
    }

    #[test]
    fn permanent_injuries_need_regenerate_or_are_uncurable() {
        assert_eq!(
            plan(
                "lose_an_eye",
                &Resources {
                    temple: true,
                    ..Resources::default()
                }
            ),
            Plan::Uncurable
        );
        assert_eq!(plan("lose_an_eye", &cleric(12)), Plan::Uncurable);
        assert_eq!(plan("lose_an_eye", &cleric(13)).expected().gold, 0.0);
    }

    #[test]
    fn restoration_reading_selects_the_finger_spell() {
        let temple = Resources {
            temple: true,
            ..Resources::default()
        };
        // The temple's fee (350 gp) on top of the materials (500 gp).
        assert_eq!(plan("lose_a_finger", &temple).expected().gold, 850.0);
        let lesser = Resources {
            restoration_reading: RestorationReading::LesserRestoration,
            ..temple.clone()
        };
        assert_eq!(plan("lose_a_finger", &lesser).expected().gold, 140.0);
        let strict = Resources {
            restoration_reading: RestorationReading::Regenerate,
            ..temple
        };
        assert_eq!(plan("lose_a_finger", &strict), Plan::Uncurable);
        // Own healer: the seed's ritual materials (500 gp) for greater restoration.
        assert_eq!(plan("lose_a_finger", &cleric(9)).expected().gold, 500.0);
    }

    #[test]
    fn scars_need_6th_level_healing() {
        assert_eq!(plan("horrible_scar", &cleric(10)), Plan::Uncurable);
        assert_eq!(
            plan("horrible_scar", &cleric(11)).remedy(),
            Remedy::HealerSpell(spell_index("heal").unwrap())
        );
    }

    #[test]
    fn broken_items_are_replaced_at_the_sub_table_mean() {
        let e = plan("broken_item", &Resources::default()).expected();
        assert!((e.gold - (15.0 + 10.0 + 8.0 * 2.0) / 10.0).abs() < 1e-12);
        assert_eq!(
            plan(
                "broken_item",
                &Resources {
                    market: false,
                    ..Resources::default()
                }
            ),
            Plan::Uncurable
        );
    }

    #[test]
    fn festering_wounds_are_tended_when_no_magic_is_at_hand() {
        let r = Resources {
            market: false,
            ..Resources::default()
        };
        let p = plan("festering_wound", &r);
        assert_eq!(p.remedy(), Remedy::Tending);
        let e = p.expected();
        assert!(
            e.days > 9.0 && e.uncurable > 0.0 && e.uncurable < 1.0,
            "{e:?}"
        );
    }
}
