//! Statblock English read into numbers: attack lines ("Melee Weapon
//! Attack: +7 to hit, reach 5 ft., one target. Hit: 10 (1d10 + 5)
//! piercing damage plus 7 (2d6) fire damage." and the SRD 5.2 wording
//! "Melee Attack Roll: +7, reach 5 ft. Hit: ..."), saving-throw actions
//! ("each creature in that area must make a DC 21 Dexterity saving throw,
//! taking 63 (18d6) fire damage on a failed save, or half as much damage on
//! a successful one"; "Dexterity Saving Throw: DC 21, each creature in a
//! 60-foot Cone. Failure: ... Success: Half damage."), multiattack
//! sentences, recharge and per-day marks in names, and spellcasting lists.
//! Every function is pure and returns `None` for text it cannot read, so
//! that the caller lists it as not modelled.

use crate::combat::spell::{Shape, area_targets};

/// Whitespace collapsed, typographic dashes and minus signs as `-`,
/// markdown emphasis removed.
pub fn clean(text: &str) -> String {
    let mapped: String = text
        .chars()
        .map(|c| match c {
            '–' | '—' | '−' => '-',
            '’' => '\'',
            '*' | '_' => ' ',
            c if c.is_whitespace() => ' ',
            c => c,
        })
        .collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A number written as a word or digits ("two", "3").
pub fn number_word(word: &str) -> Option<i64> {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    let w = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_ascii_lowercase();
    if let Some(i) = WORDS.iter().position(|x| *x == w) {
        return Some(i as i64 + 1);
    }
    w.parse().ok().filter(|n| (1..=20).contains(n))
}

/// The first integer in `s` (with a sign if written), and the rest after it.
fn first_int(s: &str) -> Option<(i64, &str)> {
    let start = s.find(|c: char| c.is_ascii_digit())?;
    let end = s[start..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |e| start + e);
    let n: i64 = s[start..end].parse().ok()?;
    let negative = s[..start].trim_end().ends_with('-');
    Some((if negative { -n } else { n }, &s[end..]))
}

/// The integer that directly follows `word` in `s` (case-insensitive),
/// skipping spaces, `+` and `:`.
pub fn int_after(s: &str, word: &str) -> Option<i64> {
    let lower = s.to_ascii_lowercase();
    let at = lower.find(&word.to_ascii_lowercase())? + word.len();
    let rest = &s[at..];
    let trimmed = rest.trim_start_matches([' ', ':', '+']);
    let negative = trimmed.starts_with('-');
    let digits: String = trimmed
        .trim_start_matches('-')
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let n: i64 = digits.parse().ok()?;
    Some(if negative { -n } else { n })
}

/// A dice expression in parentheses, "(2d6 + 5)", as woundsim writes it
/// ("2d6+5"); also a bare "(1d4)".
fn dice_in_parens(s: &str) -> Option<String> {
    let inner = s.strip_prefix('(')?;
    let close = inner.find(')')?;
    let expr: String = inner[..close]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let (count, rest) = expr.split_once('d')?;
    count
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=100).contains(n))?;
    let sides_len = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let sides: u32 = rest[..sides_len].parse().ok()?;
    if !(2..=100).contains(&sides) {
        return None;
    }
    let bonus = &rest[sides_len..];
    if !bonus.is_empty() {
        let digits = bonus.strip_prefix(['+', '-'])?;
        digits.parse::<u32>().ok().filter(|n| *n <= 1000)?;
    }
    Some(expr)
}

/// One part of damage: dice (or a flat number) and a damage type.
#[derive(Clone, Debug, PartialEq)]
pub struct Damage {
    /// "2d6+5", or "1" for a flat point of damage.
    pub dice: String,
    /// "fire", lower case.
    pub kind: String,
}

/// The damage types woundsim knows.
pub const DAMAGE_TYPES: [&str; 13] = [
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
];

