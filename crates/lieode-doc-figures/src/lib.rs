//! # Measured Markdown tables: figures with their printed digits, and where they come from
//!
//! The workspace documents measured results in Markdown tables (`docs/*.md`). Each such table
//! is marked by an HTML comment right before it saying where its figures come from: a CSV table
//! that a reproduction writes (and how the table's rows and columns map onto its records), a
//! timing, or a run `reproduce` does not make. This crate reads documents: it finds the tables
//! and their markers ([`parse_document`]), the numbers of a cell with the digits they state
//! ([`numbers_in`], [`DocNumber::matches`]), and the CSV record and column behind every figure
//! of a checked table ([`figures`]). It reads no CSV itself: `lieode-reproduce` compares the
//! figures with the CSVs a run writes, and the library's tests compare the tables they measure
//! themselves (`docs/orders.md`, `docs/spiral_family.md`).
//!
//! A figure is compared with the measured value rounded to the digits the document prints:
//! `4.48` with the value rounded to two decimals, `7.00e-9` with the value rounded to three
//! significant digits, `137 449` with the value rounded to an integer.
//!
//! ## The marker
//!
//! ```text
//! <!-- figures: krysl_paper/convergence.csv
//! key "method" = method
//! column "free body, Δt = 0.025" = problem=free_body dt=0.025 -> pi_error r_error
//! column "slow top, Δt = 0.0025" = problem=slow_top dt=0.0025 -> pi_error r_error
//! -->
//! | method | free body, Δt = 0.025 | slow top, Δt = 0.0025 |
//! |---|---|---|
//! | rkmk4 | 6.85e-9 / 7.19e-9 | 3.10e-8 / 1.89e-8 |
//! ```
//!
//! The first line names the reproduction (its folder under the output root) and the CSV file
//! (`lieode-reproduce` checks that the pair is one of the tables it writes). The other lines,
//! one per line:
//!
//! | line | meaning |
//! |---|---|
//! | `key "<header>" = <csv column>` | the document's column `<header>` holds the value of the CSV column that selects the record (one or more key lines) |
//! | `where <filters>` | filters every figure of the table shares, e.g. `where tol=1e-10` |
//! | `column "<header>" = <filters> -> <csv columns>` | the numbers of a cell, in order, are the named CSV columns of the record selected by the keys, the table's and this column's filters |
//! | `column "<header>" = -` | the column is not compared (say why in the document) |
//! | `row "<cell>" = <key>, <key>` | the key cell `<cell>` stands for these CSV keys (each is compared) |
//! | `row "<cell>" = -` | the row is not compared (say why in the document) |
//!
//! A filter is `<csv column>=<value>`, compared as numbers when both sides are numbers (to a
//! relative 1e-12) and as text otherwise. Without a `row` line, a key cell stands for the
//! comma-separated names in it, with `*` and backticks removed. Quoted strings take `\"` for a
//! quote. Every column of the table that holds a number must be a key or mapped; a cell without
//! a number (empty, `—`) is skipped; a cell must hold as many numbers as its column maps.
//!
//! Tables that cannot be compared are marked too, so that every measured table says where its
//! figures come from: `<!-- figures: timing: <the command that measured it> -->` for timings
//! (seconds, ns per step, speed-ups, throughput: they vary from run to run), and
//! `<!-- figures: unchecked: <why, and the command that produces it> -->` for figures that
//! `reproduce` does not compute (runs of hours, test output, geometry). Any other text after
//! `figures:` also excludes the table, as [`Marker::Unchecked`] with that text; a first word of
//! the form `<name>/<name>` is always read as a source and must be one.

#![deny(missing_docs)]

use std::fmt;

/// A document or marker that does not parse, or a marker that does not fit its table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MalformedMarker {
    /// Where: `<doc>:<line>`.
    pub place: String,
    /// What was expected there.
    pub expected: String,
}

impl fmt::Display for MalformedMarker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid figures marker at {}: expected {}",
            self.place, self.expected
        )
    }
}

impl std::error::Error for MalformedMarker {}

/// The result of reading a document.
pub type Result<T> = std::result::Result<T, MalformedMarker>;

