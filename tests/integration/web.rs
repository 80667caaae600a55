//! The page of `c4solver serve` in a real browser: Debian's headless Chromium
//! driven by playwright-core (tests/web/drive.mjs; `.ci/run` installs both, and
//! `npm ci --prefix tests/web` installs the driver). The scores it shows, a game
//! played by clicks, take back, the address and a bad position are checked
//! against the command line; `tests/web/game.test.mjs` checks the page's rules
//! and words in node alone. Without Chromium or the driver, the test fails in CI
//! (`CI=true`) and is skipped elsewhere, saying what to install. The same
//! checks run against the static WebAssembly build (`scripts/build-web`) served by
//! `python3 -m http.server`, with no c4solver process.

use crate::common;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::server::Server;
use serde_json::Value;

/// The browser: `$C4_CHROMIUM`, or Debian's.
fn chromium() -> PathBuf {
    std::env::var_os("C4_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web")
}

/// Why the browser test cannot run here, if it cannot.
fn missing() -> Option<String> {
    if !chromium().is_file() {
        return Some(format!(
            "no Chromium at {} (apt-get install chromium, or set C4_CHROMIUM)",
            chromium().display()
        ));
    }
    if !web_dir().join("node_modules/playwright-core").is_dir() {
        return Some("no playwright-core in tests/web (npm ci --prefix tests/web)".into());
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Some("no node (apt-get install nodejs)".into());
    }
    None
}

/// `c4solver analyze --json` of one position.
fn analyze(moves: &str) -> Value {
    let (out, err, code) = common::run(&["analyze", "--json"], &format!("{moves}\n"));
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.trim()).unwrap()
}

/// The command line's message for a bad line.
fn cli_message(moves: &str) -> String {
    let (_, err, code) = common::run(&["analyze"], &format!("{moves}\n"));
    assert_eq!(code, 1);
    err.trim_end()
        .trim_start_matches("c4solver: line 1: ")
        .to_string()
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

#[test]
fn the_pages_game_rules_in_node() {
    if Command::new("node").arg("--version").output().is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no node in CI"
        );
        eprintln!("skipping the page's rules: no node (apt-get install nodejs)");
        return;
    }
    let out = Command::new("node")
        .args(["--test", "game.test.mjs"])
        .current_dir(web_dir())
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether the browser tests can run; in CI they must.
fn can_run() -> bool {
    if let Some(why) = missing() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the browser test cannot run in CI: {why}"
        );
        eprintln!("skipping the browser test: {why}");
        return false;
    }
    true
}

#[test]
fn the_page_in_chromium() {
    if !can_run() {
        return;
    }
    let server = Server::start(&["--threads", "2", "--quiet"]);
    let seen = check_page(&server.url());
    // serve answers from the command line's book: the page fetches none.
    assert_eq!(seen["bookFetches"], serde_json::json!([]));
    assert_eq!(seen["bookDepth"], Value::Null);
}

