//! Foundry's roll formulas (`1d10 + @mod`, `@prof * 2`, `(@item.level)d6`):
//! a small evaluator into a sum of dice and a flat number, with the `@`
//! terms an actor and an item define; an unknown term gives `None`.

/// A sum of dice and a flat number: `2d6 + 1d8 + 3`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Dice {
    /// (count, sides), one entry per die size.
    pub(super) groups: Vec<(i64, i64)>,
    /// The flat part.
    pub(super) flat: i64,
}

impl Dice {
    /// Its average as a statblock prints it: the dice mean rounded down,
    /// plus the flat part (at least 1 where there are dice).
    pub(super) fn average(&self) -> i64 {
        let twice: i64 = self.groups.iter().map(|(n, s)| n * (s + 1)).sum();
        let avg = twice / 2 + self.flat;
        if self.groups.is_empty() {
            avg.max(0)
        } else {
            avg.max(1)
        }
    }

    /// `1d10 + 5`, `2d6`, `1d4 - 1`, `3`.
    pub(super) fn formula(&self) -> String {
        let mut s = self
            .groups
            .iter()
            .map(|(n, d)| format!("{n}d{d}"))
            .collect::<Vec<_>>()
            .join(" + ");
        if s.is_empty() {
            return self.flat.to_string();
        }
        if self.flat > 0 {
            s.push_str(&format!(" + {}", self.flat));
        } else if self.flat < 0 {
            s.push_str(&format!(" - {}", -self.flat));
        }
        s
    }

    /// `10 (1d10 + 5)`, or `3` for a flat number.
    pub(super) fn printed(&self) -> String {
        if self.groups.is_empty() {
            self.average().to_string()
        } else {
            format!("{} ({})", self.average(), self.formula())
        }
    }
}

/// A partial sum while evaluating: dice groups and a real flat part.
#[derive(Clone, Debug, Default)]
pub(super) struct Sum {
    pub(super) groups: Vec<(i64, i64)>,
    pub(super) flat: f64,
}

impl Sum {
    /// A constant.
    pub(super) fn c(f: f64) -> Sum {
        Sum {
            groups: Vec::new(),
            flat: f,
        }
    }

    /// The constant, if this holds no dice.
    pub(super) fn constant(&self) -> Option<f64> {
        self.groups.is_empty().then_some(self.flat)
    }

    /// `self + other`, dice of one size merged.
    pub(super) fn add(mut self, other: Sum) -> Option<Sum> {
        for (n, d) in other.groups {
            match self.groups.iter_mut().find(|(_, e)| *e == d) {
                Some(g) => g.0 = g.0.checked_add(n).filter(|v| *v <= 1000)?,
                None => self.groups.push((n, d)),
            }
        }
        self.flat += other.flat;
        (self.groups.len() <= 20 && self.flat.abs() <= 1e9).then_some(self)
    }
}

/// A token of a roll formula.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    /// A number.
    Num(f64),
    /// `NdM`.
    Die(i64, i64),
    /// `@path`.
    Var(String),
    /// A function name before `(`.
    Func(String),
    /// `+ - * /`.
    Op(char),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `,`.
    Comma,
}

/// Reads the digits at `i`, returning the number and the next index.
pub(super) fn digits(c: &[char], mut i: usize) -> (Option<i64>, usize) {
    let start = i;
    while i < c.len() && c[i].is_ascii_digit() {
        i += 1;
    }
    let n = c[start..i].iter().collect::<String>().parse().ok();
    (n, i)
}