/// How many digits a documented number states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Digits {
    /// Digits after the decimal point (`4.48`: 2; `137 449`: 0).
    Decimals(usize),
    /// Significant digits of a number in scientific notation (`7.00e-9`: 3; `2e-5`: 1).
    Significant(usize),
}

/// A number as a document prints it.
#[derive(Debug, Clone, PartialEq)]
pub struct DocNumber {
    /// The text, as printed (digit groups and a Unicode minus included).
    pub text: String,
    /// Its value.
    pub value: f64,
    /// The digits it states.
    pub digits: Digits,
}

impl DocNumber {
    /// `measured` rounded to this number's digits, as text (`4.2548` → `4.25` for `4.48`;
    /// `6.849e-9` → `6.85e-9` for `7.00e-9`).
    pub fn round(&self, measured: f64) -> String {
        match self.digits {
            Digits::Decimals(d) => format!("{measured:.d$}"),
            Digits::Significant(s) => format!("{measured:.p$e}", p = s.saturating_sub(1)),
        }
    }

    /// Whether `measured`, rounded to this number's digits, is the printed number. A
    /// non-finite `measured` never matches.
    pub fn matches(&self, measured: f64) -> bool {
        measured.is_finite() && self.round(measured).parse::<f64>().ok() == Some(self.value)
    }
}

/// The numbers printed in a table cell, in order: decimal or scientific, optionally signed
/// (`+`, `-` or `−`), an integer's digits possibly grouped by threes with spaces (`137 449`).
/// `*` and backticks are ignored. A run of digits that is part of a word (`RK4`, `10⁶`,
/// `0.5s`) is not a number.
///
/// # Examples
/// ```
/// use lieode_doc_figures::{Digits, numbers_in};
///
/// let n = numbers_in("**4.48**/4.48 (4.22/4.18), 137 449, −1.5e-13, RK4");
/// let texts: Vec<&str> = n.iter().map(|x| x.text.as_str()).collect();
/// assert_eq!(texts, ["4.48", "4.48", "4.22", "4.18", "137 449", "−1.5e-13"]);
/// assert_eq!(n[4].value, 137449.0);
/// assert_eq!(n[5].digits, Digits::Significant(2));
/// ```
pub fn numbers_in(cell: &str) -> Vec<DocNumber> {
    let chars: Vec<char> = cell.chars().filter(|c| !matches!(c, '*' | '`')).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match number_at(&chars, i) {
            Some((number, end)) => {
                out.push(number);
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// Whether `c` can be part of a word (a number touching it is not a number).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.'
}

/// A group separator inside an integer's digits.
fn is_group_separator(c: char) -> bool {
    matches!(c, ' ' | '\u{a0}' | '\u{2009}' | '\u{202f}')
}

/// The number starting at `start`, and the index after it.
fn number_at(chars: &[char], start: usize) -> Option<(DocNumber, usize)> {
    let at = |k: usize| chars.get(k).copied();
    let digit = |k: usize| at(k).is_some_and(|c| c.is_ascii_digit());
    let sign = |c: char| matches!(c, '+' | '-' | '−');
    if start > 0 && at(start - 1).is_some_and(is_word) {
        return None;
    }
    // `x-1`: a digit after a sign that is glued to a word is part of the word.
    if start > 1 && at(start - 1).is_some_and(sign) && at(start - 2).is_some_and(is_word) {
        return None;
    }
    let mut i = start;
    let mut text = String::new();
    if at(i).is_some_and(sign) {
        if !digit(i + 1) {
            return None;
        }
        text.push(if at(i) == Some('+') { '+' } else { '-' });
        i += 1;
    } else if !digit(i) {
        return None;
    }
    let int_start = i;
    while digit(i) {
        text.push(chars[i]);
        i += 1;
    }
    // Digit groups: "137 449", only after a first group of one to three digits.
    if i - int_start <= 3 {
        while at(i).is_some_and(is_group_separator)
            && (1..=3).all(|k| digit(i + k))
            && !digit(i + 4)
            && at(i + 4) != Some('.')
        {
            text.extend(&chars[i + 1..i + 4]);
            i += 4;
        }
    }
    let mut decimals = 0;
    let mut mantissa_digits: String = text.chars().filter(char::is_ascii_digit).collect();
    if at(i) == Some('.') && digit(i + 1) {
        text.push('.');
        i += 1;
        while digit(i) {
            text.push(chars[i]);
            mantissa_digits.push(chars[i]);
            decimals += 1;
            i += 1;
        }
    }
    let mut scientific = false;
    if matches!(at(i), Some('e' | 'E')) {
        let sign = usize::from(matches!(at(i + 1), Some('+' | '-' | '−')));
        if digit(i + 1 + sign) {
            scientific = true;
            text.push('e');
            if sign == 1 {
                text.push(if at(i + 1) == Some('+') { '+' } else { '-' });
            }
            i += 1 + sign;
            while digit(i) {
                text.push(chars[i]);
                i += 1;
            }
        }
    }
    if at(i).is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let value = text.parse::<f64>().ok()?;
    let digits = if scientific {
        let significant = mantissa_digits.trim_start_matches('0').len().max(1);
        Digits::Significant(significant)
    } else {
        Digits::Decimals(decimals)
    };
    let printed: String = chars[start..i].iter().collect();
    Some((
        DocNumber {
            text: printed,
            value,
            digits,
        },
        i,
    ))
}

/// One body row of a Markdown table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// Its line in the document (1-based).
    pub line: usize,
    /// Its cells, trimmed, `\|` unescaped.
    pub cells: Vec<String>,
}

/// A Markdown table of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkdownTable {
    /// The line of its header row (1-based).
    pub line: usize,
    /// The nearest heading above it (without the `#`s), or empty.
    pub heading: String,
    /// The header cells.
    pub headers: Vec<String>,
    /// The body rows.
    pub rows: Vec<TableRow>,
}

