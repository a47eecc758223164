//! Description text: HTML made plain (a 3.x `<section class="secret">`
//! read in place of the players' text), entities decoded, and Foundry's
//! enrichers (`[[lookup]]`, `[[/save]]`, `[[/damage]]`, `@UUID[...]{label}`,
//! `&Reference[...]`) replaced by the words they show.

use super::*;

/// HTML as plain text: tags gone (block tags as line breaks), entities
/// decoded, spaces collapsed. Where the HTML has `<section class="secret">`
/// (3.x: the GM's statblock text), only those sections are read.
pub(super) fn html_to_text(html: &str) -> String {
    let secret = secret_sections(html);
    let html = if secret.is_empty() {
        html.to_string()
    } else {
        secret.join("<p>")
    };
    let mut out = String::new();
    let mut rest = html.as_str();
    while let Some(open) = rest.find('<') {
        push_spaced(&mut out, &rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            push_spaced(&mut out, &rest[open..]);
            rest = "";
            break;
        };
        let tag = rest[open + 1..open + close]
            .trim_start_matches('/')
            .to_ascii_lowercase();
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if [
            "p",
            "div",
            "br",
            "li",
            "ul",
            "ol",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "section",
            "tr",
            "table",
            "blockquote",
            "hr",
            "dd",
            "dt",
        ]
        .contains(&name.as_str())
        {
            out.push('\n');
        }
        rest = &rest[open + close + 1..];
    }
    push_spaced(&mut out, rest);
    let decoded = decode_entities(&out);
    decoded
        .split('\n')
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Pushes text with its line breaks as spaces (HTML whitespace).
pub(super) fn push_spaced(out: &mut String, s: &str) {
    out.extend(s.chars().map(|c| if c.is_whitespace() { ' ' } else { c }));
}

/// The inner HTML of each `<section class="secret">`.
pub(super) fn secret_sections(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(rel) = lower[from..].find("<section") {
        let start = from + rel;
        let Some(tag_end) = lower[start..].find('>').map(|e| start + e + 1) else {
            break;
        };
        if !lower[start..tag_end].contains("secret") {
            from = tag_end;
            continue;
        }
        let mut depth = 1;
        let mut pos = tag_end;
        let mut end = lower.len();
        while depth > 0 {
            let next_open = lower[pos..].find("<section").map(|p| p + pos);
            let Some(next_close) = lower[pos..].find("</section").map(|p| p + pos) else {
                break;
            };
            match next_open {
                Some(o) if o < next_close => {
                    depth += 1;
                    pos = o + 8;
                }
                _ => {
                    depth -= 1;
                    pos = next_close + 9;
                    end = next_close;
                }
            }
        }
        found.push(html[tag_end..end.max(tag_end)].to_string());
        from = pos.max(tag_end);
    }
    found
}

/// HTML character references.
pub(super) fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest
            .char_indices()
            .take_while(|(i, _)| *i < 12)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                "nbsp" => ' ',
                "ndash" => '–',
                "mdash" => '—',
                "minus" => '−',
                "rsquo" => '’',
                "lsquo" => '‘',
                "ldquo" => '“',
                "rdquo" => '”',
                "hellip" => '…',
                "times" => '×',
                _ => {
                    let code = if let Some(hex) =
                        name.strip_prefix("#x").or_else(|| name.strip_prefix("#X"))
                    {
                        u32::from_str_radix(hex, 16).ok()
                    } else {
                        name.strip_prefix('#').and_then(|d| d.parse().ok())
                    };
                    char::from_u32(code?)?
                }
            };
            Some((c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(if c == '\u{a0}' { ' ' } else { c });
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A piece of description text.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Seg<'t> {
    /// Plain words.
    Text(&'t str),
    /// `[[...]]`: its inside and `{label}`.
    Roll(&'t str, Option<&'t str>),
    /// `@UUID[...]{label}` and the like: its kind, inside and label.
    Link(&'t str, &'t str, Option<&'t str>),
    /// `&Reference[...]{label}`.
    Reference(&'t str, Option<&'t str>),
}

/// The end of a bracketed part opened just before `from`.
pub(super) fn matching(s: &str, from: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in s[from..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(from + i);
            }
        }
    }
    None
}

/// A `{label}` at `pos`, and the index after it.
pub(super) fn label_at(s: &str, pos: usize) -> (Option<&str>, usize) {
    if s[pos..].starts_with('{') {
        if let Some(end) = matching(s, pos + 1, '{', '}') {
            return (Some(&s[pos + 1..end]), end + 1);
        }
    }
    (None, pos)
}

/// The enricher starting at `i`, if one does: it and the index after it.
pub(super) fn enricher_at(s: &str, i: usize) -> Option<(Seg<'_>, usize)> {
    let rest = &s[i..];
    if let Some(inner) = rest.strip_prefix("[[") {
        let mut close = i + 2 + inner.find("]]")?;
        while s[close + 2..].starts_with(']') {
            close += 1;
        }
        let (label, end) = label_at(s, close + 2);
        return Some((Seg::Roll(&s[i + 2..close], label), end));
    }
    if rest.starts_with("&Reference[") {
        let close = matching(s, i + 11, '[', ']')?;
        let (label, end) = label_at(s, close + 1);
        return Some((Seg::Reference(&s[i + 11..close], label), end));
    }
    if let Some(after_at) = rest.strip_prefix('@') {
        let name_len = after_at.find(|c: char| !c.is_ascii_alphabetic())?;
        let name = &after_at[..name_len];
        if name.is_empty()
            || !name.starts_with(|c: char| c.is_ascii_uppercase())
            || !after_at[name_len..].starts_with('[')
        {
            return None;
        }
        let open = i + 1 + name_len + 1;
        let close = matching(s, open, '[', ']')?;
        let (label, end) = label_at(s, close + 1);
        return Some((Seg::Link(name, &s[open..close], label), end));
    }
    None
}

/// Text split into words and enrichers.
pub(super) fn segments(s: &str) -> Vec<Seg<'_>> {
    let mut out = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    while i < s.len() {
        if matches!(s.as_bytes()[i], b'[' | b'&' | b'@') {
            if let Some((seg, end)) = enricher_at(s, i) {
                if text_start < i {
                    out.push(Seg::Text(&s[text_start..i]));
                }
                out.push(seg);
                i = end;
                text_start = end;
                continue;
            }
        }
        i += s[i..].chars().next().map_or(1, char::len_utf8);
    }
    if text_start < s.len() {
        out.push(Seg::Text(&s[text_start..]));
    }
    out
}

