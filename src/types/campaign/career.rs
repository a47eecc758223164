//! One career of a campaign, day by day (docs/campaign.md, "The career,
//! day by day"): at each level, adventures of adventuring days (a day is
//! its fights, one at a time, with the calendar's rests between them, then
//! a long rest), each adventure between days on the road and followed by a
//! downtime in town; the party levels up at each milestone.
//!
//! Between the fights and the days it applies the rule core and
//! re-implements none of it:
//! - a festering or open wound costs max HP every 24 hours it stays open
//!   and is tended with the party's best Medicine every 24 hours, at once
//!   first (docs/rules.md, lingering injuries: DC 15, ten successes; death
//!   at 0 max HP); the max HP it took comes back after the next long rest
//!   once it is closed, or only with magical healing
//!   (`festering_lost_hp`);
//! - the party healer spends the slots it has left at the end of a day on
//!   the injuries its spells cure (`injury_spells`); in downtime each
//!   injury gets its cheapest remedy ([`crate::rules::injury_cures::Plan`]),
//!   rest cures taking their days of nothing but rest;
//! - the dead are raised by the cheapest castings
//!   ([`crate::rules::wound_healing::plan`]: the party's casters anywhere,
//!   the temple in town) within the spells' time limits, or replaced;
//! - permanent wounds are healed in downtime as the purchase policy and
//!   the purse allow ([`super::spending`]).

use rand::Rng;

use super::shared_fights::{FightAt, Sharing};
use super::spending::{
    cached_reserve, cached_wound_healing, gold, healed_by, providers_in, raising, return_penalty,
    wounds_to_heal,
};
use super::{CampaignVariant, Downtime, Draw, InjurySpells, LevelPlan, ReplaceDead, ReturnPenalty};
use crate::combat::encounter::{Arena, Encounter, MAX_PCS, PartyState};
use crate::dice::roll_die;
use crate::engine::Stop;
use crate::rules::festering::LostHp;
use crate::rules::injury_cures::{Plan, Remedy, Resources, SPELLS};
use crate::rules::permanent_wounds::{Severity, WoundSlots};
use crate::rules::wound_healing::{DeadFor, SECONDS_PER_DAY};

/// Most days one downtime lasts when it lasts as long as the cures need
/// (a wound still festering then goes on festering on the road).
pub const MAX_DOWNTIME_DAYS: u32 = 365;

/// Lingering injuries a PC's tracker follows at once (festering wounds,
/// rest cures): as many as a fighter remembers.
const TRACKED: usize = 8;

/// What one career produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CareerOutcome {
    /// The whole party died (the trial ended there).
    pub tpk: bool,
    /// PC deaths (a PC raised and killed again dies twice).
    pub deaths: u32,
    /// Dead PCs raised.
    pub raises: u32,
    /// Dead PCs replaced by new characters.
    pub replacements: u32,
    /// Fights fought.
    pub fights: u32,
    /// Permanent wounds taken, by severity.
    pub wounds_taken: [u32; 3],
    /// Lingering injuries taken by PCs.
    pub injuries_taken: u32,
    /// Gold found.
    pub treasure: u64,
    /// Gold spent healing permanent wounds.
    pub gold_wounds: u64,
    /// Gold spent raising the dead.
    pub gold_raising: u64,
    /// Gold spent curing lingering injuries.
    pub gold_injuries: u64,
    /// Gold spent on potions of healing.
    pub gold_potions: u64,
    /// Days PCs spent healing in downtime (resting for a cure or tending a
    /// festering wound), summed over the PCs.
    pub downtime_days: u64,
    /// Days the party spent in town (every downtime).
    pub town_days: u64,
    /// Days the career lasted (adventuring days, the road, downtime).
    pub calendar_days: u64,
    /// Max HP lost to festering wounds while they were open.
    pub festering_hp: u64,
    /// PCs killed by a festering wound.
    pub festering_deaths: u32,
    /// Spreading venoms that reached a PC (our extension).
    pub venoms_spread: u32,
    /// Poisoned limbs the party cut off after a fight.
    pub limbs_amputated: u32,
    /// Limbs cut off and put back on within the window.
    pub limbs_reattached: u32,
    /// PCs' limbs severed by called shots.
    pub limbs_severed: u32,
    /// Lost limbs grown back by *regenerate* in downtime.
    pub limbs_regrown: u32,
    /// Per level of the career: PCs alive after it.
    pub alive: Vec<u8>,
    /// Per level: PCs of the starting party alive (never replaced) after it.
    pub originals: Vec<u8>,
    /// Per level: PCs alive carrying a permanent wound, a lingering injury
    /// or a lost limb after it (a character-level played maimed: the level
    /// ends with the PC still carrying it after the level's downtime).
    pub maimed: Vec<u8>,
    /// Per level: PCs alive carrying a lingering injury after it.
    pub injured: Vec<u8>,
    /// Per level: PC deaths by the end of it (cumulative).
    pub deaths_by: Vec<u32>,
    /// Per level: the party died by then.
    pub tpk_by: Vec<bool>,
    /// Per level: gold spent by then (every purpose).
    pub spent: Vec<u64>,
    /// Per adventuring day of the career (levels × days per level): gold
    /// spent by the end of it (an adventure's downtime included on its
    /// last day).
    pub spent_by_day: Vec<u64>,
    /// Per level: each PC slot's wound state after it, as
    /// [`CareerOutcome::end_states`].
    pub states: Vec<[u8; 5]>,
    /// Max HP each PC slot lost to festering wounds over the career
    /// (a replacement adds to its slot).
    pub festering_by_pc: [u64; MAX_PCS],
    /// At the end, each PC slot's state: healthy, carrying a minor, a
    /// moderate, a severe wound as its worst, or dead.
    pub end_states: [u8; 5],
    /// At the end: living PCs carrying a lingering injury.
    pub end_injured: u8,
}

