//! The exact distribution of a festering wound (docs/rules.md, lingering injuries), shared by
//! exact mode and the healing-cost model: the day tending closes the wound
//! is `T = N - 1` (or `N`), where `N`, the check of the 10th success, is
//! negative binomial; magical healing arrives on an independent day `D`.
//! The wound ends on day `min(T, D)` (ties go to magic) unless the loss
//! reaches the creature's max HP first (see [`FesteringRules::resolve`]).
//! Summing over the finitely many days before death gives every
//! probability in closed form.

use super::{FesteringRules, LostHp, MagicArrival, Timing};

/// The exact distribution of one wound on a creature with a given max HP.
#[derive(Clone, Debug, PartialEq)]
pub struct WoundDistribution {
    /// Probability of death (max HP reaches 0).
    pub p_death: f64,
    /// Probability the 10th tending success closes it.
    pub p_tended: f64,
    /// Probability magical healing closes it.
    pub p_magic: f64,
    /// `loss[k]`: probability that `k` max HP are lost (`k = max_hp` for a death).
    pub loss: Vec<f64>,
    /// `closed[d]`: probability the wound closes on day `d` (deaths excluded).
    pub closed: Vec<f64>,
    /// Mean days the wound stays open (until closed or death).
    pub mean_days_open: f64,
    /// Mean max HP still missing once the process is over (0 for a death).
    pub mean_lasting: f64,
}

/// `P(T = t)` for `t` in `0..days` (the day tending closes the wound).
pub fn tending_day_pmf(rules: &FesteringRules, days: u32) -> Vec<f64> {
    let mut pmf = vec![0.0; days as usize];
    let p = rules.success_chance();
    if p <= 0.0 {
        return pmf;
    }
    let q = 1.0 - p;
    let r = rules.successes;
    let shift = match rules.timing {
        Timing::AtOnce => 1,
        Timing::AfterFirstDay => 0,
    };
    // P(N = r) = p^r; P(N = n + 1) = P(N = n) · n / (n + 1 - r) · q.
    let mut at_n = p.powi(r as i32);
    let mut n = r;
    loop {
        // Check n happens on day n - shift.
        let day = n as i64 - shift;
        if day >= i64::from(days) {
            break;
        }
        if day >= 0 {
            pmf[day as usize] = at_n;
        }
        if q == 0.0 {
            break;
        }
        at_n *= f64::from(n) / f64::from(n + 1 - r) * q;
        n += 1;
    }
    pmf
}

/// `P(D = d)` for `d` in `0..days` (the day magical healing arrives).
pub fn magic_day_pmf(magic: MagicArrival, days: u32) -> Vec<f64> {
    let mut pmf = vec![0.0; days as usize];
    match magic {
        MagicArrival::Never => {}
        MagicArrival::Fixed(d) => {
            if d < days {
                pmf[d as usize] = 1.0;
            }
        }
        MagicArrival::Uniform(lo, hi) => {
            let each = 1.0 / f64::from(hi - lo + 1);
            for d in lo..=hi.min(days.saturating_sub(1)) {
                pmf[d as usize] = each;
            }
        }
        MagicArrival::Daily(chance) => {
            let p = chance.p();
            let mut none_yet = 1.0;
            for slot in pmf.iter_mut().skip(1) {
                *slot = none_yet * p;
                none_yet *= 1.0 - p;
            }
        }
    }
    pmf
}

impl FesteringRules {
    /// The exact distribution of one wound on a creature with `max_hp`.
    ///
    /// ```
    /// use woundsim::rules::festering::FesteringRules;
    /// let r = FesteringRules { medicine_bonus: 20, ..Default::default() };
    /// // Every check succeeds: closed on day 9 with 9 max HP lost.
    /// let e = r.distribution(25);
    /// assert_eq!(e.p_death, 0.0);
    /// assert_eq!(e.loss[9], 1.0);
    /// ```
    pub fn distribution(&self, max_hp: u32) -> WoundDistribution {
        let rules = self;
        let death = rules.death_day(max_hp);
        let t = tending_day_pmf(rules, death);
        let d = magic_day_pmf(rules.magic, death);
        let a = rules.hp_per_day.max(1);
        let mut loss = vec![0.0; max_hp as usize + 1];
        let mut closed = vec![0.0; death as usize];
        let (mut t_cdf, mut d_cdf) = (0.0, 0.0);
        let (mut p_tended, mut p_magic, mut days, mut lasting) = (0.0, 0.0, 0.0, 0.0);
        for e in 0..death as usize {
            let t_ge = 1.0 - t_cdf; // P(T >= e)
            d_cdf += d[e]; // P(D <= e)
            let tended = t[e] * (1.0 - d_cdf);
            let magic = d[e] * t_ge;
            t_cdf += t[e];
            let mass = tended + magic;
            loss[e * a as usize] += mass;
            closed[e] = mass;
            p_tended += tended;
            p_magic += magic;
            days += mass * e as f64;
            if rules.lost_hp == LostHp::UntilMagicalHealing && rules.magic == MagicArrival::Never {
                lasting += tended * f64::from(a) * e as f64;
            }
        }
        let p_death = (1.0 - p_tended - p_magic).max(0.0);
        loss[max_hp as usize] += p_death;
        WoundDistribution {
            p_death,
            p_tended,
            p_magic,
            loss,
            closed,
            mean_days_open: days + p_death * f64::from(death),
            mean_lasting: lasting,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_binomial_sums_to_one_with_enough_days() {
        let r = FesteringRules {
            medicine_bonus: 2,
            ..Default::default()
        };
        let total: f64 = tending_day_pmf(&r, 2000).iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        // P(N = 10) = p^10 on day 9 (checks at hours 0..216).
        let p: f64 = 8.0 / 20.0;
        assert!((tending_day_pmf(&r, 20)[9] - p.powi(10)).abs() < 1e-15);
    }

    #[test]
    fn the_pieces_add_up() {
        for magic in [
            MagicArrival::Never,
            MagicArrival::Fixed(4),
            MagicArrival::Uniform(1, 30),
            MagicArrival::Daily(crate::dice::Chance::new(0.2).unwrap()),
        ] {
            let r = FesteringRules {
                medicine_bonus: 5,
                magic,
                ..Default::default()
            };
            let e = r.distribution(25);
            assert!((e.p_death + e.p_tended + e.p_magic - 1.0).abs() < 1e-12);
            assert!((e.loss.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn small_creatures_die_before_ten_checks() {
        // Max HP 9: ten checks end on day 9, when the 9th max HP is already gone.
        let r = FesteringRules {
            medicine_bonus: 20,
            ..Default::default()
        };
        assert_eq!(r.distribution(9).p_death, 1.0);
        assert_eq!(r.distribution(10).p_death, 0.0);
        let untended = FesteringRules {
            tended: false,
            ..Default::default()
        };
        assert_eq!(untended.distribution(40).p_death, 1.0);
    }
}