/// Every "A (XdY + B) type damage" (or "1 piercing damage") in `s`, in
/// order.
pub fn damages(s: &str) -> Vec<Damage> {
    let mut out = Vec::new();
    let words: Vec<&str> = s.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let w = w.trim_end_matches([',', '.', ';']).to_ascii_lowercase();
        if w != "damage" || i == 0 {
            continue;
        }
        let kind = words[i - 1].to_ascii_lowercase();
        if !DAMAGE_TYPES.contains(&kind.as_str()) || i < 2 {
            continue;
        }
        // Either "N (dice) type damage" or "N type damage".
        let before = words[..i - 1].join(" ");
        let dice = if before.ends_with(')') {
            before
                .rfind('(')
                .and_then(|open| dice_in_parens(&before[open..]))
        } else {
            words[i - 2]
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .map(|n| n.to_string())
        };
        if let Some(dice) = dice {
            out.push(Damage { dice, kind });
        }
    }
    out
}

/// An attack the statblock describes.
#[derive(Clone, Debug, PartialEq)]
pub struct Attack {
    /// A melee attack (else ranged).
    pub melee: bool,
    /// The attack bonus.
    pub to_hit: i64,
    /// The damage on a hit: the first part is the attack's, a second its
    /// rider.
    pub damage: Vec<Damage>,
    /// "escape DC 13" of a hit that grapples.
    pub grapple_escape: Option<i64>,
    /// The largest size a hit knocks prone (without a save).
    pub knocks_prone: Option<String>,
    /// The sentences after the hit that were not read (empty: none).
    pub rest: String,
}

/// An attack line, in either SRD wording; `None` if the text is not one.
pub fn attack(text: &str) -> Option<Attack> {
    let t = clean(text);
    let lower = t.to_ascii_lowercase();
    let head_end = lower
        .find("attack:")
        .or_else(|| lower.find("attack roll:"))?;
    let head = &lower[..head_end];
    if !(head.ends_with("weapon ")
        || head.ends_with("spell ")
        || head.ends_with("melee ")
        || head.ends_with("ranged ")
        || lower[head_end..].starts_with("attack roll:"))
    {
        return None;
    }
    let melee = head.contains("melee");
    let after_colon = &t[t[head_end..].find(':')? + head_end + 1..];
    let (to_hit, _) = first_int(after_colon)?;
    let hit_at = t.find("Hit:")?;
    let hit = &t[hit_at + 4..];
    // The hit's damage is its first sentence; "or 6 (1d8 + 2) slashing
    // damage if used with two hands" is the versatile alternative, left out.
    let (first, rest) = split_sentence(hit);
    let main = first.split(", or ").next().unwrap_or(first);
    let damage = damages(main);
    if damage.is_empty() {
        return None;
    }
    let mut unread: Vec<&str> = Vec::new();
    if main.len() < first.len() {
        unread.push(first);
    }
    let mut grapple_escape = None;
    let mut knocks_prone = None;
    let mut tail = rest;
    while !tail.is_empty() {
        let (sentence, next) = split_sentence(tail);
        let s = sentence.to_ascii_lowercase();
        let saves = s.contains("saving throw");
        if s.contains("grappled") && s.contains("escape dc") && !saves {
            grapple_escape = int_after(&s, "escape dc");
        } else if s.contains("prone") && !saves && size_limit(&s).is_some() {
            knocks_prone = size_limit(&s);
        } else {
            unread.push(sentence);
        }
        tail = next;
    }
    Some(Attack {
        melee,
        to_hit,
        damage,
        grapple_escape,
        knocks_prone,
        rest: unread.join(" "),
    })
}

/// "a Large or smaller creature" → "large".
fn size_limit(lower: &str) -> Option<String> {
    let at = lower.find(" or smaller")?;
    let word = lower[..at].rsplit(' ').next()?;
    super::SIZES.contains(&word).then(|| word.to_string())
}

/// The first sentence of `s` and what follows. A sentence ends at ". "
/// (not after "ft" or a digit, as in "reach 5 ft. or range").
pub fn split_sentence(s: &str) -> (&str, &str) {
    let mut from = 0;
    while let Some(i) = s[from..].find(". ") {
        let end = from + i;
        let before = &s[..end];
        if before.ends_with("ft") || before.ends_with(" dc") || before.ends_with("St") {
            from = end + 2;
            continue;
        }
        return (s[..end + 1].trim(), s[end + 2..].trim());
    }
    (s.trim(), "")
}

