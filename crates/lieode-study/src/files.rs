//! # Writing files
//!
//! The one place the crate touches the file system for writing, so that every failure names
//! its path as an [`Error::Io`].

use std::path::Path;

use crate::error::{Error, Result};

/// Writes `contents` to `path`.
///
/// # Errors
/// [`Error::Io`] naming the path.
pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).map_err(|e| io_error("write", path, &e))
}

/// Creates the folder `dir` and its parents if they do not exist.
///
/// # Errors
/// [`Error::Io`] naming the folder.
pub fn create_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| io_error("create the folder", dir, &e))
}

/// The [`Error::Io`] of a failed `operation` on `path`.
pub fn io_error(operation: &'static str, path: &Path, e: &std::io::Error) -> Error {
    Error::Io {
        operation,
        path: path.display().to_string(),
        message: e.to_string(),
    }
}