impl MarkdownTable {
    /// The index of the column headed `header`.
    pub fn column(&self, header: &str) -> Option<usize> {
        self.headers.iter().position(|h| h == header)
    }

    /// Whether the table looks measured: a body cell outside the first column starts with a
    /// number (after `*` and backticks). Such a table needs a marker.
    pub fn looks_measured(&self) -> bool {
        self.rows.iter().any(|row| {
            row.cells.iter().skip(1).any(|cell| {
                let start: String = cell
                    .chars()
                    .filter(|c| !matches!(c, '*' | '`'))
                    .collect::<String>()
                    .trim_start()
                    .chars()
                    .take(2)
                    .collect();
                let mut it = start.chars();
                match it.next() {
                    Some(c) if c.is_ascii_digit() => true,
                    Some('+' | '-' | '−') => it.next().is_some_and(|c| c.is_ascii_digit()),
                    _ => false,
                }
            })
        })
    }
}

/// A filter on a CSV column: `<column>=<value>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// The CSV column.
    pub column: String,
    /// The value it must hold (compared as numbers when both are numbers).
    pub value: String,
}

impl Filter {
    /// Whether the number `x` (a numeric CSV cell) is the filter's value, to a relative 1e-12;
    /// never if the filter's value is not a number.
    pub fn accepts_number(&self, x: f64) -> bool {
        self.value
            .parse::<f64>()
            .is_ok_and(|want| x == want || (x - want).abs() <= 1e-12 * x.abs().max(want.abs()))
    }

    /// Whether the text `s` (a text CSV cell) is the filter's value.
    pub fn accepts_text(&self, s: &str) -> bool {
        s == self.value
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.column, self.value)
    }
}

/// A document column that holds the CSV key of each row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyColumn {
    /// The document column's header.
    pub header: String,
    /// The CSV column it gives the value of.
    pub csv_column: String,
}

/// What a key cell stands for: CSV keys, or nothing (a row not compared).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowAlias {
    /// The key cell's text.
    pub cell: String,
    /// The CSV keys it stands for; `None` if the row is not compared.
    pub keys: Option<Vec<String>>,
}

/// How a document column maps onto the CSV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnMap {
    /// The document column's header.
    pub header: String,
    /// The column's own filters and the CSV columns of its numbers, in order; `None` if the
    /// column is not compared.
    pub values: Option<(Vec<Filter>, Vec<String>)>,
}

