//! Progress bars on stderr: drawn only when stderr is a terminal, hidden otherwise
//! (never branched around), ticking on their own so that a long search still shows
//! the time going by.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `len` steps with the given template (indicatif's syntax).
pub fn bar(len: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A spinner with `message`, drawn only when stderr is a terminal, ticking on its
/// own while the caller works; [`ProgressBar::finish_and_clear`] removes it.
pub fn spinner(message: &str) -> ProgressBar {
    let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        spinner.set_draw_target(ProgressDrawTarget::hidden());
    }
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template"),
    );
    spinner.set_message(message.to_string());
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}