/// An enricher's words: bare ones, and `key=value` ones.
pub(super) fn options(body: &str) -> (Vec<&str>, BTreeMap<String, &str>) {
    let mut bare = Vec::new();
    let mut keyed = BTreeMap::new();
    for tok in body.split_whitespace() {
        match tok.split_once('=') {
            Some((k, v)) => {
                keyed.insert(k.to_ascii_lowercase(), v.trim_matches(['"', '\'']));
            }
            None => bare.push(tok),
        }
    }
    (bare, keyed)
}

/// Makes enrichers words, for one item (or for the actor).
pub(super) struct Resolver<'c, 'a> {
    /// The actor.
    pub(super) ctx: &'c Ctx<'a>,
    /// The item whose description this is.
    pub(super) item: Option<&'c Item<'a>>,
}

impl Resolver<'_, '_> {
    /// Text with its enrichers made words (paragraph breaks kept).
    pub(super) fn resolve(&self, text: &str) -> String {
        self.resolve_segs(&segments(text))
    }

    /// Pieces of text with their enrichers made words.
    pub(super) fn resolve_segs(&self, segs: &[Seg]) -> String {
        segs.iter().map(|s| self.seg(s)).collect()
    }

    /// One piece as words.
    pub(super) fn seg(&self, seg: &Seg) -> String {
        match seg {
            Seg::Text(t) => (*t).to_string(),
            Seg::Roll(body, label) => self.roll(body, *label),
            Seg::Link(kind, body, label) => match (*kind, label) {
                ("Embed", _) => String::new(),
                (_, Some(l)) => (*l).to_string(),
                _ => self.uuid_name(body),
            },
            Seg::Reference(body, label) => match label {
                Some(l) => (*l).to_string(),
                None => {
                    let first = body.split_whitespace().next().unwrap_or("");
                    let word = first.split_once('=').map_or(first, |(_, v)| v);
                    capitalize(word)
                }
            },
        }
    }

