//! c4solver in the browser: one [`Engine`] (a solver of one board size with its
//! table, and on 7x6 an opening book) bound to JavaScript with `wasm-bindgen`.
//! Every answer is the JSON text that `c4solver serve` sends for the same request,
//! so that the page has one code path whichever answers it; every error is the
//! command line's message.
//!
//! Two builds: the default one holds the 7x6 board alone (the page's first load),
//! the `all-sizes` one every size of the command line's `all-sizes` build, which
//! the page and the npm package load only for another size ([`check_size`] tells
//! which build holds a size).
//!
//! The `.wasm` carries the 8-stone 7x6 book (132,552 bytes) instead of the
//! library's built-in 12-stone one (8.4 MB), so that the page starts after a
//! download of under a megabyte; the page then fetches the 12-stone book as a file
//! and hands it to [`Engine::load_book`], answering exactly from the small book
//! meanwhile.
//!
//! ```
//! let mut engine = c4solver_wasm::Engine::new(16, true, None).unwrap();
//! let json = engine.solve("4455").unwrap();
//! assert_eq!(json, r#"{"pos":"4455","score":[-4,-3,18,2,2,18,-3]}"#);
//! ```

use c4solver::{Answer, Book, Config, Mode, Position, Size, SizeError, Solver};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// The 8-stone 7x6 book: every position of up to 8 stones, one entry per mirror
/// pair (the library's former built-in book; the tests check each entry against
/// the 12-stone book's).
pub const SMALL_BOOK: &[u8] = include_bytes!("../books/7x6-8.c4book");

/// A solver of one board size on one thread, its table allocated once and kept
/// between calls.
#[wasm_bindgen]
pub struct Engine {
    solver: Solver,
}

/// The size written `text` (`"8x8"`), if this build holds it.
fn size_of(text: &str) -> Result<Size, String> {
    let size: Size = text.parse().map_err(|e: SizeError| e.to_string())?;
    size.built().map_err(|e| e.to_string())
}

#[wasm_bindgen]
impl Engine {
    /// A solver of the `size` board (`"8x8"`; 7x6 when left out) with a table of
    /// `table_mb` megabytes (at least 1), with the 8-stone 7x6 book
    /// ([`SMALL_BOOK`]) when `book` is true and the board is 7x6 (the other sizes
    /// have no book inside). A size this build does not hold is refused with the
    /// command line's message.
    #[wasm_bindgen(constructor)]
    pub fn new(table_mb: usize, book: bool, size: Option<String>) -> Result<Engine, String> {
        let size = match size {
            Some(text) => size_of(&text)?,
            None => Size::STANDARD,
        };
        let config = Config {
            table_mb: table_mb.max(1),
            threads: 1,
            ..Config::default()
        };
        let mut solver = Solver::new(size, config).map_err(|e| e.to_string())?;
        if book && size == Size::STANDARD {
            let small = Book::from_bytes(size, SMALL_BOOK.to_vec()).map_err(|e| e.to_string())?;
            solver.set_book(Some(&small));
        }
        Ok(Engine { solver })
    }

