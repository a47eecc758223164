//! Layered option precedence: one variant's settings are a stack of tables
//! of the same shape, highest first — the `[[variant]]` table, then
//! `[options]` — and each setting comes from the highest table that gives
//! it, else from the model's default. A [`Setting`] remembers which table
//! it came from: its field path (`variant[1].dc`, `options.dc`) and the
//! text it was read from, so every error names the place the user wrote.
//!
//! The stack is open at the top: a layer parsed from other text (a
//! command-line override, one value of a parameter scan) is pushed with
//! [`Layers::over`] and wins over the file, and its errors name that text
//! (its own [`Locator`]), validated by the same code as the file.
//!
//! ```
//! use toml::Spanned;
//! use woundsim::scenario::Locator;
//! use woundsim::scenario::layers::{Layer, Layers};
//!
//! #[derive(Default, serde::Deserialize)]
//! struct Raw { dc: Option<Spanned<i64>>, roll: Option<Spanned<String>> }
//!
//! let text = "dc = 12\n[options]\n";
//! let loc = Locator { file: "s.toml", text };
//! let variant: Raw = toml::from_str("dc = 12").unwrap();
//! let options: Raw = toml::from_str("dc = 10\nroll = \"advantage\"").unwrap();
//! let layers = Layers::new(loc, "variant[0]")
//!     .under(Layer::new(loc, "variant[0]", &variant))
//!     .under(Layer::new(loc, "options", &options));
//! let dc = layers.get("dc", |r| &r.dc).unwrap();
//! assert_eq!((*dc.get(), dc.field.as_str()), (12, "variant[0].dc"));
//! assert_eq!(layers.get("roll", |r| &r.roll).unwrap().field, "options.roll");
//! ```

use toml::Spanned;

use super::{Locator, ScenarioError};

/// One table of settings and where it was written.
#[derive(Debug)]
pub struct Layer<'a, S> {
    /// The text the table was read from.
    pub loc: Locator<'a>,
    /// The table's field path in messages: `variant[1]`, `options`,
    /// `variant[1].creature`; empty for a table that is a whole text of
    /// its own (a command-line override).
    pub path: String,
    /// The table as written.
    pub table: &'a S,
    /// Byte offset in `loc` where the table starts.
    pub at: usize,
}

impl<S> Clone for Layer<'_, S> {
    fn clone(&self) -> Self {
        Layer {
            loc: self.loc,
            path: self.path.clone(),
            table: self.table,
            at: self.at,
        }
    }
}

impl<'a, S> Layer<'a, S> {
    /// A layer that is all of `loc` (a command-line override), named `path`.
    pub fn new(loc: Locator<'a>, path: impl Into<String>, table: &'a S) -> Self {
        Layer {
            loc,
            path: path.into(),
            table,
            at: 0,
        }
    }

    /// The table `table` of `loc`, named `path` in messages.
    pub fn spanned(loc: Locator<'a>, path: impl Into<String>, table: &'a Spanned<S>) -> Self {
        Layer {
            loc,
            path: path.into(),
            table: table.get_ref(),
            at: table.span().start,
        }
    }
}

/// `path.key`, or `key` for an unnamed table.
fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The tables of one variant, highest precedence first.
#[derive(Debug)]
pub struct Layers<'a, S> {
    layers: Vec<Layer<'a, S>>,
    /// Where a missing setting is reported: the variant's own table.
    loc: Locator<'a>,
    path: String,
    /// The keys the schema asked for, so that a key it never read (an
    /// option of a rule this variant does not use) can be named as having
    /// no effect. Shared with the [`Layers::group`] views of these tables.
    read: std::rc::Rc<std::cell::RefCell<Vec<String>>>,
    /// Settings left out, by field path, so that a variant with an error
    /// can be read again for its next one ([`Layers::leave_out`]).
    /// Shared with the nested and group views of these tables.
    left_out: std::rc::Rc<std::cell::RefCell<Vec<String>>>,
    /// The settings found by the reads since [`Layers::forget_found`], by
    /// field path. Shared like `left_out`.
    found: std::rc::Rc<std::cell::RefCell<Vec<String>>>,
}