/// The static build (`scripts/build-web`) served by python's plain static server,
/// with no c4solver process: the WebAssembly solver answers the same.
#[test]
fn the_static_build_in_chromium() {
    if !can_run() {
        return;
    }
    let Some(site) = common::build_web() else {
        return;
    };
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut server = Command::new("python3")
        .args([
            "-m",
            "http.server",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
        ])
        .arg("--directory")
        .arg(&site)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 -m http.server starts");
    let url = format!("http://127.0.0.1:{port}");
    let up = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    let result = std::panic::catch_unwind(|| {
        assert!(up, "the static server did not start");
        let seen = check_page(&url);
        // The worker fetched the 12-stone book (once per page load) and answers
        // from it.
        let fetches = seen["bookFetches"].as_array().unwrap();
        assert!(
            !fetches.is_empty() && fetches.iter().all(|s| s == 200),
            "{fetches:?}"
        );
        assert_eq!(seen["bookDepth"], 12);
    });
    let _ = server.kill();
    let _ = server.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

/// Drives the page at `url`, checks what it showed against the command line, and
/// returns what the driver saw.
fn check_page(url: &str) -> Value {
    let out = Command::new("node")
        .arg(web_dir().join("drive.mjs"))
        .args(["check", url])
        .arg(chromium())
        .output()
        .expect("node runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the driver failed: {stderr}");
    let seen: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(
        seen["consoleErrors"],
        serde_json::json!([]),
        "errors in the page"
    );

    // The scores shown are the command line's, with words that say the same.
    assert_eq!(seen["scores4455"], analyze("4455")["scores"]);
    let words = seen["words4455"].as_array().unwrap();
    for (w, s) in words
        .iter()
        .zip(analyze("4455")["scores"].as_array().unwrap())
    {
        let s = s.as_i64().unwrap();
        let want = match s.signum() {
            1 => format!("you win with your {}", 22 - s),
            0 => "draw".to_string(),
            _ => "you lose at move".to_string(),
        };
        assert!(text(w).contains(&want), "{w} for {s}");
    }

    // The address round-trips.
    assert_eq!(text(&seen["reloadedPos"]), "44553");
    assert_eq!(seen["reloadedStones"], 5);
    assert_eq!(seen["scores44553"], analyze("44553")["scores"]);

    // Red always plays the leftmost column; column 1 loses from the empty
    // board, so the perfect solver wins as Yellow.
    assert!(
        analyze("1")["score"].as_i64().unwrap() > 0,
        "Yellow wins after 1"
    );
    assert!(
        text(&seen["gameStatus"]).starts_with("Yellow wins"),
        "{}",
        seen["gameStatus"]
    );
    let game = text(&seen["gamePos"]).to_string();
    let (before, last) = game.split_at(game.len() - 1);
    let col = last.parse::<usize>().unwrap() - 1;
    let stones = before.len() as i64;
    assert_eq!(
        analyze(before)["scores"][col].as_i64(),
        Some((43 - stones) / 2),
        "the last move of {game} wins at once"
    );
    assert!(
        cli_message(&game).contains("four in a row"),
        "{game} is over"
    );

    // Take back returns to Red's turn, two moves back; redo plays Red's again.
    assert_eq!(text(&seen["afterUndoPos"]), &game[..game.len() - 2]);
    assert!(text(&seen["afterUndoStatus"]).starts_with("Red to move"));
    assert_eq!(
        seen["afterUndoStones"].as_u64(),
        Some(game.len() as u64 - 2)
    );
    assert!(text(&seen["afterRedoPos"]).starts_with(&game[..game.len() - 1]));

    // Key 4, then the solver's answer.
    assert!(text(&seen["afterKeyPos"]).starts_with('4'));

    // A bad position shows the command line's message, over a board.
    let want = cli_message("448");
    assert!(
        text(&seen["badPosError"]).contains(&want),
        "{}",
        seen["badPosError"]
    );
    assert_eq!(seen["badPosBoard"], 1);
    long_error_fits(&seen["longError"]);
    seen
}

/// The message of a 3,000-character bad position, on a desktop and on a
/// phone: inside the play panel and the viewport (wrapped, scrolled past a few
/// lines), and the page no wider than the viewport.
fn long_error_fits(seen: &Value) {
    let views = seen.as_array().unwrap();
    assert_eq!(views.len(), 2, "{seen}");
    let f = |v: &Value, k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"));
    for v in views {
        assert!(
            f(v, "textLength") > 3000.0,
            "the message quotes the position: {v}"
        );
        assert!(f(v, "left") >= f(v, "panelLeft") - 0.5, "{v}");
        assert!(
            f(v, "right") <= f(v, "panelRight") + 0.5,
            "past the panel: {v}"
        );
        assert!(f(v, "right") <= f(v, "viewportWidth"), "off-screen: {v}");
        assert!(
            f(v, "pageWidth") <= f(v, "viewportWidth"),
            "the page scrolls sideways: {v}"
        );
        assert!(
            f(v, "height") < f(v, "viewportHeight") / 2.0,
            "taller than half the screen: {v}"
        );
    }
}

/// The static build reloads with no network: its service worker (web/wasm/sw.js)
/// keeps the page, the modules, the .wasm and the book. The driver serves the
/// folder itself, stops, turns the browser offline and reloads.
#[test]
fn the_static_build_reloads_offline() {
    if !can_run() {
        return;
    }
    let Some(site) = common::build_web() else {
        return;
    };
    let out = Command::new("node")
        .arg(web_dir().join("drive.mjs"))
        .arg("offline")
        .arg(&site)
        .arg(chromium())
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(
        seen["consoleErrors"],
        serde_json::json!([]),
        "errors in the page"
    );
    let want = analyze("4455")["scores"].clone();
    assert_eq!(seen["online"], want);
    assert_eq!(
        seen["controlled"], true,
        "the service worker serves the page"
    );
    assert_eq!(seen["offline"], want, "the reload with no network");
    assert_eq!(text(&seen["offlinePos"]), "4455");
    assert_eq!(seen["offline445"], analyze("445")["scores"]);
}
