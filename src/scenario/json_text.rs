//! Places in a JSON text that `serde_json` accepted: the byte offset of
//! the value at a field path (`ogre.attacks[1].to_hit`,
//! `monster[3].action[1].entries[0]`, `[0].actions[2]`) and the first key an
//! object gives twice. `serde_json` keeps neither positions nor duplicate
//! keys, and every error in a user's JSON file must name its line:column.

/// One step of a field path.
#[derive(Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// The steps of `path`: the top-level key is the longest key of the
/// text's object that starts the path (names may hold dots).
/// A path that starts with `[` starts in a top-level array.
fn steps(text: &str, path: &str) -> Vec<Step> {
    let (mut out, rest) = if path.starts_with('[') {
        (Vec::new(), path)
    } else {
        let mut keys = top_keys(text);
        keys.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
        let Some((first, _)) = keys.into_iter().find(|(k, _)| {
            path == k || path.starts_with(&format!("{k}.")) || path.starts_with(&format!("{k}["))
        }) else {
            return Vec::new();
        };
        let rest = &path[first.len()..];
        (vec![Step::Key(first)], rest)
    };
    for part in rest.split('.').filter(|p| !p.is_empty()) {
        let mut pieces = part.split('[');
        if let Some(key) = pieces.next().filter(|k| !k.is_empty()) {
            out.push(Step::Key(key.to_string()));
        }
        for index in pieces {
            if let Ok(i) = index.trim_end_matches(']').parse() {
                out.push(Step::Index(i));
            }
        }
    }
    out
}

struct Walker<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Walker<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    /// A string at the cursor, decoded.
    fn string(&mut self) -> String {
        let start = self.i;
        self.i += 1;
        while self.i < self.b.len() && self.b[self.i] != b'"' {
            if self.b[self.i] == b'\\' {
                self.i += 1;
            }
            self.i += 1;
        }
        self.i += 1;
        let raw = self.text.get(start..self.i.min(self.b.len())).unwrap_or("");
        serde_json::from_str(raw).unwrap_or_default()
    }

    fn skip(&mut self) {
        self.ws();
        match self.peek() {
            b'"' => {
                self.string();
            }
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.i += 1;
                loop {
                    self.ws();
                    match self.peek() {
                        0 => return,
                        c if c == close => {
                            self.i += 1;
                            return;
                        }
                        b',' | b':' => self.i += 1,
                        _ => self.skip(),
                    }
                }
            }
            _ => {
                while self.i < self.b.len() && !b",]} \t\r\n".contains(&self.b[self.i]) {
                    self.i += 1;
                }
            }
        }
    }

    /// The members of the object at the cursor: key, offset of the key.
    fn members(&mut self, mut each: impl FnMut(&mut Self, String, usize) -> bool) {
        self.ws();
        if self.peek() != b'{' {
            return;
        }
        self.i += 1;
        loop {
            self.ws();
            match self.peek() {
                b'"' => {
                    let at = self.i;
                    let key = self.string();
                    self.ws();
                    self.i += 1; // ':'
                    self.ws();
                    if each(self, key, at) {
                        return;
                    }
                    self.skip();
                }
                b',' => self.i += 1,
                _ => return,
            }
        }
    }

    /// The first key given twice in the value at the cursor or in
    /// any value inside it (`path` is the value's), as for
    /// [`duplicate_key`]; the cursor ends after the value.
    fn duplicate(&mut self, path: &str) -> Option<(String, usize)> {
        self.ws();
        match self.peek() {
            b'{' => {
                self.i += 1;
                let mut seen = std::collections::HashSet::new();
                loop {
                    self.ws();
                    match self.peek() {
                        b'"' => {
                            let at = self.i;
                            let key = self.string();
                            let here = match path {
                                "" => key.clone(),
                                _ => format!("{path}.{key}"),
                            };
                            if !seen.insert(key) {
                                return Some((here, at));
                            }
                            self.ws();
                            self.i += 1; // ':'
                            if let Some(found) = self.duplicate(&here) {
                                return Some(found);
                            }
                        }
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            return None;
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut index = 0;
                loop {
                    self.ws();
                    match self.peek() {
                        0 => return None,
                        b']' => {
                            self.i += 1;
                            return None;
                        }
                        b',' => {
                            self.i += 1;
                            index += 1;
                        }
                        _ => {
                            if let Some(found) = self.duplicate(&format!("{path}[{index}]")) {
                                return Some(found);
                            }
                        }
                    }
                }
            }
            _ => {
                self.skip();
                None
            }
        }
    }

    /// The offset of the deepest value along `steps`.
    fn find(&mut self, steps: &[Step]) -> usize {
        self.ws();
        let here = self.i;
        match steps.first() {
            None => here,
            Some(Step::Key(k)) => {
                let mut found = None;
                self.members(|w, key, _| {
                    if key == *k {
                        found = Some(w.find(&steps[1..]));
                        true
                    } else {
                        false
                    }
                });
                found.unwrap_or(here)
            }
            Some(Step::Index(n)) => {
                if self.peek() != b'[' {
                    return here;
                }
                self.i += 1;
                let mut index = 0;
                loop {
                    self.ws();
                    match self.peek() {
                        0 | b']' => return here,
                        b',' => self.i += 1,
                        _ if index == *n => return self.find(&steps[1..]),
                        _ => {
                            self.skip();
                            index += 1;
                        }
                    }
                }
            }
        }
    }
}

fn walker(text: &str) -> Walker<'_> {
    Walker {
        b: text.as_bytes(),
        text,
        i: 0,
    }
}