impl<'a, S> Layers<'a, S> {
    /// No tables yet; a missing setting is reported at `path` in `loc`.
    pub fn new(loc: Locator<'a>, path: impl Into<String>) -> Self {
        Layers {
            layers: Vec::new(),
            loc,
            path: path.into(),
            read: Default::default(),
            left_out: Default::default(),
            found: Default::default(),
        }
    }

    /// Leaves the setting named `field` (`variant[1].dc`) out of every
    /// later read, as if its table did not give it; `false` if it was
    /// left out already or names no setting. After a variant's first
    /// error, the error's setting is left out and the variant read again,
    /// so one pass reports each of its errors. An error inside a setting
    /// (`party[1].template`) leaves nothing out: without the whole list
    /// the next error would be that it is missing.
    pub fn leave_out(&self, field: &str) -> bool {
        let mut left_out = self.left_out.borrow_mut();
        if field.is_empty() || left_out.iter().any(|f| f == field) {
            return false;
        }
        left_out.push(field.to_string());
        true
    }

    fn is_left_out(&self, field: &str) -> bool {
        self.left_out.borrow().iter().any(|f| f == field)
    }

    /// Forgets the settings found so far ([`Layers::was_found`]), before
    /// the variant is read again.
    pub fn forget_found(&self) {
        self.found.borrow_mut().clear();
    }

    /// Whether an error about `field` is about a setting the last read
    /// found (or something inside it: `party[1].template` inside `party`).
    /// After a setting is left out, an error about one that is not there
    /// ("needs a `clock`") only follows from leaving it out.
    pub fn was_found(&self, field: &str) -> bool {
        self.found.borrow().iter().any(|g| {
            field
                .strip_prefix(g.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    }

    /// Whether `message` names a setting left out (`` `monster_pool` ``,
    /// `` `clock` ``): an error saying it is needed follows from leaving
    /// it out.
    pub fn names_left_out(&self, message: &str) -> bool {
        self.left_out
            .borrow()
            .iter()
            .any(|f| message.contains(&format!("`{}", key_of(f))))
    }

    fn note_found(&self, field: &str) {
        self.found.borrow_mut().push(field.to_string());
    }

    /// The top-level keys read so far (by [`Layers::get`] and
    /// [`Layers::nested`], here or through a group of these tables).
    pub fn keys_read(&self) -> Vec<String> {
        self.read.borrow().clone()
    }

    fn mark(&self, key: &str) {
        let mut read = self.read.borrow_mut();
        if !read.iter().any(|k| k == key) {
            read.push(key.to_string());
        }
    }

    /// Adds a table below the ones already given.
    pub fn under(mut self, layer: Layer<'a, S>) -> Self {
        self.layers.push(layer);
        self
    }

    /// Adds a table above every other: its settings win.
    pub fn over(mut self, layer: Layer<'a, S>) -> Self {
        self.layers.insert(0, layer);
        self
    }

    /// Adds tables above every other, each above the ones before it: as
    /// [`Layers::over`] one by one, in one step (50,000 `--set` flags
    /// would otherwise move the layers 50,000 times).
    pub fn over_all(mut self, layers: impl DoubleEndedIterator<Item = Layer<'a, S>>) -> Self {
        let above: Vec<Layer<'a, S>> = layers.rev().collect();
        self.layers.splice(0..0, above);
        self
    }

    /// The field path of this variant's own table (`variant[1]`,
    /// `options`), for a setting no table gives.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The text of this variant's own table.
    pub fn loc(&self) -> Locator<'a> {
        self.loc
    }

    /// The field path `key` of this variant's own table (`variant[1].key`).
    pub fn field(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// An error about `key` at byte `offset` of this variant's text, for a
    /// setting that is missing or a problem no single setting carries.
    pub fn error(&self, offset: usize, key: &str, message: impl Into<String>) -> ScenarioError {
        self.loc.error(offset, &self.field(key), message)
    }

    /// The tables, highest first.
    pub fn tables(&self) -> impl Iterator<Item = &Layer<'a, S>> {
        self.layers.iter()
    }

    /// The variant's own table (not one it inherits from `[options]` or
    /// one laid over it), if it has one.
    pub fn own(&self) -> Option<&Layer<'a, S>> {
        self.layers.iter().find(|l| l.path == self.path)
    }

    /// The setting `key` (read by `field`) from the highest table that
    /// gives it.
    pub fn get<T>(
        &self,
        key: &str,
        field: impl Fn(&'a S) -> &'a Option<Spanned<T>>,
    ) -> Option<Setting<'a, T>> {
        self.mark(key);
        self.layers.iter().find_map(|layer| {
            let name = join(&layer.path, key);
            match field(layer.table) {
                Some(value) if !self.is_left_out(&name) => {
                    self.note_found(&name);
                    Some(Setting::new(layer.loc, value, name))
                }
                _ => None,
            }
        })
    }

    /// The layers of a nested table (`creature = { ... }`), overridden key
    /// by key like the settings around it; tables that do not give it are
    /// left out.
    pub fn nested<U>(
        &self,
        key: &str,
        field: impl Fn(&'a S) -> &'a Option<Spanned<U>>,
    ) -> Layers<'a, U> {
        self.mark(key);
        Layers {
            layers: self
                .layers
                .iter()
                .filter_map(|layer| {
                    let name = join(&layer.path, key);
                    match field(layer.table) {
                        Some(table) if !self.is_left_out(&name) => {
                            self.note_found(&name);
                            Some(Layer::spanned(layer.loc, name, table))
                        }
                        _ => None,
                    }
                })
                .collect(),
            loc: self.loc,
            path: self.field(key),
            read: Default::default(),
            left_out: self.left_out.clone(),
            found: self.found.clone(),
        }
    }

    /// A group of keys that is given as a whole: only the highest table
    /// that `gives` any of them, or `None` if no table does.
    pub fn group(&self, gives: impl Fn(&S) -> bool) -> Option<Layers<'a, S>> {
        let layer = self.layers.iter().find(|l| gives(l.table))?;
        Some(Layers {
            layers: vec![layer.clone()],
            loc: self.loc,
            path: self.path.clone(),
            read: self.read.clone(),
            left_out: self.left_out.clone(),
            found: self.found.clone(),
        })
    }
}

