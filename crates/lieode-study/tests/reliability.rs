//! Bad input to the study tools: seeded random text and numbers for the CSV reader and the
//! step bracketing (every call returns `Ok` with finite output or a named error, and none
//! panics), and one regression test per fault that search found.

use std::panic::{AssertUnwindSafe, catch_unwind};

use lieode_study::Error;
use lieode_study::csv::{Cell, Table};
use lieode_study::experiment::step_for_error;

/// A seeded xorshift generator with a pool of awkward values: ordinary numbers mixed with the
/// edges of `f64`, and text made of CSV's special characters.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// An ordinary number (half the time), a number of any magnitude, or an edge of `f64`.
    fn real(&mut self) -> f64 {
        const EDGES: [f64; 10] = [
            0.0,
            -0.0,
            5e-324,
            -1e-310,
            1e308,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let unit = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        match self.below(4) {
            0 | 1 => 4.0 * unit - 2.0,
            2 => 10f64.powf(unit * 640.0 - 320.0),
            _ => EDGES[self.below(EDGES.len())],
        }
    }

    fn text(&mut self) -> String {
        const PIECES: [&str; 12] = [
            "a", ",", "\"", "\n", "\r", "1", "-2.5e3", " ", "", "x,y", "\"\"", "é",
        ];
        (0..self.below(12))
            .map(|_| PIECES[self.below(PIECES.len())])
            .collect()
    }
}

/// `Ok` with finite output, or an error that names what went wrong.
#[track_caller]
fn check<T>(result: lieode_study::Result<T>, is_finite: impl Fn(&T) -> bool) {
    match result {
        Ok(value) => assert!(is_finite(&value), "Ok with a non-finite value"),
        Err(Error::InvalidParameter { name, .. } | Error::NonFinite { name }) => {
            assert!(!name.is_empty())
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
}

fn case(seed: u64) {
    let mut d = Draw(seed | 1);
    check(Table::parse(&d.text()), |_| true);
    let steps: Vec<f64> = (0..d.below(5)).map(|_| d.real()).collect();
    let errors: Vec<f64> = (0..d.below(5)).map(|_| d.real()).collect();
    check(step_for_error(&steps, &errors, d.real()), |h| h.is_finite());
}

#[test]
fn random_input_never_panics_and_never_returns_non_finite_output() {
    const CASES: u64 = 20_000;
    let mut failures = Vec::new();
    for seed in 0..CASES {
        let seed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xd1b5_4a32_d192_ed03;
        if catch_unwind(AssertUnwindSafe(|| case(seed))).is_err() {
            failures.push(seed);
        }
    }
    assert!(failures.is_empty(), "panicking seeds: {failures:x?}");
}

#[test]
fn csv_round_trips_empty_cells_and_reads_cr_line_ends() -> lieode_study::Result<()> {
    let mut table = Table::new(&["note"])?;
    table.push(vec![Cell::text("")])?;
    table.push(vec![Cell::text("x")])?;
    let back = Table::parse(&table.to_csv())?;
    assert_eq!(back, table);
    let old_mac = Table::parse("a,b\r1,2\r3,4\r")?;
    assert_eq!(old_mac.rows().len(), 2);
    assert_eq!(old_mac.numbers("b"), Some(vec![2.0, 4.0]));
    let windows = Table::parse("a,b\r\n1,2\r\n")?;
    assert_eq!(windows.numbers("a"), Some(vec![1.0]));
    let message = Table::read(std::path::Path::new("/nonexistent/lieode/table.csv"))
        .unwrap_err()
        .to_string();
    assert!(message.starts_with("cannot read"), "{message}");
    Ok(())
}

#[test]
fn a_subnormal_grid_step_gives_a_finite_step_for_the_target_error() -> lieode_study::Result<()> {
    let h = step_for_error(&[5e-324, 1e-300], &[1e-10, 1e-5], 1e-7)?;
    // Interpolated in log h against log error: log h = log h₀ + s (log h₁ − log h₀).
    let s = (-7.0 - -10.0) / (-5.0 - -10.0);
    let expected = 10f64.powf((5e-324f64).log10() + s * (-300.0 - (5e-324f64).log10()));
    assert!(
        h.is_finite() && (h / expected - 1.0).abs() < 1e-12,
        "{h:e} vs {expected:e}"
    );
    Ok(())
}
