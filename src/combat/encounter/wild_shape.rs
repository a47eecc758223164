//! Wild Shape in a fight (SRD 5.1, the druid: "you can use your action to
//! magically assume the shape of a beast ... You can use this feature
//! twice. You regain expended uses when you finish a short or long rest";
//! the forms are `crate::combat::wild_shape`'s). The clauses kept:
//!
//! - "your game statistics are replaced by the statistics of the beast":
//!   the druid's fighter becomes the form's creature (armour class,
//!   attacks, physical saves, speed), its own mental saves kept;
//! - "When you transform, you assume the beast's hit points ... When you
//!   revert to your normal form, you return to the number of hit points
//!   you had before you transformed. However, if you revert as a result of
//!   dropping to 0 hit points, any excess damage carries over to your
//!   normal form": the form's hit points take the damage first, then the
//!   rest reaches the druid's, which fall to 0 only if the rest is enough;
//! - "You can't cast spells ... Transforming doesn't break your
//!   concentration on a spell you've already cast": no spell, no healing
//!   spell, no potion (no hands) in the form; a spell it concentrates on
//!   goes on, and damage to the form calls for the concentration save.
//!
//! Policy (ours; docs/combat.md, "Wild Shape"): on its turn, when the
//! casting policy casts nothing with its action (the action would go to
//! its cantrip), a druid with a use left and an enemy standing takes Wild
//! Shape with that action. It stays in the form until the form drops to 0
//! HP or the fight ends (the hours it lasts outlive any fight), and takes
//! its own shape back between fights.

use super::fighter::{NO_FORM, OwnShape};
use super::{Arena, Encounter};

impl Encounter {
    /// Whether `me` takes Wild Shape with its action now (the policy).
    #[inline]
    pub(super) fn wants_wild_shape(&self, arena: &Arena, me: usize) -> bool {
        let f = &arena.fighters[me];
        f.wild_form != NO_FORM
            && f.shape.is_none()
            && f.feats.wild_shapes > 0
            && self.enemies_up(arena, me) > 0
    }

    /// `me` takes the shape of its form: one use spent, the form's
    /// creature and full hit points, its own shape kept to return to.
    pub(super) fn take_wild_shape(&self, arena: &mut Arena, me: usize) {
        let f = &mut arena.fighters[me];
        let form = usize::from(f.wild_form);
        let spec = self.spec(form);
        f.shape = Some(OwnShape {
            spec: u16::try_from(f.spec).unwrap_or(NO_FORM),
            hp: f.hp,
            max_hp: f.max_hp,
            base_speed: f.base_speed,
            spell_caster: f.spell_caster,
            casts: f.casts,
        });
        f.feats.wild_shapes -= 1;
        f.spec = form;
        f.hp = spec.max_hp;
        f.max_hp = spec.max_hp;
        f.base_speed = spec.speed;
        f.spell_caster = false;
        f.casts = false;
        self.recompute_effects_of(f);
    }

    /// `me` back in its own shape, with the hit points it had when it took
    /// the form; nothing when it is in its own.
    pub(super) fn leave_wild_shape(&self, arena: &mut Arena, me: usize) {
        let f = &mut arena.fighters[me];
        let Some(own) = f.shape.take() else {
            return;
        };
        f.spec = usize::from(own.spec);
        f.hp = own.hp;
        f.max_hp = own.max_hp;
        f.base_speed = own.base_speed;
        f.spell_caster = own.spell_caster;
        f.casts = own.casts;
        self.recompute_effects_of(f);
    }

    /// After a fight: every druid back in its own shape.
    pub(super) fn end_wild_shapes(&self, arena: &mut Arena) {
        if self.forms_from == self.all.len() {
            return;
        }
        for me in 0..arena.fighters.len() {
            if arena.fighters[me].shape.is_some() {
                self.leave_wild_shape(arena, me);
            }
        }
    }
}
