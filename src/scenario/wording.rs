//! serde's and toml's error messages in the user's words: "must be one of
//! `normal`, `advantage`, `disadvantage`; found `advantag` (did you mean
//! `advantage`?)" instead of "unknown variant `advantag`, expected one of
//! ...", "expected a whole number, found the text \"ten\"" instead of
//! "invalid type: string \"ten\", expected i64". Messages it does not
//! recognise pass through unchanged.

/// The names quoted in backticks in `list` (`` `a`, `b` or `c` ``).
fn quoted(list: &str) -> Vec<&str> {
    list.split('`').skip(1).step_by(2).collect()
}

/// The candidate nearest to `found` by edit distance, if it is near (at
/// most a third of its length, at least 1 and at most 3 edits, and fewer
/// edits than it has characters).
pub fn nearest<'a>(found: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let limit = (found.chars().count() / 3).clamp(1, 3);
    candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(&found.to_lowercase(), c), *c))
        .filter(|(d, _)| *d <= limit && *d < found.chars().count())
        .min()
        .map(|(_, c)| c)
}

/// Most keys an unknown-key message lists in full; a table with more
/// gets its [`NEAREST_KEYS`] nearest.
const MAX_KEYS_LISTED: usize = 16;

/// How an unknown-key message that names only the nearest keys says so
/// (the scenario's type then adds the page that lists them all).
pub const NEAREST_OF: &str = "the nearest of the";

/// Keys an unknown-key message names when the table has too many to list.
const NEAREST_KEYS: usize = 5;

/// The `count` candidates nearest to `found` by edit distance, nearest
/// first (ties in the candidates' order).
///
/// ```
/// use woundsim::scenario::wording::nearest_few;
/// assert_eq!(nearest_few("dcc", &["roll", "dc", "name", "dcs"], 2), ["dc", "dcs"]);
/// ```
pub fn nearest_few<'a>(found: &str, candidates: &[&'a str], count: usize) -> Vec<&'a str> {
    let found = found.to_lowercase();
    let mut ranked: Vec<(usize, usize, &str)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (strsim::damerau_levenshtein(&found, c), i, *c))
        .collect();
    ranked.sort();
    ranked.into_iter().take(count).map(|(_, _, c)| c).collect()
}

