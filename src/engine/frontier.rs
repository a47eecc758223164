//! The canonical merge order of a run's chunks, the same on one machine and
//! across many: chunk accumulators are merged pairwise in a fixed binary
//! tree over chunk indices (like a binary counter: chunk `c` is leaf `c`;
//! two nodes merge when they are siblings, `2j` and `2j + 1` of one level,
//! the earlier one first). A [`Frontier`] is the list of complete subtrees
//! a contiguous range of chunks has produced so far, earliest first.
//!
//! Because every node is a canonical subtree, the frontiers of adjacent
//! ranges merge into exactly the frontier the joined range computes in one
//! process ([`Frontier::append`]), so shard states from many machines,
//! merged in any grouping, give bit-identical figures, floating-point
//! means included; and [`Frontier::total`] folds the last, incomplete
//! subtrees from the right, the same for every split.
//!
//! ```
//! use woundsim::engine::frontier::Frontier;
//! use woundsim::engine::Merge;
//!
//! #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
//! struct Sum(f64);
//! impl Merge for Sum {
//!     fn merge(&mut self, later: Self) { self.0 += later.0 }
//! }
//!
//! let value = |c: u64| Sum(1.0 / (c as f64 + 3.0));
//! let whole = Frontier::of_chunks(0..7, value);
//! let mut left = Frontier::of_chunks(0..3, value);
//! left.append(Frontier::of_chunks(3..7, value)).unwrap();
//! assert_eq!(left.total().unwrap().0.to_bits(), whole.total().unwrap().0.to_bits());
//! ```

use serde::{Deserialize, Serialize};

use super::Merge;
use super::checked::{Checked, Misfit};

/// One complete subtree: chunks `index << level .. (index + 1) << level`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node<A> {
    /// Height: the node covers `2^level` chunks.
    pub level: u8,
    /// Position among the nodes of its level.
    pub index: u64,
    /// The merged accumulator of its chunks.
    pub acc: A,
}

impl<A> Node<A> {
    /// First chunk covered.
    pub fn start(&self) -> u64 {
        self.index << self.level
    }

    /// One past the last chunk covered.
    pub fn end(&self) -> u64 {
        (self.index + 1) << self.level
    }
}

/// The complete subtrees of a contiguous range of chunks, earliest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frontier<A> {
    nodes: Vec<Node<A>>,
}

impl<A> Default for Frontier<A> {
    fn default() -> Self {
        Frontier { nodes: Vec::new() }
    }
}

/// Two frontiers that do not cover adjacent ranges.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "chunks {left_end}.. do not follow on from chunks ..{left_end}: the next range starts at chunk {right_start}"
)]
pub struct NotAdjacent {
    /// One past the last chunk of the earlier range.
    pub left_end: u64,
    /// First chunk of the later range.
    pub right_start: u64,
}

impl<A: Merge> Frontier<A> {
    /// The frontier of chunks `chunks`, one accumulator per chunk from `leaf`
    /// (for tests and examples; the engine computes leaves in parallel and
    /// [`Self::push_chunk`]s them in order).
    pub fn of_chunks(chunks: std::ops::Range<u64>, mut leaf: impl FnMut(u64) -> A) -> Self {
        let mut f = Frontier::default();
        for c in chunks {
            f.push_chunk(c, leaf(c));
        }
        f
    }

    /// Adds the accumulator of chunk `chunk`, the chunk after the last one
    /// (or the first of the range).
    pub fn push_chunk(&mut self, chunk: u64, acc: A) {
        self.push(Node {
            level: 0,
            index: chunk,
            acc,
        });
    }

    /// Adds a complete subtree that starts where the range ends, merging
    /// siblings upwards.
    fn push(&mut self, node: Node<A>) {
        let merged: Result<(), std::convert::Infallible> = self.push_by(node, |left, right| {
            left.merge(right);
            Ok(())
        });
        let Ok(()) = merged;
    }

    /// [`Self::push`], merging siblings with `merge`.
    fn push_by<E>(
        &mut self,
        node: Node<A>,
        mut merge: impl FnMut(&mut A, A) -> Result<(), E>,
    ) -> Result<(), E> {
        self.nodes.push(node);
        while let [.., left, right] = self.nodes.as_slice() {
            let siblings =
                left.level == right.level && left.index % 2 == 0 && right.index == left.index + 1;
            if !siblings {
                break;
            }
            let right = self.nodes.pop().expect("two nodes");
            let left = self.nodes.last_mut().expect("two nodes");
            merge(&mut left.acc, right.acc)?;
            left.level += 1;
            left.index /= 2;
        }
        Ok(())
    }

