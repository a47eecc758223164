//! Scenario errors that name the file, the line:column and the field, on
//! one line: user text echoed back has its control characters escaped.

use std::borrow::Cow;
use std::fmt;

/// A scenario that cannot be used, and where the problem is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{}: cannot read scenario: {}", one_line(file), one_line(reason))]
    Unreadable {
        /// The path as given.
        file: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The file is larger than a scenario may be.
    #[error(
        "{}: the file is larger than {} bytes, the most a scenario may have",
        one_line(file),
        super::limits::MAX_FILE_BYTES
    )]
    TooLarge {
        /// The path as given.
        file: String,
    },
    /// The argument names a folder, not a scenario file.
    #[error("`{}` is a directory, not a scenario file", one_line(file))]
    NotAFile {
        /// The path as given.
        file: String,
    },
    /// The file was read but its content is not a valid scenario.
    #[error("{0}")]
    Invalid(Located),
    /// The file has several errors: the first (the message), and the
    /// others in file order (`woundsim validate` prints every one).
    #[error("{first} (and {} more: `woundsim validate` lists them)", .rest.len())]
    Several {
        /// The first error.
        first: Box<ScenarioError>,
        /// The other errors, in order.
        rest: Vec<ScenarioError>,
    },
}

impl ScenarioError {
    /// The field path the error names, for an error tied to a place.
    pub fn field(&self) -> Option<&str> {
        match self {
            ScenarioError::Invalid(l) => Some(&l.field),
            ScenarioError::Several { first, .. } => first.field(),
            _ => None,
        }
    }

    /// Every error this stands for, in file order.
    pub fn all(&self) -> Vec<&ScenarioError> {
        match self {
            ScenarioError::Several { first, rest } => {
                std::iter::once(first.as_ref()).chain(rest).collect()
            }
            one => vec![one],
        }
    }

    /// Every error this stands for, owned, in file order.
    pub fn into_all(self) -> Vec<ScenarioError> {
        match self {
            ScenarioError::Several { first, mut rest } => {
                rest.insert(0, *first);
                rest
            }
            one => vec![one],
        }
    }

    /// One error for `errors` (none of them empty), in order.
    pub fn from_all(errors: Vec<ScenarioError>) -> Option<ScenarioError> {
        let mut errors: Vec<ScenarioError> = errors
            .into_iter()
            .flat_map(ScenarioError::into_all)
            .collect();
        if errors.len() <= 1 {
            return errors.pop();
        }
        let first = Box::new(errors.remove(0));
        Some(ScenarioError::Several {
            first,
            rest: errors,
        })
    }
}

/// `errors` in reading order: those placed in `file` by line and column,
/// then the others (a command-line override's, a file-level one's) in the
/// order given; each distinct error once.
pub fn in_file_order(errors: Vec<ScenarioError>, file: &str) -> Vec<ScenarioError> {
    let mut unique: Vec<ScenarioError> = Vec::with_capacity(errors.len());
    for e in errors.into_iter().flat_map(ScenarioError::into_all) {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    unique.sort_by_key(|e| match e {
        ScenarioError::Invalid(l) if l.file == file => (0, l.line, l.column),
        _ => (1, 0, 0),
    });
    unique
}

/// A message tied to a place in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The file (or built-in scenario) name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The field path, e.g. `variant[1].dc`; empty for the whole document.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: ",
            one_line(&self.file),
            self.line,
            self.column
        )?;
        if !self.field.is_empty() {
            write!(f, "field `{}`: ", one_line(&self.field))?;
        }
        f.write_str(&one_line(&self.message))
    }
}

/// `text` on one line: control characters (a newline, an escape) are
/// written as Rust escapes (`\n`, `\u{1b}`), everything else as is.
///
/// ```
/// use woundsim::scenario::error::one_line;
/// assert_eq!(one_line("a\nb\u{1b}[31m"), "a\\nb\\u{1b}[31m");
/// assert_eq!(one_line("déjà vu"), "déjà vu");
/// ```
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// Builds located errors for one file.
#[derive(Clone, Copy, Debug)]
pub struct Locator<'a> {
    /// File name for messages.
    pub file: &'a str,
    /// The file's text.
    pub text: &'a str,
}

impl Locator<'_> {
    /// An error at byte offset `offset` about `field`.
    pub fn error(&self, offset: usize, field: &str, message: impl Into<String>) -> ScenarioError {
        let (line, column) = line_column(self.text, offset);
        ScenarioError::Invalid(Located {
            file: self.file.to_string(),
            line,
            column,
            field: field.to_string(),
            message: message.into(),
        })
    }

    /// One error for `errors`, which a failed check never leaves empty
    /// (were it, an error at the top of the file says so).
    pub fn errors(&self, errors: Vec<ScenarioError>) -> ScenarioError {
        ScenarioError::from_all(errors)
            .unwrap_or_else(|| self.error(0, "", "the file could not be read"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_characters() {
        let text = "a = 1\nné = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        let after_accent = text.find(" =").unwrap() + 8;
        assert_eq!(line_column(text, after_accent).0, 2);
        assert_eq!(line_column(text, text.find('2').unwrap()), (2, 6));
        assert_eq!(line_column(text, 10_000).0, 3);
    }

    #[test]
    fn messages_are_one_line_whatever_the_user_wrote() {
        let loc = Locator {
            file: "new\nline.toml",
            text: "version = \"\\n\"",
        };
        let e = loc.error(10, "a\rb", "got \"\n\u{7}\"").to_string();
        assert_eq!(e, "new\\nline.toml:1:11: field `a\\rb`: got \"\\n\\u{7}\"");
        assert_eq!(e.lines().count(), 1);
        let e = ScenarioError::Unreadable {
            file: "x\ny".into(),
            reason: "r".into(),
        };
        assert_eq!(e.to_string(), "x\\ny: cannot read scenario: r");
    }

    #[test]
    fn messages_name_file_place_and_field() {
        let loc = Locator {
            file: "x.toml",
            text: "a\nbb = 3",
        };
        let e = loc.error(7, "variant[0].bb", "too big");
        assert_eq!(e.to_string(), "x.toml:2:6: field `variant[0].bb`: too big");
    }
}