/// The top-level object's keys with their offsets, in order.
fn top_keys(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    walker(text).members(|_, key, at| {
        out.push((key, at));
        false
    });
    out
}

/// The first key given twice in any object of `text` (valid JSON):
/// its path (`imp`, `ogre.attacks[0].name`) and the offset of its
/// second place.
pub fn duplicate_key(text: &str) -> Option<(String, usize)> {
    walker(text).duplicate("")
}

/// The offset of the value at `path` (or of its deepest part there).
pub fn offset_of(text: &str, path: &str) -> Option<usize> {
    let steps = steps(text, path);
    if steps.is_empty() {
        return None;
    }
    Some(walker(text).find(&steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"{
  "ogre@5.2": { "hp": 1, "attacks": [ { "name": "a" }, { "name": "b", "to_hit": 99 } ] },
  "imp": { "hp": 0 },
  "imp": {}
}"#;

    #[test]
    fn paths_find_their_values() {
        let at = |p| &TEXT[offset_of(TEXT, p).unwrap()..];
        assert!(at("imp.hp").starts_with("0 }"));
        assert!(at("ogre@5.2.attacks[1].to_hit").starts_with("99"));
        assert!(at("ogre@5.2.attacks[1]").starts_with("{ \"name\": \"b\""));
        assert!(at("ogre@5.2.nothing").starts_with("{ \"hp\": 1"));
        assert_eq!(offset_of(TEXT, "gremlin.hp"), None);
    }

    #[test]
    fn a_path_may_start_in_a_top_level_array() {
        let text = r#"[ { "name": "a" }, { "name": "b", "actions": [ 1, 22 ] } ]"#;
        assert!(text[offset_of(text, "[1].actions[1]").unwrap()..].starts_with("22"));
        assert!(text[offset_of(text, "[1]").unwrap()..].starts_with("{ \"name\": \"b\""));
    }

    #[test]
    fn a_twice_given_name_is_found() {
        let (k, at) = duplicate_key(TEXT).unwrap();
        assert_eq!(k, "imp");
        assert!(TEXT[at..].starts_with("\"imp\": {}"));
    }

    #[test]
    fn a_key_twice_inside_an_entry_is_found() {
        let text = r#"{ "imp": { "hp": 18, "hp": 20 }, "ogre": { "hp": 1 } }"#;
        let (k, at) = duplicate_key(text).unwrap();
        assert_eq!(k, "imp.hp");
        assert!(text[at..].starts_with("\"hp\": 20"));
        let text =
            r#"{ "ogre": { "attacks": [ { "name": "a" }, { "name": "b", "name": "c" } ] } }"#;
        assert_eq!(duplicate_key(text).unwrap().0, "ogre.attacks[1].name");
        let text = r#"{ "ogre": { "hp": 1, "attacks": [ { "hp": 1 } ] }, "imp": { "hp": 1 } }"#;
        assert_eq!(duplicate_key(text), None);
    }
}
