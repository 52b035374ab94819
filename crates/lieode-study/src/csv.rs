//! # CSV tables
//!
//! Every table and figure the library writes comes with a CSV file: one header row naming the
//! columns, then one row per record, cells separated by commas. Numbers are written in Rust's
//! shortest round-trip form (`{:e}` for floating point), so reading a file back gives the very
//! same `f64`s; text cells containing a comma, a quote or a line break are quoted as RFC 4180
//! says (`"` doubled inside quotes).
//!
//! # Examples
//! ```
//! use lieode_study::csv::{Cell, Table};
//!
//! let mut table = Table::new(&["method", "h", "error", "evaluations"])?;
//! table.push(vec![Cell::text("RK4"), Cell::Real(0.1), Cell::Real(2.5e-7), Cell::Integer(40)])?;
//! let text = table.to_csv();
//! assert_eq!(text, "method,h,error,evaluations\nRK4,1e-1,2.5e-7,40\n");
//! assert_eq!(Table::parse(&text)?, table);
//! # Ok::<(), lieode_study::Error>(())
//! ```

use std::path::Path;

use crate::error::{Error, Result};
use crate::files::write_file;

/// One cell of a [`Table`].
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text (a method name, a problem, a label).
    Text(String),
    /// A floating-point number, written in shortest round-trip form (`1e-1`, `NaN`, `inf`).
    Real(f64),
    /// An integer (counts: evaluations, steps).
    Integer(i64),
}

impl Cell {
    /// A text cell.
    pub fn text(s: impl Into<String>) -> Self {
        Cell::Text(s.into())
    }

    /// A count as an [`Cell::Integer`] (saturating at `i64::MAX`).
    pub fn count(n: usize) -> Self {
        Cell::Integer(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// The number in the cell, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Real(x) => Some(*x),
            Cell::Integer(n) => Some(*n as f64),
            Cell::Text(_) => None,
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Cell::Text(s) => {
                if s.contains([',', '"', '\n', '\r']) || s.trim() != s || looks_numeric(s) {
                    out.push('"');
                    out.push_str(&s.replace('"', "\"\""));
                    out.push('"');
                } else {
                    out.push_str(s);
                }
            }
            Cell::Real(x) => out.push_str(&format!("{x:e}")),
            Cell::Integer(n) => out.push_str(&n.to_string()),
        }
    }
}

/// Whether an unquoted field would read back as a number (such text is quoted on writing).
fn looks_numeric(s: &str) -> bool {
    s.parse::<i64>().is_ok() || s.parse::<f64>().is_ok()
}

/// A table with named columns, written and read as CSV.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    columns: Vec<String>,
    rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with these column names.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `columns` if there are none, a name is empty, or two
    /// names are equal.
    pub fn new(columns: &[&str]) -> Result<Self> {
        let bad = |expected: &str| Error::InvalidParameter {
            name: "columns",
            value: format!("{columns:?}"),
            expected: expected.into(),
        };
        if columns.is_empty() {
            return Err(bad("at least one column"));
        }
        if columns.iter().any(|c| c.is_empty()) {
            return Err(bad("non-empty column names"));
        }
        for (i, c) in columns.iter().enumerate() {
            if columns[..i].contains(c) {
                return Err(bad("distinct column names"));
            }
        }
        Ok(Self {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        })
    }

    /// Appends a row.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `row` if it does not have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) -> Result<()> {
        if row.len() != self.columns.len() {
            return Err(Error::InvalidParameter {
                name: "row",
                value: format!("{} cells", row.len()),
                expected: format!(
                    "{} cells, one per column {:?}",
                    self.columns.len(),
                    self.columns
                ),
            });
        }
        self.rows.push(row);
        Ok(())
    }

    /// The column names.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The rows.
    pub fn rows(&self) -> &[Vec<Cell>] {
        &self.rows
    }

    /// The index of a column.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The numbers of one column (`None` for a missing column or a text cell).
    pub fn numbers(&self, name: &str) -> Option<Vec<f64>> {
        let i = self.column_index(name)?;
        self.rows.iter().map(|r| r[i].as_f64()).collect()
    }

    /// The table as CSV text: the header row, then one line per row, each ending in `\n`.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let header: Vec<Cell> = self.columns.iter().map(|c| Cell::text(c.clone())).collect();
        for row in std::iter::once(&header).chain(&self.rows) {
            if let [Cell::Text(s)] = row.as_slice()
                && s.is_empty()
            {
                // An empty line would be skipped on reading: quote the one empty field.
                out.push_str("\"\"\n");
                continue;
            }
            for (j, cell) in row.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                cell.write(&mut out);
            }
            out.push('\n');
        }
        out
    }

    /// Writes [`Table::to_csv`] to `path`.
    ///
    /// # Errors
    /// [`Error::Io`] naming the path.
    pub fn write(&self, path: &Path) -> Result<()> {
        write_file(path, &self.to_csv())
    }

    /// Reads a table from CSV text: the first record is the header; an unquoted field that
    /// parses as an integer is an [`Cell::Integer`], one that parses as `f64` a [`Cell::Real`],
    /// anything else (and every quoted field) [`Cell::Text`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `csv` for an empty text, an unterminated quote, or a
    /// record whose number of fields differs from the header's (with its line number); the
    /// errors of [`Table::new`] for the header.
    pub fn parse(text: &str) -> Result<Self> {
        let records = split_records(text)?;
        let mut records = records.into_iter();
        let (_, header) = records.next().ok_or_else(|| Error::InvalidParameter {
            name: "csv",
            value: "empty text".into(),
            expected: "a header row".into(),
        })?;
        let names: Vec<String> = header.into_iter().map(|(s, _)| s).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut table = Table::new(&refs)?;
        for (line, fields) in records {
            if fields.len() != table.columns.len() {
                return Err(Error::InvalidParameter {
                    name: "csv",
                    value: format!("{} fields on line {line}", fields.len()),
                    expected: format!("{} fields, as in the header", table.columns.len()),
                });
            }
            let row = fields
                .into_iter()
                .map(|(s, quoted)| {
                    if quoted {
                        Cell::Text(s)
                    } else if let Ok(n) = s.parse::<i64>() {
                        Cell::Integer(n)
                    } else if let Ok(x) = s.parse::<f64>() {
                        Cell::Real(x)
                    } else {
                        Cell::Text(s)
                    }
                })
                .collect();
            table.rows.push(row);
        }
        Ok(table)
    }

    /// Reads a table from a CSV file.
    ///
    /// # Errors
    /// [`Error::Io`] naming the path; those of [`Table::parse`].
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
            operation: "read",
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Self::parse(&text)
    }
}

