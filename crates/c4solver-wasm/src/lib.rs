//! c4solver in the browser: one [`Engine`] (a 7x6 solver with its table and an
//! opening book) bound to JavaScript with `wasm-bindgen`. Every answer is the JSON
//! text that `c4solver serve` sends for the same request, so that the page has one
//! code path whichever answers it; every error is the command line's message.
//!
//! The `.wasm` carries the 8-stone book (132,552 bytes) instead of the library's
//! built-in 12-stone one (8.4 MB), so that the page starts after a download of
//! under a megabyte; the page then fetches the 12-stone book as a file and hands it
//! to [`Engine::load_book`], answering exactly from the small book meanwhile.
//!
//! ```
//! let mut engine = c4solver_wasm::Engine::new(16, true).unwrap();
//! let json = engine.solve("4455").unwrap();
//! assert_eq!(json, r#"{"pos":"4455","score":[-4,-3,18,2,2,18,-3]}"#);
//! ```

use c4solver::parse_pos;
use c4solver::{Answer, Book7x6, Config, Mode, Solver7x6};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// The 8-stone book: every position of up to 8 stones, one entry per mirror pair
/// (the library's former built-in book; the tests check each entry against the
/// 12-stone book's).
pub const SMALL_BOOK: &[u8] = include_bytes!("../books/7x6-8.c4book");

/// The online solver's score for a column that cannot be played.
pub const FULL_COLUMN: i32 = 100;

/// A 7x6 solver on one thread, its table allocated once and kept between calls.
#[wasm_bindgen]
pub struct Engine {
    solver: Solver7x6,
}

#[wasm_bindgen]
impl Engine {
    /// A solver with a table of `table_mb` megabytes (at least 1), with the
    /// 8-stone book ([`SMALL_BOOK`]) when `book` is true.
    #[wasm_bindgen(constructor)]
    pub fn new(table_mb: usize, book: bool) -> Result<Engine, String> {
        let config = Config {
            table_mb: table_mb.max(1),
            threads: 1,
            ..Config::default()
        };
        let mut solver = Solver7x6::new(config).map_err(|e| e.to_string())?;
        if book {
            let small = Book7x6::from_bytes(SMALL_BOOK.to_vec()).map_err(|e| e.to_string())?;
            solver.set_book(Some(small));
        }
        Ok(Engine { solver })
    }

    /// Answers from the book in `bytes` (a `.c4book` file, such as the command
    /// line's built-in 12-stone book that `scripts/build-web` writes as
    /// `book.c4book`) from now on, and returns its depth. The file is checked
    /// whole first; a bad one (or a shard) is refused with the reason the command
    /// line gives for it (`c4solver --book FILE`), and the engine keeps the book it
    /// had.
    #[wasm_bindgen(js_name = loadBook)]
    pub fn load_book(&mut self, bytes: &[u8]) -> Result<u32, String> {
        let book = Book7x6::from_bytes(bytes.to_vec()).map_err(|e| e.to_string())?;
        book.require_whole().map_err(|e| e.to_string())?;
        let depth = book.depth() as u32;
        self.solver.set_book(Some(book));
        Ok(depth)
    }

    /// The online solver's answer for `moves` (the columns played, 1-based):
    /// `{"pos": moves, "score": [one per column]}`, 100 for a full column.
    pub fn solve(&mut self, moves: &str) -> Result<String, String> {
        let answer = self.answer(moves, false, false)?;
        let score: Vec<i32> = answer
            .scores
            .iter()
            .map(|s| s.unwrap_or(FULL_COLUMN))
            .collect();
        Ok(json!({ "pos": answer.moves, "score": score }).to_string())
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
        let query = parse_pos::<7, 6, u64>(moves.as_bytes()).map_err(|e| e.to_string())?;
        let mode = if weak { Mode::Weak } else { Mode::Strong };
        let s = self
            .solver
            .solve(&query.position, mode)
            .map_err(|e| e.to_string())?;
        Ok(json!({
            "moves": query.moves,
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
    /// Parses `moves` as the server parses its `pos` (the command line's rules,
    /// and no second field: the same message on both pages) and answers it.
    fn answer(&mut self, moves: &str, weak: bool, pv: bool) -> Result<Answer, String> {
        let query = parse_pos::<7, 6, u64>(moves.as_bytes()).map_err(|e| e.to_string())?;
        let mode = if weak { Mode::Weak } else { Mode::Strong };
        self.solver
            .answer(query.moves, &query.position, mode, pv)
            .map_err(|e| e.to_string())
    }
}
