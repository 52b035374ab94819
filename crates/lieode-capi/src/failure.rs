//! A failed call: its status and message, kept per thread for
//! [`lieode_last_error_message`], and the guard every entry point runs its body in.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::status::LieodeStatus;

/// A failure: its status and message.
#[derive(Debug)]
pub(crate) struct Failure {
    status: LieodeStatus,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: LieodeStatus, message: String) -> Self {
        Self { status, message }
    }

    pub(crate) fn internal(what: &str) -> Self {
        Self::new(LieodeStatus::Internal, format!("internal error: {what}"))
    }

    pub(crate) fn null(function: &str, what: &str) -> Self {
        Self::new(
            LieodeStatus::NullPointer,
            format!("{function}: {what} is null"),
        )
    }

    pub(crate) fn invalid(function: &str, message: impl core::fmt::Display) -> Self {
        Self::new(
            LieodeStatus::InvalidArgument,
            format!("{function}: {message}"),
        )
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

/// Runs `body`, turning a failure or a panic into a status and the thread's last message.
pub(crate) fn guard(function: &str, body: impl FnOnce() -> Result<(), Failure>) -> LieodeStatus {
    let result = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        let what = (payload.downcast_ref::<&str>().copied())
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic");
        Err(Failure::internal(&format!("{function}: {what}")))
    });
    match result {
        Ok(()) => LieodeStatus::Ok,
        Err(failure) => {
            // Every message starts with the function's name.
            if failure.message.starts_with(function) {
                set_last_error(&failure.message);
            } else {
                set_last_error(&format!("{function}: {}", failure.message));
            }
            failure.status
        }
    }
}

/// The message of the last failed call on the calling thread (an empty string if none failed),
/// NUL-terminated UTF-8, valid until the next failing call on this thread. Never null.
#[unsafe(no_mangle)]
pub extern "C" fn lieode_last_error_message() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}