/// A parsed field and whether it was quoted.
type Field = (String, bool);

/// Splits CSV text into records of fields (with the line each record starts on), honouring
/// quotes; lines end at LF, CRLF or CR, a final line break is optional and empty lines are
/// skipped.
fn split_records(text: &str) -> Result<Vec<(usize, Vec<Field>)>> {
    let mut records = Vec::new();
    let mut fields: Vec<Field> = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut in_quotes = false;
    let mut line = 1;
    let mut record_line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                '"' => in_quotes = false,
                _ => {
                    if c == '\n' {
                        line += 1;
                    }
                    field.push(c);
                }
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !quoted => {
                in_quotes = true;
                quoted = true;
            }
            ',' => fields.push((
                std::mem::take(&mut field),
                std::mem::replace(&mut quoted, false),
            )),
            // A line ends at LF, CRLF or a lone CR (old Mac files).
            '\r' | '\n' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                if !(fields.is_empty() && field.is_empty() && !quoted) {
                    fields.push((
                        std::mem::take(&mut field),
                        std::mem::replace(&mut quoted, false),
                    ));
                    records.push((record_line, std::mem::take(&mut fields)));
                }
                line += 1;
                record_line = line;
            }
            _ => field.push(c),
        }
    }
    if in_quotes {
        return Err(Error::InvalidParameter {
            name: "csv",
            value: format!("a quote opened on line {record_line}"),
            expected: "a closing quote".into(),
        });
    }
    if !(fields.is_empty() && field.is_empty() && !quoted) {
        fields.push((field, quoted));
        records.push((record_line, fields));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_text_and_quotes_round_trip() {
        let mut t = Table::new(&["name", "x", "n"]).unwrap();
        let values = [
            0.1,
            1.0 / 3.0,
            -2.5e-300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            0.0,
            f64::INFINITY,
        ];
        for (i, x) in values.into_iter().enumerate() {
            t.push(vec![
                Cell::text(format!("a, \"b\"\n{i}")),
                Cell::Real(x),
                Cell::Integer(-(i as i64)),
            ])
            .unwrap();
        }
        t.push(vec![Cell::text("42"), Cell::Real(f64::NAN), Cell::count(7)])
            .unwrap();
        let back = Table::parse(&t.to_csv()).unwrap();
        assert_eq!(back.columns(), t.columns());
        assert_eq!(back.rows().len(), t.rows().len());
        for (a, b) in back.rows().iter().zip(t.rows()) {
            assert_eq!(a[0], b[0]);
            assert_eq!(a[2], b[2]);
            let (x, y) = (a[1].as_f64().unwrap(), b[1].as_f64().unwrap());
            assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()));
        }
    }

    #[test]
    fn malformed_input_is_an_error_naming_it() {
        for text in ["", "a,b\n1\n", "a,\"b\n", "a,a\n"] {
            let err = Table::parse(text).unwrap_err();
            assert!(
                matches!(err, Error::InvalidParameter { name, .. } if name == "csv" || name == "columns"),
                "{text:?}: {err}"
            );
        }
        let mut t = Table::new(&["a"]).unwrap();
        assert!(matches!(
            t.push(vec![]),
            Err(Error::InvalidParameter { name: "row", .. })
        ));
    }
}