/// Where a checked table's figures come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The reproduction (its folder under the output root).
    pub reproduction: String,
    /// The CSV file in that folder.
    pub file: String,
    /// Filters every figure shares.
    pub filters: Vec<Filter>,
    /// The key columns.
    pub keys: Vec<KeyColumn>,
    /// Key cells with explicit meanings.
    pub rows: Vec<RowAlias>,
    /// The mapped columns.
    pub columns: Vec<ColumnMap>,
}

/// What a marker says about the table after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marker {
    /// Its figures come from a reproduction's CSV and are compared.
    Checked(Source),
    /// A timing: not compared; the text gives the command that measured it.
    Timing(String),
    /// Not computed by `reproduce`: not compared; the text says why and how it is produced.
    Unchecked(String),
}

/// A table with its marker.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkedTable {
    /// The document's name, as given to [`parse_document`].
    pub doc: String,
    /// The marker's first line (1-based).
    pub marker_line: usize,
    /// The marker.
    pub marker: Marker,
    /// The table.
    pub table: MarkdownTable,
}

/// The tables of one document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// The tables with a marker.
    pub marked: Vec<MarkedTable>,
    /// The tables without one.
    pub unmarked: Vec<MarkdownTable>,
}

/// A malformed document or marker, naming the place.
fn malformed(doc: &str, line: usize, what: impl fmt::Display) -> MalformedMarker {
    MalformedMarker {
        place: format!("{doc}:{line}"),
        expected: what.to_string(),
    }
}

/// The cells of a table line: split at unescaped `|`, `\|` unescaped, trimmed.
fn split_cells(line: &str) -> Vec<String> {
    let inner = line.trim();
    let inner = inner.strip_prefix('|').unwrap_or(inner);
    let inner = if inner.ends_with('|') && !inner.ends_with("\\|") {
        &inner[..inner.len() - 1]
    } else {
        inner
    };
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    cells.push(cell.trim().to_string());
    cells
}

/// Whether a line is a table's delimiter row (`|---|:--:|`).
fn is_delimiter(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.contains('-') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// Reads a quoted string (`"…"`, `\"` for a quote) at the start of `s`; returns it and the rest.
fn quoted(s: &str) -> Option<(String, &str)> {
    let rest = s.trim_start().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '\\' => {
                let (_, next) = chars.next()?;
                out.push(next);
            }
            '"' => return Some((out, &rest[k + 1..])),
            _ => out.push(c),
        }
    }
    None
}

/// Parses `name=value` filters separated by whitespace.
fn filters(s: &str) -> Option<Vec<Filter>> {
    s.split_whitespace()
        .map(|f| {
            let (column, value) = f.split_once('=')?;
            (!column.is_empty() && !value.is_empty()).then(|| Filter {
                column: column.to_string(),
                value: value.to_string(),
            })
        })
        .collect()
}