    /// The board size, `"WxH"`.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> String {
        self.solver.size().to_string()
    }

    /// Answers from the book in `bytes` (a `.c4book` file of this board size,
    /// such as the command line's built-in 12-stone 7x6 book that
    /// `scripts/build-web` writes as `book.c4book`) from now on, and returns its
    /// depth. The file is checked whole first; a bad one (or a shard) is refused
    /// with the reason the command line gives for it (`c4solver --book FILE`), and
    /// the engine keeps the book it had.
    #[wasm_bindgen(js_name = loadBook)]
    pub fn load_book(&mut self, bytes: &[u8]) -> Result<u32, String> {
        let book =
            Book::from_bytes(self.solver.size(), bytes.to_vec()).map_err(|e| e.to_string())?;
        let depth = book.depth() as u32;
        self.solver.set_book(Some(&book));
        Ok(depth)
    }

    /// The online solver's answer for `moves` (the columns played, 1-based):
    /// `{"pos": moves, "score": [one per column]}`, 100 for a full column
    /// ([`Answer::online_json`], as the server's `/solve`).
    pub fn solve(&mut self, moves: &str) -> Result<String, String> {
        let answer = self.answer(moves, false, false)?;
        Ok(answer.online_json(&answer.moves))
    }

    /// The library's [`Answer`] as JSON, the answer of `c4solver analyze --json`
    /// and of the server's `/analyze` (docs/answer.md): the position's score, each
    /// column's (`null` for a full one), the best columns, whether the book gave
    /// every score, nodes, microseconds, and with `pv` the line of best play.
    /// `weak` gives only each score's sign.
    pub fn analyze(&mut self, moves: &str, weak: bool, pv: bool) -> Result<String, String> {
        let answer = self.answer(moves, weak, pv)?;
        serde_json::to_string(&answer).map_err(|e| e.to_string())
    }

    /// The answer of `c4solver --json` (solve): the position's score alone, with
    /// nodes and microseconds (`weak`: only its sign).
    pub fn score(&mut self, moves: &str, weak: bool) -> Result<String, String> {
        let (moves, pos) = parse_pos(self.solver.size(), moves)?;
        let s = self
            .solver
            .solve(&pos, mode(weak))
            .map_err(|e| e.to_string())?;
        Ok(json!({
            "moves": moves,
            "score": s.score,
            "nodes": s.nodes,
            "time_us": s.time.as_micros() as u64,
        })
        .to_string())
    }

    /// The book's depth: every position with at most this many stones is answered
    /// without a search (`None` without a book).
    #[wasm_bindgen(js_name = bookDepth)]
    pub fn book_depth(&self) -> Option<u32> {
        self.solver.book_depth().map(|d| d as u32)
    }
}

impl Engine {
    /// Parses `moves` as the server parses its `pos` and answers it.
    fn answer(&mut self, moves: &str, weak: bool, pv: bool) -> Result<Answer, String> {
        let (moves, pos) = parse_pos(self.solver.size(), moves)?;
        self.solver
            .answer(moves, &pos, mode(weak), pv)
            .map_err(|e| e.to_string())
    }
}

fn mode(weak: bool) -> Mode {
    if weak { Mode::Weak } else { Mode::Strong }
}

/// Whether this build holds the board size written `text` (`"8x8"`): `true` if
/// it does, `false` for a size that only the `all-sizes` build holds; any other
/// size (not `WxH`, too small, too large, over 64 bits and not one of the wide
/// sizes) is refused with the command line's message.
#[wasm_bindgen(js_name = checkSize)]
pub fn check_size(text: &str) -> Result<bool, String> {
    let size: Size = text.parse().map_err(|e: SizeError| e.to_string())?;
    match size.built() {
        Ok(_) => Ok(true),
        Err(SizeError::NotBuilt(_)) => Ok(false),
        Err(e) => Err(e.to_string()),
    }
}

/// The sizes this build holds, `"WxH"` ([`Size::BUILT`]).
#[wasm_bindgen(js_name = builtSizes)]
pub fn built_sizes() -> Vec<String> {
    Size::BUILT.iter().map(Size::to_string).collect()
}

/// The sizes of the `all-sizes` build, `"WxH"`: [`Size::ALL`] then
/// [`Size::WIDE`], what that build's [`Size::BUILT`] holds (the tests compare
/// the two builds), so that the page lists them before it loads that build.
#[wasm_bindgen(js_name = everySize)]
pub fn every_size() -> Vec<String> {
    Size::ALL
        .iter()
        .chain(&Size::WIDE)
        .map(Size::to_string)
        .collect()
}

/// Parses a position given alone, as the server parses its `pos`
/// ([`c4solver::Line::parse_pos`]): the move string and its position, or the
/// command line's message.
pub fn parse_pos(size: Size, text: &str) -> Result<(&str, Position), String> {
    let line = c4solver::Line::parse_pos(size, text.as_bytes()).map_err(|e| e.to_string())?;
    Ok((line.moves, line.position))
}
