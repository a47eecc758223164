//! The statblock sentences an item stands for: an attack or saving-throw
//! line computed from its numbers, followed by the riders its description
//! gives after the hit or the failure, in the forms `import::text` reads.

use super::*;

/// Paragraphs joined into one line (a period added to one that ends in a
/// word), spaces collapsed, no space before punctuation.
pub(super) fn flatten(text: &str) -> String {
    let mut out = String::new();
    for para in text.split('\n').map(str::trim).filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            if out.ends_with(|c: char| c.is_alphanumeric()) {
                out.push('.');
            }
            out.push(' ');
        }
        out.push_str(para);
    }
    tidy(&out)
}

/// Spaces collapsed, none before `.,;:`, doubled periods made one.
pub(super) fn tidy(s: &str) -> String {
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(collapsed.len());
    for c in collapsed.chars() {
        if matches!(c, '.' | ',' | ';' | ':') && out.ends_with(' ') {
            out.pop();
        }
        if c == '.' && out.ends_with('.') && !out.ends_with("..") {
            continue;
        }
        out.push(c);
    }
    out.trim().to_string()
}

/// Ends a text with a period unless it ends with other sentence punctuation.
pub(super) fn with_period(s: String) -> String {
    if s.is_empty() || s.ends_with(['.', '!', '?']) {
        s
    } else {
        format!("{s}.")
    }
}

