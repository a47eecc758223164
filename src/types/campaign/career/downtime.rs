//! A career's downtime in town after each adventure: the injuries' cheapest
//! remedies within the days it lasts, magical healing bought, limbs
//! regrown, permanent wounds healed as the purse allows, potions restocked.

use super::*;

impl<R: Rng + Clone + PartialEq> Career<'_, '_, R> {
    /// A downtime in town after an adventure: the dead raised or replaced,
    /// permanent wounds healed, lingering injuries cured (at once by magic,
    /// potions and replacements; by days of rest and tending), potions
    /// restocked.
    pub(super) fn downtime(&mut self, plan: &LevelPlan) -> Result<(), End> {
        let enc = plan.party();
        self.raise_or_replace(enc, true);
        self.heal_permanent_wounds(plan);
        // Rest cures: per PC, (entry, the day of downtime it ends).
        let mut resting = [[(0u8, 0u32); TRACKED]; MAX_PCS];
        let mut n_resting = [0usize; MAX_PCS];
        let limit = match self.v.calendar.downtime {
            Downtime::AsNeeded => MAX_DOWNTIME_DAYS,
            Downtime::Days(d) => d,
        };
        if let Some(cures) = plan.cures.as_ref().filter(|_| self.v.cure_injuries) {
            let healer_alive = self.v.healer.is_some_and(|h| !self.party.is_dead(h));
            for pc in 0..self.n() {
                if self.party.is_dead(pc) {
                    continue;
                }
                let mut k = 0;
                while let Some(&entry) = self.party.injuries(pc).get(k) {
                    // The cheapest cure; when the purse cannot pay it, the
                    // cheapest without the temple and the market (the
                    // party's own spells, rest, Medicine, tending).
                    let mut cure = cures.plan(healer_alive, pc, usize::from(entry));
                    if whole_gold(most_gold(cure)) > self.purse {
                        cure = cures.unpaid_plan(healer_alive, pc, usize::from(entry));
                    }
                    match cure {
                        Plan::Fixed { days, .. } | Plan::Medicine { days, .. } if *days > 0.0 => {
                            // Days of nothing but rest (after a Medicine
                            // check retried daily): started only when the
                            // party spends downtime on it and it fits.
                            if self.v.rest_cures && n_resting[pc] < TRACKED {
                                let (_, days, _) = cure.sample(self.rng);
                                let days = days.max(0.0).round() as u32;
                                if days <= limit {
                                    resting[pc][n_resting[pc]] = (entry, days);
                                    n_resting[pc] += 1;
                                }
                            }
                        }
                        Plan::Fixed { .. } | Plan::Replace { .. } => {
                            let (gp, _, _) = cure.sample(self.rng);
                            let gp = whole_gold(gp);
                            if gp <= self.purse {
                                self.purse -= gp;
                                self.out.gold_injuries += gp;
                                let magic = matches!(
                                    cure.remedy(),
                                    Remedy::HealerSpell(_)
                                        | Remedy::TempleSpell(_)
                                        | Remedy::CarriedPotion
                                        | Remedy::BoughtPotion
                                );
                                self.cure(enc, pc, entry, magic);
                                // The next injury moved into its place.
                                continue;
                            }
                        }
                        // Tending goes on day by day; the uncurable stays.
                        Plan::Tending(_) | Plan::Medicine { .. } | Plan::Uncurable => {}
                    }
                    k += 1;
                }
                if self.pcs[pc].returns_on_magic > 0 {
                    self.buy_magical_healing(enc, pc, healer_alive);
                }
            }
        }
        self.regrow_limbs(enc);
        // The days in town: as many as the cures need (or as set).
        let as_needed = self.v.calendar.downtime == Downtime::AsNeeded;
        let mut day = 0;
        while day < limit {
            let mut busy = false;
            for pc in (0..self.n()).filter(|&pc| !self.party.is_dead(pc)) {
                let rests = resting[pc][..n_resting[pc]].iter().any(|r| r.1 > day);
                if rests || self.pcs[pc].n_fester > 0 {
                    busy = true;
                    self.out.downtime_days += 1;
                }
            }
            if as_needed && !busy {
                break;
            }
            day += 1;
            self.night(enc);
            for pc in 0..self.n() {
                for &(entry, due) in &resting[pc][..n_resting[pc]] {
                    if due == day && !self.party.is_dead(pc) {
                        self.cure(enc, pc, entry, false);
                    }
                }
            }
            self.count_deaths();
            if !self.party.anyone_alive() {
                return Err(End::Tpk);
            }
        }
        self.out.town_days += u64::from(day);
        self.raise_or_replace(enc, true);
        self.restock_potions();
        Ok(())
    }

