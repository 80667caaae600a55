//! `c4solver play`: a game against the solver, in a terminal or driven by a script
//! through stdin.
//!
//! The board is drawn after every move (coloured discs when stdout is a terminal,
//! `x` and `o` otherwise). The human types a column, `h` (every column's score),
//! `u` (take back the last pair of moves) or `q` (quit); an invalid line is
//! reported and asked again. The game ends with one line, `result: solver wins`,
//! `result: you win` or `result: draw`, or quietly at `q` or the end of the input.
//! The solver keeps its table from move to move (the positions of one game share
//! most of their subtrees), and Ctrl-C stops it at once, thinking or waiting.

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{SystemTime, UNIX_EPOCH};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use c4solver::SolveError;
use c4solver::{Mode, MoveError, Position, Solver};

use super::Exit;
use super::args::{EngineArgs, FirstArg, LevelArg, PlayArgs};
use super::engine;
use super::output;
use super::progress;
use super::signals::Signals;
use super::source::{self, Message};
use c4solver::lines::{excerpt, quoted};

/// How far below the best move's score a level may play (0: always a best move).
pub fn margin(level: LevelArg) -> i32 {
    match level {
        LevelArg::Perfect => 0,
        LevelArg::Strong => 2,
        LevelArg::Medium => 5,
        LevelArg::Easy => 10,
    }
}

/// What the human typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Typed {
    /// Play this column (0-based).
    Column(usize),
    /// Show every column's score.
    Hint,
    /// Take back the last pair of moves.
    Undo,
    /// End the game.
    Quit,
}

/// Reads one line typed by the human: `None` for a blank line, or why it is not a
/// move of `pos` (the move numbered as in the game).
fn parse_input(bytes: &[u8], pos: &Position) -> Result<Option<Typed>, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("invalid UTF-8 at byte {}", e.valid_up_to()))?
        .trim();
    let index = pos.moves_played() + 1;
    let width = pos.size().width;
    match text.to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "h" | "hint" => Ok(Some(Typed::Hint)),
        "u" | "undo" => Ok(Some(Typed::Undo)),
        "q" | "quit" => Ok(Some(Typed::Quit)),
        _ => {
            // A number, or on boards wider than nine the column's letter.
            let mut chars = text.chars();
            let letter = match (chars.next(), chars.next()) {
                (Some(ch), None) if ch.is_ascii_alphabetic() => pos.column_of_symbol(ch),
                _ => None,
            };
            let Some(column) = text.parse::<u32>().ok().or(letter) else {
                return Err(format!(
                    "expected a column (1-{}), h, u or q, found {}",
                    Position::column_symbol(width - 1),
                    quoted(text)
                ));
            };
            if column == 0 || column as usize > width {
                return Err(MoveError::ColumnOutOfRange {
                    index,
                    column,
                    width,
                }
                .to_string());
            }
            let col = column as usize - 1;
            if !pos.can_play(col) {
                return Err(MoveError::ColumnFull {
                    index,
                    column: col + 1,
                }
                .to_string());
            }
            Ok(Some(Typed::Column(col)))
        }
    }
}

/// The board, top row first, with the column numbers under it, 4 characters a
/// column (room for a score, `-18`, under each): `x` (or a red disc) for the
/// first player, `o` (or a yellow disc) for the second.
fn draw(pos: &Position, colour: bool) -> String {
    let size = pos.size();
    let first_to_move = pos.moves_played().is_multiple_of(2);
    let mut s = String::new();
    for row in (0..size.height).rev() {
        for col in 0..size.width {
            let cell = match pos.cell(col, row) {
                None if colour => "\x1b[2m·\x1b[0m",
                None => ".",
                Some(mine) => match (mine == first_to_move, colour) {
                    (true, true) => "\x1b[1;31m●\x1b[0m",
                    (false, true) => "\x1b[1;33m●\x1b[0m",
                    (true, false) => "x",
                    (false, false) => "o",
                },
            };
            s.push_str("   ");
            s.push_str(cell);
        }
        s.push('\n');
    }
    for col in 0..size.width {
        s.push_str(&format!("{:>4}", Position::column_symbol(col)));
    }
    s.push('\n');
    s
}

/// The game so far.
struct Game {
    pos: Position,
    /// Every move from the empty board.
    history: Vec<usize>,
    /// Moves of the starting position (never taken back).
    start: usize,
    human_first: bool,
}

impl Game {
    fn humans_turn(&self) -> bool {
        self.pos.moves_played() % 2 == usize::from(!self.human_first)
    }