impl CareerOutcome {
    /// Gold spent on every purpose.
    pub fn spent_total(&self) -> u64 {
        self.gold_wounds + self.gold_raising + self.gold_injuries + self.gold_potions
    }

    /// The whole party of `pcs` died during level `level` and adventuring
    /// day `day` (indices): that level and day and every later one count
    /// it as dead.
    fn end_in_tpk(&mut self, level: usize, day: usize, pcs: u8) {
        self.tpk = true;
        let spent = self.spent_total();
        for later in level..self.tpk_by.len() {
            self.tpk_by[later] = true;
            self.deaths_by[later] = self.deaths;
            self.spent[later] = spent;
            self.states[later] = [0, 0, 0, 0, pcs];
        }
        for later in self.spent_by_day.iter_mut().skip(day) {
            *later = spent;
        }
    }

    /// Empties the outcome for a career of `levels` levels and `days`
    /// adventuring days, keeping the vectors' memory.
    fn reset(&mut self, levels: usize, days: usize) {
        let mut keep = (
            std::mem::take(&mut self.alive),
            std::mem::take(&mut self.originals),
            std::mem::take(&mut self.maimed),
            std::mem::take(&mut self.injured),
            std::mem::take(&mut self.tpk_by),
            std::mem::take(&mut self.spent),
            std::mem::take(&mut self.spent_by_day),
            std::mem::take(&mut self.states),
            std::mem::take(&mut self.deaths_by),
        );
        for v in [&mut keep.0, &mut keep.1, &mut keep.2, &mut keep.3] {
            v.clear();
            v.resize(levels, 0);
        }
        keep.4.clear();
        keep.4.resize(levels, false);
        keep.5.clear();
        keep.5.resize(levels, 0);
        keep.6.clear();
        keep.6.resize(days, 0);
        keep.7.clear();
        keep.7.resize(levels, [0; 5]);
        keep.8.clear();
        keep.8.resize(levels, 0);
        *self = CareerOutcome {
            deaths_by: keep.8,
            alive: keep.0,
            originals: keep.1,
            maimed: keep.2,
            injured: keep.3,
            tpk_by: keep.4,
            spent: keep.5,
            spent_by_day: keep.6,
            states: keep.7,
            ..CareerOutcome::default()
        };
    }
}

/// An open festering or open wound of a PC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Fester {
    /// Its injury-table entry.
    entry: u8,
    /// Tending successes so far.
    successes: u8,
    /// Max HP it has taken so far.
    lost: i32,
}

/// What the career follows of one PC slot beyond its fighter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PcTrack {
    /// Of the starting party (never replaced).
    original: bool,
    /// Its death is counted.
    counted_dead: bool,
    /// When it died, in half days since the career began (it died during
    /// the day whose middle this is).
    died_half_days: u64,
    /// Its open festering wounds (the first `n_fester`).
    fester: [Fester; TRACKED],
    n_fester: u8,
    /// Max HP of closed festering wounds that comes back after its next
    /// long rest.
    returns_at_rest: i32,
    /// Max HP of closed festering wounds that waits for magical healing.
    returns_on_magic: i32,
}

