//! Name filters for `--metrics` and `--variants`: shell-style globs where
//! `*` matches any run of characters (none included) and `?` exactly one;
//! every other character matches itself. A filter is a list of globs
//! (comma-separated on the command line) and matches a name that any of
//! them matches.

/// One glob pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    pattern: Vec<char>,
}

impl Glob {
    /// The glob `pattern`.
    pub fn new(pattern: &str) -> Self {
        Glob {
            pattern: pattern.chars().collect(),
        }
    }

    /// Whether the whole of `name` matches. Linear backtracking over the
    /// last `*` only, so a pattern of many stars costs O(pattern × name),
    /// never exponential time.
    pub fn matches(&self, name: &str) -> bool {
        let name: Vec<char> = name.chars().collect();
        let p = &self.pattern;
        let (mut i, mut j) = (0, 0);
        // Where the last `*` was, and the name position it now stands for.
        let mut star: Option<(usize, usize)> = None;
        while j < name.len() {
            match p.get(i) {
                Some('*') => {
                    star = Some((i, j));
                    i += 1;
                }
                Some(&c) if c == '?' || c == name[j] => {
                    i += 1;
                    j += 1;
                }
                _ => match star {
                    // Let the last star swallow one more character.
                    Some((si, sj)) => {
                        star = Some((si, sj + 1));
                        i = si + 1;
                        j = sj + 1;
                    }
                    None => return false,
                },
            }
        }
        p[i..].iter().all(|&c| c == '*')
    }
}

/// A list of globs; a name passes if any of them matches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    globs: Vec<Glob>,
}

impl Filter {
    /// The filter of each comma-separated glob of each of `lists`
    /// (`["p_*,mean_rolls", "q*"]`); empty globs are ignored.
    pub fn new<S: AsRef<str>>(lists: &[S]) -> Self {
        Filter {
            globs: lists
                .iter()
                .flat_map(|l| l.as_ref().split(','))
                .map(str::trim)
                .filter(|g| !g.is_empty())
                .map(Glob::new)
                .collect(),
        }
    }

    /// Whether any glob matches `name`.
    pub fn matches(&self, name: &str) -> bool {
        self.globs.iter().any(|g| g.matches(name))
    }
}

#[cfg(test)]
mod tests {
    use super::{Filter, Glob};

    fn m(pattern: &str, name: &str) -> bool {
        Glob::new(pattern).matches(name)
    }

    #[test]
    fn literal_characters_match_only_themselves() {
        assert!(m("p_dead", "p_dead"));
        assert!(!m("p_dead", "p_dead_diff"));
        assert!(!m("p_dead", "p_dea"));
        assert!(m("", ""));
        assert!(!m("", "x"));
    }

    #[test]
    fn a_star_matches_any_run_including_none() {
        assert!(m("p_*", "p_"));
        assert!(m("p_*", "p_dead"));
        assert!(!m("p_*", "mean_rolls"));
        assert!(m("*_diff", "p_dead_diff"));
        assert!(!m("*_diff", "p_dead"));
        assert!(m("p_*_diff", "p_wound_minor_diff"));
        assert!(m("*", ""));
        assert!(m("**a**", "banana"));
        // Backtracking: the first `a` is not the one the star must stop at.
        assert!(m("*a*na", "banana"));
        assert!(!m("*a*nb", "banana"));
    }

    #[test]
    fn a_question_mark_matches_exactly_one_character() {
        assert!(m("q?0_days", "q50_days"));
        assert!(!m("q?0_days", "q0_days"));
        assert!(m("cleric-?", "cleric-5"));
        assert!(!m("cleric-?", "cleric-13"));
        assert!(m("é?", "éa"), "characters, not bytes");
    }

    #[test]
    fn many_stars_stay_fast() {
        let pattern = "*a".repeat(50);
        let name = "a".repeat(10_000) + "b";
        assert!(!m(&pattern, &name));
    }

    #[test]
    fn a_filter_matches_any_of_its_comma_separated_globs() {
        let f = Filter::new(&["p_dead*, mean_*", "raw"]);
        assert!(f.matches("p_dead_diff"));
        assert!(f.matches("mean_rolls"));
        assert!(f.matches("raw"));
        assert!(!f.matches("p_stable"));
        assert!(!Filter::new(&[",,"]).matches("x"));
    }
}
