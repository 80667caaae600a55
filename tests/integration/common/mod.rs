//! Helpers shared by the data-driven tests.

#![allow(dead_code)]

pub mod server;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use c4solver::bench::TestSet;

/// The standard board's generic engines, as the tests that run them name them.
pub type Position7x6 = c4solver::sized::Board<7, 6>;
/// See [`Position7x6`].
pub type Solver7x6 = c4solver::sized::Solver<7, 6>;
/// See [`Position7x6`].
pub type Book7x6 = c4solver::sized::Book<7, 6>;

/// `../shared/pons-testsets/NAME` (or `$C4_PONS_DIR/NAME`), or a panic that says
/// where the sets should be: a data-driven test never passes without its data.
pub fn pons_set(name: &str) -> TestSet {
    let dir = std::env::var_os("C4_PONS_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pons-testsets"),
        PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "Pascal Pons' test sets are missing: expected them in {} (the shared/ folder beside the checkout)",
        dir.display()
    );
    TestSet::read(&dir.join(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// The first 300 positions of Pons' set `name`, vendored in `tests/data/pons/`
/// (see its README): what the tests that `cargo test` runs read, so that it needs
/// nothing beside the repository. The full sets ([`pons_set`]) are read only by
/// the tests of the `pons_sets` modules, ignored by default (`.ci/run` runs them:
/// `cargo test -- --ignored pons_sets`).
pub fn pons_sample(name: &str) -> TestSet {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pons")
        .join(name);
    TestSet::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// A bundled set from `testsets/`.
pub fn bundled_set(name: &str) -> TestSet {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testsets")
        .join(name);
    TestSet::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The `c4solver` binary, ready for its arguments.
pub fn c4() -> Command {
    Command::new(env!("CARGO_BIN_EXE_c4solver"))
}

/// Output as text, which must be UTF-8.
pub fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

/// Output as text, bytes that are not UTF-8 replaced (for output that may echo
/// them, or that is only looked into).
pub fn text_lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs the `c4solver` binary with `args` and `input` on stdin, as [`output`].
pub fn run_stdin(args: &[&str], input: &str) -> Output {
    output(args, input.as_bytes())
}

/// Runs the `c4solver` binary with `args`, `stdin` written to it from a thread (so
/// that a large input cannot block on a full output pipe): its whole output. A run
/// that is refused at once, or stops reading early, may close its stdin: a failed
/// write is ignored.
pub fn output(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = c4()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the c4solver binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Runs the `c4solver` binary with `args` and `input` on stdin, as [`output`]: its
/// stdout, stderr and exit code (-1 if killed by a signal).
pub fn run(args: &[&str], input: &str) -> (String, String, i32) {
    let out = output(args, input.as_bytes());
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// `f` on consecutive parts of `items`, one part per core (at most four), each on
/// a thread of its own: the results in order, each with the index of its part's
/// first item. For checks whose items are independent (a solver and table per
/// part), so that a long test uses every core.
pub fn on_the_cores<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &[T]) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let chunk = items.len().div_ceil(cores).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        let parts: Vec<_> = items
            .chunks(chunk)
            .enumerate()
            .map(|(k, part)| scope.spawn(move || f(k * chunk, part)))
            .collect();
        parts.into_iter().map(|p| p.join().unwrap()).collect()
    })
}

/// Builds the static WebAssembly page with `scripts/build-web` into
/// `target/web-static` (the wasm tests and the static page's browser test share
/// it). The script installs the wasm32 target and the pinned wasm-bindgen CLI
/// when they are missing; the tests that call this are `#[ignore]`d, so a plain
/// `cargo test` installs nothing.
pub fn build_web() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target").join("web-static");
    let status = Command::new(root.join("scripts/build-web"))
        .arg(&dir)
        .stdin(Stdio::null())
        .status()
        .expect("scripts/build-web runs");
    assert!(status.success(), "scripts/build-web failed: {status}");
    dir
}

/// README.md and every docs/*.md (not the research log's folder), README first,
/// then in name order: the documents whose examples and figures are checked.
pub fn documents() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    docs.insert(0, "README.md".to_string());
    docs
}