/// A saving-throw action that deals damage.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveAction {
    /// "dex".
    pub ability: &'static str,
    /// The save's DC.
    pub dc: i64,
    /// The damage on a failure.
    pub damage: Damage,
    /// Half the damage on a success (else none).
    pub half: bool,
    /// How many creatures it catches: 1 for one target, else the DMG's
    /// count for its area (`combat::spell::area_targets`).
    pub targets: u8,
    /// Sentences with effects beyond the damage (conditions, pushes),
    /// not read.
    pub rest: String,
}

/// The ability a "Dexterity saving throw" names.
fn ability_named(lower: &str) -> Option<&'static str> {
    const NAMES: [(&str, &str); 6] = [
        ("strength", "str"),
        ("dexterity", "dex"),
        ("constitution", "con"),
        ("intelligence", "int"),
        ("wisdom", "wis"),
        ("charisma", "cha"),
    ];
    let at = lower.find("saving throw")?;
    let before = lower[..at].trim_end();
    NAMES
        .iter()
        .find(|(n, _)| before.ends_with(n))
        .map(|(_, a)| *a)
}

/// A saving-throw action with damage, in either wording; `None` if the
/// text is not one (or holds no damage).
pub fn save_action(text: &str) -> Option<SaveAction> {
    let t = clean(text);
    let lower = t.to_ascii_lowercase();
    let ability = ability_named(&lower)?;
    let dc = int_after(&lower, "dc")?;
    let damage = damages(&t).into_iter().next()?;
    let half = lower.contains("half as much damage")
        || lower.contains("success: half damage")
        || lower.contains("half damage");
    let targets = area(&lower).map_or(1, |(shape, size)| area_targets(shape, size));
    // A sentence is read when it is the save, the damage or the area,
    // unless it also names a condition (knocked prone, poisoned), which the
    // save action leaves out.
    let unread: Vec<&str> = sentences(&t)
        .into_iter()
        .filter(|s| {
            let l = s.to_ascii_lowercase();
            let read = l.contains("saving throw")
                || l.contains("damage")
                || l.contains("exhales")
                || l.starts_with("failure:")
                || l.starts_with("success:");
            !read || CONDITION_WORDS.iter().any(|c| l.contains(c))
        })
        .collect();
    Some(SaveAction {
        ability,
        dc,
        damage,
        half,
        targets,
        rest: unread.join(" "),
    })
}

/// Words of conditions a saving throw may impose.
const CONDITION_WORDS: [&str; 12] = [
    "prone",
    "poisoned",
    "frightened",
    "grappled",
    "restrained",
    "stunned",
    "paralyzed",
    "blinded",
    "charmed",
    "incapacitated",
    "pushed",
    "deafened",
];

/// The sentences of `s`.
fn sentences(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut tail = s;
    while !tail.is_empty() {
        let (one, next) = split_sentence(tail);
        out.push(one);
        tail = next;
    }
    out
}