    /// The name of the document a UUID points to, where the actor holds it.
    pub(super) fn uuid_name(&self, uuid: &str) -> String {
        let uuid = uuid.trim();
        for item in self.ctx.items {
            let source = at(item, &["_stats", "compendiumSource"])
                .or_else(|| at(item, &["flags", "core", "sourceId"]))
                .and_then(Value::as_str);
            let id = item.get("_id").and_then(Value::as_str).unwrap_or("");
            if source == Some(uuid) || (!id.is_empty() && uuid.ends_with(&format!(".Item.{id}"))) {
                if let Some(n) = access::opt_str(item, "name") {
                    return n.to_string();
                }
            }
        }
        uuid.rsplit('.').next().unwrap_or("").to_string()
    }

    /// A `[[...]]` enricher as words.
    pub(super) fn roll(&self, body: &str, label: Option<&str>) -> String {
        let body = body.trim();
        if let Some(rest) = body.strip_prefix("lookup ") {
            return self.lookup(rest, label);
        }
        let Some(cmd_line) = body.strip_prefix('/') else {
            return body.split('#').next().unwrap_or("").trim().to_string();
        };
        let (cmd, args) = cmd_line
            .split_once(char::is_whitespace)
            .unwrap_or((cmd_line, ""));
        match cmd.to_ascii_lowercase().as_str() {
            "attack" => self.attack_enricher(args),
            "damage" | "dmg" => self.damage_enricher(args),
            "save" => self.save_enricher(args),
            "check" | "skill" | "tool" => check_enricher(self.ctx, args),
            "item" => label.map_or_else(|| self.item_enricher(args), str::to_string),
            "r" | "roll" | "pr" | "publicroll" | "gmr" | "gmroll" | "br" | "blindroll" | "sr"
            | "selfroll" => args.split('#').next().unwrap_or("").trim().to_string(),
            "award" => args.trim().to_string(),
            "heal" | "healing" => self.heal_enricher(args),
            _ => label.unwrap_or("").to_string(),
        }
    }

    /// `[[/attack]]`: "+7", or with `extended` the whole roll line.
    pub(super) fn attack_enricher(&self, args: &str) -> String {
        let (bare, keyed) = options(args);
        let extended = bare.contains(&"extended") || keyed.get("format") == Some(&"extended");
        let formula: Vec<&str> = bare.iter().copied().filter(|b| *b != "extended").collect();
        if !formula.is_empty() && !extended {
            return formula.join(" ");
        }
        let Some(item) = self.item else {
            return String::new();
        };
        let act = item.act(keyed.get("activity").copied(), &[Kind::Attack]);
        match act.map(|a| attack(self.ctx, item, a)) {
            Some(Ok(a)) if extended => a.roll(),
            Some(Ok(a)) => format!("{:+}", a.to_hit),
            _ => String::new(),
        }
    }

    /// `[[/damage]]`: "63 (18d6) Fire", or with `extended` "Hit: ... damage".
    pub(super) fn damage_enricher(&self, args: &str) -> String {
        let (bare, keyed) = options(args);
        let extended = bare.contains(&"extended") || keyed.get("format") == Some(&"extended");
        let mut types: Vec<String> = keyed
            .get("type")
            .or(keyed.get("types"))
            .map(|t| {
                t.split(['|', ','])
                    .map(|s| s.trim().to_lowercase())
                    .collect()
            })
            .unwrap_or_default();
        let mut formula = Vec::new();
        for b in &bare {
            let lower = b.to_ascii_lowercase();
            if ["average", "extended", "long", "short"].contains(&lower.as_str()) {
                continue;
            }
            if super::super::text::DAMAGE_TYPES.contains(&lower.as_str())
                || matches!(lower.as_str(), "healing" | "temphp")
            {
                types.push(lower);
            } else {
                formula.push(*b);
            }
        }
        if let Some(f) = keyed.get("formula") {
            formula.push(*f);
        }
        let parts = if formula.is_empty() {
            let Some(item) = self.item else {
                return String::new();
            };
            let kinds = [Kind::Attack, Kind::Save, Kind::Damage];
            match item.act(keyed.get("activity").copied(), &kinds) {
                Some(a) => act_parts(self.ctx, item, a),
                None => Vec::new(),
            }
        } else {
            let f = formula.join(" ");
            match self.ctx.dice(&f, 0) {
                Some(dice) => vec![Part { dice, types }],
                None => {
                    let t: Vec<String> = types.iter().map(|t| title(t)).collect();
                    return format!("{f} {}", t.join(" or ")).trim().to_string();
                }
            }
        };
        if parts.is_empty() {
            return String::new();
        }
        if extended {
            format!("Hit: {}", parts_text(&parts))
        } else {
            parts_before_damage(&parts)
        }
    }

