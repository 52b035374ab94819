//! The checks both kinds of figure run before anything is drawn or written (sizes, axis labels,
//! plotted values, file stems), and the error a failed check becomes.

use super::curve::Scale;
use crate::error::{Error, Result};

/// The smallest and largest accepted sizes, in pixels.
const MIN_SIZE: (u32, u32) = (320, 240);
const MAX_SIZE: u32 = 4000;

/// The error [`Error::Plot`] for the figure titled `title`.
pub(crate) fn plot_error(title: &str, reason: impl Into<String>) -> Error {
    Error::Plot {
        figure: if title.is_empty() {
            "(untitled)".into()
        } else {
            title.into()
        },
        reason: reason.into(),
    }
}

/// Why a figure of `size` pixels cannot be drawn, if it cannot.
pub(crate) fn size((w, h): (u32, u32)) -> std::result::Result<(), String> {
    if w < MIN_SIZE.0 || h < MIN_SIZE.1 || w > MAX_SIZE || h > MAX_SIZE {
        return Err(format!(
            "size {w}×{h} pixels is outside {}×{} … {MAX_SIZE}×{MAX_SIZE}",
            MIN_SIZE.0, MIN_SIZE.1
        ));
    }
    Ok(())
}

/// Why an axis label cannot be used, if it cannot: it is empty.
pub(crate) fn axis_label(axis: &str, label: &str) -> std::result::Result<(), String> {
    if label.trim().is_empty() {
        return Err(format!(
            "the {axis} axis has no label (name the quantity and its unit)"
        ));
    }
    Ok(())
}

/// Why `v` cannot be plotted on an axis of `scale`, if it cannot, as the end of a sentence
/// naming the value: `= NaN is not finite`.
pub(crate) fn value(v: f64, scale: Scale, axis: &str) -> std::result::Result<(), String> {
    if !v.is_finite() {
        return Err(format!("= {v} is not finite"));
    }
    if scale == Scale::Log && v <= 0.0 {
        return Err(format!(
            "= {v:e} is not positive, but the {axis} axis is logarithmic"
        ));
    }
    Ok(())
}

/// Checks that `stem` is a plain file name, so that the files land inside the chosen folder.
pub(crate) fn stem(stem: &str) -> Result<()> {
    if stem.is_empty() || stem.contains(['/', '\\']) || stem == "." || stem == ".." {
        return Err(Error::InvalidParameter {
            name: "stem",
            value: format!("{stem:?}"),
            expected: "a non-empty file name without separators".into(),
        });
    }
    Ok(())
}
