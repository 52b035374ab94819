//! # Progress of long runs
//!
//! `reproduce` runs for a minute and a half, the full energy study for hours. Both show where
//! they are: on a terminal a bar with the elapsed time and an estimate of what remains
//! (indicatif), otherwise (a log, CI) a plain line at most every [`PLAIN_INTERVAL`] and one at
//! the end. The library crates print nothing; only this crate's runs do, on standard error, so
//! that the summaries on standard output stay clean.
//!
//! A [`Progress`] is the display of one run. Its work is measured in units of the caller's
//! choice (nominal seconds of each reproduction, steps of each simulation), so that the
//! estimate of what remains weighs long parts as long. A study deep inside a run reports its own
//! units through a [`Task`] ([`task`]): inside an open [`Section`] of the active display, the
//! task's units fill that section's share of the bar; with no display active (a study called on
//! its own) the task opens a display of its own. So the energy study shows its progress both
//! when `reproduce` runs it and when its example runs it alone.
//!
//! # Examples
//! ```
//! use lieode_reproduce::progress::{Progress, task};
//!
//! let run = Progress::hidden("demo", 10);
//! {
//!     let _section = run.section(4, "first part");
//!     let study = task("inner study", 100); // fills the section's 4 units
//!     study.advance(50);
//!     assert_eq!(run.position(), 2);
//! }
//! assert_eq!(run.position(), 4); // a closed section counts whole
//! run.finish();
//! ```

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The shortest time between two plain progress lines.
pub const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

/// The fraction of the work after which a display estimates what remains.
pub const ESTIMATE_AFTER: f64 = 0.05;

/// How a display shows itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// An indicatif bar on standard error (a terminal).
    Bar,
    /// Plain lines on standard error, at most every [`PLAIN_INTERVAL`].
    Lines,
    /// Nothing (tests).
    Hidden,
}

/// The open section of a display: where it starts and how many units it spans.
#[derive(Debug, Clone, Copy)]
struct OpenSection {
    base: u64,
    weight: u64,
}

#[derive(Debug)]
struct Display {
    title: String,
    total: u64,
    mode: Mode,
    bar: Option<ProgressBar>,
    start: Instant,
    /// Units done, counted by closed sections and by [`Progress::advance`].
    done: AtomicU64,
    /// The section the next [`task`] fills, if one is open.
    section: Mutex<Option<OpenSection>>,
    /// What is shown beside the progress, and when the last plain line was printed.
    label: Mutex<Label>,
}

/// What a display shows beside its progress: the open section's label and, while a task
/// reports into it, the task's own (`spiral energy — energy study 40 %`).
#[derive(Debug, Default)]
struct Label {
    section: String,
    task: String,
    last_line: Option<Instant>,
}

impl Label {
    fn text(&self) -> String {
        if self.task.is_empty() {
            self.section.clone()
        } else {
            format!("{} — {}", self.section, self.task)
        }
    }
}

/// The display of one long run (see the module documentation). Dropping it stops it being the
/// active display; [`Progress::finish`] also clears the bar and says how long the run took.
#[derive(Debug)]
pub struct Progress {
    display: Arc<Display>,
    /// Whether this display is the process's active one (and must unregister when finished).
    registered: bool,
}

/// The active display, which [`task`]s report into.
static ACTIVE: Mutex<Option<Arc<Display>>> = Mutex::new(None);