    /// `[[/save]]`: "DC 21 Dexterity" (with `format=long`, "... saving throw").
    pub(super) fn save_enricher(&self, args: &str) -> String {
        let (bare, keyed) = options(args);
        let long = bare.contains(&"long") || keyed.get("format") == Some(&"long");
        let mut abilities: Vec<usize> = keyed
            .get("ability")
            .map(|a| a.split(['|', ',']).filter_map(ability_index).collect())
            .unwrap_or_default();
        let mut dc = keyed.get("dc").and_then(|f| self.ctx.constant(f, 0));
        for b in &bare {
            if let Some(i) = ability_index(b) {
                abilities.push(i);
            } else if let Ok(n) = b.parse::<i64>() {
                dc = Some(n);
            }
        }
        if let Some(item) = self.item {
            if let Some(a) = item.act(keyed.get("activity").copied(), &[Kind::Save]) {
                if let Ok(s) = save(self.ctx, item, a) {
                    if abilities.is_empty() {
                        abilities = s.abilities.clone();
                    }
                    if dc.is_none() && abilities == s.abilities {
                        dc = Some(s.dc);
                    }
                }
            }
        }
        let names: Vec<&str> = abilities.iter().map(|i| ABILITY_NAMES[*i]).collect();
        let mut out = names.join(" or ");
        if let Some(dc) = dc {
            out = format!("DC {dc} {out}");
        }
        if long {
            out.push_str(" saving throw");
        }
        out.trim().to_string()
    }

    /// `[[/item Rend]]`, `[[/item .id]]`: the item's name.
    pub(super) fn item_enricher(&self, args: &str) -> String {
        let (bare, _) = options(args);
        let target = bare.join(" ");
        let target = target.trim();
        let by_id = target
            .strip_prefix('.')
            .or_else(|| target.rsplit_once(".Item.").map(|(_, id)| id));
        if let Some(id) = by_id {
            for item in self.ctx.items {
                if item.get("_id").and_then(Value::as_str) == Some(id) {
                    if let Some(n) = access::opt_str(item, "name") {
                        return n.to_string();
                    }
                }
            }
            return String::new();
        }
        target.to_string()
    }

    /// `[[/heal]]`: "7 (2d4 + 2)".
    pub(super) fn heal_enricher(&self, args: &str) -> String {
        let (bare, _) = options(args);
        let formula: Vec<&str> = bare
            .iter()
            .copied()
            .filter(|b| !["average", "extended", "temp", "healing", "temphp"].contains(b))
            .collect();
        if !formula.is_empty() {
            let f = formula.join(" ");
            return self.ctx.dice(&f, 0).map_or(f, |d| d.printed());
        }
        let Some(item) = self.item else {
            return String::new();
        };
        let Some(act) = item.act(None, &[Kind::Heal]) else {
            return String::new();
        };
        let healing = if act.legacy {
            list_at(act.v, &["damage", "parts"]).first()
        } else {
            at(act.v, &["healing"])
        };
        healing
            .and_then(|h| read_part(self.ctx, h, 0).ok())
            .map(|p| p.dice.printed())
            .unwrap_or_default()
    }

    /// `[[lookup @path]]`: the value, else the label.
    pub(super) fn lookup(&self, args: &str, label: Option<&str>) -> String {
        let (bare, keyed) = options(args);
        let Some(path) = bare.iter().find_map(|b| b.strip_prefix('@')) else {
            return label.unwrap_or("").to_string();
        };
        let act = self.item.and_then(|item| {
            let all = [
                Kind::Attack,
                Kind::Save,
                Kind::Damage,
                Kind::Heal,
                Kind::Cast,
                Kind::Utility,
                Kind::Other,
            ];
            item.act(keyed.get("activity").copied(), &all)
        });
        let Some(mut value) = self.lookup_value(path, act) else {
            return label.unwrap_or("").to_string();
        };
        if self.item.is_some() && value.contains(['[', '@', '&']) {
            // A text field holding enrichers ("if the swarm is
            // &Reference[Bloodied]"): once more, without the item, so a
            // field that looks itself up cannot recurse.
            let outer = Resolver {
                ctx: self.ctx,
                item: None,
            };
            value = outer.resolve(&value);
        }
        if bare.contains(&"lowercase") {
            value.to_lowercase()
        } else if bare.contains(&"uppercase") {
            value.to_uppercase()
        } else if bare.contains(&"capitalize") {
            capitalize(&value)
        } else {
            value
        }
    }