    /// Magical healing for PC `pc`, whose festering wounds took max HP that
    /// only magical healing gives back: the healer's spell (free), else the
    /// cheaper of the temple's *cure wounds* and a potion of healing.
    pub(super) fn buy_magical_healing(&mut self, enc: &Encounter, pc: usize, healer_alive: bool) {
        let v = self.v;
        let free = healer_alive && !v.healer_spells.is_empty();
        let temple = (v.temple_spell_level > 0)
            .then(|| {
                let cure = crate::rules::injury_cures::spell_index("cure_wounds")?;
                v.prices.temple_price(cure, v.prices.material(cure))
            })
            .flatten();
        let price = if free {
            0
        } else {
            whole_gold(temple.map_or(v.prices.potion_of_healing, |t| {
                t.min(v.prices.potion_of_healing)
            }))
        };
        if price <= self.purse {
            self.purse -= price;
            self.out.gold_injuries += price;
            self.magical_healing(enc, pc);
        }
    }

    /// Lost limbs (cut off, or severed by called shots) grown back by
    /// *regenerate* (docs/rules.md: the tragic injuries' cure), one casting
    /// a PC: the healer's own (7th level), else the temple's (its fee on top
    /// of the materials) when it casts 7th-level spells and prices
    /// *regenerate*, while the purse pays.
    pub(super) fn regrow_limbs(&mut self, enc: &Encounter) {
        let v = self.v;
        if !v.cure_injuries || (0..self.n()).all(|pc| self.party.severed_limbs(pc) == 0) {
            return;
        }
        let Some(regenerate) = crate::rules::injury_cures::spell_index("regenerate") else {
            return;
        };
        let healer = v.healer.filter(|&h| {
            self.party.is_up(h)
                && Resources {
                    healer_spells: v.healer_spells.clone(),
                    spell_slots: self.party.slots(h),
                    ..Resources::default()
                }
                .can_cast(regenerate)
        });
        let materials = v.prices.material(regenerate);
        let price = if healer.is_some() {
            Some(whole_gold(materials))
        } else {
            v.prices
                .temple_price(regenerate, materials)
                .filter(|_| v.temple_spell_level >= SPELLS[regenerate].level)
                .map(whole_gold)
        };
        let Some(price) = price else {
            return;
        };
        for pc in 0..self.n() {
            let lost = self.party.severed_limbs(pc);
            if lost == 0 || self.party.is_dead(pc) || price > self.purse {
                continue;
            }
            self.purse -= price;
            self.out.gold_injuries += price;
            self.out.limbs_regrown += lost;
            enc.regrow_limbs(&mut self.party, pc);
        }
    }

    /// Heals the permanent wounds the policy and the purse allow, keeping
    /// the price of one raising when raising comes first. (The planner
    /// runs only when some PC has a wound to heal and there is gold: most
    /// downtimes have neither.)
    pub(super) fn heal_permanent_wounds(&mut self, plan: &LevelPlan) {
        let v = self.v;
        let enc = plan.party();
        let wanted = (0..self.n()).any(|pc| {
            !self.party.is_dead(pc)
                && wounds_to_heal(v.heal_wounds, self.party.wounds(pc)) != WoundSlots::EMPTY
        });
        if !wanted || self.purse == 0 {
            return;
        }
        let reserve = cached_reserve(v, &plan.healing, &self.party);
        for pc in 0..self.n() {
            if let Some(p) =
                cached_wound_healing(v, &plan.healing, &self.party, pc, self.purse, reserve)
            {
                let g = gold(&p);
                self.purse -= g;
                self.out.gold_wounds += g;
                let healed = healed_by(v.healing, &p, self.party.wounds(pc));
                enc.heal_wounds(&mut self.party, pc, healed);
            }
        }
    }

    /// Potions for the next adventure: each living PC's potions of each
    /// rarity restocked, in party order, while the purse pays.
    pub(super) fn restock_potions(&mut self) {
        for pc in 0..self.n() {
            if self.party.is_dead(pc) {
                continue;
            }
            for (k, &wanted) in self.v.restock_potions.iter().enumerate() {
                let short = wanted.saturating_sub(self.party.potions(pc)[k]);
                if short == 0 {
                    continue;
                }
                let price = whole_gold(self.v.prices.potion(k));
                let affordable = self.purse.checked_div(price).unwrap_or(u64::MAX);
                let buy = u64::from(short).min(affordable);
                self.purse -= buy * price;
                self.out.gold_potions += buy * price;
                self.party.buy_potions(pc, k, buy as u8);
            }
        }
    }
}