/// Locks `mutex`, taking the value even if a thread panicked while holding it (progress is
/// only ever a display: a stale label is better than a second panic).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Progress {
    /// A display of `total` units titled `title`: a bar on a terminal, plain lines otherwise.
    /// It becomes the active display that [`task`]s report into, unless one is active already.
    pub fn new(title: &str, total: u64) -> Self {
        let mode = if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        };
        Self::with_mode(title, total, mode)
    }

    /// A display that shows nothing (for tests); it still counts and is still active.
    pub fn hidden(title: &str, total: u64) -> Self {
        Self::with_mode(title, total, Mode::Hidden)
    }

    fn with_mode(title: &str, total: u64, mode: Mode) -> Self {
        let total = total.max(1);
        let bar = (mode == Mode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            // The estimate of what remains is ours (in `msg`): the run's own pace over the units
            // done so far, so a long section without inner progress does not inflate it.
            let template = "{prefix} [{wide_bar}] {percent:>3}%  {elapsed_precise} elapsed{msg}";
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(title.to_owned());
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        let display = Arc::new(Display {
            title: title.to_owned(),
            total,
            mode,
            bar,
            start: Instant::now(),
            done: AtomicU64::new(0),
            section: Mutex::new(None),
            label: Mutex::new(Label::default()),
        });
        let mut active = lock(&ACTIVE);
        let registered = active.is_none();
        if registered {
            *active = Some(Arc::clone(&display));
        }
        Self {
            display,
            registered,
        }
    }

    /// Opens a section of `weight` units labelled `label`: [`task`]s report into it until it is
    /// dropped, and then it counts as done whole.
    pub fn section(&self, weight: u64, label: &str) -> Section<'_> {
        let base = self.position();
        *lock(&self.display.section) = Some(OpenSection { base, weight });
        self.display.set_label(label);
        self.display.show(base);
        Section {
            progress: self,
            end: base.saturating_add(weight),
        }
    }

    /// Counts `units` more as done, under `label`.
    pub fn advance(&self, units: u64, label: &str) {
        self.display.set_label(label);
        let done = self.display.done.fetch_add(units, Ordering::Relaxed) + units;
        self.display.show(done);
    }

    /// The units done so far.
    pub fn position(&self) -> u64 {
        self.display.done.load(Ordering::Relaxed)
    }

    /// Prints `text` to standard output without tearing the bar.
    pub fn println(&self, text: &str) {
        match &self.display.bar {
            Some(bar) => bar.suspend(|| print!("{text}")),
            None => print!("{text}"),
        }
    }

    /// Ends the display: the bar is cleared and one line says how long the run took.
    pub fn finish(&self) {
        let seconds = self.display.start.elapsed().as_secs_f64();
        if let Some(bar) = &self.display.bar {
            bar.finish_and_clear();
        }
        if self.display.mode != Mode::Hidden {
            eprintln!("{}: done in {seconds:.1} s", self.display.title);
        }
        self.unregister();
    }

    fn unregister(&self) {
        if self.registered {
            let mut active = lock(&ACTIVE);
            if active
                .as_ref()
                .is_some_and(|d| Arc::ptr_eq(d, &self.display))
            {
                *active = None;
            }
        }
    }
}

impl Display {
    /// Labels what follows `section` (and ends the label of a task).
    fn set_label(&self, section: &str) {
        let mut label = lock(&self.label);
        if label.section != section || !label.task.is_empty() {
            section.clone_into(&mut label.section);
            label.task.clear();
        }
    }

    /// Labels the task reporting into the open section.
    fn set_task(&self, task: String) {
        let mut label = lock(&self.label);
        if label.task != task {
            label.task = task;
        }
    }

    /// Shows `position` units done: moves the bar, or prints a plain line if the last one is
    /// older than [`PLAIN_INTERVAL`] (or this is the end).
    fn show(&self, position: u64) {
        match self.mode {
            Mode::Bar => {
                if let Some(bar) = &self.bar {
                    let left = self.left(position).map_or(String::new(), |left| {
                        format!(", about {} left", duration_text(left))
                    });
                    bar.set_message(format!("{left}  {}", lock(&self.label).text()));
                    bar.set_position(position.min(self.total));
                }
            }
            Mode::Lines => {
                let mut label = lock(&self.label);
                let now = Instant::now();
                let due = label
                    .last_line
                    .is_none_or(|last| now - last >= PLAIN_INTERVAL);
                if due || position >= self.total {
                    label.last_line = Some(now);
                    eprintln!("{}", self.line(position, &label.text()));
                }
            }
            Mode::Hidden => {}
        }
    }

    /// The seconds that remain at `position`, at the pace of the run so far; `None` until
    /// [`ESTIMATE_AFTER`] of the work is done (the first small parts say little of the pace).
    fn left(&self, position: u64) -> Option<f64> {
        let fraction = position.min(self.total) as f64 / self.total as f64;
        (fraction >= ESTIMATE_AFTER)
            .then(|| self.start.elapsed().as_secs_f64() * (1.0 / fraction - 1.0))
    }