/// Parses the lines of a checked marker after its first.
fn parse_source(doc: &str, first: usize, spec: &str, lines: &[(usize, String)]) -> Result<Source> {
    let (reproduction, file) = spec
        .split_once('/')
        .filter(|(r, f)| !r.is_empty() && f.ends_with(".csv") && !f.contains('/'))
        .ok_or_else(|| {
            malformed(
                doc,
                first,
                format!("`<reproduction>/<file>.csv`, `timing: …` or `unchecked: …`, not `{spec}`"),
            )
        })?;
    let mut source = Source {
        reproduction: reproduction.to_string(),
        file: file.to_string(),
        filters: Vec::new(),
        keys: Vec::new(),
        rows: Vec::new(),
        columns: Vec::new(),
    };
    for (line, text) in lines {
        let bad = |what: &str| malformed(doc, *line, format!("{what}, not `{text}`"));
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        match word {
            "where" => source
                .filters
                .extend(filters(rest).ok_or_else(|| bad("`where <column>=<value> …`"))?),
            "key" => {
                let (header, rest) = quoted(rest).ok_or_else(|| bad("`key \"<header>\" = …`"))?;
                let csv_column = rest
                    .trim()
                    .strip_prefix('=')
                    .map(str::trim)
                    .filter(|c| !c.is_empty() && !c.contains(char::is_whitespace))
                    .ok_or_else(|| bad("`key \"<header>\" = <csv column>`"))?;
                source.keys.push(KeyColumn {
                    header,
                    csv_column: csv_column.to_string(),
                });
            }
            "row" => {
                let (cell, rest) = quoted(rest).ok_or_else(|| bad("`row \"<cell>\" = …`"))?;
                let value = rest
                    .trim()
                    .strip_prefix('=')
                    .map(str::trim)
                    .ok_or_else(|| bad("`row \"<cell>\" = <key>, … | -`"))?;
                let keys = if value == "-" {
                    None
                } else {
                    let keys: Vec<String> = value
                        .split(',')
                        .map(|k| k.trim().to_string())
                        .filter(|k| !k.is_empty())
                        .collect();
                    if keys.is_empty() {
                        return Err(bad("`row \"<cell>\" = <key>, … | -`"));
                    }
                    Some(keys)
                };
                source.rows.push(RowAlias { cell, keys });
            }
            "column" => {
                let (header, rest) =
                    quoted(rest).ok_or_else(|| bad("`column \"<header>\" = …`"))?;
                let value = rest
                    .trim()
                    .strip_prefix('=')
                    .map(str::trim)
                    .ok_or_else(|| bad("`column \"<header>\" = [filters] -> <csv columns> | -`"))?;
                let values = if value == "-" {
                    None
                } else {
                    let (f, columns) = value
                        .split_once("->")
                        .ok_or_else(|| bad("`column \"<header>\" = [filters] -> <csv columns>`"))?;
                    let f = filters(f).ok_or_else(|| bad("filters `<column>=<value> …`"))?;
                    let columns: Vec<String> =
                        columns.split_whitespace().map(str::to_string).collect();
                    if columns.is_empty() {
                        return Err(bad("at least one CSV column after `->`"));
                    }
                    Some((f, columns))
                };
                source.columns.push(ColumnMap { header, values });
            }
            _ => return Err(bad("a `where`, `key`, `row` or `column` line")),
        }
    }
    if source.keys.is_empty() {
        return Err(malformed(
            doc,
            first,
            "at least one `key \"<header>\" = <csv column>` line",
        ));
    }
    Ok(source)
}

/// Parses a marker from its lines (the comment's text without `<!--` and `-->`).
fn parse_marker(doc: &str, first: usize, lines: &[(usize, String)]) -> Result<Marker> {
    let head = lines
        .first()
        .map(|(_, t)| t.trim())
        .and_then(|t| t.strip_prefix("figures:"))
        .map(str::trim)
        .ok_or_else(|| malformed(doc, first, "`<!-- figures: …`"))?;
    let first_word = head.split_whitespace().next().unwrap_or("");
    // `<reproduction>/<file>`: a source, which must parse as one.
    let names_a_file = first_word.split('/').count() == 2
        && first_word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
    if names_a_file {
        if head != first_word {
            return Err(malformed(
                doc,
                first,
                format!(
                    "`<reproduction>/<file>.csv` alone on the marker's first line, not `{head}`"
                ),
            ));
        }
        return parse_source(doc, first, first_word, lines.get(1..).unwrap_or(&[]))
            .map(Marker::Checked);
    }
    // Anything else excludes the table; its text says why (`timing: …`, `unchecked: …`).
    let mut words: Vec<&str> = head.split_whitespace().collect();
    for (_, l) in lines.iter().skip(1) {
        words.extend(l.split_whitespace());
    }
    let all = words.join(" ");
    let after = |kind: &str| {
        all.strip_prefix(kind)
            .filter(|rest| rest.is_empty() || rest.starts_with([':', ',', ' ', '—', ';']))
            .map(|rest| {
                rest.trim_start_matches([':', ',', ' ', '—', ';'])
                    .to_string()
            })
    };
    let (marker, text) = match (after("timing"), after("unchecked")) {
        (Some(text), _) => (Marker::Timing(text.clone()), text),
        (None, Some(text)) => (Marker::Unchecked(text.clone()), text),
        (None, None) => (Marker::Unchecked(all.clone()), all.clone()),
    };
    if text.is_empty() {
        return Err(malformed(
            doc,
            first,
            "`timing: <the command>`, `unchecked: <why, and the command>` or \
             `<reproduction>/<file>.csv`",
        ));
    }
    Ok(marker)
}