    /// The chunks covered, `start..end` (empty: `0..0`).
    pub fn range(&self) -> std::ops::Range<u64> {
        match (self.nodes.first(), self.nodes.last()) {
            (Some(first), Some(last)) => first.start()..last.end(),
            _ => 0..0,
        }
    }

    /// Whether the frontier is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The nodes, earliest first.
    pub fn nodes(&self) -> &[Node<A>] {
        &self.nodes
    }

    /// Appends the frontier of the range right after this one's (an empty
    /// frontier on either side is fine).
    pub fn append(&mut self, later: Frontier<A>) -> Result<(), NotAdjacent> {
        if let (false, false) = (self.is_empty(), later.is_empty()) {
            let (left_end, right_start) = (self.range().end, later.range().start);
            if left_end != right_start {
                return Err(NotAdjacent {
                    left_end,
                    right_start,
                });
            }
        }
        for node in later.nodes {
            self.push(node);
        }
        Ok(())
    }

    /// Whether the nodes are canonical subtrees that tile one range in
    /// order, exactly those a run of the range builds (a state read from a
    /// file must be, before it is used): from the range's start, each node
    /// is the largest aligned subtree that fits before the range's end.
    /// A range of up to `2^40` chunks has at most 80 of them, so a file
    /// cannot make the merge's work larger than the run's.
    pub fn is_well_formed(&self) -> bool {
        let placed = self
            .nodes
            .iter()
            .all(|n| n.level <= 40 && n.index < 1 << (40 - n.level));
        if !placed {
            return false;
        }
        let range = self.range();
        let mut at = range.start;
        for n in &self.nodes {
            if n.start() != at || n.level != largest_subtree(at, range.end) {
                return false;
            }
            at = n.end();
        }
        at == range.end
    }

    /// All chunks merged: the remaining subtrees folded from the right, the
    /// earlier one first in every merge; `None` when empty.
    pub fn total(self) -> Option<A> {
        let mut nodes = self.nodes.into_iter().rev();
        let mut acc = nodes.next()?.acc;
        for mut earlier in nodes {
            earlier.acc.merge(acc);
            acc = earlier.acc;
        }
        Some(acc)
    }

    /// Applies `f` to every node's accumulator (e.g. to wrap them).
    pub fn map<B>(self, mut f: impl FnMut(A) -> B) -> Frontier<B> {
        Frontier {
            nodes: self
                .nodes
                .into_iter()
                .map(|n| Node {
                    level: n.level,
                    index: n.index,
                    acc: f(n.acc),
                })
                .collect(),
        }
    }
}

/// The level of the largest aligned subtree that starts at chunk `at` and
/// ends at or before chunk `end` (`at < end`).
fn largest_subtree(at: u64, end: u64) -> u8 {
    let mut level = 0u8;
    while level < 40 && at % (2 << level) == 0 && at + (2 << level) <= end {
        level += 1;
    }
    level
}

