//! # Output folders
//!
//! Examples write their tables and figures under `target/lieode/<example>/`, or under
//! `$LIEODE_OUT/<example>/` when the environment variable `LIEODE_OUT` names another folder.

use std::path::PathBuf;

use crate::{Error, Result};
use lieode_study::files::create_dir;
pub use lieode_study::files::write_file;

/// The environment variable that overrides the output root.
pub const OUTPUT_ENV: &str = "LIEODE_OUT";

/// The output root: `$LIEODE_OUT` if set and non-empty, else `target/lieode`.
pub fn output_root() -> PathBuf {
    match std::env::var_os(OUTPUT_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("target").join("lieode"),
    }
}

/// `<root>/<example>`, created if needed.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty name or one with a path separator;
/// [`Error::Io`] if the folder cannot be created.
pub fn output_dir(example: &str) -> Result<PathBuf> {
    if example.is_empty() || example.contains(['/', '\\']) || example == ".." {
        return Err(Error::InvalidParameter {
            name: "example",
            value: format!("{example:?}"),
            expected: "a non-empty folder name without separators".into(),
        });
    }
    let dir = output_root().join(example);
    create_dir(&dir)?;
    Ok(dir)
}