impl Default for PcTrack {
    fn default() -> Self {
        PcTrack {
            original: true,
            counted_dead: false,
            died_half_days: 0,
            fester: [Fester::default(); TRACKED],
            n_fester: 0,
            returns_at_rest: 0,
            returns_on_magic: 0,
        }
    }
}

impl PcTrack {
    fn festers(&self) -> &[Fester] {
        &self.fester[..usize::from(self.n_fester)]
    }
}

/// Why a career ended before its last level.
enum End {
    /// The whole party is dead.
    Tpk,
    /// The run was cancelled.
    Stopped,
}

/// A career in progress.
struct Career<'c, 's, R> {
    v: &'c CampaignVariant,
    rng: &'c mut R,
    arena: &'c mut Arena,
    sharing: Sharing<'s, R>,
    out: &'c mut CareerOutcome,
    stop: Stop<'c>,
    party: PartyState,
    pcs: [PcTrack; MAX_PCS],
    purse: u64,
    /// Whole days since the career began.
    today: u64,
    /// The index of the current (or next) adventuring day in the career.
    day_index: usize,
    /// The index of the current level in the career.
    level_index: usize,
}

/// Plays one career of variant `v` into `out`, its fights shared with
/// other variants as `sharing` says; `false` when `stop` came first
/// (polled before each adventuring day).
pub fn career<R: Rng + Clone + PartialEq>(
    v: &CampaignVariant,
    rng: &mut R,
    arena: &mut Arena,
    sharing: Sharing<'_, R>,
    out: &mut CareerOutcome,
    stop: Stop<'_>,
) -> bool {
    out.reset(v.levels.len(), v.calendar.career_days(v.levels.len()));
    let Some(first) = v.levels.first() else {
        return true;
    };
    let mut c = Career {
        v,
        rng,
        arena,
        sharing,
        out,
        stop,
        party: first.party().fresh_party(),
        pcs: [PcTrack::default(); MAX_PCS],
        purse: v.starting_gold,
        today: 0,
        day_index: 0,
        level_index: 0,
    };
    c.play()
}

impl<R: Rng + Clone + PartialEq> Career<'_, '_, R> {
    fn n(&self) -> usize {
        self.party.len()
    }

    /// The whole career; `false` when stopped.
    fn play(&mut self) -> bool {
        let v = self.v;
        for (li, plan) in v.levels.iter().enumerate() {
            if li > 0 {
                // Milestone: the next level's templates, after the downtime.
                self.rest(plan.party());
            }
            self.level_index = li;
            match self.level(plan) {
                Ok(()) => self.level_figures(li),
                Err(End::Stopped) => return false,
                Err(End::Tpk) => {
                    let n = self.n() as u8;
                    self.out.end_in_tpk(li, self.day_index, n);
                    break;
                }
            }
        }
        let out = &mut *self.out;
        out.end_states = out.states.last().copied().unwrap_or_default();
        out.end_injured = (0..self.party.len())
            .filter(|&pc| !self.party.is_dead(pc) && !self.party.injuries(pc).is_empty())
            .count() as u8;
        out.calendar_days = self.today;
        true
    }

    /// One level: its adventures, each with the road there and back and a
    /// downtime after it.
    fn level(&mut self, plan: &LevelPlan) -> Result<(), End> {
        for days in self.v.calendar.adventure_days() {
            self.travel(plan)?;
            for _ in 0..days {
                if self.stop.requested() {
                    return Err(End::Stopped);
                }
                self.adventuring_day(plan)?;
                self.day_index += 1;
            }
            let back = self.travel(plan).and_then(|()| self.downtime(plan));
            // The adventure's last day counts its downtime's spending.
            let spent = self.out.spent_total();
            if let Some(last) = self.day_index.checked_sub(1) {
                self.out.spent_by_day[last] = spent;
            }
            back?;
        }
        Ok(())
    }