/// A setting as found: its value, the field path that names it in
/// messages, and the text it was read from.
#[derive(Debug)]
pub struct Setting<'a, T> {
    /// The text the value was read from.
    pub loc: Locator<'a>,
    /// The value with its place.
    pub value: &'a Spanned<T>,
    /// Its field path, e.g. `variant[1].dc`.
    pub field: String,
}

impl<T> Clone for Setting<'_, T> {
    fn clone(&self) -> Self {
        Setting {
            loc: self.loc,
            value: self.value,
            field: self.field.clone(),
        }
    }
}

impl<'a, T> Setting<'a, T> {
    /// The value `value` of `loc`, named `field` in messages.
    pub fn new(loc: Locator<'a>, value: &'a Spanned<T>, field: impl Into<String>) -> Self {
        Setting {
            loc,
            value,
            field: field.into(),
        }
    }

    /// The value.
    pub fn get(&self) -> &'a T {
        self.value.get_ref()
    }

    /// Byte offset of the value in its text.
    pub fn at(&self) -> usize {
        self.value.span().start
    }

    /// The last segment of the field path (`variant[1].dc` → `dc`).
    pub fn key(&self) -> &str {
        key_of(&self.field)
    }

    /// An error at the value, naming its field.
    pub fn error(&self, message: impl Into<String>) -> ScenarioError {
        self.loc.error(self.at(), &self.field, message)
    }

    /// Element `i` of a list setting, `value` (named `field[i]`).
    pub fn item<U>(&self, i: usize, value: &'a Spanned<U>) -> Setting<'a, U> {
        Setting::new(self.loc, value, format!("{}[{i}]", self.field))
    }

    /// Key `key` of a table setting, `value` (named `field.key`).
    pub fn child<U>(&self, key: &str, value: &'a Spanned<U>) -> Setting<'a, U> {
        Setting::new(self.loc, value, join(&self.field, key))
    }
}

impl<T: Copy> Setting<'_, T> {
    /// A copy of the value.
    pub fn copied(&self) -> T {
        *self.value.get_ref()
    }
}

