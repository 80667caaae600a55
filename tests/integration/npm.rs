//! The npm package as a user gets it: `scripts/build-npm` writes it, `npm pack`
//! packs it, and `npm install` puts the tarball into a fresh Node project, which
//! imports it by name (`import { createSolver } from "c4solver-wasm"`). Its analyses
//! equal the command line's (`analyze --json --pv --threads 1`, the same engine:
//! node counts too) with each book, a bad position throws an `Error` with the
//! command line's message, the TypeScript declarations type-check as used, and a
//! plain `<script type="module">` page runs it in Chromium.
//!
//! They need node, npm, Chromium and tests/web's tools (`.ci/run` installs them):
//! a plain `cargo test` lists them as ignored, with the command that runs them:
//! `cargo test --test integration -- --ignored npm::`.

use crate::common;
use crate::wasm::{Books, native, sample_lines};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cmd` in `dir`, failing the test with its output unless it succeeds.
fn run(cmd: &mut Command, dir: &Path) -> String {
    let out = cmd
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The fresh project with the packed package installed, made once for every test
/// of this file.
fn project() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let work = root().join("target/npm-check");
        let _ = std::fs::remove_dir_all(&work);
        let package = work.join("package");
        let project = work.join("project");
        std::fs::create_dir_all(&project).unwrap();
        run(
            Command::new(root().join("scripts/build-npm")).arg(&package),
            &root(),
        );
        let tarball = run(
            Command::new("npm")
                .args(["pack", "--silent", "--pack-destination"])
                .arg(&work)
                .arg(&package),
            &work,
        );
        let tarball = work.join(tarball.trim());
        std::fs::write(
            project.join("package.json"),
            r#"{"name": "npm-check", "private": true, "type": "module"}"#,
        )
        .unwrap();
        // The package has no dependencies: nothing is fetched.
        run(
            Command::new("npm")
                .args(["install", "--offline", "--no-audit", "--no-fund"])
                .arg(&tarball),
            &project,
        );
        for file in ["analyze.mjs", "options.mjs", "page.html", "consumer.ts"] {
            std::fs::copy(root().join("tests/npm").join(file), project.join(file)).unwrap();
        }
        project
    })
}

/// The installed package's answers to `lines` (`tests/npm/analyze.mjs` with
/// `args`): its book's depth, then one JSON value a line.
fn package(args: &[&str], lines: &str) -> (Value, Vec<Value>) {
    let (first, answers) = package_sized(args, lines);
    (first["bookDepth"].clone(), answers)
}

/// [`package`]'s first line whole (`{"bookDepth", "size"}`), then its answers.
fn package_sized(args: &[&str], lines: &str) -> (Value, Vec<Value>) {
    let mut child = Command::new("node")
        .arg("analyze.mjs")
        .args(args)
        .current_dir(project())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = lines.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut values: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let first = values.remove(0);
    (first, values)
}

/// Every field of the command line's answers, but the time, in the package's.
fn same_as_native(args: &[&str], books: Books, depth: Value, lines: &str) {
    let (got, answers) = package(args, lines);
    assert_eq!(got, depth, "the book's depth");
    let native = native(lines, books, false);
    assert_eq!(answers.len(), native.len());
    for (i, (a, n)) in answers.iter().zip(&native).enumerate() {
        for field in ["moves", "score", "scores", "best", "book", "nodes", "pv"] {
            assert_eq!(
                a.get(field),
                n.get(field),
                "line {}: {field}: {a} vs {n}",
                i + 1
            );
        }
    }
}

#[test]
#[ignore = "needs node, npm and the WebAssembly build: cargo test --test integration -- --ignored npm::"]
fn the_installed_package_analyzes_as_the_command_line_does() {
    let sample: String = sample_lines()
        .lines()
        .step_by(3)
        .map(|l| format!("{l}\n"))
        .collect();
    same_as_native(&[], Books::Small, 8.into(), &sample);
    same_as_native(&["--full"], Books::Full, 12.into(), &sample);
    let late: String = common::bundled_set("middle-easy")
        .entries
        .iter()
        .take(20)
        .map(|e| format!("{}\n", e.moves))
        .collect();
    same_as_native(&["--no-book"], Books::None, Value::Null, &late);
}

#[test]
#[ignore = "needs node, npm and the WebAssembly build: cargo test --test integration -- --ignored npm::"]
fn a_bad_position_throws_an_error_with_the_command_lines_message() {
    let lines = "4458\n8\n4444444\n44a\n1212121\n";
    let (_, answers) = package(&[], lines);
    let native = native(lines, Books::Small, false);
    for (a, n) in answers.iter().zip(&native) {
        let message = n["error"].as_str().expect("the command line refuses it");
        assert_eq!(a["error"], message, "{a}");
        assert_eq!(a["name"], "Error", "{a}");
    }
    assert_eq!(answers.len(), 5);
}

#[test]
#[ignore = "needs node, npm and tests/web's TypeScript: cargo test --test integration -- --ignored npm::"]
fn the_declarations_type_check_as_the_api_is_used() {
    let tsc = root().join("tests/web/node_modules/typescript/bin/tsc");
    assert!(
        tsc.is_file(),
        "no TypeScript in tests/web (npm ci --prefix tests/web)"
    );
    run(
        Command::new("node").arg(tsc).args([
            "--noEmit",
            "--strict",
            "--target",
            "es2022",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "consumer.ts",
        ]),
        project(),
    );
    // And it catches a misuse: a number for the moves.
    let bad = project().join("misuse.ts");
    std::fs::write(
        &bad,
        "import { createSolver } from \"c4solver-wasm\";\n(await createSolver()).analyze(4455);\n",
    )
    .unwrap();
    let out = Command::new("node")
        .arg(root().join("tests/web/node_modules/typescript/bin/tsc"))
        .args([
            "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext",
        ])
        .arg(&bad)
        .current_dir(project())
        .output()
        .unwrap();
    assert!(!out.status.success(), "tsc accepted a number for the moves");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("TS2345"),
        "{out:?}"
    );
}

#[test]
#[ignore = "needs node, npm and Chromium: cargo test --test integration -- --ignored npm::"]
fn a_page_without_a_bundler_runs_the_package() {
    let chromium = std::env::var_os("C4_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(chromium.is_file(), "no Chromium at {}", chromium.display());
    let moves = "4455";
    let out = run(
        Command::new("node")
            .arg(root().join("tests/web/npm-page.mjs"))
            .arg(project())
            .arg(&chromium)
            .arg(moves),
        &root().join("tests/web"),
    );
    let seen: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(seen["pageErrors"], serde_json::json!([]), "{seen}");
    let expected = &native(&format!("{moves}\n"), Books::Small, false)[0];
    for field in ["moves", "score", "scores", "best", "book", "nodes", "pv"] {
        assert_eq!(
            seen["analysis"].get(field),
            expected.get(field),
            "{field}: {seen}"
        );
    }
    assert_eq!(seen["score"], expected["score"]);
    let refused = &native("448\n", Books::Small, false)[0]["error"];
    assert_eq!(seen["error"]["message"], *refused, "{seen}");
    assert_eq!(seen["error"]["name"], "Error");
}

/// Other board sizes: `createSolver({ size })` loads the every-size build and
/// answers as `c4solver analyze --size` (node counts too), bad lines with its
/// messages.
#[cfg(feature = "all-sizes")]
#[test]
#[ignore = "needs node, npm, the WebAssembly builds and the all-sizes feature"]
fn the_package_answers_other_sizes_as_the_command_line() {
    use crate::wasm::{OTHER_SIZES, native_sized};
    for (size, moves) in OTHER_SIZES {
        let lines = format!("{moves}\n{}\n9b\n{}\n", &moves[1..], "1".repeat(100));
        let (first, answers) = package_sized(&["--size", size], &lines);
        assert_eq!(first, serde_json::json!({"bookDepth": null, "size": size}));
        let native = native_sized(size, &lines);
        assert_eq!(answers.len(), native.len());
        for (i, (a, n)) in answers.iter().zip(&native).enumerate() {
            for field in [
                "error", "moves", "score", "scores", "best", "book", "nodes", "pv",
            ] {
                assert_eq!(a.get(field), n.get(field), "{size} line {}: {field}", i + 1);
            }
        }
        assert!(answers[0]["scores"].is_array() && answers[3]["error"].is_string());
    }
}

/// Issue 68's findings: `null` options are the defaults, a wrong option or size
/// says what was given (a string `tableMb` is refused with its type), a size
/// not built is refused with the command line's message, and a freed solver
/// says so.
#[test]
#[ignore = "needs node, npm and the WebAssembly builds: cargo test --test integration -- --ignored npm::"]
fn options_and_a_freed_solver_get_clear_errors() {
    let out = run(Command::new("node").arg("options.mjs"), project());
    let seen: Value = serde_json::from_str(out.trim()).unwrap();
    let error = |case: &str| {
        seen[case]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{case}: {seen}"))
            .to_string()
    };
    assert_eq!(seen["null"]["ok"], "7x6");
    assert_eq!(seen["size8x8"]["ok"], "8x8");
    assert_eq!(
        error("number"),
        "createSolver takes an options object ({ size, book, tableMb }), not 7"
    );
    assert_eq!(
        error("tableMbString"),
        "tableMb must be a whole number of megabytes, at least 1, not the string \"64\""
    );
    assert_eq!(seen["tableMbString"]["name"], "RangeError");
    assert!(error("tableMbZero").ends_with("not 0"), "{seen}");
    assert_eq!(
        error("sizeNumber"),
        "size must be a string such as \"8x8\", not 8"
    );
    assert_eq!(seen["sizeNumber"]["name"], "TypeError");
    for (case, size) in [
        ("sizeSyntax", "eight"),
        ("sizeTooLarge", "9x9"),
        ("sizeTooSmall", "3x6"),
    ] {
        assert_eq!(seen[case]["name"], "Error", "{seen}");
        assert!(
            crate::wasm::cli_refuses_size(size, &error(case)),
            "{case}: {seen}"
        );
    }
    let freed = "this solver was freed (solver.free()): create another with createSolver()";
    assert_eq!(error("afterFree"), freed);
    assert_eq!(error("depthAfterFree"), freed);
    assert_eq!(seen["freeTwice"]["ok"], "nothing");
    let sizes = seen["sizes"]["ok"].as_array().unwrap();
    assert_eq!(sizes.len(), 53);
    assert!(sizes.contains(&"8x8".into()) && sizes.contains(&"7x6".into()));
}