    /// One adventuring day: its fights, the healer's slots on injuries,
    /// the night's long rest, the treasure, the dead raised or replaced.
    fn adventuring_day(&mut self, plan: &LevelPlan) -> Result<(), End> {
        let v = self.v;
        let calendar = &v.calendar;
        let party_enc = plan.party();
        let mut e = plan.pick_index(self.rng);
        for k in 0..calendar.fights_per_day {
            if k > 0 {
                let rest = calendar.rest_after(k - 1);
                party_enc.rest_between(self.rng, &mut self.party, rest);
                if !(0..self.n()).any(|pc| self.party.is_up(pc)) {
                    break;
                }
                if calendar.draw == Draw::PerFight {
                    e = plan.pick_index(self.rng);
                }
            }
            let later = calendar.fights_per_day - k - 1;
            let at = FightAt {
                level: self.level_index,
                encounter: e,
                later,
            };
            let enc = &plan.fights[e].encounter;
            // The casters budget their slots over the day's fights left.
            self.arena.plan_later_fights(later);
            let fight = self
                .sharing
                .fight(at, enc, self.rng, self.arena, &mut self.party);
            let out = &mut *self.out;
            out.fights += fight.fights;
            let found = plan.treasure * u64::from(fight.fights_won);
            self.purse += found;
            out.treasure += found;
            for (taken, &w) in out.wounds_taken.iter_mut().zip(&fight.wounds) {
                *taken += w;
            }
            out.injuries_taken += fight.injuries;
            let n = self.party.len();
            let sum = |counts: &[u8]| counts[..n].iter().map(|&c| u32::from(c)).sum::<u32>();
            out.venoms_spread += sum(&fight.pc_venom_spread);
            out.limbs_amputated += sum(&fight.pc_limbs_amputated);
            out.limbs_reattached += sum(&fight.pc_limbs_reattached);
            out.limbs_severed += sum(&fight.pc_limbs_severed);
            self.tend_new_festering(party_enc);
            if !fight.party_win {
                break;
            }
        }
        self.end_of_day(party_enc, calendar.travel_days == 0)?;
        let spent = self.out.spent_total();
        self.out.spent_by_day[self.day_index] = spent;
        Ok(())
    }

    /// The end of any day away from town: the healer's slots on injuries,
    /// the night (a long rest, a day of festering), the dead counted and
    /// raised (or replaced when the party can reach town: `in_reach`).
    fn end_of_day(&mut self, enc: &Encounter, in_reach: bool) -> Result<(), End> {
        if self.v.injury_spells == InjurySpells::AfterEachDay {
            self.spend_slots_on_injuries(enc);
        }
        self.night(enc);
        self.count_deaths();
        if !self.party.anyone_alive() {
            return Err(End::Tpk);
        }
        self.raise_or_replace(enc, in_reach);
        Ok(())
    }

    /// Days on the road between town and an adventure's site.
    fn travel(&mut self, plan: &LevelPlan) -> Result<(), End> {
        for _ in 0..self.v.calendar.travel_days {
            self.end_of_day(plan.party(), false)?;
        }
        Ok(())
    }

    /// A long rest (max HP of closed festering wounds back first, as the
    /// option says) without a day passing: the milestone's levelling.
    fn rest(&mut self, enc: &Encounter) {
        for pc in 0..self.n() {
            let back = std::mem::take(&mut self.pcs[pc].returns_at_rest);
            if back > 0 && !self.party.is_dead(pc) {
                enc.restore_max_hp(&mut self.party, pc, back, false);
            }
        }
        enc.long_rest(&mut self.party);
    }

    /// A night: the long rest, then the day's festering (docs/rules.md:
    /// each full 24 hours a wound stays open costs its max HP, then the
    /// day's tending check).
    fn night(&mut self, enc: &Encounter) {
        self.rest(enc);
        self.today += 1;
        let tender = self.best_medicine(enc);
        for pc in 0..self.n() {
            if self.party.is_dead(pc) {
                continue;
            }
            let mut i = 0;
            while i < usize::from(self.pcs[pc].n_fester) {
                let w = self.pcs[pc].fester[i];
                let Some(rule) = self.fester_rule(w.entry) else {
                    i += 1;
                    continue;
                };
                let dies = enc.lose_max_hp(&mut self.party, pc, rule.hp_per_day);
                self.pcs[pc].fester[i].lost += rule.hp_per_day;
                let lost = rule.hp_per_day.max(0) as u64;
                self.out.festering_hp += lost;
                self.out.festering_by_pc[pc] += lost;
                if dies {
                    self.out.festering_deaths += 1;
                    self.party.kill(pc);
                    break;
                }
                if self.tend(pc, i, tender) {
                    self.close_fester(enc, pc, i, false);
                } else {
                    i += 1;
                }
            }
        }
    }

    /// Counts the PCs dead since the last count.
    fn count_deaths(&mut self) {
        for pc in 0..self.n() {
            let t = &mut self.pcs[pc];
            if self.party.is_dead(pc) && !t.counted_dead {
                t.counted_dead = true;
                // Died during the day that just ended.
                t.died_half_days = (self.today * 2).saturating_sub(1);
                self.out.deaths += 1;
            }
        }
    }

