//! Accumulators read from a file, checked before they are used: a shard's
//! state comes from another machine, another build or a hand-edited file,
//! so `merge` trusts none of it (docs/cluster.md, "What merge checks").
//!
//! [`Checked`] is implemented by every building block of an accumulator
//! (counters, [`super::accum::Moments`], [`super::accum::IntMoments`],
//! [`super::accum::Histogram`], [`super::ratio::PairedRatio`], arrays and
//! `Vec`s of them) and, through [`super::merge::mergeable!`], by every
//! accumulator struct, field by field, so that a field added to an
//! accumulator is checked without another line. It gives three things:
//!
//! - [`Checked::layout`]: a description of the serialised layout, whose
//!   hash a state file carries, so that a state of a build whose
//!   accumulators differ is refused instead of mis-read;
//! - [`Checked::check_like`]: the shape of an empty accumulator of the
//!   same scenario (vector lengths, histogram bins: what the scenario
//!   fixes, so a file cannot make the merge's work larger than the run's)
//!   and values a run can produce (finite moments, consistent sums);
//! - [`Checked::try_merge`]: [`super::Merge`] with checked arithmetic, where
//!   a sum that wraps is an error, not a wrong figure.
//!
//! Errors name the field, as a path from the accumulator's root
//! (`variants[1].curve_deaths`).
//!
//! ```
//! use woundsim::engine::checked::Checked;
//! let fresh = vec![0u64; 3];
//! assert!(vec![1u64, 2, 3].check_like(&fresh).is_ok());
//! let e = vec![1u64].check_like(&fresh).unwrap_err();
//! assert_eq!(e.to_string(), "has 1 entries where the scenario has 3");
//! let mut sum = vec![u64::MAX, 0, 0];
//! assert!(sum.try_merge(vec![1, 0, 0]).is_err());
//! ```

use super::Merge;

/// A part of an accumulator that does not fit its scenario, or holds a
/// value no run produces.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{problem}", if field.is_empty() { String::new() } else { format!("field `{field}`: ") })]
pub struct Misfit {
    /// Where, from the accumulator's root (empty: the root itself).
    pub field: String,
    /// What is wrong, in the user's words.
    pub problem: String,
}

impl Misfit {
    /// A misfit of the value itself.
    pub fn new(problem: impl Into<String>) -> Self {
        Misfit {
            field: String::new(),
            problem: problem.into(),
        }
    }

    /// The same problem at `field`.
    pub fn with_field(mut self, field: String) -> Self {
        self.field = field;
        self
    }

    /// The same misfit, inside the field `name` of a struct.
    pub fn in_field(mut self, name: &str) -> Self {
        self.field = match self.field.chars().next() {
            None => name.to_string(),
            Some('[') => format!("{name}{}", self.field),
            Some(_) => format!("{name}.{}", self.field),
        };
        self
    }

    /// The same misfit, inside entry `index` of a list.
    pub fn in_entry(mut self, index: usize) -> Self {
        self.field = match self.field.chars().next() {
            None | Some('[') => format!("[{index}]{}", self.field),
            Some(_) => format!("[{index}].{}", self.field),
        };
        self
    }

    /// A sum of two shards' counts that does not fit its type.
    pub fn overflow() -> Self {
        Misfit::new("the shards' counts add up to more than a count can hold")
    }
}

/// An accumulator part that can be checked against an empty one of the
/// same scenario, merged with checked arithmetic, and described.
pub trait Checked: Merge + Sized {
    /// Appends a description of the serialised layout to `out` (field
    /// names and types, recursively).
    fn layout(out: &mut String);

    /// `Ok` when `self` has the shape of `fresh` (an empty accumulator of
    /// the same scenario) and holds values a run can produce.
    fn check_like(&self, fresh: &Self) -> Result<(), Misfit>;

    /// [`Merge::merge`], with an error where a sum wraps (`self` is then
    /// partly merged and must be discarded).
    fn try_merge(&mut self, later: Self) -> Result<(), Misfit>;
}