/// Two states that cannot be appended.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AppendError {
    /// Their ranges do not touch.
    #[error(transparent)]
    NotAdjacent(#[from] NotAdjacent),
    /// A merge of their counts wraps, or their shapes differ.
    #[error(transparent)]
    Misfit(#[from] Misfit),
}

impl<A: Checked> Frontier<A> {
    /// [`Self::append`] with checked arithmetic: states read from files.
    pub fn try_append(&mut self, later: Frontier<A>) -> Result<(), AppendError> {
        if let (false, false) = (self.is_empty(), later.is_empty()) {
            let (left_end, right_start) = (self.range().end, later.range().start);
            if left_end != right_start {
                return Err(NotAdjacent {
                    left_end,
                    right_start,
                }
                .into());
            }
        }
        for node in later.nodes {
            self.push_by(node, A::try_merge)?;
        }
        Ok(())
    }

    /// [`Self::total`] with checked arithmetic.
    pub fn try_total(self) -> Result<Option<A>, Misfit> {
        let mut nodes = self.nodes.into_iter().rev();
        let Some(last) = nodes.next() else {
            return Ok(None);
        };
        let mut acc = last.acc;
        for mut earlier in nodes {
            earlier.acc.try_merge(acc)?;
            acc = earlier.acc;
        }
        Ok(Some(acc))
    }

    /// Checks every node's accumulator against `fresh`, an empty one of
    /// the same scenario ([`Checked::check_like`]).
    pub fn check_like(&self, fresh: &A) -> Result<(), Misfit> {
        for n in &self.nodes {
            n.acc.check_like(fresh).map_err(|m| {
                Misfit::new(format!(
                    "{} (in the counts of chunks {}..{})",
                    m.problem,
                    n.start(),
                    n.end()
                ))
                .with_field(m.field)
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the merge tree, so tests see the order, not just a value.
    #[derive(Clone, Debug, PartialEq)]
    struct Tree(String);

    impl Merge for Tree {
        fn merge(&mut self, later: Self) {
            self.0 = format!("({} {})", self.0, later.0);
        }
    }

    fn leaves(range: std::ops::Range<u64>) -> Frontier<Tree> {
        Frontier::of_chunks(range, |c| Tree(c.to_string()))
    }

    #[test]
    fn siblings_merge_pairwise_like_a_binary_counter() {
        let f = leaves(0..6);
        let levels: Vec<(u8, u64)> = f.nodes().iter().map(|n| (n.level, n.index)).collect();
        assert_eq!(levels, vec![(2, 0), (1, 2)]);
        assert_eq!(f.total().unwrap().0, "(((0 1) (2 3)) (4 5))");
        assert_eq!(leaves(0..1).total().unwrap().0, "0");
        assert!(leaves(0..0).total().is_none());
    }

    #[test]
    fn every_split_into_adjacent_ranges_merges_into_the_same_tree() {
        for chunks in 1..40u64 {
            let whole = leaves(0..chunks).total().unwrap();
            for a in 0..=chunks {
                for b in a..=chunks {
                    // Three shards, merged left first and right first.
                    let mut left_first = leaves(0..a);
                    left_first.append(leaves(a..b)).unwrap();
                    left_first.append(leaves(b..chunks)).unwrap();
                    let mut right = leaves(a..b);
                    right.append(leaves(b..chunks)).unwrap();
                    let mut right_first = leaves(0..a);
                    right_first.append(right).unwrap();
                    assert!(left_first.is_well_formed());
                    assert_eq!(
                        left_first.clone().total().unwrap(),
                        whole,
                        "{chunks} {a} {b}"
                    );
                    assert_eq!(right_first.total().unwrap(), whole, "{chunks} {a} {b}");
                }
            }
        }
    }

    #[test]
    fn ranges_that_do_not_touch_are_refused() {
        let mut f = leaves(0..3);
        assert_eq!(
            f.append(leaves(4..6)),
            Err(NotAdjacent {
                left_end: 3,
                right_start: 4
            })
        );
        let mut g = leaves(2..4);
        assert!(g.append(leaves(0..2)).is_err());
    }

    #[test]
    fn a_malformed_node_list_is_detected() {
        let mut f = leaves(0..6);
        assert!(f.is_well_formed());
        f.nodes[1].index = 3;
        assert!(!f.is_well_formed(), "a gap between nodes");
        let mut g = leaves(0..2);
        g.nodes[0].level = 41;
        assert!(!g.is_well_formed(), "a node beyond any run");
    }

    #[test]
    fn only_the_frontier_a_run_builds_is_well_formed() {
        for start in 0..20u64 {
            for end in start..40 {
                assert!(leaves(start..end).is_well_formed(), "{start}..{end}");
            }
        }
        // Chunks 0..4 as four leaves tile the range but are not what a run
        // builds (one subtree): the file could hold a leaf per chunk.
        let f = Frontier {
            nodes: (0..4)
                .map(|c| Node {
                    level: 0,
                    index: c,
                    acc: Tree(c.to_string()),
                })
                .collect(),
        };
        assert!(!f.is_well_formed());
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Count(u64);
    impl Merge for Count {
        fn merge(&mut self, later: Self) {
            self.0 += later.0;
        }
    }
    impl Checked for Count {
        fn layout(out: &mut String) {
            out.push_str("Count");
        }
        fn check_like(&self, _: &Self) -> Result<(), Misfit> {
            Ok(())
        }
        fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
            self.0.try_merge(later.0)
        }
    }

    #[test]
    fn checked_appends_and_totals_refuse_a_wrap() {
        let mut a = Frontier::of_chunks(0..1, |_| Count(u64::MAX));
        assert!(matches!(
            a.clone()
                .try_append(Frontier::of_chunks(1..2, |_| Count(1))),
            Err(AppendError::Misfit(_))
        ));
        assert!(matches!(
            a.clone()
                .try_append(Frontier::of_chunks(2..3, |_| Count(1))),
            Err(AppendError::NotAdjacent(_))
        ));
        a.try_append(Frontier::of_chunks(1..3, |_| Count(0)))
            .unwrap();
        assert_eq!(a.clone().try_total(), Ok(Some(Count(u64::MAX))));
        a.try_append(Frontier::of_chunks(3..4, |_| Count(1)))
            .unwrap_err();
        let b = Frontier::of_chunks(0..3, |c| Count(if c == 2 { u64::MAX } else { 1 }));
        assert!(b.try_total().is_err(), "the last fold wraps");
        assert_eq!(Frontier::<Count>::default().try_total(), Ok(None));
    }
}