    /// The dead of the party: each raised if the purse and a caster allow
    /// (the temple only `in_reach` of town), else replaced as the policy
    /// says when in reach of town (the dead are carried back otherwise).
    fn raise_or_replace(&mut self, enc: &Encounter, in_reach: bool) {
        let v = self.v;
        for pc in 0..self.n() {
            if !self.party.is_dead(pc) {
                continue;
            }
            let casters = providers_in(v, &self.party, in_reach);
            let half_days = (self.today * 2).saturating_sub(self.pcs[pc].died_half_days);
            let dead_for = DeadFor(half_days * (SECONDS_PER_DAY / 2));
            if let Some(p) = raising(v, &self.party, pc, &casters, self.purse, dead_for) {
                let g = gold(&p);
                self.purse -= g;
                self.out.gold_raising += g;
                let healed = healed_by(v.healing, &p, self.party.wounds(pc));
                let penalty = match v.return_penalty {
                    ReturnPenalty::None => 0,
                    _ => return_penalty(v.healing, &p),
                };
                let on_death_saves = v.return_penalty == ReturnPenalty::EverySave;
                // Raising closes its mortal wounds (SRD 5.1 *raise dead*):
                // the festering wounds that killed it, and the max HP they
                // took comes back.
                let t = &mut self.pcs[pc];
                let festered: i32 = t.festers().iter().map(|w| w.lost).sum::<i32>()
                    + std::mem::take(&mut t.returns_at_rest)
                    + std::mem::take(&mut t.returns_on_magic);
                let entries: Vec<u8> = t.festers().iter().map(|w| w.entry).collect();
                t.n_fester = 0;
                for entry in entries {
                    enc.cure_injury(&mut self.party, pc, entry);
                }
                enc.restore_max_hp(&mut self.party, pc, festered, false);
                enc.raise(&mut self.party, pc, penalty, on_death_saves);
                if healed != WoundSlots::EMPTY {
                    enc.heal_wounds(&mut self.party, pc, healed);
                }
                self.out.raises += 1;
            } else if in_reach && v.replace_dead != ReplaceDead::Never {
                match v.replace_dead {
                    ReplaceDead::LevelBelow => enc.replace_below(&mut self.party, pc),
                    _ => enc.replace(&mut self.party, pc),
                }
                self.pcs[pc] = PcTrack {
                    original: false,
                    ..PcTrack::default()
                };
                self.out.replacements += 1;
                continue;
            } else {
                continue;
            }
            self.pcs[pc].counted_dead = false;
        }
    }

    /// The figures of level `li`, after its last downtime.
    fn level_figures(&mut self, li: usize) {
        let party = &self.party;
        let (mut alive, mut originals, mut maimed, mut injured) = (0, 0, 0, 0);
        let mut states = [0; 5];
        for pc in 0..party.len() {
            states[state_of(party, pc)] += 1;
            if party.is_dead(pc) {
                continue;
            }
            alive += 1;
            originals += u8::from(self.pcs[pc].original);
            let carries_injury = !party.injuries(pc).is_empty();
            injured += u8::from(carries_injury);
            maimed += u8::from(
                party.wounds(pc) != WoundSlots::EMPTY
                    || carries_injury
                    || party.severed_limbs(pc) > 0,
            );
        }
        let out = &mut *self.out;
        out.alive[li] = alive;
        out.originals[li] = originals;
        out.maimed[li] = maimed;
        out.injured[li] = injured;
        out.spent[li] = out.spent_total();
        out.deaths_by[li] = out.deaths;
        out.states[li] = states;
    }
}

/// The most gold a cure plan can cost (a replacement item's dearest).
fn most_gold(plan: &Plan) -> f64 {
    match plan {
        Plan::Fixed { gold, .. } => *gold,
        Plan::Replace { prices, .. } => prices.iter().copied().fold(0.0, f64::max),
        _ => 0.0,
    }
}

/// Whole gold pieces of a price (the price lists' prices are whole).
fn whole_gold(gp: f64) -> u64 {
    gp.max(0.0).round() as u64
}

/// The worst wound state of a living PC carrying `wounds` (0 healthy,
/// 1 minor, 2 moderate, 3 severe).
fn worst(wounds: WoundSlots) -> usize {
    Severity::ALL
        .iter()
        .rev()
        .find(|&&s| wounds.has(s))
        .map_or(0, |&s| s as usize + 1)
}

/// PC `pc`'s wound state: 0 healthy, 1 minor, 2 moderate, 3 severe
/// (its worst wound), 4 dead.
fn state_of(party: &PartyState, pc: usize) -> usize {
    if party.is_dead(pc) {
        4
    } else {
        worst(party.wounds(pc))
    }
}

mod downtime;
mod injuries;

#[cfg(test)]
mod tests;
