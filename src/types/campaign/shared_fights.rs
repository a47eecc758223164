//! Fights shared between the variants of one trial (docs/campaign.md,
//! "Campaign throughput"). Every variant of a trial replays one
//! generator seed, and a fight is a pure function of its encounter, the
//! party going into it and the generator's state. So when a later variant
//! reaches its `j`-th fight with the same encounter, the same party and the
//! same generator state as an earlier variant with the same fights had at
//! its `j`-th, the fight's result is the earlier one: the party and the
//! generator as that fight left them, and its outcome. Variants that differ
//! only in what happens between fights (`standard` and `harsh` healing)
//! share every fight until their healing first differs; from there on they
//! fight their own. Output is bit-identical to fighting every fight, since
//! a fight is only taken over when its whole input matches.

use rand::Rng;

use crate::combat::encounter::{Arena, Encounter, PartyState, TrialOutcome};

/// Where a fight happens: the level's index in the career and the
/// encounter's index among that level's encounters (variants that share
/// fights have equal encounters at equal indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FightAt {
    /// The level's index in the career.
    pub level: usize,
    /// The encounter's index among the level's encounters.
    pub encounter: usize,
    /// The fights of the day after it (the casters' slot budget).
    pub later: u32,
}

/// One fight as a variant played it: its whole input and its result.
#[derive(Clone, Debug)]
struct Played<R> {
    at: FightAt,
    party_before: PartyState,
    rng_before: R,
    party_after: PartyState,
    rng_after: R,
    outcome: TrialOutcome,
}

/// The fights of one variant's career in the current trial, in order
/// (the entries' memory is kept from trial to trial).
#[derive(Clone, Debug)]
pub struct FightLog<R> {
    played: Vec<Played<R>>,
    len: usize,
}

impl<R> Default for FightLog<R> {
    fn default() -> Self {
        FightLog {
            played: Vec::new(),
            len: 0,
        }
    }
}

impl<R> FightLog<R> {
    /// The fights logged in the current trial.
    fn fights(&self) -> &[Played<R>] {
        &self.played[..self.len]
    }
}

/// How one career shares its fights: it takes over fights from an earlier
/// variant's log (`reuse`) and logs its own for a later variant
/// (`record`); with neither, it fights every fight.
#[derive(Debug)]
pub struct Sharing<'l, R> {
    reuse: Option<&'l FightLog<R>>,
    record: Option<&'l mut FightLog<R>>,
    /// Fights so far in this career.
    next: usize,
    /// Fights taken over so far in this career.
    taken_over: u32,
}

impl<'l, R: Rng + Clone + PartialEq> Sharing<'l, R> {
    /// Sharing for one career: `record`, if any, is emptied first.
    pub fn new(reuse: Option<&'l FightLog<R>>, mut record: Option<&'l mut FightLog<R>>) -> Self {
        if let Some(log) = record.as_deref_mut() {
            log.len = 0;
        }
        Sharing {
            reuse,
            record,
            next: 0,
            taken_over: 0,
        }
    }

    /// A career that shares nothing.
    pub fn none() -> Self {
        Sharing::new(None, None)
    }

    /// Fights taken over from the earlier variant so far.
    pub fn taken_over(&self) -> u32 {
        self.taken_over
    }

    /// The career's next fight, `enc` at `at` ([`Encounter::play`]): taken
    /// over from the earlier variant's fight of the same number when its
    /// encounter, party and generator state were these, fought otherwise.
    pub fn fight(
        &mut self,
        at: FightAt,
        enc: &Encounter,
        rng: &mut R,
        arena: &mut Arena,
        party: &mut PartyState,
    ) -> TrialOutcome {
        let j = self.next;
        self.next += 1;
        let earlier = self
            .reuse
            .and_then(|log| log.fights().get(j))
            .filter(|p| p.at == at && p.rng_before == *rng && p.party_before == *party);
        let entry = self.record.as_deref_mut().map(|log| {
            if log.len == log.played.len() {
                log.played.push(Played {
                    at,
                    party_before: party.clone(),
                    rng_before: rng.clone(),
                    party_after: party.clone(),
                    rng_after: rng.clone(),
                    outcome: TrialOutcome::default(),
                });
            } else {
                let p = &mut log.played[log.len];
                p.at = at;
                p.party_before.clone_from(party);
                p.rng_before.clone_from(rng);
            }
            log.len += 1;
            &mut log.played[log.len - 1]
        });
        let outcome = match earlier {
            Some(p) => {
                party.clone_from(&p.party_after);
                rng.clone_from(&p.rng_after);
                self.taken_over += 1;
                p.outcome
            }
            None => enc.play(rng, arena, party),
        };
        if let Some(p) = entry {
            p.party_after.clone_from(party);
            p.rng_after.clone_from(rng);
            p.outcome = outcome;
        }
        outcome
    }
}

#[cfg(test)]
mod tests;
