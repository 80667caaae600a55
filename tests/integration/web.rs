//! The page of `c4solver serve` in a real browser: Debian's headless Chromium
//! driven by playwright-core (tests/web/drive.mjs; `.ci/run` installs both, and
//! `npm ci --prefix tests/web` installs the driver). The scores it shows, a game
//! played by clicks, take back, the address and a bad position are checked
//! against the command line; `tests/web/game.test.mjs` checks the page's rules
//! and words in node alone. The same checks run against the static WebAssembly
//! build (`scripts/build-web`) served by `python3 -m http.server`, with no
//! c4solver process.
//!
//! They need tools beside the checkout, so a plain `cargo test` lists them as
//! ignored, with the command that runs them (`.ci/run` does, after installing the
//! tools): `cargo test --test integration -- --ignored web::`. Run so, a missing
//! tool fails the test, saying what to install.

use crate::common;

use std::io::{BufRead, BufReader};
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

/// Fails the test, saying what to install, unless Chromium, node and the driver
/// are here.
fn need_browser() {
    let chromium = chromium();
    assert!(
        chromium.is_file(),
        "no Chromium at {} (apt-get install chromium, or set C4_CHROMIUM)",
        chromium.display()
    );
    assert!(
        web_dir().join("node_modules/playwright-core").is_dir(),
        "no playwright-core in tests/web (npm ci --prefix tests/web)"
    );
    need_node();
}

/// Fails the test unless node runs.
fn need_node() {
    assert!(
        Command::new("node").arg("--version").output().is_ok(),
        "no node on the PATH (apt-get install nodejs)"
    );
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
#[ignore = "needs node: cargo test --test integration -- --ignored web::"]
fn the_pages_game_rules_in_node() {
    need_node();
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

#[test]
#[ignore = "needs Chromium, node and playwright-core: cargo test --test integration -- --ignored web::"]
fn the_page_in_chromium() {
    need_browser();
    let server = Server::start(&["--threads", "2", "--quiet"]);
    let seen = check_page(&server.url());
    // The sizes the server was built with (this one: 7x6), from `GET /sizes`, or
    // from /health on a server without it.
    assert_eq!(seen["pickerSizes"], serde_json::json!(["7x6"]));
    // serve answers from the command line's book: the page fetches none.
    assert_eq!(seen["bookFetches"], serde_json::json!([]));
    assert_eq!(seen["bookDepth"], Value::Null);
}

/// `serve --size 10x6`, a board over 64 bits with a tenth column: the page draws
/// ten columns, names the tenth by its letter, plays it by key, and shows the
/// command line's scores.
#[cfg(feature = "all-sizes")]
#[test]
#[ignore = "needs Chromium, node and playwright-core and the all-sizes feature"]
fn the_page_on_a_board_over_64_bits() {
    need_browser();
    let server = Server::start(&["--size", "10x6", "--threads", "2", "--quiet"]);
    let analyze = |moves: &str| {
        let args = ["analyze", "--size", "10x6", "--json"];
        let (out, err, code) = common::run(&args, &format!("{moves}\n"));
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(out.trim()).unwrap()["scores"].clone()
    };
    // 46 stones, the tenth column open: played by its key, `a`.
    let moves = "1693a325a217679512269546315a7363a115694a528973";
    let seen = drive("size", server.url(), &[moves, "9"]);
    assert_eq!(seen["columns"], 10);
    assert_eq!(seen["stones"], moves.len());
    assert_eq!(text(&seen["keys"]), "1–9, a");
    assert_eq!(seen["scores"], analyze(moves));
    let after = format!("{moves}a");
    assert_eq!(text(&seen["afterPos"]), after);
    assert_eq!(seen["afterStones"], after.len());
    assert_eq!(seen["afterScores"], analyze(&after));
}

/// The static build (`scripts/build-web`) served by python's plain static server,
/// with no c4solver process: the WebAssembly solver answers the same.
#[test]
#[ignore = "needs Chromium, node and playwright-core: cargo test --test integration -- --ignored web::"]
fn the_static_build_in_chromium() {
    need_browser();
    let site = StaticSite::start(&common::build_web());
    let seen = check_page(&site.url);
    // Every size of the every-size build, 7x6 picked.
    assert_eq!(
        seen["pickerSizes"].as_array().map(Vec::len),
        Some(53),
        "{seen}"
    );
    assert_eq!(seen["pickerValue"], "7x6");
    // The worker fetched the 12-stone book (once per page load) and answers
    // from it.
    let fetches = seen["bookFetches"].as_array().unwrap();
    assert!(
        !fetches.is_empty() && fetches.iter().all(|s| s == 200),
        "{fetches:?}"
    );
    assert_eq!(seen["bookDepth"], 12);
}

/// The static build served by `python3 -m http.server` on a free loopback port,
/// stopped when dropped.
struct StaticSite {
    child: std::process::Child,
    url: String,
}

impl StaticSite {
    fn start(site: &Path) -> StaticSite {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("python3")
            .args(["-m", "http.server", &port.to_string()])
            .args(["--bind", "127.0.0.1", "--directory"])
            .arg(site)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 -m http.server starts");
        let site = StaticSite {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        let up = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(100));
            TcpStream::connect(("127.0.0.1", port)).is_ok()
        });
        assert!(up, "the static server did not start");
        site
    }
}