/// Parses a Markdown document: every table, with the marker right before it if there is one
/// (only blank lines may stand between). Fenced code blocks are skipped.
///
/// # Errors
/// [`MalformedMarker`] naming `doc:line` for a marker that does
/// not parse, is not closed, or is not followed by a table.
pub fn parse_document(doc: &str, text: &str) -> Result<Document> {
    let lines: Vec<&str> = text.lines().collect();
    let mut document = Document::default();
    let mut heading = String::new();
    let mut pending: Option<(usize, Marker)> = None;
    let mut in_fence = false;
    let mut i = 0;
    while let Some(&line) = lines.get(i) {
        let number = i + 1;
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
            i += 1;
            continue;
        }
        if in_fence {
            i += 1;
            continue;
        }
        if trimmed.starts_with("<!-- figures:") {
            if let Some((at, _)) = pending {
                return Err(malformed(doc, at, "a table after the marker"));
            }
            let mut body: Vec<(usize, String)> = Vec::new();
            let mut k = i;
            let mut closed = false;
            while let Some(&l) = lines.get(k) {
                let l = if k == i {
                    l.trim().trim_start_matches("<!--")
                } else {
                    l
                };
                if let Some((before, _)) = l.split_once("-->") {
                    body.push((k + 1, before.to_string()));
                    closed = true;
                    break;
                }
                body.push((k + 1, l.to_string()));
                k += 1;
            }
            if !closed {
                return Err(malformed(doc, number, "a marker closed by `-->`"));
            }
            pending = Some((number, parse_marker(doc, number, &body)?));
            i = k + 1;
            continue;
        }
        if let Some(h) = trimmed.strip_prefix('#') {
            heading = h.trim_start_matches('#').trim().to_string();
        }
        let is_table =
            trimmed.starts_with('|') && lines.get(i + 1).is_some_and(|next| is_delimiter(next));
        if is_table {
            let mut table = MarkdownTable {
                line: number,
                heading: heading.clone(),
                headers: split_cells(line),
                rows: Vec::new(),
            };
            let mut k = i + 2;
            while let Some(&row) = lines.get(k) {
                if !row.trim().starts_with('|') {
                    break;
                }
                table.rows.push(TableRow {
                    line: k + 1,
                    cells: split_cells(row),
                });
                k += 1;
            }
            match pending.take() {
                Some((marker_line, marker)) => document.marked.push(MarkedTable {
                    doc: doc.to_string(),
                    marker_line,
                    marker,
                    table,
                }),
                None => document.unmarked.push(table),
            }
            i = k;
            continue;
        }
        if !trimmed.is_empty()
            && let Some((at, _)) = pending
        {
            return Err(malformed(doc, at, "a table right after the marker"));
        }
        i += 1;
    }
    if let Some((at, _)) = pending {
        return Err(malformed(doc, at, "a table after the marker"));
    }
    Ok(document)
}

/// One documented figure and where its value is in the CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The document's name.
    pub doc: String,
    /// The line of its table row.
    pub line: usize,
    /// The row's key cells, joined by ` / `.
    pub row: String,
    /// The column's header.
    pub column: String,
    /// The number as printed.
    pub documented: DocNumber,
    /// The filters that select its CSV record (the table's, the keys', the column's).
    pub filters: Vec<Filter>,
    /// The CSV column of its value.
    pub csv_column: String,
}

/// The CSV keys a key cell stands for (an explicit `row` line, else the comma-separated
/// names in it).
fn keys_of(source: &Source, cell: &str) -> Option<Vec<String>> {
    if let Some(alias) = source.rows.iter().find(|a| a.cell == cell) {
        return alias.keys.clone();
    }
    let plain: String = cell.chars().filter(|c| !matches!(c, '*' | '`')).collect();
    Some(
        plain
            .split(',')
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
            .collect(),
    )
}

/// Every combination of one value from each list.
fn combinations(lists: &[Vec<Filter>]) -> Vec<Vec<Filter>> {
    lists.iter().fold(vec![Vec::new()], |acc, list| {
        acc.iter()
            .flat_map(|prefix| {
                list.iter().map(move |f| {
                    let mut next = prefix.clone();
                    next.push(f.clone());
                    next
                })
            })
            .collect()
    })
}