/// The layout description of `T`.
pub fn layout_of<T: Checked>() -> String {
    let mut out = String::new();
    T::layout(&mut out);
    out
}

macro_rules! checked_counter {
    ($($t:ty),*) => {
        $(impl Checked for $t {
            fn layout(out: &mut String) {
                out.push_str(stringify!($t));
            }

            fn check_like(&self, _fresh: &Self) -> Result<(), Misfit> {
                Ok(())
            }

            fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
                *self = self.checked_add(later).ok_or_else(Misfit::overflow)?;
                Ok(())
            }
        })*
    };
}
checked_counter!(u32, u64, i64, i128);

impl<T: Checked> Checked for Vec<T> {
    fn layout(out: &mut String) {
        out.push('[');
        T::layout(out);
        out.push(']');
    }

    fn check_like(&self, fresh: &Self) -> Result<(), Misfit> {
        if self.len() != fresh.len() {
            return Err(Misfit::new(format!(
                "has {} entries where the scenario has {}",
                self.len(),
                fresh.len()
            )));
        }
        for (i, (a, f)) in self.iter().zip(fresh).enumerate() {
            a.check_like(f).map_err(|m| m.in_entry(i))?;
        }
        Ok(())
    }

    fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
        if self.len() != later.len() {
            return Err(Misfit::new(format!(
                "has {} entries in one shard and {} in another",
                self.len(),
                later.len()
            )));
        }
        for (i, (a, b)) in self.iter_mut().zip(later).enumerate() {
            a.try_merge(b).map_err(|m| m.in_entry(i))?;
        }
        Ok(())
    }
}

impl<T: Checked, const N: usize> Checked for [T; N] {
    fn layout(out: &mut String) {
        out.push('[');
        T::layout(out);
        out.push_str(&format!(";{N}]"));
    }

    fn check_like(&self, fresh: &Self) -> Result<(), Misfit> {
        for (i, (a, f)) in self.iter().zip(fresh).enumerate() {
            a.check_like(f).map_err(|m| m.in_entry(i))?;
        }
        Ok(())
    }

    fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
        for (i, (a, b)) in self.iter_mut().zip(later).enumerate() {
            a.try_merge(b).map_err(|m| m.in_entry(i))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misfit_names_its_path_from_the_root() {
        let m = Misfit::new("bad").in_field("deaths").in_entry(2);
        assert_eq!(m.field, "[2].deaths");
        let m = m.in_field("variants");
        assert_eq!(m.to_string(), "field `variants[2].deaths`: bad");
        assert_eq!(Misfit::new("bad").to_string(), "bad");
    }

    #[test]
    fn nested_lists_are_checked_entry_by_entry() {
        let fresh = vec![vec![0u64; 2]; 2];
        assert!(vec![vec![5u64, 6], vec![7, 8]].check_like(&fresh).is_ok());
        let e = vec![vec![5u64, 6], vec![7]].check_like(&fresh).unwrap_err();
        assert_eq!(e.field, "[1]");
        let e = vec![vec![5u64, 6]].check_like(&fresh).unwrap_err();
        assert_eq!(e.problem, "has 1 entries where the scenario has 2");
    }

    #[test]
    fn a_sum_that_wraps_is_an_error_not_a_small_count() {
        let mut a = [[0u64, u64::MAX]; 2];
        assert_eq!(
            a.try_merge([[0, 0], [0, 1]]).unwrap_err().field,
            "[1][1]",
            "the second row's second counter wraps"
        );
        let mut b = vec![1i128];
        b.try_merge(vec![2]).unwrap();
        assert_eq!(b, [3]);
        assert!(vec![0u64; 2].try_merge(vec![0; 3]).is_err());
    }

    #[test]
    fn layouts_describe_nesting() {
        assert_eq!(layout_of::<Vec<[u64; 3]>>(), "[[u64;3]]");
    }
}