/// An area of effect named in the text: "60-foot cone", "30-foot line",
/// "20-foot-radius sphere", "within 10 feet of it" (an emanation).
pub fn area(lower: &str) -> Option<(Shape, u16)> {
    const SHAPES: [(&str, Shape); 7] = [
        ("cone", Shape::Cone),
        ("line", Shape::Line),
        ("cube", Shape::Cube),
        ("sphere", Shape::Sphere),
        ("cylinder", Shape::Cylinder),
        ("emanation", Shape::Emanation),
        ("radius", Shape::Sphere),
    ];
    for (i, _) in lower.match_indices("-foot") {
        let size: u16 = lower[..i]
            .rsplit(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()?;
        let after = &lower[i + 5..];
        let after = after.trim_start_matches("-radius").trim_start_matches('-');
        let next = after.split_whitespace().next().unwrap_or("");
        let next = next.trim_matches(|c: char| !c.is_alphabetic());
        if next == "long" && after.contains("line") {
            return Some((Shape::Line, size));
        }
        if let Some((_, shape)) = SHAPES.iter().find(|(n, _)| *n == next) {
            let shape = if lower[i..].starts_with("-foot-radius") && *shape != Shape::Cylinder {
                Shape::Sphere
            } else {
                *shape
            };
            return Some((shape, size));
        }
    }
    for word in ["within ", "each creature within "] {
        if let Some(at) = lower.find(word) {
            let rest = &lower[at + word.len()..];
            if let Some((n, after)) = first_int(rest)
                && after.trim_start().starts_with("feet")
                && rest.find(|c: char| c.is_ascii_digit()) == Some(0)
            {
                return Some((Shape::Emanation, n.clamp(5, 300) as u16));
            }
        }
    }
    None
}

/// "Fire Breath (Recharge 5-6)" → 5; "(Recharge 6)" → 6; "(Recharges
/// after a Short or Long Rest)" → `None` (no roll).
pub fn recharge(name: &str) -> Option<i64> {
    let lower = clean(name).to_ascii_lowercase();
    let at = lower.find("recharge ")?;
    let (n, _) = first_int(&lower[at..])?;
    (2..=6).contains(&n).then_some(n)
}

/// "(3/Day)" or "(3/Day, or 4/Day in Lair)" → 3.
pub fn per_day(name_or_text: &str) -> Option<i64> {
    let lower = name_or_text.to_ascii_lowercase();
    let at = lower.find("/day")?;
    let digits: String = lower[..at]
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().ok().filter(|n| (1..=20).contains(n))
}

/// A feature's name without what follows its first parenthesis: "Fire
/// Breath (Recharge 5-6)" → "Fire Breath".
pub fn bare_name(name: &str) -> &str {
    name.split(" (").next().unwrap_or(name).trim()
}

/// Words equal up to case and a plural "s" ("Claws", "claw").
fn same_word(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        let s = s.trim().to_ascii_lowercase();
        s.strip_suffix("es")
            .filter(|x| x.ends_with("sh") || x.ends_with("ch"))
            .map(str::to_string)
            .or_else(|| s.strip_suffix('s').map(str::to_string))
            .unwrap_or(s)
    };
    norm(a) == norm(b)
}

/// Whether `name` (an attack's name, possibly several words) is written in
/// `clause`.
fn mentions(clause: &str, name: &str) -> bool {
    let words: Vec<&str> = clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let want: Vec<&str> = name.split_whitespace().collect();
    if want.is_empty() {
        return false;
    }
    words.windows(want.len()).any(|w| {
        w.iter().zip(&want).enumerate().all(|(i, (a, b))| {
            if i + 1 == want.len() {
                same_word(a, b)
            } else {
                a.eq_ignore_ascii_case(b)
            }
        })
    })
}

