//! Lingering injuries between the fights of a career: festering and open
//! wounds tended day by day with the party's best Medicine (closed by
//! tending or magic, max HP lost meanwhile), cures, and the healer's
//! slots left at the end of a day spent on the injuries its spells cure.

use super::*;

impl<R: Rng + Clone + PartialEq> Career<'_, '_, R> {
    /// The festering rule of injury-table entry `entry`, if it festers.
    pub(super) fn fester_rule(&self, entry: u8) -> Option<super::super::FesterRule> {
        self.v.festering.get(usize::from(entry)).copied().flatten()
    }

    /// The best Wisdom (Medicine) modifier among the conscious PCs, if any
    /// (after a long rest, every living PC).
    pub(super) fn best_medicine(&self, enc: &Encounter) -> Option<i32> {
        (0..self.n())
            .filter(|&pc| self.party.is_up(pc))
            .map(|pc| enc.party[pc].medicine)
            .max()
    }

    /// One tending check on PC `pc`'s festering wound `i` by a tender with
    /// Medicine `tender` (an ability check: no automatic success on a 20):
    /// whether the wound closes with it.
    pub(super) fn tend(&mut self, pc: usize, i: usize, tender: Option<i32>) -> bool {
        let (Some(bonus), Some(rule)) = (tender, self.fester_rule(self.pcs[pc].fester[i].entry))
        else {
            return false;
        };
        let w = &mut self.pcs[pc].fester[i];
        if roll_die(self.rng, 20) as i32 + bonus >= i32::from(rule.dc) {
            w.successes += 1;
        }
        w.successes >= rule.successes
    }

    /// Starts following the festering wounds PC `pc` took that are not
    /// followed yet, each tended at once (a check at hour 0).
    pub(super) fn tend_new_festering(&mut self, enc: &Encounter) {
        if self.v.festering.iter().all(Option::is_none) {
            return;
        }
        let tender = self.best_medicine(enc);
        for pc in 0..self.n() {
            let carried = self.party.injuries(pc);
            let festering = carried
                .iter()
                .filter(|&&e| self.fester_rule(e).is_some())
                .count();
            if self.party.is_dead(pc) || festering <= usize::from(self.pcs[pc].n_fester) {
                continue;
            }
            let mut list = [0u8; TRACKED];
            let len = carried.len().min(TRACKED);
            list[..len].copy_from_slice(&carried[..len]);
            for &entry in &list[..len] {
                if self.fester_rule(entry).is_none() {
                    continue;
                }
                let carried = list[..len].iter().filter(|&&e| e == entry).count();
                let followed = self.pcs[pc]
                    .festers()
                    .iter()
                    .filter(|w| w.entry == entry)
                    .count();
                if carried <= followed || usize::from(self.pcs[pc].n_fester) >= TRACKED {
                    continue;
                }
                let i = usize::from(self.pcs[pc].n_fester);
                self.pcs[pc].fester[i] = Fester {
                    entry,
                    successes: 0,
                    lost: 0,
                };
                self.pcs[pc].n_fester += 1;
                if self.tend(pc, i, tender) {
                    self.close_fester(enc, pc, i, false);
                }
            }
        }
    }

    /// Closes PC `pc`'s festering wound `i` (by tending, or by magical
    /// healing with `magic`): the injury is cured, and the max HP it took
    /// comes back as `festering_lost_hp` says.
    pub(super) fn close_fester(&mut self, enc: &Encounter, pc: usize, i: usize, magic: bool) {
        let t = &mut self.pcs[pc];
        let w = t.fester[i];
        let n = usize::from(t.n_fester);
        t.fester.copy_within(i + 1..n, i);
        t.n_fester -= 1;
        match (self.v.festering_lost_hp, magic) {
            (LostHp::AfterLongRest, _) => t.returns_at_rest += w.lost,
            (LostHp::UntilMagicalHealing, true) => {
                enc.restore_max_hp(&mut self.party, pc, w.lost, true);
            }
            (LostHp::UntilMagicalHealing, false) => t.returns_on_magic += w.lost,
        }
        enc.cure_injury(&mut self.party, pc, w.entry);
    }

    /// Cures PC `pc`'s lingering injury `entry` by magic or a remedy that
    /// ends it at once; a festering wound closes by magic.
    pub(super) fn cure(&mut self, enc: &Encounter, pc: usize, entry: u8, magic: bool) {
        if let Some(i) = self.pcs[pc].festers().iter().position(|w| w.entry == entry) {
            self.close_fester(enc, pc, i, magic);
        } else {
            enc.cure_injury(&mut self.party, pc, entry);
        }
        if magic {
            self.magical_healing(enc, pc);
        }
    }

    /// Magical healing reached PC `pc`: max HP waiting for it comes back.
    pub(super) fn magical_healing(&mut self, enc: &Encounter, pc: usize) {
        let back = std::mem::take(&mut self.pcs[pc].returns_on_magic);
        if back > 0 {
            enc.restore_max_hp(&mut self.party, pc, back, true);
        }
    }

    /// The healer's slots left at the end of a day, spent on the injuries
    /// its spells cure, PC by PC in party order (the materials paid).
    pub(super) fn spend_slots_on_injuries(&mut self, enc: &Encounter) {
        let (Some(healer), Some(table)) = (self.v.healer, self.v.injuries.as_ref()) else {
            return;
        };
        if !self.party.is_up(healer) || !self.v.cure_injuries {
            return;
        }
        for pc in 0..self.n() {
            if self.party.is_dead(pc) {
                continue;
            }
            let mut k = 0;
            while let Some(&entry) = self.party.injuries(pc).get(k) {
                let resources = Resources {
                    healer_spells: self.v.healer_spells.clone(),
                    spell_slots: self.party.slots(healer),
                    market: false,
                    medicine_bonus: None,
                    ..Resources::default()
                };
                let Some(injury) = table.entries.get(usize::from(entry)) else {
                    k += 1;
                    continue;
                };
                let spell = match Plan::cheapest(injury, &resources, &self.v.prices) {
                    Plan::Fixed {
                        gold,
                        remedy: Remedy::HealerSpell(spell),
                        ..
                    } if gold.max(0.0).round() as u64 <= self.purse => {
                        Some((spell, gold.max(0.0).round() as u64))
                    }
                    _ => None,
                };
                let Some((spell, gp)) = spell else {
                    k += 1;
                    continue;
                };
                if self.party.spend_slot(healer, SPELLS[spell].level).is_none() {
                    k += 1;
                    continue;
                }
                self.purse -= gp;
                self.out.gold_injuries += gp;
                self.cure(enc, pc, entry, true);
            }
        }
    }
}