/// The setting `key` of `layers`, read from the field of the same name:
/// `get!(layers, dc)`, or `get!(layers, overrides as "override")` for a
/// key that is not a Rust name.
macro_rules! get {
    ($layers:expr, $field:ident) => {
        $layers.get(stringify!($field), |s| &s.$field)
    };
    ($layers:expr, $field:ident as $key:literal) => {
        $layers.get($key, |s| &s.$field)
    };
}
pub(crate) use get;

/// The last segment of a field path (`variant[1].dc` → `dc`), for messages.
pub(crate) fn key_of(field: &str) -> &str {
    field.rsplit('.').next().unwrap_or(field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, serde::Deserialize)]
    struct Raw {
        dc: Option<Spanned<i64>>,
        roll: Option<Spanned<String>>,
        inner: Option<Spanned<Inner>>,
    }

    #[derive(Default, serde::Deserialize)]
    struct Inner {
        hp: Option<Spanned<i64>>,
        ac: Option<Spanned<i64>>,
    }

    fn raw(text: &str) -> Raw {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn a_setting_comes_from_the_highest_table_that_gives_it() {
        let text = "";
        let loc = Locator { file: "f", text };
        let (v, o) = (raw("dc = 12"), raw("dc = 10\nroll = \"x\""));
        let layers = Layers::new(loc, "variant[0]")
            .under(Layer::new(loc, "variant[0]", &v))
            .under(Layer::new(loc, "options", &o));
        assert_eq!(get!(layers, dc).unwrap().field, "variant[0].dc");
        assert_eq!(*get!(layers, dc).unwrap().get(), 12);
        assert_eq!(get!(layers, roll).unwrap().field, "options.roll");
        assert!(get!(layers, inner).is_none());
        assert_eq!(layers.field("party"), "variant[0].party");
    }

    #[test]
    fn a_layer_over_the_file_wins_and_names_its_own_text() {
        let file = Locator {
            file: "s.toml",
            text: "dc = 10",
        };
        let flag_text = "dc = 40";
        let flag = Locator {
            file: "--set dc=40",
            text: flag_text,
        };
        let (o, cli) = (raw(file.text), raw(flag_text));
        let layers = Layers::new(file, "options")
            .under(Layer::new(file, "options", &o))
            .over(Layer::new(flag, "", &cli));
        let dc = get!(layers, dc).unwrap();
        assert_eq!((*dc.get(), dc.field.as_str()), (40, "dc"));
        assert_eq!(
            dc.error("too big").to_string(),
            "--set dc=40:1:6: field `dc`: too big"
        );
    }

    #[test]
    fn nested_tables_are_overridden_key_by_key() {
        let loc = Locator {
            file: "f",
            text: "",
        };
        let (v, o) = (raw("inner = { hp = 3 }"), raw("inner = { hp = 1, ac = 9 }"));
        let layers = Layers::new(loc, "variant[2]")
            .under(Layer::new(loc, "variant[2]", &v))
            .under(Layer::new(loc, "options", &o));
        let inner = layers.nested("inner", |r| &r.inner);
        assert_eq!(get!(inner, hp).unwrap().field, "variant[2].inner.hp");
        assert_eq!(get!(inner, ac).unwrap().field, "options.inner.ac");
        assert_eq!(inner.field("limb"), "variant[2].inner.limb");
        let empty = raw("dc = 1");
        let none = Layers::new(loc, "options").under(Layer::new(loc, "options", &empty));
        let none = none.nested("inner", |r| &r.inner);
        assert!(get!(none, hp).is_none());
        assert!(none.own().is_none());
    }

    #[test]
    fn a_group_comes_whole_from_one_table() {
        let loc = Locator {
            file: "f",
            text: "",
        };
        let (v, o) = (raw("roll = \"a\""), raw("dc = 3\nroll = \"b\""));
        let layers = Layers::new(loc, "variant[0]")
            .under(Layer::new(loc, "variant[0]", &v))
            .under(Layer::new(loc, "options", &o));
        let group = layers
            .group(|r| r.dc.is_some() || r.roll.is_some())
            .unwrap();
        assert!(
            get!(group, dc).is_none(),
            "the variant's group replaces the options'"
        );
        assert_eq!(get!(group, roll).unwrap().field, "variant[0].roll");
        assert!(layers.group(|r| r.inner.is_some()).is_none());
    }
}