/// A multiattack sentence read against the attack names it may use: the
/// attacks of one Multiattack action, in order ("makes two attacks: one with
/// its beak and one with its claws" → beak, claws; "makes three Rend
/// attacks" → Rend ×3; "makes two attacks, using Greatclub or Javelin in
/// any combination" → the first named, twice). `None` if no attack of
/// `names` can be read from it.
pub fn multiattack(text: &str, names: &[&str]) -> Option<Vec<String>> {
    let t = clean(text);
    let lower = t.to_ascii_lowercase();
    let total = lower.find("makes ").and_then(|at| {
        lower[at + 6..]
            .split_whitespace()
            .next()
            .and_then(number_word)
    });
    let mut out: Vec<String> = Vec::new();
    for clause in t.split([',', ';', ':', '.']).flat_map(|c| c.split(" and ")) {
        let count = clause.split_whitespace().find_map(number_word);
        let named: Vec<&&str> = names.iter().filter(|n| mentions(clause, n)).collect();
        if let (Some(count), [only]) = (count, named.as_slice()) {
            let count = if clause.to_ascii_lowercase().contains(" makes ") {
                total.unwrap_or(count)
            } else {
                count
            };
            for _ in 0..count.min(12) {
                out.push(only.to_string());
            }
        }
    }
    if out.is_empty()
        && let Some(total) = total
    {
        // "makes two attacks, using A or B": the first named; "makes two
        // attacks" with one attack to make.
        let first = names
            .iter()
            .filter_map(|n| lower.find(&n.to_ascii_lowercase()).map(|at| (at, n)))
            .min()
            .map(|(_, n)| *n)
            .or(if names.len() == 1 {
                names.first().copied()
            } else {
                None
            });
        if let Some(name) = first {
            for _ in 0..total.min(12) {
                out.push(name.to_string());
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// One group of a spellcasting list: its spells and how often.
#[derive(Clone, Debug, PartialEq)]
pub struct SpellGroup {
    /// Uses a day; `None` at will.
    pub per_day: Option<i64>,
    /// The slot level of a slot list ("3rd level (3 slots)"), if it is one.
    pub slot_level: Option<i64>,
    /// Spell names as written ("fireball", "Cone of Cold").
    pub spells: Vec<String>,
}

/// A spellcasting block: save DC, attack bonus and the spell groups.
#[derive(Clone, Debug, PartialEq)]
pub struct Spellcasting {
    /// The spell save DC.
    pub dc: Option<i64>,
    /// The spell attack bonus.
    pub to_hit: Option<i64>,
    /// The lists, in order.
    pub groups: Vec<SpellGroup>,
}

/// A spellcasting trait or action in either wording: "(spell save DC 20,
/// +12 to hit with spell attacks)", then lists headed "At will:",
/// "Cantrips (at will):", "3/day each:", "1st level (4 slots):".
pub fn spellcasting(text: &str) -> Spellcasting {
    let lower = text.to_ascii_lowercase();
    let dc = int_after(&lower, "spell save dc");
    let to_hit = lower
        .find(" to hit with spell attacks")
        .and_then(|at| lower[..at].rsplit(['+', ' ']).next()?.parse().ok());
    let mut groups = Vec::new();
    for line in text.split(['\n']).flat_map(split_groups) {
        let Some((head, list)) = line.split_once(':') else {
            continue;
        };
        let h = head.trim().to_ascii_lowercase();
        let (per_day, slot_level) = if h.contains("at will") || h.contains("cantrip") {
            (None, None)
        } else if h.contains("/day") {
            (per_day(&h), None)
        } else if h.contains("level") && h.contains("slot") {
            let level = first_int(&h).map(|(n, _)| n);
            let slots = h
                .find('(')
                .and_then(|at| first_int(&h[at..]))
                .map(|(n, _)| n);
            (slots, level)
        } else {
            continue;
        };
        let spells = list
            .split(',')
            .map(|s| {
                clean(s)
                    .trim_matches(|c: char| c == '.' || c.is_whitespace())
                    .to_string()
            })
            .filter(|s| !s.is_empty())
            .collect();
        groups.push(SpellGroup {
            per_day,
            slot_level,
            spells,
        });
    }
    Spellcasting { dc, to_hit, groups }
}

/// A one-line spell list cut before each group head ("At will: a, b
/// 1/day each: c" as two).
fn split_groups(line: &str) -> Vec<&str> {
    let lower = line.to_ascii_lowercase();
    let mut cuts = vec![0];
    for head in ["at will:", "cantrips (at will):"] {
        cuts.extend(lower.match_indices(head).map(|(i, _)| i));
    }
    for (i, _) in lower.match_indices("/day") {
        let start = lower[..i]
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |s| s + 1);
        cuts.push(start);
    }
    for (i, _) in lower.match_indices(" level (") {
        let start = lower[..i]
            .rfind(|c: char| !c.is_alphanumeric())
            .map_or(0, |s| s + 1);
        cuts.push(start);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::new();
    for (k, start) in cuts.iter().enumerate() {
        let end = cuts.get(k + 1).copied().unwrap_or(line.len());
        if line.is_char_boundary(*start) && line.is_char_boundary(end) && end > *start {
            out.push(line[*start..end].trim_end_matches(['.', ' ']));
        }
    }
    out
}

/// A spell name as woundsim's spell data writes it: lower case,
/// underscores ("Cone of Cold" → `cone_of_cold`), without a trailing
/// "(self only)" or footnote mark.
pub fn spell_key(name: &str) -> String {
    let bare = bare_name(name).trim_end_matches(['*', '†', '+']);
    let mut out = String::new();
    for c in bare.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if (c == ' ' || c == '-' || c == '/') && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_2014_attack_line_is_read() {
        let a = attack(
            "Melee Weapon Attack: +7 to hit, reach 5 ft., one target. Hit: 10 (1d10 + 5) piercing damage plus 7 (2d6) fire damage.",
        )
        .unwrap();
        assert!(a.melee);
        assert_eq!(a.to_hit, 7);
        assert_eq!(
            a.damage,
            vec![
                Damage {
                    dice: "1d10+5".into(),
                    kind: "piercing".into()
                },
                Damage {
                    dice: "2d6".into(),
                    kind: "fire".into()
                },
            ]
        );
        assert_eq!(a.rest, "");
    }

    #[test]
    fn a_2024_attack_line_with_a_grapple_is_read() {
        let a = attack(
            "Melee Attack Roll: +9, reach 10 ft. Hit: 13 (2d8 + 4) Bludgeoning damage. If the target is a Large or smaller creature, it has the Grappled condition (escape DC 14).",
        )
        .unwrap();
        assert_eq!((a.to_hit, a.grapple_escape), (9, Some(14)));
        assert_eq!(a.damage[0].kind, "bludgeoning");
        let r = attack("Ranged Weapon Attack: +4 to hit, range 80/320 ft., one target. Hit: 5 (1d6 + 2) piercing damage. If the target is a creature, it must succeed on a DC 11 Constitution saving throw or be poisoned for 1 minute.").unwrap();
        assert!(!r.melee);
        assert!(
            r.rest
                .starts_with("If the target is a creature, it must succeed"),
            "{}",
            r.rest
        );
        let p = attack("Melee Attack Roll: +6, reach 5 ft. Hit: 8 (1d8 + 4) Piercing damage. If the target is a Medium or smaller creature, it has the Prone condition.").unwrap();
        assert_eq!(p.knocks_prone.as_deref(), Some("medium"));
        assert_eq!(attack("The goblin hides."), None);
        assert_eq!(attack("Hit: 1 piercing damage.").map(|a| a.to_hit), None);
        let flat = attack(
            "Melee Weapon Attack: +0 to hit, reach 5 ft., one target. Hit: 1 piercing damage.",
        )
        .unwrap();
        assert_eq!(flat.damage[0].dice, "1");
    }

    #[test]
    fn versatile_damage_keeps_the_one_handed_dice() {
        let a = attack("Melee Weapon Attack: +3 to hit, reach 5 ft., one target. Hit: 4 (1d6 + 1) slashing damage, or 5 (1d8 + 1) slashing damage if used with two hands.").unwrap();
        assert_eq!(a.damage.len(), 1);
        assert_eq!(a.damage[0].dice, "1d6+1");
    }

    #[test]
    fn breath_weapons_are_read_in_both_wordings() {
        let old = save_action("The dragon exhales fire in a 60-foot cone. Each creature in that area must make a DC 21 Dexterity saving throw, taking 63 (18d6) fire damage on a failed save, or half as much damage on a successful one.").unwrap();
        assert_eq!(
            (old.ability, old.dc, old.half, old.targets),
            ("dex", 21, true, 6)
        );
        assert_eq!(old.damage.dice, "18d6");
        let new = save_action("Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone. Failure: 59 (17d6) Fire damage. Success: Half damage.").unwrap();
        assert_eq!(
            (new.ability, new.dc, new.half, new.targets),
            ("dex", 21, true, 6)
        );
        assert_eq!(new.damage.dice, "17d6");
        assert_eq!(new.rest, "");
        let line = save_action("Dexterity Saving Throw: DC 18, each creature in a 90-foot-long, 5-foot-wide Line. Failure: 10 (3d6) Lightning damage. Success: Half damage.").unwrap();
        assert_eq!(line.targets, 3, "a 90-foot line: the length, not the width");
        let aura = save_action("Constitution Saving Throw: DC 15, each creature within 10 feet. Failure: 14 (4d6) Poison damage.").unwrap();
        assert!(!aura.half);
        assert_eq!(aura.targets, 2);
    }

    #[test]
    fn multiattacks_are_read_in_their_common_shapes() {
        let names = ["Beak", "Claws"];
        assert_eq!(
            multiattack(
                "The owlbear makes two attacks: one with its beak and one with its claws.",
                &names
            )
            .unwrap(),
            vec!["Beak", "Claws"]
        );
        assert_eq!(
            multiattack("The dragon makes three Rend attacks.", &["Rend"]).unwrap(),
            vec!["Rend"; 3]
        );
        assert_eq!(
            multiattack("The dragon can use its Frightful Presence. It then makes three attacks: one with its bite and two with its claws.", &["Bite", "Claw", "Tail"]).unwrap(),
            vec!["Bite", "Claw", "Claw"]
        );
        assert_eq!(
            multiattack(
                "The ogre makes two attacks, using Greatclub or Javelin in any combination.",
                &["Greatclub", "Javelin"]
            )
            .unwrap(),
            vec!["Greatclub"; 2]
        );
        assert_eq!(
            multiattack(
                "The goblin boss makes two attacks with its scimitar.",
                &["Scimitar"]
            )
            .unwrap(),
            vec!["Scimitar"; 2]
        );
        assert_eq!(
            multiattack("The knight makes two melee attacks.", &["Greatsword"]).unwrap(),
            vec!["Greatsword"; 2]
        );
        assert_eq!(multiattack("The swarm attacks.", &["Bite", "Sting"]), None);
    }

    #[test]
    fn names_give_recharge_and_uses() {
        assert_eq!(recharge("Fire Breath (Recharge 5–6)"), Some(5));
        assert_eq!(recharge("Lightning Breath (Recharge 6)"), Some(6));
        assert_eq!(
            recharge("Teleport (Recharges after a Short or Long Rest)"),
            None
        );
        assert_eq!(
            per_day("Legendary Resistance (3/Day, or 4/Day in Lair)"),
            Some(3)
        );
        assert_eq!(bare_name("Fire Breath (Recharge 5–6)"), "Fire Breath");
    }

    #[test]
    fn spell_lists_are_read_in_both_wordings() {
        let old = spellcasting(
            "The lich is an 18th-level spellcaster. Its spellcasting ability is Intelligence (spell save DC 20, +12 to hit with spell attacks).\nCantrips (at will): mage hand, ray of frost\n3rd level (3 slots): animate dead, counterspell, fireball\n8th level (1 slot): dominate monster, power word stun",
        );
        assert_eq!((old.dc, old.to_hit), (Some(20), Some(12)));
        assert_eq!(old.groups.len(), 3);
        assert_eq!(old.groups[1].slot_level, Some(3));
        assert_eq!(old.groups[1].per_day, Some(3));
        assert_eq!(old.groups[1].spells[2], "fireball");
        let new = spellcasting(
            "The dragon casts one of the following spells, requiring no Material components and using Charisma as the spellcasting ability (spell save DC 20, +12 to hit with spell attacks): At Will: Command (level 2 version), Detect Magic 1/Day Each: Fireball, Scorching Ray",
        );
        assert_eq!(new.groups.len(), 2);
        assert_eq!(new.groups[0].per_day, None);
        assert_eq!(new.groups[1].per_day, Some(1));
        assert_eq!(new.groups[1].spells, vec!["Fireball", "Scorching Ray"]);
        assert_eq!(spell_key("Command (level 2 version)"), "command");
        assert_eq!(spell_key("Cone of Cold"), "cone_of_cold");
    }
}