fn backticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// ` (did you mean `NAME`?)` for the candidate nearest to `found`, or
/// nothing when none is near.
pub fn did_you_mean(found: &str, candidates: &[&str]) -> String {
    nearest(found, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

/// A serde type name as the user would say it.
fn expected(what: &str) -> String {
    match what.trim() {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".into(),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number, 0 or more".into(),
        "f32" | "f64" => "a number".into(),
        "a sequence" => "a list `[...]`".into(),
        "a map" | "struct" => "a table".into(),
        "a boolean" => "`true` or `false`".into(),
        w if w.starts_with("struct ") || w.starts_with("a struct") => "a table".into(),
        w => w.to_string(),
    }
}

/// What was found, as the user would say it.
fn found(what: &str) -> String {
    let what = what.trim();
    for (prefix, noun) in [
        ("integer ", "the whole number "),
        ("floating point ", "the number "),
        ("string ", "the text "),
        ("boolean ", ""),
    ] {
        if let Some(v) = what.strip_prefix(prefix) {
            return format!("{noun}{}", v.trim_matches('`'));
        }
    }
    match what {
        "map" => "a table".into(),
        "sequence" => "a list".into(),
        w => w.to_string(),
    }
}

/// `message` in the user's words.
///
/// ```
/// use woundsim::scenario::wording::humane;
/// assert_eq!(
///     humane("unknown variant `advantag`, expected one of `normal`, `advantage`, `disadvantage`"),
///     "must be one of `normal`, `advantage`, `disadvantage`; found `advantag` (did you mean `advantage`?)"
/// );
/// assert_eq!(humane("invalid type: string \"ten\", expected i64"), "expected a whole number, found the text \"ten\"");
/// assert_eq!(humane("something else"), "something else");
/// ```
pub fn humane(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        if let Some((found, expected)) = rest.split_once("`, expected ") {
            let names = quoted(expected);
            return format!(
                "must be one of {}; found `{found}`{}",
                backticked(&names),
                did_you_mean(found, &names)
            );
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((found, expected)) = rest.split_once("`, expected ") {
            let names = quoted(expected);
            let listed = if names.len() <= MAX_KEYS_LISTED {
                format!("the keys here are {}", backticked(&names))
            } else {
                format!(
                    "{NEAREST_OF} {} keys here are {}",
                    names.len(),
                    backticked(&nearest_few(found, &names, NEAREST_KEYS))
                )
            };
            return format!(
                "unknown key `{found}`{}; {listed}",
                did_you_mean(found, &names)
            );
        }
        if let Some((found, _)) = rest.split_once("`, there are no fields") {
            return format!("unknown key `{found}`: this table takes no keys");
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        if let Some(key) = rest.strip_suffix('`') {
            return format!("the key `{key}` is required here");
        }
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(prefix) {
            if let Some((what, wanted)) = rest.rsplit_once(", expected ") {
                return format!("expected {}, found {}", expected(wanted), found(what));
            }
        }
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_choices_name_the_choices_and_the_nearest() {
        assert_eq!(
            humane("unknown variant `flee`, expected `monsters_leave` or `finish_the_downed`"),
            "must be one of `monsters_leave`, `finish_the_downed`; found `flee`"
        );
        assert_eq!(
            humane("unknown variant `Fire`, expected one of `acid`, `fire`"),
            "must be one of `acid`, `fire`; found `Fire` (did you mean `fire`?)"
        );
    }

    #[test]
    fn unknown_keys_suggest_the_nearest_key() {
        assert_eq!(
            humane("unknown field `dcc`, expected one of `name`, `dc`, `roll`"),
            "unknown key `dcc` (did you mean `dc`?); the keys here are `name`, `dc`, `roll`"
        );
        assert_eq!(
            humane("unknown field `armour`, expected one of `size`, `armor`"),
            "unknown key `armour` (did you mean `armor`?); the keys here are `size`, `armor`"
        );
        assert_eq!(
            humane("unknown field `x`, expected `a` or `b`"),
            "unknown key `x`; the keys here are `a`, `b`"
        );
        assert_eq!(
            humane("missing field `party`"),
            "the key `party` is required here"
        );
    }

    #[test]
    fn a_table_with_many_keys_lists_the_nearest_few() {
        let keys: Vec<String> = (0..52).map(|i| format!("`key_{i}`")).collect();
        let message = format!(
            "unknown field `starting_gld`, expected one of {}, `starting_gold`",
            keys.join(", ")
        );
        let text = humane(&message);
        assert_eq!(
            text,
            "unknown key `starting_gld` (did you mean `starting_gold`?); the nearest of the 53 keys here are `starting_gold`, `key_0`, `key_1`, `key_2`, `key_3`"
        );
    }

    #[test]
    fn types_are_named_as_a_user_would() {
        assert_eq!(
            humane("invalid type: string \"no\", expected a boolean"),
            "expected `true` or `false`, found the text \"no\""
        );
        assert_eq!(
            humane("invalid value: integer `-1`, expected u64"),
            "expected a whole number, 0 or more, found the whole number -1"
        );
        assert_eq!(
            humane("invalid type: map, expected a string"),
            "expected a string, found a table"
        );
        assert_eq!(
            humane("invalid type: floating point `1.5`, expected i64"),
            "expected a whole number, found the number 1.5"
        );
    }

    #[test]
    fn nearest_stays_near() {
        assert_eq!(nearest("goblins", &["goblin", "ogre"]), Some("goblin"));
        assert_eq!(nearest("Ogre", &["goblin", "ogre"]), Some("ogre"));
        assert_eq!(nearest("dragon", &["goblin", "ogre"]), None);
    }
}