    /// The value a lookup path names.
    pub(super) fn lookup_value(&self, path: &str, act: Option<&Act>) -> Option<String> {
        let ctx = self.ctx;
        match path {
            "name" => return Some(ctx.name.clone()),
            "resources.legact.label" => return Some(String::new()),
            "item.name" => return self.item.map(|i| i.name.clone()),
            "item.level" => {
                return self
                    .item
                    .and_then(|i| whole(at(i.sys, &["level"])))
                    .map(|n| n.to_string());
            }
            "save.dc.value" => {
                let (item, act) = (self.item?, act?);
                return save(ctx, item, act).ok().map(|s| s.dc.to_string());
            }
            "target.affects.type" => {
                let t = str_at(act?.v, &["target", "affects", "type"]);
                return Some(target_words(t).0.to_string());
            }
            "target.template.type" => {
                let t = str_at(act?.v, &["target", "template", "type"]);
                return Some(if t == "radius" {
                    "emanation".to_string()
                } else {
                    t.to_string()
                });
            }
            _ => {}
        }
        if let Some(v) = ctx.var(path, 0) {
            return Some(format!("{}", v.floor() as i64));
        }
        let act = act.filter(|a| !a.legacy)?;
        let keys: Vec<&str> = path.split('.').collect();
        match at(act.v, &keys)? {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }
}

/// `[[/check ability=str skill=ath dc=15]]`: "DC 15 Strength (Athletics)".
pub(super) fn check_enricher(ctx: &Ctx, args: &str) -> String {
    let (bare, keyed) = options(args);
    let long = bare.contains(&"long") || keyed.get("format") == Some(&"long");
    let mut ability = keyed.get("ability").and_then(|a| ability_index(a));
    let mut skill = keyed.get("skill").and_then(|s| skill_of(s));
    let mut dc = keyed.get("dc").and_then(|f| ctx.constant(f, 0));
    let passive = bare.contains(&"passive") || keyed.get("passive") == Some(&"true");
    for b in &bare {
        if let Some(i) = ability_index(b) {
            ability = Some(i);
        } else if let Some(s) = skill_of(b) {
            skill = Some(s);
        } else if let Ok(n) = b.parse::<i64>() {
            dc = Some(n);
        }
    }
    let mut label = match (skill, ability) {
        (Some((name, default)), a) => format!("{} ({name})", ABILITY_NAMES[a.unwrap_or(default)]),
        (None, Some(a)) => ABILITY_NAMES[a].to_string(),
        (None, None) => String::new(),
    };
    if passive {
        label = format!("passive {label}");
    }
    if let Some(dc) = dc {
        label = format!("DC {dc} {label}");
    }
    if long {
        label.push_str(" check");
    }
    label.trim().to_string()
}

/// A skill by key ("ath") or name ("athletics"): its name and ability.
pub(super) fn skill_of(s: &str) -> Option<(&'static str, usize)> {
    SKILLS
        .iter()
        .find(|(k, n, _)| k.eq_ignore_ascii_case(s) || n.eq_ignore_ascii_case(s))
        .map(|(_, n, a)| (*n, *a))
}

/// The damage parts of any activity (none where they cannot be read).
pub(super) fn act_parts(ctx: &Ctx, item: &Item, act: &Act) -> Vec<Part> {
    match act.kind {
        Kind::Attack => attack(ctx, item, act).map(|a| a.parts).unwrap_or_default(),
        Kind::Save => save(ctx, item, act).map(|s| s.parts).unwrap_or_default(),
        _ => list_at(act.v, &["damage", "parts"])
            .iter()
            .filter_map(|p| read_part(ctx, p, 0).ok())
            .collect(),
    }
}