impl Drop for StaticSite {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays `hard` by clicks in the page at `url`, then `quick` while `hard` is
/// being analyzed (tests/web/drive.mjs's `stale`), and checks the answer shown
/// against the command line's. That the page did not wait for the stale search
/// is checked by each caller from what the page and the server did, not from
/// durations, which a busy run stretches (issue 68): the timings are printed
/// for the log only.
fn check_stale_analysis(url: &str, hard: &str, quick: &str) -> Value {
    let seen = drive("stale", url, &[hard, quick]);
    // The aborted request shows no error, and nothing is left pending.
    assert_eq!(text(&seen["error"]).trim(), "", "{seen}");
    assert_eq!(seen["spinnerHidden"], true, "{seen}");
    assert_eq!(seen["scores"], analyze(&format!("{hard}{quick}"))["scores"]);
    assert_eq!(seen["staleScores"], analyze(hard)["scores"]);
    let ms = |k: &str| seen[k].as_f64().unwrap_or_else(|| panic!("{k} in {seen}"));
    eprintln!(
        "the stale search had run {:.0} ms; the new answer came {:.0} ms after the move; \
         alone, the stale search takes {:.0} ms and the new one {:.0} ms",
        ms("headStartMs"),
        ms("answeredMs"),
        ms("staleMs"),
        ms("newMs")
    );
    seen
}

/// The page of `c4solver serve` aborts the request of a position it left: the
/// server logs it as cancelled (499) before it answers the new position on its
/// one solver thread. (That a search whose every request went away stops is
/// checked by src/cli/serve/flight.rs's and pool.rs's tests.) With no book,
/// 4444441 takes seconds to analyze, and 44444415 a tenth of that.
#[test]
#[ignore = "needs Chromium, node and playwright-core: cargo test --test integration -- --ignored web::"]
fn the_page_aborts_a_stale_analysis_on_serve() {
    need_browser();
    let mut server = Server::start_with(
        &["--threads", "1", "--no-book", "--cache", "0"],
        Stdio::piped(),
    );
    let stderr = BufReader::new(server.child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || stderr.lines().map_while(Result::ok).collect());
    let (hard, quick) = ("4444441", "5");
    check_stale_analysis(&server.url(), hard, quick);
    drop(server);
    let log: Vec<String> = reader.join().unwrap();
    let at = |path: &str, status: u64| {
        log.iter()
            .position(|l| logged_status(l, path) == Some(status))
            .unwrap_or_else(|| panic!("no {status} for {path} in {log:#?}"))
    };
    let stale = format!("/analyze?pos={hard}");
    let new = format!("/analyze?pos={hard}{quick}");
    // Cancelled before the new position was answered; the stale one answered
    // only when asked again, after.
    assert!(at(&stale, 499) < at(&new, 200), "{log:#?}");
    assert!(at(&new, 200) < at(&stale, 200), "{log:#?}");
}

/// The status an access-log line gives for `path`: `METHOD PATH STATUS MS`
/// (fields may be written `path=...`, `status=...`), or a JSON line with a
/// field equal to `path` and a `status` field.
fn logged_status(line: &str, path: &str) -> Option<u64> {
    if let Ok(v) = serde_json::from_str::<Value>(line) {
        fn find<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
            match v {
                Value::Object(m) => m.get(key).or_else(|| m.values().find_map(|x| find(x, key))),
                _ => None,
            }
        }
        let has_path = ["path", "uri"]
            .iter()
            .any(|k| find(&v, k).and_then(Value::as_str) == Some(path));
        return has_path.then(|| find(&v, "status")?.as_u64())?;
    }
    let f: Vec<&str> = line.split_whitespace().collect();
    let i = f
        .iter()
        .position(|t| t.trim_start_matches("path=").trim_matches('"') == path)?;
    f[i + 1..]
        .iter()
        .find_map(|t| t.trim_start_matches("status=").parse().ok())
}