    /// Plays `col`; `Some(result line)` if the game is over.
    fn play(&mut self, col: usize) -> Option<&'static str> {
        let wins = self.pos.is_winning_move(col);
        let human = self.humans_turn();
        // The callers give a free column of a game not over.
        if self.pos.play(col).is_err() {
            return None;
        }
        self.history.push(col);
        match (wins, human) {
            (true, true) => Some("result: you win"),
            (true, false) => Some("result: solver wins"),
            (false, _) if self.pos.is_full() => Some("result: draw"),
            (false, _) => None,
        }
    }

    /// Takes back the last pair of moves (the human's and the solver's reply);
    /// false if there is none.
    fn undo(&mut self) -> bool {
        if self.history.len() < self.start + 2 {
            return false;
        }
        self.history.truncate(self.history.len() - 2);
        let Ok(mut pos) = Position::new(self.pos.size()) else {
            return false;
        };
        for &c in &self.history {
            if pos.play(c).is_err() {
                return false;
            }
        }
        self.pos = pos;
        true
    }
}

/// Where the game is shown.
struct Screen {
    out: io::Stdout,
    colour: bool,
    interactive: bool,
}

impl Screen {
    fn say(&mut self, text: &str) -> io::Result<()> {
        let mut out = self.out.lock();
        out.write_all(text.as_bytes())?;
        out.flush()
    }
}

/// Plays one game.
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run(args: &PlayArgs, engine_args: &EngineArgs, signals: &Signals) -> anyhow::Result<Exit> {
    // The positions of one game share most of their subtrees: keep the table.
    let mut engine_args = engine_args.clone();
    engine_args.keep_table = true;
    let mut solver = engine::team_solver(&engine_args, "play")?;
    solver.set_stop_flag(signals.stop_flag().clone());
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut screen = Screen {
        out: io::stdout(),
        colour: io::stdout().is_terminal() && !no_color(),
        interactive: io::stdin().is_terminal(),
    };
    let pos = match Position::parse(engine_args.size, &args.start) {
        Ok(pos) => pos,
        Err(e) => anyhow::bail!("--start {}: {e}", excerpt(&args.start)),
    };
    // Every symbol names a column: the string parsed.
    let history: Vec<usize> = args
        .start
        .chars()
        .filter_map(|ch| pos.column_of_symbol(ch))
        .map(|c| c as usize - 1)
        .collect();
    let mut game = Game {
        pos,
        start: history.len(),
        history,
        human_first: args.first == FirstArg::Human,
    };
    let mut input = source::spawn(&[], 4)?;
    let played = play(
        &mut game,
        &mut solver,
        &mut screen,
        &mut input,
        signals,
        |s, pos| choose(s, pos, args.level, &mut rng),
    );
    match played {
        Ok(outcome) => Ok(outcome),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Exit::Ok),
        Err(e) => Err(output::write_error(e)),
    }
}

/// Whether the environment asks for no colour (`NO_COLOR` set and not empty,
/// as no-color.org says): the discs are then `x` and `o`.
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// The solver's move at `level`: the best move nearest the centre at `perfect`,
/// otherwise one at random among those within the level's margin of the best.
fn choose(
    solver: &mut Solver,
    pos: &Position,
    level: LevelArg,
    rng: &mut ChaCha8Rng,
) -> Result<usize, SolveError> {
    let margin = margin(level);
    if margin == 0 {
        let best = solver.best_move(pos, Mode::Strong)?;
        return Ok(best.expect("the game is not over: a column is free"));
    }
    let choice = solver.moves_within(pos, Mode::Strong, margin)?;
    Ok(choice.columns[rng.random_range(0..choice.columns.len())])
}

