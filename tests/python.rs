//! The Python package (python/): built into a virtual environment under target/
//! with maturin, then its pytest suite run against this build's binary, so that
//! `cargo test` covers the Python API too.
//!
//! Needs `python3` with `venv` and access to the Python package index the first
//! time (for maturin and pytest); it fails with the reason otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_python_package_passes_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("python-venv");
    let bin = venv.join("bin");
    if !bin.join("python").exists() {
        run(
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            "python3 -m venv",
        );
    }
    run(
        Command::new(bin.join("python")).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "maturin>=1.9,<2",
            "pytest>=7",
        ]),
        "pip install maturin pytest",
    );
    run(
        Command::new(bin.join("maturin"))
            .args(["develop", "--release", "--quiet", "--manifest-path"])
            .arg(root.join("python/Cargo.toml"))
            .env("VIRTUAL_ENV", &venv)
            .env("PATH", prefixed_path(&bin)),
        "maturin develop",
    );
    run(
        Command::new(bin.join("python"))
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(root.join("python/tests"))
            .env("C4SOLVER_BIN", env!("CARGO_BIN_EXE_c4solver")),
        "pytest python/tests",
    );
}

/// `PATH` with `dir` first.
fn prefixed_path(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    if let Some(p) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(paths).expect("valid PATH")
}
