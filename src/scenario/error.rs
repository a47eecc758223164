//! Scenario errors that name the file, the line:column and the field.

use std::fmt;

/// A scenario that cannot be used, and where the problem is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{file}: cannot read scenario: {reason}")]
    Unreadable {
        /// The path as given.
        file: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The file was read but its content is not a valid scenario.
    #[error("{0}")]
    Invalid(Located),
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
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if !self.field.is_empty() {
            write!(f, "field `{}`: ", self.field)?;
        }
        f.write_str(&self.message)
    }
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
    fn messages_name_file_place_and_field() {
        let loc = Locator {
            file: "x.toml",
            text: "a\nbb = 3",
        };
        let e = loc.error(7, "variant[0].bb", "too big");
        assert_eq!(e.to_string(), "x.toml:2:6: field `variant[0].bb`: too big");
    }
}
