//! Merging accumulators: the [`Merge`] trait, its generic implementations
//! for the building blocks (counters, [`Moments`], [`IntMoments`],
//! [`Histogram`], arrays and `Vec`s of them), and [`mergeable!`], which
//! declares an accumulator struct together with a `Merge` that merges every
//! field (and its [`super::checked::Checked`], which checks every field). A field added to such a struct is merged without another line, so
//! no figure can be dropped by a forgotten field.
//!
//! Merging is field by field in declaration order and element by element in
//! index order; the engine merges chunks in chunk order, so even the
//! floating-point merges are deterministic for any thread count.
//!
//! ```
//! use woundsim::engine::Merge;
//! use woundsim::engine::accum::Moments;
//!
//! let mut counts = vec![1u64, 2];
//! Merge::merge(&mut counts, vec![10, 20]);
//! assert_eq!(counts, [11, 22]);
//! let mut m = [Moments::default(); 2];
//! let mut later = [Moments::default(); 2];
//! later[1].push(3.0);
//! Merge::merge(&mut m, later);
//! assert_eq!(m[1].count(), 1);
//! ```

use super::accum::{Histogram, IntMoments, Moments};

/// A per-chunk accumulator that can absorb the accumulator of the next chunk.
pub trait Merge: Send {
    /// Adds `later` (the accumulator of a later chunk) into `self`.
    fn merge(&mut self, later: Self);
}

macro_rules! merge_by_addition {
    ($($t:ty),*) => {
        $(impl Merge for $t {
            #[inline]
            fn merge(&mut self, later: Self) {
                *self += later;
            }
        })*
    };
}
merge_by_addition!(u32, u64, i64, i128);

impl Merge for Moments {
    fn merge(&mut self, later: Self) {
        Moments::merge(self, &later);
    }
}

impl Merge for IntMoments {
    fn merge(&mut self, later: Self) {
        IntMoments::merge(self, &later);
    }
}

impl Merge for Histogram {
    fn merge(&mut self, later: Self) {
        Histogram::merge(self, &later);
    }
}

/// Element by element: accumulators of one run have the same length in
/// every chunk (one per variant, per metric, per table entry).
impl<T: Merge> Merge for Vec<T> {
    fn merge(&mut self, later: Self) {
        debug_assert_eq!(self.len(), later.len());
        for (a, b) in self.iter_mut().zip(later) {
            a.merge(b);
        }
    }
}

impl<T: Merge, const N: usize> Merge for [T; N] {
    fn merge(&mut self, later: Self) {
        for (a, b) in self.iter_mut().zip(later) {
            a.merge(b);
        }
    }
}

/// Declares an accumulator struct and its [`Merge`], which merges every
/// field (each field's type implements `Merge`) in declaration order.
///
/// ```ignore
/// mergeable! {
///     /// One variant's counts.
///     #[derive(Clone, Debug, Default, Serialize, Deserialize)]
///     pub struct Counts {
///         /// Trials.
///         pub trials: u64,
///         /// Days open.
///         pub days: Moments,
///     }
/// }
/// ```
macro_rules! mergeable {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field_vis:vis $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                $(#[$field_meta])*
                $field_vis $field: $ty,
            )*
        }

        impl $crate::engine::Merge for $name {
            fn merge(&mut self, later: Self) {
                $( $crate::engine::Merge::merge(&mut self.$field, later.$field); )*
            }
        }

        impl $crate::engine::checked::Checked for $name {
            fn layout(out: &mut String) {
                out.push_str(concat!(stringify!($name), "{"));
                $(
                    out.push_str(concat!(stringify!($field), ":"));
                    <$ty as $crate::engine::checked::Checked>::layout(out);
                    out.push(',');
                )*
                out.push('}');
            }

            fn check_like(&self, fresh: &Self) -> Result<(), $crate::engine::checked::Misfit> {
                $(
                    $crate::engine::checked::Checked::check_like(&self.$field, &fresh.$field)
                        .map_err(|m| m.in_field(stringify!($field)))?;
                )*
                Ok(())
            }

            fn try_merge(&mut self, later: Self) -> Result<(), $crate::engine::checked::Misfit> {
                $(
                    $crate::engine::checked::Checked::try_merge(&mut self.$field, later.$field)
                        .map_err(|m| m.in_field(stringify!($field)))?;
                )*
                Ok(())
            }
        }
    };
}
pub(crate) use mergeable;

#[cfg(test)]
mod tests {
    use super::*;

    mergeable! {
        /// A struct of every kind of part.
        #[derive(Clone, Debug, Default, PartialEq)]
        struct Parts {
            n: u64,
            m: Moments,
            per: Vec<IntMoments>,
            pairs: [[u64; 2]; 3],
        }
    }

    fn parts(x: u64) -> Parts {
        let mut p = Parts {
            n: x,
            per: vec![IntMoments::default(); 2],
            ..Default::default()
        };
        p.m.push(x as f64);
        p.per[1].push(x as i64);
        p.pairs[2][1] = x;
        p
    }

    #[test]
    fn every_field_is_merged() {
        let mut a = parts(1);
        a.merge(parts(5));
        assert_eq!(a.n, 6);
        assert_eq!((a.m.count(), a.m.mean()), (2, 3.0));
        assert_eq!((a.per[0].count(), a.per[1].sum()), (0, 6));
        assert_eq!(a.pairs[2], [0, 6]);
    }

    #[test]
    fn merging_in_order_is_deterministic() {
        let fold = |xs: &[u64]| {
            let mut acc = parts(0);
            for &x in xs {
                acc.merge(parts(x));
            }
            acc
        };
        assert_eq!(fold(&[3, 1, 4, 1, 5]), fold(&[3, 1, 4, 1, 5]));
    }
}