/// The game loop; `Ok` when the game ended, was quit, ran out of input or was
/// stopped by a signal (the caller's exit code says which).
fn play(
    game: &mut Game,
    solver: &mut Solver,
    screen: &mut Screen,
    input: &mut source::Input,
    signals: &Signals,
    mut choose: impl FnMut(&mut Solver, &Position) -> Result<usize, SolveError>,
) -> io::Result<Exit> {
    greet(game, screen)?;
    let mut outcome = Exit::Ok;
    if game.pos.is_full() {
        screen.say("result: draw\n")?;
        return Ok(outcome);
    }
    loop {
        if !game.humans_turn() && !solvers_turn(game, solver, screen, &mut choose)? {
            return Ok(outcome);
        }
        if screen.interactive {
            screen.say("your move: ")?;
        }
        let line = match next_line(input, signals) {
            ControlFlow::Continue(line) => line,
            ControlFlow::Break(end) => return Ok(outcome.worst(end)),
        };
        let command = match parse_input(&line.bytes, &game.pos) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(reason) => {
                outcome = outcome.worst(Exit::BadInput);
                if screen.interactive {
                    eprintln!("c4solver: {reason}");
                } else {
                    eprintln!("c4solver: {}: {reason}", line.place());
                }
                continue;
            }
        };
        let goes_on = match command {
            Typed::Quit => false,
            Typed::Undo => {
                if game.undo() {
                    screen.say(&draw(&game.pos, screen.colour))?;
                } else {
                    screen.say("nothing to take back\n")?;
                }
                true
            }
            Typed::Hint => hint(game, solver, screen)?,
            Typed::Column(col) => play_and_show(game, col, screen)?,
        };
        if !goes_on {
            return Ok(outcome);
        }
    }
}

/// Says who plays what and how to play, and draws the starting board.
fn greet(game: &Game, screen: &mut Screen) -> io::Result<()> {
    let (you, it) = match (game.human_first, screen.colour) {
        (true, true) => ("red", "yellow"),
        (false, true) => ("yellow", "red"),
        (true, false) => ("x", "o"),
        (false, false) => ("o", "x"),
    };
    let order = if game.human_first { "first" } else { "second" };
    screen.say(&format!(
        "You are {you} and play {order}; the solver is {it}. \
         Type a column (1-{}), h for every column's score, u to take back, q to quit.\n",
        Position::column_symbol(game.pos.size().width - 1)
    ))?;
    screen.say(&draw(&game.pos, screen.colour))
}

/// The solver's move, chosen, played and shown; false when the game is over
/// after it, or a signal stopped the search.
fn solvers_turn(
    game: &mut Game,
    solver: &mut Solver,
    screen: &mut Screen,
    choose: &mut impl FnMut(&mut Solver, &Position) -> Result<usize, SolveError>,
) -> io::Result<bool> {
    let spinner = progress::spinner("thinking");
    let chosen = choose(solver, &game.pos);
    spinner.finish_and_clear();
    let Ok(col) = chosen else {
        // Stopped by a signal.
        return Ok(false);
    };
    screen.say(&format!("solver plays {}\n", Position::column_symbol(col)))?;
    play_and_show(game, col, screen)
}

/// Plays `col` and draws the board, with the result line if the game is over
/// (then false).
fn play_and_show(game: &mut Game, col: usize, screen: &mut Screen) -> io::Result<bool> {
    let over = game.play(col);
    screen.say(&draw(&game.pos, screen.colour))?;
    if let Some(result) = over {
        screen.say(&format!("{result}\n"))?;
        return Ok(false);
    }
    Ok(true)
}

/// The next line the human typed, waited for; `Break` with what it adds to the
/// exit code when none comes: a signal or the end of the input (nothing), or
/// input that cannot be read (a failure, its message printed).
fn next_line(input: &mut source::Input, signals: &Signals) -> ControlFlow<Exit, source::Line> {
    loop {
        if signals.stop_flag().is_stopped() {
            return ControlFlow::Break(Exit::Ok);
        }
        match input.recv_timeout(source::POLL) {
            Ok(Message::Line(line)) => return ControlFlow::Continue(line),
            Ok(Message::Failed { message, .. }) => {
                eprint!("{message}");
                return ControlFlow::Break(Exit::Failure);
            }
            Err(RecvTimeoutError::Timeout) => {}
            // The end of the input.
            Err(RecvTimeoutError::Disconnected) => return ControlFlow::Break(Exit::Ok),
        }
    }
}