/// The static WebAssembly page ends the worker whose search it no longer
/// needs, and a new worker answers the new position in the time of its own
/// search. The site has no book.c4book, so that the worker answers from the
/// 8-stone book: 44444411 then takes seconds to analyze, and 444444112 a
/// twentieth of that.
#[test]
#[ignore = "needs Chromium, node and playwright-core: cargo test --test integration -- --ignored web::"]
fn the_static_page_drops_a_stale_search() {
    need_browser();
    let built = common::build_web();
    let bookless = built.with_file_name("web-static-8");
    let _ = std::fs::remove_dir_all(&bookless);
    copy_dir(&built, &bookless, &|name| name != "book.c4book");
    let site = StaticSite::start(&bookless);
    let seen = check_stale_analysis(&site.url, "44444411", "2");
    assert_eq!(seen["bookDepthAfter"], 8, "{seen}");
    // The stale search's worker was ended, not waited for: one new worker
    // answered the new position.
    assert_eq!(seen["workersStarted"], 1, "{seen}");
}

/// A worker ended during a search is followed by one that starts with the
/// 12-stone book its predecessor fetched: no second fetch, and the same answers.
#[test]
#[ignore = "needs Chromium, node and playwright-core: cargo test --test integration -- --ignored web::"]
fn the_static_pages_next_worker_keeps_the_book() {
    need_browser();
    let site = StaticSite::start(&common::build_web());
    // Searched past the book: a few hundred milliseconds, aborted after 50.
    let moves = "113535175642";
    let seen = drive("restart", &site.url, &[moves]);
    assert_eq!(seen["aborted"], "AbortError", "{seen}");
    assert_eq!(
        seen["workers"], 2,
        "a second worker after the abort: {seen}"
    );
    assert_eq!(seen["bookFetches"], serde_json::json!([200]), "{seen}");
    assert_eq!(seen["bookDepthAfter"], 12, "{seen}");
    assert_eq!(seen["scores"], analyze(moves)["scores"]);
}

/// Copies the files of `from` whose names `keep` accepts into `to`, recursively.
fn copy_dir(from: &Path, to: &Path, keep: &dyn Fn(&str) -> bool) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(&name), keep);
        } else if keep(&name) {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// Runs tests/web/drive.mjs's `mode` on `target` (a URL or a folder) in
/// Chromium with `extra` arguments, and returns what the driver saw, once it
/// has exited 0 and the page logged no error.
fn drive(mode: &str, target: impl AsRef<std::ffi::OsStr>, extra: &[&str]) -> Value {
    let out = Command::new("node")
        .arg(web_dir().join("drive.mjs"))
        .arg(mode)
        .arg(target)
        .arg(chromium())
        .args(extra)
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
        "errors in the page: {seen}"
    );
    seen
}

