//! Tables and figure data from an [`Experiment`].
//!
//! | method | table columns (one row per …) |
//! |---|---|
//! | [`Experiment::to_table`] | `problem, method, h` (or `tol`)`, error, evaluations, steps, seconds, repeats` (measurement) |
//! | [`Experiment::orders_table`] | `problem, method, points, observed_order, first_local_order, last_local_order` (method) |
//! | [`Experiment::failures_table`] | `problem, method, h` (or `tol`)`, message` (failed run) |
//! | [`Experiment::bracket_table`] | `problem, method, target, h` (or `tol`) (method and target error) |
//!
//! Numbers that do not exist (an order that could not be fitted) are written as `NaN`.
//! [`Experiment::series`] gives, per method, the `(x, error)` pairs of the usual figures: error
//! against the step size (or tolerance), against the work (evaluations, steps) or against the
//! wall time (work–precision diagrams, Hairer, Nørsett & Wanner I, §II.10; del Valle et al.
//! 2024, Figs. 2 and 5).

use super::bracket::step_for_error;
use super::study::{Experiment, MethodResult};
use crate::csv::{Cell, Table};
use crate::error::{Error, Result};

/// The abscissa of an `(x, error)` series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abscissa {
    /// The grid value actually used: the step size `h` or the tolerance.
    Value,
    /// Right-hand-side evaluations of one run.
    Evaluations,
    /// Steps of one run.
    Steps,
    /// Median wall time of one run, in seconds.
    Seconds,
}

/// One method's `(x, error)` pairs, in grid order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The method's name (the legend entry).
    pub label: String,
    /// The abscissae.
    pub x: Vec<f64>,
    /// The errors.
    pub error: Vec<f64>,
}

impl MethodResult {
    /// The grid values actually used, in grid order.
    pub fn values(&self) -> Vec<f64> {
        self.measurements.iter().map(|m| m.value).collect()
    }

    /// The errors, in grid order.
    pub fn errors(&self) -> Vec<f64> {
        self.measurements.iter().map(|m| m.error).collect()
    }

    /// The `(x, error)` series of the measurements with `x` chosen by `abscissa`.
    pub fn series(&self, abscissa: Abscissa) -> Series {
        let x = self
            .measurements
            .iter()
            .map(|m| match abscissa {
                Abscissa::Value => m.value,
                Abscissa::Evaluations => m.evaluations as f64,
                Abscissa::Steps => m.steps as f64,
                Abscissa::Seconds => m.seconds,
            })
            .collect();
        Series {
            label: self.method.clone(),
            x,
            error: self.errors(),
        }
    }

    /// The step size (or tolerance) at which this method's error reaches `target`:
    /// [`step_for_error`] on the measurements (the largest such value on the curve interpolated
    /// linearly in `(log10 h, log10 error)`).
    ///
    /// # Errors
    /// Those of [`step_for_error`] (for instance fewer than two measurements, a zero error, or
    /// a target outside the measured range).
    pub fn value_for_error(&self, target: f64) -> Result<f64> {
        step_for_error(&self.values(), &self.errors(), target)
    }
}

impl Experiment {
    /// Every method's `(x, error)` series, in the order of the runners.
    pub fn series(&self, abscissa: Abscissa) -> Vec<Series> {
        self.results.iter().map(|r| r.series(abscissa)).collect()
    }

    /// One row per measurement: `problem, method, h` (or `tol`)`, error, evaluations, steps,
    /// seconds, repeats`.
    ///
    /// # Errors
    /// None in practice (the columns are fixed); the type is that of [`Table::new`].
    pub fn to_table(&self) -> Result<Table> {
        let mut table = Table::new(&[
            "problem",
            "method",
            self.kind.column(),
            "error",
            "evaluations",
            "steps",
            "seconds",
            "repeats",
        ])?;
        for r in &self.results {
            for m in &r.measurements {
                table.push(vec![
                    Cell::text(self.problem.clone()),
                    Cell::text(r.method.clone()),
                    Cell::Real(m.value),
                    Cell::Real(m.error),
                    Cell::count(m.evaluations),
                    Cell::count(m.steps),
                    Cell::Real(m.seconds),
                    Cell::count(m.repeats),
                ])?;
            }
        }
        Ok(table)
    }

    /// One row per method: `problem, method, points` (measurements)`, observed_order,
    /// first_local_order, last_local_order` (the local orders between the first two and the
    /// last two measurements; `NaN` where there is none).
    ///
    /// # Errors
    /// None in practice; the type is that of [`Table::new`].
    pub fn orders_table(&self) -> Result<Table> {
        let mut table = Table::new(&[
            "problem",
            "method",
            "points",
            "observed_order",
            "first_local_order",
            "last_local_order",
        ])?;
        for r in &self.results {
            let nan = f64::NAN;
            table.push(vec![
                Cell::text(self.problem.clone()),
                Cell::text(r.method.clone()),
                Cell::count(r.measurements.len()),
                Cell::Real(r.observed_order.unwrap_or(nan)),
                Cell::Real(r.local_orders.first().copied().unwrap_or(nan)),
                Cell::Real(r.local_orders.last().copied().unwrap_or(nan)),
            ])?;
        }
        Ok(table)
    }

    /// One row per failed run: `problem, method, h` (or `tol`)`, message` (the error's text).
    ///
    /// # Errors
    /// None in practice; the type is that of [`Table::new`].
    pub fn failures_table(&self) -> Result<Table> {
        let mut table = Table::new(&["problem", "method", self.kind.column(), "message"])?;
        for (method, f) in self.failures() {
            table.push(vec![
                Cell::text(self.problem.clone()),
                Cell::text(method),
                Cell::Real(f.value),
                Cell::text(f.error.to_string()),
            ])?;
        }
        Ok(table)
    }

    /// The step size (or tolerance) each method needs to reach each target error, as in
    /// del Valle et al. (2024), Table 2: one row per method and target,
    /// `problem, method, target, h` (or `tol`), from [`MethodResult::value_for_error`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `targets` if there are none; the first error of
    /// [`step_for_error`], with the method's name added to its value (a target outside a
    /// method's measured range is an error: extend the grid).
    pub fn bracket_table(&self, targets: &[f64]) -> Result<Table> {
        if targets.is_empty() {
            return Err(Error::InvalidParameter {
                name: "targets",
                value: "[]".into(),
                expected: "at least one target error".into(),
            });
        }
        let mut table = Table::new(&["problem", "method", "target", self.kind.column()])?;
        for r in &self.results {
            for &target in targets {
                let value = r.value_for_error(target).map_err(|e| {
                    e.with_value_context(|value| format!("{value} (method `{}`)", r.method))
                })?;
                table.push(vec![
                    Cell::text(self.problem.clone()),
                    Cell::text(r.method.clone()),
                    Cell::Real(target),
                    Cell::Real(value),
                ])?;
            }
        }
        Ok(table)
    }
}