/// Sentences: split after `.`, `!` or `?` followed by a space and a
/// capital letter or digit.
pub(super) fn sentences(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut i = 0;
    while i < chars.len() {
        cur.push(chars[i]);
        if matches!(chars[i], '.' | '!' | '?')
            && chars.get(i + 1) == Some(&' ')
            && chars
                .get(i + 2)
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        {
            out.push(cur.trim().to_string());
            cur.clear();
        }
        i += 1;
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The byte length of a damage listing at the start of `s` ("10 (1d10 +
/// 5) piercing damage plus 7 (2d6) fire damage"), up to its last "damage".
pub(super) fn scan_damage_list(s: &str) -> Option<usize> {
    let mut pos = 0;
    let mut last = None;
    loop {
        let rest = &s[pos..];
        let trimmed = rest.trim_start();
        let mut p = pos + (rest.len() - trimmed.len());
        if last.is_some() {
            let Some(joiner) = ["plus ", "and "].iter().find(|j| s[p..].starts_with(**j)) else {
                return last;
            };
            p += joiner.len();
        }
        let digits = s[p..].chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return last;
        }
        p += digits;
        let after = s[p..].trim_start();
        p = s.len() - after.len();
        if after.starts_with('(') {
            let close = after.find(')')?;
            p += close + 1;
        }
        let window: String = s[p..].chars().take(48).collect();
        let Some(d) = window.find("damage") else {
            return last;
        };
        if !window[..d].chars().all(|c| c.is_alphabetic() || c == ' ') {
            return last;
        }
        p += d + "damage".len();
        last = Some(p);
        pos = p;
    }
}

/// Joins a line and what follows it in the description: a tail starting
/// with punctuation attaches, other words start a new sentence.
pub(super) fn join_tail(head: &str, tail: &str) -> String {
    let t = tail.trim_start();
    let joined = if t.is_empty() {
        head.to_string()
    } else if t.starts_with(['.', ',', ';']) {
        format!("{head}{t}")
    } else if t.starts_with('(') {
        format!("{head} {t}")
    } else {
        format!("{head}. {t}")
    };
    with_period(flatten(&joined))
}

/// An attack item's text: the roll and hit line, then what its description
/// says after the damage.
pub(super) fn attack_text(a: &Attack, r: &Resolver, desc: &str) -> String {
    let segs = segments(desc);
    let extended = segs.iter().position(|s| match s {
        Seg::Roll(body, _) => {
            let b = body.trim_start();
            (b.starts_with("/damage") || b.starts_with("/dmg")) && b.contains("extended")
        }
        _ => false,
    });
    let tail = if let Some(k) = extended {
        r.resolve_segs(&segs[k + 1..])
    } else {
        let all = flatten(&r.resolve_segs(&segs));
        match find_ci(&all, "hit:") {
            Some(h) if !a.parts.is_empty() => {
                let after = &all[h + 4..];
                scan_damage_list(after).map_or(String::new(), |e| after[e..].to_string())
            }
            Some(h) => all[h..].to_string(),
            None if segs
                .iter()
                .any(|s| matches!(s, Seg::Roll(b, _) if b.trim_start().starts_with("/attack"))) =>
            {
                String::new()
            }
            None => all,
        }
    };
    join_tail(&a.head(), &tail)
}

/// Where a text has a 2024 save line ("Dexterity Saving Throw: ..."): the
/// byte index of the sentence that starts it.
pub(super) fn structured_save(text: &str) -> Option<usize> {
    let i = text.find("Saving Throw:")?;
    let sentence = text[..i].rfind(['.', '!', '?', ':']).map_or(0, |p| p + 1);
    let prefix = text[sentence..i].trim();
    let abilities = !prefix.is_empty()
        && prefix
            .split_whitespace()
            .all(|w| w == "or" || ability_index(w.trim_matches(',')).is_some());
    abilities.then(|| sentence + (text[sentence..].len() - text[sentence..].trim_start().len()))
}

/// A save item's text: a 2024-style description as it reads, else the
/// canonical lines plus the description's riders.
pub(super) fn save_text(s: &Save, r: &Resolver, desc: &str) -> String {
    let resolved = flatten(&r.resolve(desc));
    if let Some(start) = structured_save(&resolved) {
        // From the save line on; words before it ("The balor explodes when
        // it dies.") after.
        let before = resolved[..start].trim();
        let text = format!("{} {before}", &resolved[start..]);
        return with_period(tidy(&text));
    }
    let mut sents = sentences(&resolved);
    let primary = sents
        .iter()
        .position(|x| x.to_lowercase().contains("saving throw"));
    let mut rider = String::new();
    let mut rest: Vec<String>;
    if let Some(p) = primary {
        rest = sents.split_off(p + 1);
        rider = save_rider(&sents[p], !s.parts.is_empty());
        if rider.is_empty() && s.parts.is_empty() {
            if let Some(next) = rest.first() {
                if let Some(after) = next.strip_prefix("On a failed save,") {
                    rider = rewrite_rider(after.trim().trim_end_matches('.'));
                    rest.remove(0);
                }
            }
        }
    } else {
        rest = sents;
    }
    let mut out = vec![s.head()];
    if !s.parts.is_empty() {
        let mut fail = format!("Failure: {}", parts_text(&s.parts));
        if !rider.is_empty() {
            fail.push_str(&format!(", and {rider}"));
        }
        out.push(with_period(fail));
        match s.on_save.as_str() {
            "half" => out.push("Success: Half damage.".to_string()),
            "full" => out.push("Success: Full damage.".to_string()),
            _ => {}
        }
    } else if !rider.is_empty() {
        out.push(with_period(format!("Failure: {}", capitalize(&rider))));
    }
    out.extend(rest);
    tidy(&out.join(" "))
}

/// What a narrative save sentence says happens on a failure besides the
/// damage: "... or take 15 (2d6 + 8) damage and be knocked prone" →
/// "the target has the Prone condition".
pub(super) fn save_rider(sentence: &str, has_damage: bool) -> String {
    let Some(i) = find_ci(sentence, "saving throw") else {
        return String::new();
    };
    let mut rest = sentence[i + "saving throw".len()..].trim_start_matches([',', ' ']);
    let leads = ["or ", "and ", "taking ", "take "];
    if !leads.iter().any(|l| rest.starts_with(l)) {
        // "... saving throw against this magic or become ..."; with no "or",
        // the sentence says nothing of a failure.
        match rest.find(" or ") {
            Some(k) => rest = &rest[k + 1..],
            None => return String::new(),
        }
    }
    for lead in ["or ", "and "] {
        rest = rest.strip_prefix(lead).unwrap_or(rest);
    }
    for lead in ["taking ", "take ", "takes "] {
        rest = rest.strip_prefix(lead).unwrap_or(rest);
    }
    let mut clause = if has_damage {
        match scan_damage_list(rest) {
            Some(end) => rest[end..].to_string(),
            None => return String::new(),
        }
    } else {
        rest.to_string()
    };
    for phrase in ["on a failed save", "on a failure"] {
        if let Some(k) = find_ci(&clause, phrase) {
            clause.replace_range(k..k + phrase.len(), "");
        }
    }
    for phrase in [
        ", or half as much",
        " or half as much",
        ", or half",
        " or half",
    ] {
        if let Some(k) = find_ci(&clause, phrase) {
            clause.truncate(k);
        }
    }
    let c = clause.trim().trim_end_matches(['.', ',']).trim();
    let c = c.trim_start_matches(',').trim();
    let c = c.strip_prefix("and ").unwrap_or(c).trim();
    if c.is_empty() {
        return String::new();
    }
    rewrite_rider(c)
}

/// "be knocked prone" → "the target has the Prone condition"; "become
/// frightened for 1 minute" → "the target has the Frightened condition for
/// 1 minute"; other words as they are.
pub(super) fn rewrite_rider(clause: &str) -> String {
    let mut c = clause.trim();
    for subject in [
        "the target ",
        "a target ",
        "a creature ",
        "it ",
        "the creature ",
    ] {
        if c.get(..subject.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(subject))
        {
            c = &c[subject.len()..];
        }
    }
    let lower = c.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("be knocked prone") {
        return format!(
            "the target has the Prone condition{}",
            &c[c.len() - rest.len()..]
        );
    }
    for verb in ["becomes ", "become ", "be ", "is "] {
        if let Some(after) = lower.strip_prefix(verb) {
            let word: String = after.chars().take_while(|ch| ch.is_alphabetic()).collect();
            if CONDITIONS.contains(&word.as_str()) {
                let rest = &c[verb.len() + word.len()..];
                return format!("the target has the {} condition{rest}", capitalize(&word));
            }
        }
    }
    clause.trim().to_string()
}
