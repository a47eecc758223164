//! What a creature has left of its class features in a trial (Action
//! Surge and Indomitable uses, ki, Bardic Inspiration, Channel Divinity,
//! sorcery points, Wild Shape),
//! and what a short or long rest brings back (SRD 5.1 class texts; the
//! features themselves are `features.rs`).

use crate::combat::creature::ClassFeatures;

/// What a creature has left of its class features in a trial (small and
/// `Copy`, part of the fighter's state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeatureState {
    /// Action Surge uses left.
    pub surges: u8,
    /// Indomitable rerolls left.
    pub indomitable: u8,
    /// Ki points left (Stunning Strike).
    pub ki: u8,
    /// It attempted a stunning strike this turn.
    pub struck: bool,
    /// Bardic Inspiration uses left.
    pub inspirations: u8,
    /// The sides of the Bardic Inspiration die it holds (0: none).
    pub inspired: u8,
    /// Preserve Life uses left.
    pub preserves: u8,
    /// It has a defensive reaction (Uncanny Dodge, Deflect Missiles).
    pub reacts: bool,
    /// Sorcery points left (Quickened Spell).
    pub sorcery_points: u8,
    /// The sorcery points it may still spend in this fight: its share of
    /// those left over the fights before the next long rest.
    pub points_budget: u8,
    /// Wild Shape uses left.
    pub wild_shapes: u8,
}

impl FeatureState {
    /// Everything of `c` at hand (the start of a trial, a long rest).
    pub fn full(c: &ClassFeatures) -> Self {
        FeatureState {
            surges: c.action_surge,
            indomitable: c.indomitable,
            ki: c.ki,
            struck: false,
            inspirations: c.inspiration_uses * u8::from(c.inspiration_die > 0),
            inspired: 0,
            preserves: c.preserve_life,
            reacts: c.uncanny_dodge || c.deflect_missiles.is_some(),
            sorcery_points: c.sorcery_points,
            points_budget: c.sorcery_points,
            wild_shapes: c.wild_shape,
        }
    }

    /// A short rest: Action Surge, ki, Channel Divinity, Wild Shape, and from Font of
    /// Inspiration the inspirations come back; a die held is gone (it lasts
    /// 10 minutes). Sorcery points come back on a long rest only.
    pub fn short_rest(&mut self, c: &ClassFeatures) {
        self.surges = c.action_surge;
        self.ki = c.ki;
        self.preserves = c.preserve_life;
        self.wild_shapes = c.wild_shape;
        if c.inspiration_short_rest {
            self.inspirations = c.inspiration_uses * u8::from(c.inspiration_die > 0);
        }
        self.inspired = 0;
        self.struck = false;
    }
}