/// Drives the page at `url`, checks what it showed against the command line, and
/// returns what the driver saw.
fn check_page(url: &str) -> Value {
    let seen = drive("check", url, &[]);

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
#[ignore = "needs Chromium, node and playwright-core: cargo test --test integration -- --ignored web::"]
fn the_static_build_reloads_offline() {
    need_browser();
    let site = common::build_web();
    let seen = drive("offline", &site, &[]);
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

/// `c4solver analyze --size SIZE --json` of one position (the all-sizes build).
#[cfg(feature = "all-sizes")]
fn analyze_sized(size: &str, moves: &str) -> Value {
    crate::wasm::native_sized(size, &format!("{moves}\n")).remove(0)
}

/// The static page's size picker: the first 7x6 load fetches the 7x6 .wasm
/// alone, and the every-size one only once another size is picked
/// ([`check_picker`]).
#[cfg(feature = "all-sizes")]
#[test]
#[ignore = "needs Chromium, node and playwright-core, the WebAssembly builds and the all-sizes feature"]
fn the_static_page_picks_a_size() {
    need_browser();
    let site = StaticSite::start(&common::build_web());
    let seen = check_picker(&site.url);
    assert_eq!(
        seen["firstWasm"],
        serde_json::json!(["/pkg/c4solver_wasm_bg.wasm"]),
        "the every-size build waits for another size: {seen}"
    );
    assert!(
        seen["wasm"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "/pkg-all/c4solver_wasm_bg.wasm"),
        "{seen}"
    );
}

/// The served page's size picker on a server built with every size: it offers
/// the sizes of `GET /sizes` and asks the server with `size=` ([`check_picker`]);
/// it fetches no WebAssembly.
#[cfg(feature = "all-sizes")]
#[test]
#[ignore = "needs Chromium, node and playwright-core and the all-sizes feature"]
fn the_served_page_picks_a_size() {
    need_browser();
    let server = Server::start(&["--threads", "2", "--quiet"]);
    let seen = check_picker(&server.url());
    assert_eq!(seen["wasm"], serde_json::json!([]), "{seen}");
}

/// The page at `url` driven through its size picker: 53 sizes offered; 5x4
/// picked draws five columns, puts `size=5x4` in the address, and a game by
/// clicks shows the command line's scores (from the every-size build); 8x8 and
/// 10x6 positions loaded by their address show the command line's scores before
/// and after a click; a size not built, a column past the width and a position
/// longer than the board show the command line's messages. Returns what the
/// driver saw.
#[cfg(feature = "all-sizes")]
fn check_picker(url: &str) -> Value {
    let long = "1".repeat(100);
    let deep = crate::wasm::OTHER_SIZES;
    let bad = [
        ("9x9", String::new()),
        ("8x8", "9".to_string()),
        ("10x6", "b".to_string()),
        ("8x8", long.clone()),
    ];
    let queries: Vec<String> = bad
        .iter()
        .map(|(size, pos)| format!("?size={size}&pos={pos}"))
        .collect();
    let cases = serde_json::json!({"small": "5x4", "deep": deep, "bad": queries});
    let seen = drive("picker", url, &[&cases.to_string()]);
    assert_eq!(seen["consoleErrors"], serde_json::json!([]), "{seen}");
    assert_eq!(seen["offered"].as_array().map(Vec::len), Some(53));
    let board = |v: &Value, size: &str, pos: &str, columns: usize| {
        assert_eq!(v["size"], size, "{v}");
        assert_eq!(v["picked"], size, "{v}");
        assert_eq!(v["pos"], pos, "{v}");
        assert_eq!(v["columns"], columns, "{v}");
        assert_eq!(v["stones"], pos.len(), "{v}");
    };
    board(&seen["picked"], "5x4", "", 5);
    assert_eq!(seen["pickedScores"], analyze_sized("5x4", "")["scores"]);
    board(&seen["played"], "5x4", "12", 5);
    assert_eq!(seen["playedScores"], analyze_sized("5x4", "12")["scores"]);
    for (shown, (size, moves)) in seen["deep"].as_array().unwrap().iter().zip(deep) {
        let width = size.split('x').next().unwrap().parse().unwrap();
        board(shown, size, moves, width);
        assert_eq!(shown["scores"], analyze_sized(size, moves)["scores"]);
        let after = text(&shown["after"]["pos"]);
        assert!(after.starts_with(moves) && after.len() == moves.len() + 1);
        board(&shown["after"], size, after, width);
        assert_eq!(
            shown["after"]["scores"],
            analyze_sized(size, after)["scores"]
        );
    }
    let shown = seen["bad"].as_array().unwrap();
    assert_eq!(shown.len(), bad.len());
    // The size not built: the page stays on 7x6 and quotes the command line.
    let message = text(&shown[0]["error"]).trim_start_matches("size=9x9: ");
    assert!(crate::wasm::cli_refuses_size("9x9", message), "{message}");
    assert_eq!(shown[0]["columns"], 7);
    for (v, (size, pos)) in shown[1..].iter().zip(&bad[1..]) {
        let want = analyze_sized(size, pos)["error"].clone();
        assert_eq!(
            text(&v["error"]),
            format!("pos={pos}: {}", text(&want)),
            "{v}"
        );
        assert_eq!(v["size"], *size);
    }
    seen
}