    /// `title: 37 % (label), 12 s elapsed, about 20 s left`.
    fn line(&self, position: u64, label: &str) -> String {
        let elapsed = self.start.elapsed().as_secs_f64();
        let fraction = position.min(self.total) as f64 / self.total as f64;
        let left = self.left(position).map_or(String::new(), |left| {
            format!(", about {} left", duration_text(left))
        });
        let label = if label.is_empty() {
            String::new()
        } else {
            format!(" ({label})")
        };
        format!(
            "{}: {:.0} %{label}, {} elapsed{left}",
            self.title,
            100.0 * fraction,
            duration_text(elapsed)
        )
    }
}

/// `42 s`, `3 min 12 s` or `2 h 05 min`.
fn duration_text(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.unregister();
    }
}

/// An open section of a [`Progress`] (see [`Progress::section`]); it counts as done whole when
/// dropped.
#[derive(Debug)]
pub struct Section<'a> {
    progress: &'a Progress,
    end: u64,
}

impl Drop for Section<'_> {
    fn drop(&mut self) {
        let display = &self.progress.display;
        *lock(&display.section) = None;
        display.done.fetch_max(self.end, Ordering::Relaxed);
        display.show(self.end);
    }
}

/// Where a [`Task`] reports.
#[derive(Debug)]
enum Target {
    /// A share of the active display's open section.
    Share {
        display: Arc<Display>,
        section: OpenSection,
    },
    /// A display of its own.
    Own(Progress),
    /// The active display has no open section: the task's units are not shown.
    Nowhere,
}

/// A study's own count of its work (see [`task`]). It may be advanced from several threads.
#[derive(Debug)]
pub struct Task {
    label: String,
    total: u64,
    done: AtomicU64,
    target: Target,
}

/// A task of `total` units labelled `label`: it fills the open section of the active display,
/// or opens a display of its own when none is active.
pub fn task(label: &str, total: u64) -> Task {
    let active = lock(&ACTIVE).clone();
    let target = match active {
        Some(display) => match *lock(&display.section) {
            Some(section) => Target::Share {
                display: Arc::clone(&display),
                section,
            },
            None => Target::Nowhere,
        },
        None => Target::Own(Progress::new(label, total)),
    };
    Task {
        label: label.to_owned(),
        total: total.max(1),
        done: AtomicU64::new(0),
        target,
    }
}

impl Task {
    /// Counts `units` more of the task as done.
    pub fn advance(&self, units: u64) {
        let done = (self.done.fetch_add(units, Ordering::Relaxed) + units).min(self.total);
        match &self.target {
            Target::Share { display, section } => {
                // The section's share, in the display's units: base + weight · done / total.
                let share = (section.weight as f64 * done as f64 / self.total as f64) as u64;
                let position = section.base + share.min(section.weight);
                display.done.fetch_max(position, Ordering::Relaxed);
                let percent = 100.0 * done as f64 / self.total as f64;
                display.set_task(format!("{} {percent:.0} %", self.label));
                display.show(display.done.load(Ordering::Relaxed));
            }
            Target::Own(progress) => {
                progress.display.done.fetch_max(done, Ordering::Relaxed);
                progress.display.show(done);
            }
            Target::Nowhere => {}
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        if let Target::Own(progress) = &self.target {
            progress.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_state_the_fraction_the_elapsed_time_and_what_is_left() {
        let display = Display {
            title: "run".into(),
            total: 4,
            mode: Mode::Hidden,
            bar: None,
            start: Instant::now() - Duration::from_secs(30),
            done: AtomicU64::new(0),
            section: Mutex::new(None),
            label: Mutex::new(Label::default()),
        };
        // A quarter done in 30 s: three quarters left take about 90 s.
        assert_eq!(
            display.line(1, "spiral"),
            "run: 25 % (spiral), 30 s elapsed, about 1 min 30 s left"
        );
        assert_eq!(display.line(0, "start"), "run: 0 % (start), 30 s elapsed");
        // Below 5 % of the work there is no estimate yet.
        let display = Display {
            total: 100,
            ..display
        };
        assert_eq!(display.line(4, "early"), "run: 4 % (early), 30 s elapsed");
        assert_eq!(duration_text(7265.0), "2 h 01 min");
    }
}
