//! The figures of the experiments: convergence, work–precision, and quantities against time.

use super::curve::{Curve, CurveStyle, Scale};
use super::figure::Figure;
use crate::error::Result;
use lieode::order::observed_order;

/// The y label of convergence and work–precision figures.
const ERROR_LABEL: &str = "error at the final time";

/// Convergence: the error against the step size `h` of each curve (x = step sizes, y =
/// errors), on log–log axes, as lines with markers. Each legend entry shows the order measured
/// by [`observed_order`], e.g. `RK4 (order 4.00)`.
///
/// For every `p` in `reference_orders` a dashed grey line `C·hᵖ` labelled `slope p` is drawn
/// beside the curve whose measured order is closest to `p`: parallel to the least-squares fit
/// through that curve's centroid `(mean log h, mean log error)`, shifted down by 6 % of the
/// data's span in `log₁₀` (between 0.3 and 1.5 decades), over that curve's range of `h` (cut
/// where it would leave the data's range of errors). A curve of order `p` thus runs parallel to its
/// reference line, just above it.
///
/// # Errors
/// [`crate::Error::Plot`] for no curves, the data errors of [`Figure::validate`] (an empty
/// curve, different lengths, a non-finite or non-positive value, naming the curve and the
/// point), a curve whose order cannot be measured (fewer than two distinct step sizes), or a
/// reference order that is zero or repeated.
pub fn convergence_figure(
    title: &str,
    curves: &[Curve],
    reference_orders: &[u32],
) -> Result<Figure> {
    let base = Figure::new(title)
        .with_x_label("step size h")
        .with_y_label(ERROR_LABEL)
        .with_x_scale(Scale::Log)
        .with_y_scale(Scale::Log)
        .with_style(CurveStyle::LineAndMarkers);
    let mut fig = curves
        .iter()
        .cloned()
        .fold(base.clone(), Figure::with_curve);
    fig.validate()?;

    let mut orders = Vec::with_capacity(curves.len());
    for c in curves {
        let p = observed_order(&c.x, &c.y).map_err(|e| {
            fig.error(format!(
                "curve `{}`: cannot measure its order: {e}",
                c.label
            ))
        })?;
        orders.push(p);
    }
    for (i, &p) in reference_orders.iter().enumerate() {
        if p == 0 || reference_orders[..i].contains(&p) {
            return Err(fig.error(format!(
                "reference orders {reference_orders:?}: expected distinct positive orders"
            )));
        }
    }

    fig = base;
    for (c, p) in curves.iter().zip(&orders) {
        let label = if c.label.is_empty() {
            format!("order {p:.2}")
        } else {
            format!("{} (order {p:.2})", c.label)
        };
        fig = fig.with_curve(Curve { label, ..c.clone() });
    }
    let logs = |v: &[f64]| -> Vec<f64> { v.iter().map(|x| x.log10()).collect() };
    let (y_lo, y_hi) = curves
        .iter()
        .flat_map(|c| c.y.iter().map(|y| y.log10()))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
    let shift = (0.06 * (y_hi - y_lo)).clamp(0.3, 1.5);
    for &p in reference_orders {
        let p_f = f64::from(p);
        // The curve whose measured order is closest to p (the first on ties).
        let anchor = orders
            .iter()
            .enumerate()
            .fold((0, f64::INFINITY), |best, (i, q)| {
                let d = (q - p_f).abs();
                if d < best.1 { (i, d) } else { best }
            })
            .0;
        let (xs, ys) = (logs(&curves[anchor].x), logs(&curves[anchor].y));
        let n = xs.len() as f64;
        let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
        let c = my - shift - p_f * mx;
        let (x_lo, x_hi) = xs
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        // Keep c + p x within [y_lo − shift, y_hi]; the interval contains mx.
        let from = x_lo.max((y_lo - shift - c) / p_f);
        let to = x_hi.min((y_hi - c) / p_f);
        let x = vec![10f64.powf(from), 10f64.powf(to)];
        let y = vec![10f64.powf(c + p_f * from), 10f64.powf(c + p_f * to)];
        fig = fig.with_reference_line(Curve::new(format!("slope {p}"), x, y));
    }
    fig.validate()?;
    Ok(fig)
}

/// What a work–precision figure puts on its x axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkAxis {
    /// Right-hand-side evaluations per run.
    Evaluations,
    /// Wall-clock time per run, in seconds.
    WallTime,
}

impl WorkAxis {
    /// The axis label: `right-hand-side evaluations` or `wall time [s]`.
    pub fn label(self) -> &'static str {
        match self {
            WorkAxis::Evaluations => "right-hand-side evaluations",
            WorkAxis::WallTime => "wall time [s]",
        }
    }
}

/// Work against precision: for each curve (one method over a range of step sizes or
/// tolerances), x = the work of each run as given by `axis`, y = its error at the final time,
/// on log–log axes, as lines with markers. Lower left is better.
///
/// # Errors
/// The errors of [`Figure::validate`]: no curves, an empty curve, different lengths, a
/// non-finite or non-positive value (naming the curve and the point).
pub fn work_precision_figure(title: &str, axis: WorkAxis, curves: &[Curve]) -> Result<Figure> {
    let fig = curves.iter().cloned().fold(
        Figure::new(title)
            .with_x_label(axis.label())
            .with_y_label(ERROR_LABEL)
            .with_x_scale(Scale::Log)
            .with_y_scale(Scale::Log)
            .with_style(CurveStyle::LineAndMarkers),
        Figure::with_curve,
    );
    fig.validate()?;
    Ok(fig)
}

/// A quantity against time: x = the time `t`, y = the quantity named by `y_label` (which
/// should say what it is and its unit), lines without markers. Use it for the error against
/// time and the step size of adaptive runs (`Scale::Log`), the drift of an invariant such as
/// `|H(t) − H(0)|` or `| |q| − 1 |` (`Scale::Log`, leaving out the points where the drift is
/// exactly zero, such as `t = 0`; or `Scale::Linear` for the signed drift), and components of
/// the solution (`Scale::Linear`).
///
/// # Errors
/// The errors of [`Figure::validate`]: no curves, an empty curve, different lengths, a
/// non-finite value, a value `≤ 0` on a logarithmic y axis (naming the curve and the point),
/// an empty `y_label`.
pub fn time_figure(title: &str, y_label: &str, curves: &[Curve], y_scale: Scale) -> Result<Figure> {
    let fig = curves.iter().cloned().fold(
        Figure::new(title)
            .with_x_label("time t")
            .with_y_label(y_label)
            .with_y_scale(y_scale)
            .with_style(CurveStyle::Line),
        Figure::with_curve,
    );
    fig.validate()?;
    Ok(fig)
}