/// Shows every column's score for the human; false if a signal stopped the
/// search.
fn hint(game: &Game, solver: &mut Solver, screen: &mut Screen) -> io::Result<bool> {
    let spinner = progress::spinner("analysing");
    let analysis = solver.analyze(&game.pos, Mode::Strong);
    spinner.finish_and_clear();
    let Ok(analysis) = analysis else {
        return Ok(false);
    };
    let mut text = String::new();
    for s in analysis.scores() {
        match s {
            Some(s) => text.push_str(&format!("{s:>4}")),
            None => text.push_str("   -"),
        }
    }
    let best = analysis.best_move().map_or('-', Position::column_symbol);
    text.push_str(&format!(
        "  your score per column (> 0 wins, 0 draws, < 0 loses); best: {best}\n"
    ));
    screen.say(&text)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4solver::Size;

    fn p7(moves: &str) -> Position {
        Position::parse(Size::STANDARD, moves).unwrap()
    }

    #[test]
    fn inputs_and_their_errors() {
        let pos = p7("1111");
        assert_eq!(parse_input(b" 4 \r", &pos), Ok(Some(Typed::Column(3))));
        assert_eq!(parse_input(b"H", &pos), Ok(Some(Typed::Hint)));
        assert_eq!(parse_input(b"u", &pos), Ok(Some(Typed::Undo)));
        assert_eq!(parse_input(b"quit", &pos), Ok(Some(Typed::Quit)));
        assert_eq!(parse_input(b"  ", &pos), Ok(None));
        assert_eq!(
            parse_input(b"8", &pos).unwrap_err(),
            "column 8 is out of range (1..=7) at move 5"
        );
        assert_eq!(
            parse_input(b"0", &pos).unwrap_err(),
            "column 0 is out of range (1..=7) at move 5"
        );
        assert_eq!(
            parse_input(b"x", &pos).unwrap_err(),
            "expected a column (1-7), h, u or q, found \"x\""
        );
        // A huge line is not repeated in full.
        let long = "y".repeat(4096);
        assert_eq!(
            parse_input(long.as_bytes(), &pos).unwrap_err(),
            format!(
                "expected a column (1-7), h, u or q, found \"{}\"... (4096 bytes)",
                "y".repeat(40)
            )
        );
        assert_eq!(
            parse_input(b"\xff", &pos).unwrap_err(),
            "invalid UTF-8 at byte 0"
        );
        let full = p7("111111");
        assert_eq!(
            parse_input(b"1", &full).unwrap_err(),
            "column 1 is already full at move 7"
        );
    }

    #[test]
    fn wide_boards_take_numbers_and_letters() {
        let Ok(wide) = Size::new(12, 4).unwrap().built() else {
            return;
        };
        let pos = Position::new(wide).unwrap();
        for (typed, col) in [
            ("10", 9),
            ("a", 9),
            ("B", 10),
            ("12", 11),
            ("c", 11),
            ("9", 8),
        ] {
            assert_eq!(
                parse_input(typed.as_bytes(), &pos),
                Ok(Some(Typed::Column(col))),
                "{typed}"
            );
        }
        assert_eq!(
            parse_input(b"d", &pos).unwrap_err(),
            "column 13 is out of range (1..=12) at move 1"
        );
        assert_eq!(
            parse_input(b"xy", &pos).unwrap_err(),
            "expected a column (1-c), h, u or q, found \"xy\""
        );
        // on 7x6 a letter is not a column
        assert_eq!(
            parse_input(b"a", &p7("")).unwrap_err(),
            "expected a column (1-7), h, u or q, found \"a\""
        );
        let lines: Vec<String> = draw(&Position::parse(wide, "9ab").unwrap(), false)
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(
            lines[4].split_whitespace().collect::<String>(),
            "123456789abc"
        );
        assert_eq!(
            lines[3].split_whitespace().collect::<String>(),
            "........xox."
        );
    }

    #[test]
    fn the_plain_board_shows_who_played_where() {
        let pos = p7("4453");
        let text = draw(&pos, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[4], "   .   .   .   o   .   .   .");
        assert_eq!(lines[5], "   .   .   o   x   x   .   .");
        assert_eq!(lines[6], "   1   2   3   4   5   6   7");
        assert!(!text.contains('\x1b'));
        assert!(draw(&pos, true).contains("\x1b[1;31m●"));
    }

    #[test]
    fn undo_takes_back_a_pair_and_keeps_the_solvers_opening() {
        let mut g = Game {
            pos: p7(""),
            history: Vec::new(),
            start: 0,
            human_first: false,
        };
        assert!(!g.humans_turn());
        assert_eq!(g.play(3), None);
        assert!(g.humans_turn());
        assert!(!g.undo(), "the solver's first move stays");
        g.play(0);
        g.play(3);
        assert!(g.undo());
        assert_eq!(g.pos, p7("4"));
        let mut h = Game {
            pos: p7(""),
            history: Vec::new(),
            start: 0,
            human_first: true,
        };
        assert!(!h.undo());
        for c in [0, 1, 0, 1, 0, 1] {
            assert_eq!(h.play(c), None);
        }
        assert_eq!(h.play(0), Some("result: you win"));
    }
}
