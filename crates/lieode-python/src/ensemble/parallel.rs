//! Running the members of an ensemble on rayon's pool without the GIL, while the calling
//! thread stays with Python: it checks for signals (Ctrl-C) and reports progress every
//! [`POLL`], and a signal's exception cancels the members not yet finished.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use pyo3::prelude::*;
use rayon::prelude::*;

/// How often the calling thread checks for signals and reports progress.
pub const POLL: Duration = Duration::from_millis(50);

/// The first (lowest-index) failure of a parallel run.
pub struct Failure {
    /// The member's index.
    pub index: usize,
    /// Its error.
    pub error: lieode::Error,
}

/// What stopped a run early.
pub enum Stopped {
    /// A member failed (the lowest failing index: every member before it ran to the end).
    Failed(Failure),
    /// A Python exception from a signal handler or from the progress callback.
    Python(PyErr),
}

/// Runs `work(i, item, cancel)` for every item in parallel on `pool` (rayon's global pool if
/// `None`) with the GIL released, calling `progress(done, total)` with the GIL every [`POLL`]
/// and once at the end. A member starts only if no member before it has failed, so the failure
/// reported is the lowest-index one whatever the threads' timing; a Python exception (Ctrl-C,
/// or raised by `progress`) sets `cancel`, which running members check every step.
pub fn run_polled<T, W>(
    py: Python<'_>,
    pool: Option<&rayon::ThreadPool>,
    items: Vec<T>,
    work: W,
    progress: &mut (dyn FnMut(Python<'_>, usize, usize) -> PyResult<()> + Send),
) -> Result<Vec<usize>, Stopped>
where
    T: Send,
    W: Fn(usize, T, &AtomicBool) -> lieode::Result<usize> + Sync,
{
    let total = items.len();
    let done = AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    let first_failure = AtomicUsize::new(usize::MAX);
    let failure: Mutex<Option<Failure>> = Mutex::new(None);
    let counts: Vec<AtomicUsize> = (0..total).map(|_| AtomicUsize::new(0)).collect();

    let members = || {
        items.into_par_iter().enumerate().for_each(|(i, item)| {
            if cancel.load(Ordering::Relaxed) || i > first_failure.load(Ordering::Relaxed) {
                return;
            }
            match work(i, item, &cancel) {
                Ok(count) => counts[i].store(count, Ordering::Relaxed),
                Err(error) => {
                    first_failure.fetch_min(i, Ordering::Relaxed);
                    let mut slot = failure.lock().unwrap_or_else(|p| p.into_inner());
                    if slot.as_ref().is_none_or(|f| i < f.index) {
                        *slot = Some(Failure { index: i, error });
                    }
                }
            }
            done.fetch_add(1, Ordering::Relaxed);
        });
    };

    let python_error = py.detach(|| {
        std::thread::scope(|scope| {
            // The calling thread polls, woken early when the members are done.
            let caller = std::thread::current();
            let worker = scope.spawn(move || {
                // Wakes the caller even if a member panics.
                let _wake = Wake(caller);
                match pool {
                    Some(pool) => pool.install(members),
                    None => members(),
                }
            });
            let mut python_error = None;
            // The worker's end (a panic too) ends the polling.
            while !worker.is_finished() {
                std::thread::park_timeout(POLL);
                if python_error.is_some() || worker.is_finished() {
                    continue;
                }
                let checked = Python::attach(|py| {
                    py.check_signals()?;
                    progress(py, done.load(Ordering::Relaxed), total)
                });
                if let Err(error) = checked {
                    cancel.store(true, Ordering::Relaxed);
                    python_error = Some(error);
                }
            }
            // A panic in a member (a bug) is re-raised here, as a panic, caught by PyO3 at the
            // function boundary as `PanicException`.
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
            python_error
        })
    });
    if let Some(error) = python_error {
        return Err(Stopped::Python(error));
    }
    if let Some(failure) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(Stopped::Failed(failure));
    }
    progress(py, total, total).map_err(Stopped::Python)?;
    Ok(counts.into_iter().map(AtomicUsize::into_inner).collect())
}

/// Unparks its thread when dropped: at the end of the worker, by return or by panic.
struct Wake(std::thread::Thread);

impl Drop for Wake {
    fn drop(&mut self) {
        self.0.unpark();
    }
}