/// The tokens of a roll formula; None where it holds what a statblock
/// cannot print (dice modifiers such as `kh`, unknown words).
pub(super) fn tokenize(formula: &str) -> Option<Vec<Tok>> {
    // Flavour annotations (`2d6[fire]`) and comments (`#...`) go.
    let mut plain = String::new();
    let mut depth = 0usize;
    for ch in formula.split('#').next().unwrap_or("").chars() {
        match ch {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    let c: Vec<char> = plain
        .chars()
        .map(|ch| match ch {
            '−' | '–' => '-',
            '×' => '*',
            other => other,
        })
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch.is_ascii_digit() || ch == '.' {
            let start = i;
            while i < c.len() && (c[i].is_ascii_digit() || c[i] == '.') {
                i += 1;
            }
            let text: String = c[start..i].iter().collect();
            if i < c.len() && (c[i] == 'd' || c[i] == 'D') {
                let count: i64 = text.parse().ok()?;
                let (sides, next) = digits(&c, i + 1);
                out.push(Tok::Die(count, sides?));
                i = next;
                if i < c.len() && c[i].is_ascii_alphanumeric() {
                    return None;
                }
            } else {
                out.push(Tok::Num(text.parse().ok()?));
            }
        } else if ch == '@' {
            let start = i + 1;
            i += 1;
            while i < c.len() && (c[i].is_ascii_alphanumeric() || "._-".contains(c[i])) {
                i += 1;
            }
            let name: String = c[start..i].iter().collect();
            out.push(Tok::Var(name.trim_end_matches(['.', '-']).to_string()));
        } else if ch.is_ascii_alphabetic() {
            let start = i;
            while i < c.len() && c[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let word: String = c[start..i].iter().collect::<String>().to_ascii_lowercase();
            if word.starts_with('d')
                && word[1..].chars().all(|d| d.is_ascii_digit())
                && word.len() > 1
            {
                out.push(Tok::Die(1, word[1..].parse().ok()?));
            } else if ["floor", "ceil", "round", "abs", "min", "max"].contains(&word.as_str()) {
                out.push(Tok::Func(word));
            } else {
                return None;
            }
        } else {
            out.push(match ch {
                '+' | '-' | '*' | '/' => Tok::Op(ch),
                '(' => Tok::Open,
                ')' => Tok::Close,
                ',' => Tok::Comma,
                _ => return None,
            });
            i += 1;
        }
    }
    Some(out)
}

/// A recursive-descent evaluator over [`Tok`]s.
pub(super) struct Eval<'t, 'v> {
    pub(super) toks: &'t [Tok],
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) vars: &'v dyn Fn(&str) -> Option<f64>,
}

impl Eval<'_, '_> {
    /// The next token, if any.
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    /// `term (('+'|'-') term)*`.
    pub(super) fn expr(&mut self) -> Option<Sum> {
        self.depth += 1;
        if self.depth > 32 {
            return None;
        }
        let mut acc = self.term()?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.term()?;
            acc = if op == '+' {
                acc.add(rhs)?
            } else {
                acc.add(Sum::c(-rhs.constant()?))?
            };
        }
        self.depth -= 1;
        Some(acc)
    }

    /// `unary (('*'|'/') unary)*`, constants only.
    pub(super) fn term(&mut self) -> Option<Sum> {
        let mut acc = self.unary()?;
        while let Some(Tok::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.unary()?.constant()?;
            let lhs = acc.constant()?;
            acc = Sum::c(if op == '*' {
                lhs * rhs
            } else if rhs != 0.0 {
                lhs / rhs
            } else {
                return None;
            });
        }
        Some(acc)
    }

    /// A signed atom.
    pub(super) fn unary(&mut self) -> Option<Sum> {
        match self.peek() {
            Some(Tok::Op('-')) => {
                self.pos += 1;
                Some(Sum::c(-self.unary()?.constant()?))
            }
            Some(Tok::Op('+')) => {
                self.pos += 1;
                self.unary()
            }
            _ => self.atom(),
        }
    }

    /// A number, die, variable, bracketed expression or function call.
    pub(super) fn atom(&mut self) -> Option<Sum> {
        let tok = self.peek()?.clone();
        self.pos += 1;
        match tok {
            Tok::Num(f) => Some(Sum::c(f)),
            Tok::Die(n, d) => {
                if !(0..=1000).contains(&n) || !(1..=1000).contains(&d) {
                    return None;
                }
                Some(Sum {
                    groups: if n == 0 { Vec::new() } else { vec![(n, d)] },
                    flat: 0.0,
                })
            }
            Tok::Var(name) => (self.vars)(&name).map(Sum::c),
            Tok::Open => {
                let inner = self.expr()?;
                (self.peek() == Some(&Tok::Close)).then_some(())?;
                self.pos += 1;
                Some(inner)
            }
            Tok::Func(name) => {
                (self.peek() == Some(&Tok::Open)).then_some(())?;
                self.pos += 1;
                let mut args = vec![self.expr()?.constant()?];
                while self.peek() == Some(&Tok::Comma) {
                    self.pos += 1;
                    args.push(self.expr()?.constant()?);
                }
                (self.peek() == Some(&Tok::Close)).then_some(())?;
                self.pos += 1;
                let a = args[0];
                Some(Sum::c(match name.as_str() {
                    "floor" => a.floor(),
                    "ceil" => a.ceil(),
                    "round" => a.round(),
                    "abs" => a.abs(),
                    "min" => args.iter().copied().fold(f64::INFINITY, f64::min),
                    _ => args.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                }))
            }
            _ => None,
        }
    }
}

/// Evaluates a roll formula to dice and a flat part; `vars` resolves the
/// `@` terms. None where the formula is not a plain sum a statblock prints.
pub(super) fn eval_formula(formula: &str, vars: &dyn Fn(&str) -> Option<f64>) -> Option<Dice> {
    let toks = tokenize(formula)?;
    if toks.is_empty() {
        return Some(Dice::default());
    }
    let mut e = Eval {
        toks: &toks,
        pos: 0,
        depth: 0,
        vars,
    };
    let sum = e.expr()?;
    if e.pos != toks.len() || !sum.flat.is_finite() || sum.flat.abs() > 1e9 {
        return None;
    }
    Some(Dice {
        groups: sum.groups,
        flat: sum.flat.floor() as i64,
    })
}
