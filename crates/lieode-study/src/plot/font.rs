//! The bundled font: the family name every figure's text uses, and registering DejaVu Sans with
//! the text renderer so that text is measured and drawn the same on every machine.

use std::sync::OnceLock;

use crate::error::{Error, Result};

/// The font family every figure's text uses: the name under which the bundled DejaVu Sans is
/// registered for bitmap rendering, and the CSS `font-family` the SVG files name (with
/// `sans-serif` as the fallback for viewers without DejaVu Sans).
pub const FONT_FAMILY: &str = "DejaVu Sans, sans-serif";

/// DejaVu Sans (licence in `assets/fonts/LICENSE-DejaVu.txt`), bundled so that PNG files render
/// the same on a machine without any system font.
static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font under [`FONT_FAMILY`] with the text renderer. Idempotent: the
/// first call registers, later calls return the first call's outcome. Every save calls it.
///
/// # Errors
/// [`Error::Plot`] if the font data cannot be parsed (a corrupted build).
pub fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, plotters::style::FontStyle::Normal, DEJAVU_SANS)
            .is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(Error::Plot {
            figure: "(font registration)".into(),
            reason: "the bundled DejaVu Sans font cannot be parsed".into(),
        })
    }
}
