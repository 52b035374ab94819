//! # Output folders
//!
//! Examples write their tables and figures under `target/lieode/<example>/`, or under
//! `$LIEODE_OUT/<example>/` when the environment variable `LIEODE_OUT` names another folder.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

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
    std::fs::create_dir_all(&dir).map_err(|e| io_error("create the folder", &dir, &e))?;
    Ok(dir)
}

/// Writes `contents` to `path`.
///
/// # Errors
/// [`Error::Io`] naming the path.
pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).map_err(|e| io_error("write", path, &e))
}

fn io_error(operation: &'static str, path: &Path, e: &std::io::Error) -> Error {
    Error::Io {
        operation,
        path: path.display().to_string(),
        message: e.to_string(),
    }
}
