//! Progress bars on stderr: drawn only when stderr is a terminal, hidden otherwise
//! (never branched around), ticking on their own so that a long search still shows
//! the time going by.

use std::io::{self, IsTerminal};
use std::time::Duration;

use console::Term;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// A bar of `len` steps with the given template (indicatif's syntax).
pub fn bar(len: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), target());
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    tick(&bar, Duration::from_millis(200));
    bar
}

/// A spinner with `message`, drawn only when stderr is a terminal, ticking on its
/// own while the caller works; [`ProgressBar::finish_and_clear`] removes it.
pub fn spinner(message: &str) -> ProgressBar {
    let spinner = ProgressBar::with_draw_target(None, target());
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template"),
    );
    spinner.set_message(message.to_string());
    tick(&spinner, Duration::from_millis(100));
    spinner
}

/// Columns left free at the end of a bar's line: see [`Narrow`].
const ROOM: u16 = 3;

/// stderr as a terminal a few columns narrower than it is. Indicatif pads a
/// bar's line to the terminal's last column; the `^C` a terminal echoes at
/// Ctrl-C then wraps to a line of its own, and the bar's last clear clears that
/// one, leaving the bar on the screen.
#[derive(Debug)]
struct Narrow(Term);

impl TermLike for Narrow {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(ROOM).max(1)
    }
    fn height(&self) -> u16 {
        self.0.size().0
    }
    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_up(n)
    }
    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_down(n)
    }
    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_right(n)
    }
    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_left(n)
    }
    fn write_line(&self, s: &str) -> io::Result<()> {
        self.0.write_line(s)
    }
    fn write_str(&self, s: &str) -> io::Result<()> {
        self.0.write_str(s)
    }
    fn clear_line(&self) -> io::Result<()> {
        self.0.clear_line()
    }
    fn flush(&self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Where bars are drawn: stderr if it is a terminal, nowhere otherwise.
fn target() -> ProgressDrawTarget {
    if io::stderr().is_terminal() {
        ProgressDrawTarget::term_like(Box::new(Narrow(Term::stderr())))
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// Redraws a drawn `bar` every `every` until it is finished or dropped, from a
/// thread of its own: indicatif's own ticker panics if its thread cannot start,
/// this one leaves the bar drawn at each update only.
fn tick(bar: &ProgressBar, every: Duration) {
    if bar.is_hidden() {
        return;
    }
    let weak = bar.downgrade();
    let _ = std::thread::Builder::new()
        .name("c4solver-progress".into())
        .spawn(move || {
            loop {
                std::thread::sleep(every);
                match weak.upgrade() {
                    Some(bar) if !bar.is_finished() => bar.tick(),
                    _ => break,
                }
            }
        });
}