/// The figures of a checked table: every number of every compared cell, with the CSV record
/// and column it must equal. Tables marked `timing` or `unchecked` have none.
///
/// # Errors
/// [`MalformedMarker`] naming the place for a marker that does
/// not fit its table: a key or mapped header that is not in the table, a `row` line for a cell
/// that is not there, a column with numbers that is neither a key nor mapped, a row without a
/// key, or a cell whose count of numbers differs from its column's mapping.
pub fn figures(marked: &MarkedTable) -> Result<Vec<Figure>> {
    let Marker::Checked(source) = &marked.marker else {
        return Ok(Vec::new());
    };
    let table = &marked.table;
    let doc = marked.doc.as_str();
    let here = |line: usize, what: String| malformed(doc, line, what);
    let mut key_columns = Vec::new();
    for key in &source.keys {
        let index = table.column(&key.header).ok_or_else(|| {
            here(
                marked.marker_line,
                format!("a column headed `{}` for the key", key.header),
            )
        })?;
        key_columns.push((index, key));
    }
    let mut mapped = Vec::new();
    for map in &source.columns {
        let index = table.column(&map.header).ok_or_else(|| {
            here(
                marked.marker_line,
                format!("a column headed `{}` (mapped by the marker)", map.header),
            )
        })?;
        mapped.push((index, map));
    }
    for alias in &source.rows {
        let present = table.rows.iter().any(|row| {
            key_columns
                .iter()
                .any(|(k, _)| row.cells.get(*k) == Some(&alias.cell))
        });
        if !present {
            return Err(here(
                marked.marker_line,
                format!(
                    "a row whose key cell is `{}` (named by a `row` line)",
                    alias.cell
                ),
            ));
        }
    }
    for (index, header) in table.headers.iter().enumerate() {
        let is_key = key_columns.iter().any(|(k, _)| *k == index);
        let is_mapped = mapped.iter().any(|(m, _)| *m == index);
        let has_numbers = table.rows.iter().any(|row| {
            row.cells
                .get(index)
                .is_some_and(|c| !numbers_in(c).is_empty())
        });
        if has_numbers && !is_key && !is_mapped {
            return Err(here(
                marked.marker_line,
                format!("a `column \"{header}\" = …` line: the column holds numbers"),
            ));
        }
    }
    let mut out = Vec::new();
    for row in &table.rows {
        let mut key_lists: Vec<Vec<Filter>> = Vec::new();
        let mut key_texts = Vec::new();
        let mut skipped = false;
        for (index, key) in &key_columns {
            let cell = row.cells.get(*index).ok_or_else(|| {
                here(
                    row.line,
                    format!("a cell in the key column `{}`", key.header),
                )
            })?;
            key_texts.push(cell.clone());
            match keys_of(source, cell) {
                None => skipped = true,
                Some(keys) if keys.is_empty() => {
                    return Err(here(
                        row.line,
                        format!("a key in the column `{}`", key.header),
                    ));
                }
                Some(keys) => key_lists.push(
                    keys.into_iter()
                        .map(|value| Filter {
                            column: key.csv_column.clone(),
                            value,
                        })
                        .collect(),
                ),
            }
        }
        if skipped {
            continue;
        }
        for (index, map) in &mapped {
            let Some((column_filters, csv_columns)) = &map.values else {
                continue;
            };
            let cell = row.cells.get(*index).map_or("", String::as_str);
            let numbers = numbers_in(cell);
            if numbers.is_empty() {
                continue;
            }
            if numbers.len() != csv_columns.len() {
                return Err(here(
                    row.line,
                    format!(
                        "{} numbers in the column `{}` (mapped to {}), not {} in `{cell}`",
                        csv_columns.len(),
                        map.header,
                        csv_columns.join(" "),
                        numbers.len()
                    ),
                ));
            }
            for keys in combinations(&key_lists) {
                for (number, csv_column) in numbers.iter().zip(csv_columns) {
                    let mut all = source.filters.clone();
                    all.extend(keys.iter().cloned());
                    all.extend(column_filters.iter().cloned());
                    out.push(Figure {
                        doc: doc.to_string(),
                        line: row.line,
                        row: key_texts.join(" / "),
                        column: map.header.clone(),
                        documented: number.clone(),
                        filters: all,
                        csv_column: csv_column.clone(),
                    });
                }
            }
        }
    }
    Ok(out)
}
