//! Command-line definitions (clap derive). The doc comments are the help text;
//! `docs/cli.md` documents the same commands and options (a test compares them).

use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use c4solver::bench::{Difficulty, Stage};
use c4solver::book::Shard;
use c4solver::{Size, SolverKind};

/// An exact Connect Four solver.
///
/// With no subcommand, solves the positions of the files named on the command
/// line, or of stdin (as `solve`).
///
/// Exit codes: 0 all good; 1 some line invalid or some score mismatched;
/// 2 usage or I/O error (bad flag, unreadable file, table too large);
/// 130 interrupted by SIGINT (Ctrl-C); 143 stopped by SIGTERM.
#[derive(Parser, Debug)]
#[command(name = "c4solver", version)]
pub struct Cli {
    /// What to do (default: solve files or stdin).
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Options of bare `c4solver` (same as `solve`); with a subcommand they are
    /// refused by [`Cli::validate`] with a message naming it.
    #[command(flatten)]
    pub solve: SolveArgs,

    /// Files of bare `c4solver` (default: stdin; `-` is stdin).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Solver options.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve positions, one per line, from files or stdin.
    ///
    /// Each line is a move string (1-based columns, "4453"; empty = the starting
    /// position), optionally followed by the expected score, which is then
    /// checked. Prints `moves score nodes microseconds` per line, as soon as it is
    /// solved. An invalid line prints `c4solver: [FILE: ]line N: <reason>` on
    /// stderr and an empty line on stdout.
    Solve(SolveFiles),
    /// Run test sets, check every score, and print the benchmark tables.
    Bench(BenchArgs),
    /// Generate a test set of random positions labelled by the strong solver.
    ///
    /// Possible stage and difficulty pairs: end easy; middle easy, middle medium;
    /// begin easy, begin medium, begin hard (a position with s stones ends within
    /// 42 - s moves).
    Generate(GenerateArgs),
    /// Score every move of positions, one per line, from files or stdin.
    ///
    /// Each line is a move string, optionally followed by the expected score of
    /// the position (its best move's score), which is then checked. Prints
    /// `moves s1 s2 s3 s4 s5 s6 s7` per line, the score of each column from the
    /// side to move, -1000 for a full column (the line the tutorial's program
    /// prints with -a); a move that wins at once scores (43 - stones) / 2.
    Analyze(AnalyzeArgs),
    /// Play a game against the solver in the terminal.
    ///
    /// Type a column (1-7) to play it, h for every column's score, u to take
    /// back the last pair of moves, q to quit. When stdin is not a terminal, reads
    /// one column per line and ends with `result: solver wins`, `result: you win`
    /// or `result: draw` (or quietly at the end of the input).
    Play(PlayArgs),
    /// Opening books: generate one (resumable, sharded across machines), merge
    /// shards, verify one against a book-free solve, describe one, export one's
    /// positions with their scores.
    Book(BookArgs),
    /// Serve the board page and the HTTP API (/solve, /analyze, /health, /metrics).
    ///
    /// Prints the URL once it listens. `GET /solve?pos=MOVES` answers as the
    /// online solver does, `{"pos":MOVES,"score":[...]}`, one score per column
    /// (100 for a full one); `GET /analyze?pos=MOVES&weak=1&pv=1` (both switches
    /// optional) with the fields of `analyze --json`; `GET /metrics` in the
    /// Prometheus text format. Searches run on --threads solver threads behind a
    /// bounded queue, one per answer at a time; SIGINT or SIGTERM stops
    /// accepting, lets the requests in flight finish (at most --grace) and exits
    /// with 130 or 143.
    Serve(ServeArgs),
}

/// `book` arguments.
#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// What to do with books.
    #[command(subcommand)]
    pub action: BookAction,
}

/// `book` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum BookAction {
    /// Solve every position of the deepest layer (or one shard of it) on every
    /// core, then fill the shallower layers and write the book.
    ///
    /// Resumable: every solved position goes at once into the checkpoint
    /// OUT.ckpt; stopped at any moment and started again with the same
    /// arguments, it goes on where it was.
    Generate(BookGenerateArgs),
    /// Merge the K shards of one generation into a book.
    Merge(BookMergeArgs),
    /// Check a book: its positions against the enumerated layers, its layers
    /// against each other, and a random sample of its deepest layer (default:
    /// all of it) against a book-free solve. Prints `moves score` per entry
    /// re-solved.
    Verify(BookVerifyArgs),
    /// Describe a book (default: the built-in one): depth, entries, bytes,
    /// checksum, and won, drawn and lost positions per number of stones.
    Info(BookInfoArgs),
    /// Print a book's positions (default: the built-in one's) with their exact
    /// scores, `MOVES SCORE` a line, as `c4solver` reads and checks them: one
    /// position per mirror pair (`--mirrors`: both), layer by layer from 1
    /// stone, each in ascending key order. The empty board is left out: a line
    /// cannot give it a score (an empty line is the empty board with none).
    Export(BookExportArgs),
}

/// `book generate` arguments.
#[derive(Args, Debug, Clone)]
pub struct BookGenerateArgs {
    /// The book's depth: the most stones of a stored position (0 to 41).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=41))]
    pub depth: u8,

    /// Solve only shard I of K of the deepest layer (then `book merge` the K
    /// shards).
    #[arg(long, value_name = "I/K", value_parser = shard)]
    pub shard: Option<Shard>,

    /// The book (or shard) file to write; the checkpoint is OUT.ckpt.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `book merge` arguments.
#[derive(Args, Debug, Clone)]
pub struct BookMergeArgs {
    /// The shard files (all K of them, in any order).
    #[arg(value_name = "SHARD", required = true)]
    pub shards: Vec<PathBuf>,

    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `book verify` arguments.
#[derive(Args, Debug, Clone)]
pub struct BookVerifyArgs {
    /// The book (or shard) file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Re-solve only K entries of the deepest layer drawn at random (default:
    /// every entry of the deepest layer).
    #[arg(long, value_name = "K", value_parser = at_least_one)]
    pub sample: Option<u64>,

    /// Seed of the random sample (same seed, same sample).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// `book info` arguments.
#[derive(Args, Debug, Clone)]
pub struct BookInfoArgs {
    /// The book (or shard) file (default: the built-in book).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `book export` arguments.
#[derive(Args, Debug, Clone)]
pub struct BookExportArgs {
    /// The book file (default: the built-in book).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Only the positions of K stones, 1 to the book's depth (default: every
    /// layer from 1 stone).
    #[arg(long, value_name = "K")]
    pub stones: Option<usize>,

    /// Both positions of a mirror pair (the mirror image too, when it differs).
    #[arg(long)]
    pub mirrors: bool,
}

/// Options shared by `solve` and bare `c4solver`.
#[derive(Args, Debug, Clone, Default)]
pub struct SolveArgs {
    /// Weak solver: print only the sign of the score (1 win, 0 draw, -1 loss).
    #[arg(short, long)]
    pub weak: bool,

    /// Print one JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,

    /// Count table statistics: a `stats` field per line with --json, otherwise
    /// their totals on stderr at the end (research).
    #[cfg(feature = "research")]
    #[arg(long)]
    pub stats: bool,
}

impl SolveArgs {
    /// The options set, as written on the command line.
    fn named(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.weak {
            v.push("--weak");
        }
        if self.json {
            v.push("--json");
        }
        if self.stats() {
            v.push("--stats");
        }
        v
    }

    /// Whether `--stats` was given (never without the `research` feature).
    pub fn stats(&self) -> bool {
        #[cfg(feature = "research")]
        return self.stats;
        #[cfg(not(feature = "research"))]
        false
    }
}

/// `solve` arguments.
#[derive(Args, Debug, Clone)]
pub struct SolveFiles {
    /// Options.
    #[command(flatten)]
    pub args: SolveArgs,

    /// Files to read (default: stdin; `-` is stdin).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `bench` arguments.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Run the strong solver only (default: both strong and weak).
    #[arg(short, long, conflicts_with = "weak")]
    pub strong: bool,

    /// Run the weak solver only (default: both strong and weak).
    #[arg(short, long)]
    pub weak: bool,

    /// Solve only the first N positions of each set (N >= 1).
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    pub limit: Option<u64>,

    /// Print JSON instead of markdown tables.
    #[arg(long)]
    pub json: bool,

    /// Compare configurations: every combination of --solver, --table, --replace,
    /// --depth-measure and --table-mb runs on the same positions, with table statistics;
    /// one row per configuration, nodes relative to the reference search's own
    /// table (or the first configuration). Combinations a table design does not
    /// offer are left out, with a note on stderr (research).
    #[cfg(feature = "research")]
    #[arg(long)]
    pub compare: bool,

    /// Test-set files (`moves score` lines; default: every set in `testsets/` but
    /// `begin-hard`, whose positions take seconds each).
    #[arg(value_name = "SET")]
    pub sets: Vec<PathBuf>,
}

impl BenchArgs {
    /// Whether `--compare` was given (never without the `research` feature).
    pub fn compare(&self) -> bool {
        #[cfg(feature = "research")]
        return self.compare;
        #[cfg(not(feature = "research"))]
        false
    }
}

/// `generate` arguments.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// Stones on the board: end (29-42), middle (15-28), begin (1-14).
    #[arg(long, value_enum)]
    pub stage: StageArg,

    /// Moves left under perfect play: easy (0-14), medium (15-28), hard (29-42).
    #[arg(long, value_enum)]
    pub difficulty: DifficultyArg,

    /// Positions to generate (N >= 1).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = at_least_one)]
    pub count: u64,

    /// Seed of the random games (same seed, same output).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// `analyze` arguments.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    /// Weak solver: print only the sign of each score (1 win, 0 draw, -1 loss).
    #[arg(short, long)]
    pub weak: bool,

    /// Append a line of best play for both sides to the end of the game (the
    /// principal variation) as one more field.
    #[arg(long)]
    pub pv: bool,

    /// Print one JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,

    /// Files to read (default: stdin; `-` is stdin).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `play` arguments.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Who plays the first move.
    #[arg(long, value_enum, default_value = "human")]
    pub first: FirstArg,

    /// How well the solver plays: perfect always plays a best move (the fastest
    /// win, the slowest loss); strong, medium and easy pick at random among the
    /// moves within 2, 5 and 10 points of the best.
    #[arg(long, value_enum, default_value = "perfect")]
    pub level: LevelArg,

    /// Seed of the random choices of the lower levels (default: from the clock).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Start from this position (the moves already played, "4453") instead of
    /// the empty board; --first still says who has the first player's stones.
    #[arg(long, value_name = "MOVES", default_value = "")]
    pub start: String,
}

/// `serve` arguments.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT (port 0: any free port, printed).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,

    /// Requests that may wait for a solver thread, 1 to 1,000,000; one more
    /// gets 503 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = counted(1, MAX_QUEUE))]
    pub queue: usize,

    /// Answers kept in memory, 0 (none) to 10,000,000 (least recently used
    /// dropped first; memory is taken as answers come, at most a few hundred
    /// bytes each).
    #[arg(long, value_name = "N", default_value_t = 100_000,
          value_parser = counted(0, MAX_CACHE))]
    pub cache: usize,

    /// Longest wait of one request for its answer, in the queue and searching,
    /// in seconds; past it the request is answered 503, saying where the time
    /// went, and the search is stopped unless other requests wait for it.
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = at_least_one)]
    pub timeout: u64,

    /// --timeout on a board over 64 bits (--size 7x9 and up), where a position
    /// with few stones can take hours. Default: 60, or --timeout if it is less.
    #[arg(long, value_name = "SECS", value_parser = at_least_one)]
    pub wide_timeout: Option<u64>,

    /// Seconds a connection has to send a whole request head, counted from its
    /// opening or from its previous answer; a silent, idle or half-sent
    /// connection is closed after it.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = at_least_one)]
    pub header_timeout: u64,

    /// Requests a second per client address on /solve and /analyze, past a
    /// burst (--rate-burst); one more gets 429 with Retry-After. 0 (the
    /// default): no limit, for the loopback address where the only clients are
    /// the machine's own. The address is the TCP peer's, never a header.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub rate_limit: u32,

    /// Requests one client address may send at once before --rate-limit
    /// applies (only with --rate-limit). Default: twice --rate-limit (the page
    /// sends a request or two per move; a script may start a few at once).
    #[arg(long, value_name = "N", value_parser = at_least_one_u32, requires = "rate_limit")]
    pub rate_burst: Option<u32>,

    /// Connections open at once, 1 to 1,000,000; one more is answered 503 with
    /// Retry-After and closed. Default 512: half the usual limit of 1024 open
    /// files, the rest left for the server's own files and that answer.
    #[arg(long, value_name = "N", default_value_t = 512,
          value_parser = counted(1, MAX_CONNECTIONS))]
    pub max_connections: usize,

    /// Origins allowed to call the API from a page (CORS), as
    /// https://host or https://host:port; repeat it or give a comma-separated list. Default:
    /// every origin.
    #[arg(long, value_name = "ORIGIN", value_delimiter = ',')]
    pub cors_origin: Vec<String>,

    /// Seconds the requests in flight may go on after SIGINT or SIGTERM before
    /// their searches are stopped (decimals allowed); the process exits at
    /// most a second after. Default 5: within the 10 s `docker stop` waits
    /// before killing.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = grace_secs)]
    pub grace: std::time::Duration,

    /// The access log's format: one line per request on stderr.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// No access log (one line per request on stderr: method, path, status,
    /// milliseconds, cached, nodes).
    #[arg(short, long)]
    pub quiet: bool,
}

/// The default `--wide-timeout`, in seconds.
pub const WIDE_TIMEOUT: u64 = 60;

impl ServeArgs {
    /// A request's limit in seconds on a board over 64 bits (`wide`) or not,
    /// and the option that sets it.
    pub fn limit(&self, wide: bool) -> (u64, &'static str) {
        match self.wide_timeout {
            Some(secs) if wide => (secs, "--wide-timeout"),
            None if wide && self.timeout > WIDE_TIMEOUT => (WIDE_TIMEOUT, "--wide-timeout"),
            _ => (self.timeout, "--timeout"),
        }
    }
}

/// The most `--queue`: far more requests than connections can wait at once.
pub const MAX_QUEUE: usize = 1_000_000;

/// The most `--cache`: a few GB of answers once full.
pub const MAX_CACHE: usize = 10_000_000;

/// The most `--max-connections`: far more than a process may open files.
pub const MAX_CONNECTIONS: usize = 1_000_000;

/// `--log-format` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// `GET /solve?pos=4455 200 0.4ms cached=false nodes=1234`.
    Text,
    /// One JSON object a line: timestamp, level, method, path, status, ms,
    /// cached, nodes, target.
    Json,
}

/// `--first` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstArg {
    /// You play first.
    Human,
    /// The solver plays first.
    Solver,
}

/// `--level` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelArg {
    /// Always a best move.
    Perfect,
    /// At random among the moves within 2 points of the best.
    Strong,
    /// At random among the moves within 5 points of the best.
    Medium,
    /// At random among the moves within 10 points of the best.
    Easy,
}

/// Options that select and size the solver; accepted before or after the subcommand.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search to use (`bench` accepts a comma-separated list). Default: `tuned`.
    #[arg(long, global = true, value_enum, value_delimiter = ',')]
    pub solver: Vec<SolverArg>,

    /// Table memory in MB, in all: shared out equally among the workers (each
    /// gets N / threads, rounded down; less than 1 each is refused; default: 64
    /// per worker). A table holds the largest prime
    /// number of entries (or sets of entries) that fits: 8-byte entries for `upper`
    /// and `bounds` (64 MB: 8,388,593), 8-byte sets of two 4-byte entries for
    /// `compact` (64 MB: 8,388,593 sets; 8-byte entries below 63 MB). The tuned
    /// search also keeps a 2 MB table of its own per thread (16 MB on 7x10, 31 MB
    /// on 6x12) for the nodes with at most 16 empty cells. `bench` accepts a
    /// comma-separated list.
    #[arg(long, global = true, value_name = "N", value_delimiter = ',')]
    pub table_mb: Vec<usize>,

    /// Keep the table between positions instead of clearing it before each one.
    #[arg(long, global = true)]
    pub keep_table: bool,

    /// The table designs, replacement policies and depth measures (research).
    #[cfg(feature = "research")]
    #[command(flatten)]
    pub research: super::research::TableArgs,

    /// Worker threads (default: every core). Lines are solved in parallel, one per
    /// worker with its own table, and printed in input order; when fewer lines
    /// than workers remain, idle workers join the searches still running. `bench`
    /// uses one unless told (with more, it reports throughput).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Opening book: `builtin` (the book built into the program), `none` (every
    /// position is searched) or a book file (write `./none` for a file named
    /// `none`). Every command but `bench` uses the built-in book unless told
    /// otherwise; `bench --book builtin|FILE` runs every set with and without the
    /// book, side by side.
    #[arg(
        long,
        global = true,
        value_name = "builtin|none|FILE",
        conflicts_with = "no_book"
    )]
    pub book: Option<BookArg>,

    /// No opening book: every position is searched (the same as `--book none`).
    #[arg(long, global = true)]
    pub no_book: bool,

    /// Board size, WIDTHxHEIGHT (the sizes of the library's one list; see the long help).
    #[arg(long, global = true, value_name = "WxH", default_value = "7x6", value_parser = built_size,
          long_help = size_help())]
    pub size: Size,
}

/// `--size`'s long help, its sizes from the library's one list of them.
fn size_help() -> String {
    let narrow = &Size::ALL;
    format!(
        "Board size, WIDTHxHEIGHT: any width and height from 4 up whose bitboard fits in 64 \
         bits, width * (height + 1) <= 64 ({} sizes, {} up to {}), and over 64 bits {}, in a \
         program built with the `all-sizes` feature (this one holds {}). Columns past the 9th \
         are written a, b, c. On other sizes than 7x6 there is no built-in book (`book \
         generate` makes one), and each search runs with its own table only.",
        narrow.len(),
        narrow[0],
        Size::listed(&[
            Size::new(8, 7).unwrap(),
            Size::new(12, 4).unwrap(),
            Size::new(4, 15).unwrap()
        ]),
        Size::listed(&Size::WIDE),
        if Size::BUILT.len() == 1 {
            "7x6 alone".to_string()
        } else {
            format!("all {}", Size::BUILT.len())
        },
    )
}

impl EngineArgs {
    /// The solver options given on the command line, but `--size`.
    pub fn given(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        let flags = [
            ("--solver", !self.solver.is_empty()),
            ("--table-mb", !self.table_mb.is_empty()),
            ("--keep-table", self.keep_table),
            ("--threads", self.threads.is_some()),
            ("--book", self.book.is_some()),
            ("--no-book", self.no_book),
        ];
        v.extend(flags.iter().filter(|(_, on)| *on).map(|(f, _)| *f));
        #[cfg(feature = "research")]
        v.extend(self.research.given());
        v
    }
}

/// A board size this program is built for ([`Size::built`]).
fn built_size(text: &str) -> Result<Size, String> {
    text.parse::<Size>()
        .and_then(Size::built)
        .map_err(|e| e.to_string())
}

/// A shard `I/K` (`--shard`): shard I of K, 1 <= I <= K <= 65535.
fn shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("shard {text:?} is not I/K with 1 <= I <= K <= 65535");
    let (i, k) = text.split_once('/').ok_or_else(bad)?;
    let index: u16 = i.trim().parse().map_err(|_| bad())?;
    let count: u16 = k.trim().parse().map_err(|_| bad())?;
    if index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// A count of at least 1 (`--count`, `--limit`, `--sample`), refusing 0 in
/// those words.
fn at_least_one(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// A count of at least 1 that fits a `u32`.
fn at_least_one_u32(text: &str) -> Result<u32, String> {
    u32::try_from(at_least_one(text)?).map_err(|e| e.to_string())
}

/// A count from `min` to `max`; clap's message names both ("1000000000 is not
/// in 1..=1000000"), so that a size that would exhaust memory is refused before
/// anything is allocated.
fn counted(min: usize, max: usize) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(min as u64..=max as u64)
}

/// Seconds, decimals allowed, from 0 to an hour.
fn grace_secs(text: &str) -> Result<std::time::Duration, String> {
    let secs: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if !(0.0..=3600.0).contains(&secs) {
        return Err("must be between 0 and 3600 seconds".to_string());
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

impl Cli {
    /// Checks what clap cannot: options of bare `c4solver` written before a
    /// subcommand, and stage/difficulty pairs that cannot exist.
    ///
    /// # Errors
    /// A clap usage error (exit code 2) naming the command in use.
    pub fn validate(&self) -> Result<(), clap::Error> {
        let usage = |msg: String| Cli::command().error(ErrorKind::ArgumentConflict, msg);
        if let Some(command) = &self.command {
            let name = command.name();
            let flags = self.solve.named();
            if let Some(flag) = flags.first() {
                let takes = match command {
                    Command::Solve(_) => true,
                    Command::Bench(_) | Command::Analyze(_) => *flag != "--stats",
                    Command::Generate(_)
                    | Command::Book(_)
                    | Command::Play(_)
                    | Command::Serve(_) => false,
                };
                return Err(usage(if takes {
                    format!("{flag} goes after the subcommand: `c4solver {name} {flag}`")
                } else {
                    format!("`c4solver {name}` has no {flag} option")
                }));
            }
            if !self.files.is_empty() {
                return Err(usage(format!(
                    "files go after the subcommand: `c4solver {name} {}`",
                    self.files[0].display()
                )));
            }
        }
        if let Some(Command::Book(BookArgs {
            action: action @ (BookAction::Info(_) | BookAction::Merge(_) | BookAction::Export(_)),
        })) = &self.command
            && let Some(flag) = self.engine.given().first()
        {
            let sub = match action {
                BookAction::Info(_) => "info",
                BookAction::Export(_) => "export",
                _ => "merge",
            };
            return Err(usage(format!(
                "`c4solver book {sub}` has no {flag} option (it reads books, with no \
                 search: of the solver options it takes only --size)"
            )));
        }
        if let Some(Command::Generate(g)) = &self.command {
            let (stage, difficulty) = (Stage::from(g.stage), Difficulty::from(g.difficulty));
            let longest = Stage::longest_game(stage);
            if Difficulty::of(longest) < difficulty {
                return Err(usage(format!(
                    "{} positions are never {}: they end within {longest} moves \
                     (possible: end easy; middle easy or medium; begin easy, medium or hard)",
                    stage.name(),
                    difficulty.name()
                )));
            }
        }
        Ok(())
    }
}

impl Command {
    /// The subcommand's name as typed.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Solve(_) => "solve",
            Command::Bench(_) => "bench",
            Command::Generate(_) => "generate",
            Command::Book(_) => "book",
            Command::Analyze(_) => "analyze",
            Command::Play(_) => "play",
            Command::Serve(_) => "serve",
        }
    }
}

/// `--solver` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverArg {
    /// The tutorial's part-7 solver: center-first negamax, upper-bound table.
    Reference,
    /// The tuned solver: null windows, loss anticipation, wins in two, zugzwang
    /// (parity) bounds, threat-sorted moves, compact two-bound table.
    Tuned,
}

impl From<SolverArg> for SolverKind {
    fn from(a: SolverArg) -> Self {
        match a {
            SolverArg::Reference => SolverKind::Reference,
            SolverArg::Tuned => SolverKind::Tuned,
        }
    }
}

/// `--book` values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookArg {
    /// The book built into the program (7x6 only).
    Builtin,
    /// No book: every position is searched.
    None,
    /// A book file.
    File(PathBuf),
}

impl std::str::FromStr for BookArg {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "builtin" => BookArg::Builtin,
            "none" => BookArg::None,
            path => BookArg::File(PathBuf::from(path)),
        })
    }
}

/// `--stage` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageArg {
    /// 29 to 42 stones.
    End,
    /// 15 to 28 stones.
    Middle,
    /// 1 to 14 stones (the empty board is never drawn).
    Begin,
}

impl From<StageArg> for Stage {
    fn from(a: StageArg) -> Self {
        match a {
            StageArg::End => Stage::End,
            StageArg::Middle => Stage::Middle,
            StageArg::Begin => Stage::Begin,
        }
    }
}

/// `--difficulty` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DifficultyArg {
    /// 0 to 14 moves left.
    Easy,
    /// 15 to 28 moves left.
    Medium,
    /// 29 to 42 moves left.
    Hard,
}

impl From<DifficultyArg> for Difficulty {
    fn from(a: DifficultyArg) -> Self {
        match a {
            DifficultyArg::Easy => Difficulty::Easy,
            DifficultyArg::Medium => Difficulty::Medium,
            DifficultyArg::Hard => Difficulty::Hard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        let cli = Cli::try_parse_from(args)?;
        cli.validate()?;
        Ok(cli)
    }

    #[test]
    fn the_definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bare_invocation_is_solve_on_files_or_stdin() {
        let cli = parse(&["c4solver", "-w"]).unwrap();
        assert!(cli.command.is_none());
        assert!(cli.solve.weak);
        // Regression: `c4solver bad.txt` was "unrecognized subcommand 'bad.txt'".
        let cli = parse(&["c4solver", "bad.txt", "--json", "-"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(
            cli.files,
            vec![PathBuf::from("bad.txt"), PathBuf::from("-")]
        );
        assert!(cli.solve.json);
    }

    #[test]
    fn subcommands_and_global_options() {
        let cli = parse(&["c4solver", "bench", "--limit", "5", "--table-mb", "16", "a"]).unwrap();
        let Some(Command::Bench(b)) = cli.command else {
            panic!("not bench")
        };
        assert_eq!(b.limit, Some(5));
        assert_eq!(cli.engine.table_mb, vec![16]);
        assert_eq!(b.sets, vec![PathBuf::from("a")]);
        let cli = parse(&["c4solver", "solve", "--solver", "reference", "-w", "f"]).unwrap();
        assert_eq!(cli.engine.solver, vec![SolverArg::Reference]);
        let cli = parse(&["c4solver", "solve"]).unwrap();
        assert!(cli.engine.solver.is_empty());
        let cli = parse(&["c4solver", "bench", "--solver", "reference,tuned"]).unwrap();
        assert_eq!(
            cli.engine.solver,
            vec![SolverArg::Reference, SolverArg::Tuned]
        );
        assert!(parse(&["c4solver", "--solver", "nope"]).is_err());
        let cli = parse(&["c4solver", "--table-mb", "8", "solve"]).unwrap();
        assert_eq!(cli.engine.table_mb, vec![8]);
        assert!(matches!(cli.command, Some(Command::Solve(_))));
        assert!(parse(&["c4solver", "generate", "--stage", "end"]).is_err());
    }

    #[test]
    fn analyze_and_play() {
        let cli = parse(&["c4solver", "analyze", "-w", "--pv", "--json", "a", "-"]).unwrap();
        let Some(Command::Analyze(a)) = cli.command else {
            panic!("not analyze")
        };
        assert!(a.weak && a.pv && a.json);
        assert_eq!(a.files, vec![PathBuf::from("a"), PathBuf::from("-")]);
        let cli = parse(&["c4solver", "play"]).unwrap();
        let Some(Command::Play(p)) = cli.command else {
            panic!("not play")
        };
        assert_eq!(
            (p.first, p.level, p.seed),
            (FirstArg::Human, LevelArg::Perfect, None)
        );
        assert_eq!(p.start, "");
        let cli = parse(&[
            "c4solver", "play", "--first", "solver", "--level", "easy", "--seed", "3", "--start",
            "44",
        ])
        .unwrap();
        let Some(Command::Play(p)) = cli.command else {
            panic!("not play")
        };
        assert_eq!(
            (p.first, p.level, p.seed),
            (FirstArg::Solver, LevelArg::Easy, Some(3))
        );
        assert_eq!(p.start, "44");
        assert!(parse(&["c4solver", "play", "--level", "hard"]).is_err());
        assert!(parse(&["c4solver", "play", "file"]).is_err());
    }

    #[test]
    fn serve() {
        let cli = parse(&["c4solver", "serve"]).unwrap();
        let Some(Command::Serve(s)) = cli.command else {
            panic!("not serve")
        };
        assert_eq!(
            (s.addr.as_str(), s.queue, s.cache, s.timeout, s.quiet),
            ("127.0.0.1:8080", 256, 100_000, 600, false)
        );
        let cli = parse(&[
            "c4solver",
            "serve",
            "--addr",
            "0.0.0.0:0",
            "--queue",
            "4",
            "--cache",
            "0",
            "-q",
            "--threads",
            "2",
            "--no-book",
        ])
        .unwrap();
        let Some(Command::Serve(s)) = cli.command else {
            panic!("not serve")
        };
        assert_eq!(
            (s.addr.as_str(), s.queue, s.cache, s.quiet),
            ("0.0.0.0:0", 4, 0, true)
        );
        assert_eq!((cli.engine.threads, cli.engine.no_book), (Some(2), true));
        assert!(parse(&["c4solver", "serve", "--queue", "0"]).is_err());
        assert!(parse(&["c4solver", "serve", "--timeout", "0"]).is_err());
        assert!(parse(&["c4solver", "serve", "file"]).is_err());
        let cli = parse(&[
            "c4solver",
            "serve",
            "--rate-limit",
            "10",
            "--max-connections",
            "3",
            "--cors-origin",
            "https://a.example,https://b.example",
            "--cors-origin",
            "http://c.example:8000",
            "--grace",
            "0.5",
            "--log-format",
            "json",
        ])
        .unwrap();
        let Some(Command::Serve(s)) = cli.command else {
            panic!("not serve")
        };
        assert_eq!(
            (s.rate_limit, s.rate_burst, s.max_connections),
            (10, None, 3)
        );
        assert_eq!(
            s.cors_origin,
            [
                "https://a.example",
                "https://b.example",
                "http://c.example:8000"
            ]
        );
        assert_eq!(s.grace, std::time::Duration::from_millis(500));
        assert_eq!(s.log_format, LogFormat::Json);
        let most = parse(&[
            "c4solver", "serve", "--queue", "1000000", "--cache", "10000000",
        ]);
        let Some(Command::Serve(s)) = most.unwrap().command else {
            panic!("not serve")
        };
        assert_eq!((s.queue, s.cache), (MAX_QUEUE, MAX_CACHE));
        for bad in [
            &["--grace", "-1"][..],
            &["--grace", "nan"],
            &["--max-connections", "0"],
            &["--max-connections", "1000001"],
            &["--queue", "1000001"],
            &["--queue", "18446744073709551615"],
            &["--cache", "10000001"],
            &["--cache", "18446744073709551615"],
            &["--rate-burst", "0"],
            // Regression: a burst without a limit was silently ignored.
            &["--rate-burst", "5"],
            &["--log-format", "xml"],
        ] {
            let mut args = vec!["c4solver", "serve"];
            args.extend_from_slice(bad);
            assert!(parse(&args).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_wide_board_has_its_own_shorter_limit() {
        let serve = |args: &[&str]| {
            let mut all = vec!["c4solver", "serve"];
            all.extend_from_slice(args);
            match parse(&all).unwrap().command {
                Some(Command::Serve(s)) => s,
                _ => panic!("not serve"),
            }
        };
        let default = serve(&[]);
        assert_eq!(default.limit(false), (600, "--timeout"));
        assert_eq!(default.limit(true), (60, "--wide-timeout"));
        let short = serve(&["--timeout", "5"]);
        assert_eq!(short.limit(true), (5, "--timeout"));
        let long = serve(&["--timeout", "5", "--wide-timeout", "900"]);
        assert_eq!(long.limit(true), (900, "--wide-timeout"));
        assert_eq!(long.limit(false), (5, "--timeout"));
        assert!(parse(&["c4solver", "serve", "--wide-timeout", "0"]).is_err());
    }

    #[test]
    fn the_help_names_every_book_command() {
        // Regression: `c4solver --help` left out `book export`.
        let help = Cli::command().render_help().to_string();
        let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let from = words.find(" book Opening books:").unwrap();
        let book = &words[from..from + words[from..].find(" serve ").unwrap()];
        for action in ["generate", "merge", "verify", "describe", "export"] {
            assert!(book.contains(action), "{action} in {book}");
        }
    }

    #[test]
    fn weak_is_dash_w_everywhere() {
        // Regression: `bench -w` was refused while `solve -w` worked.
        let cli = parse(&["c4solver", "bench", "-w"]).unwrap();
        let Some(Command::Bench(b)) = cli.command else {
            panic!("not bench")
        };
        assert!(b.weak && !b.strong);
        assert!(parse(&["c4solver", "bench", "-s", "-w"]).is_err());
        assert!(
            parse(&["c4solver", "solve", "-w"])
                .unwrap()
                .command
                .is_some()
        );
    }

    #[test]
    fn options_before_the_subcommand_name_it() {
        // Regression: `c4solver --json bench` suggested `c4solver solve --weak`.
        let e = parse(&["c4solver", "--json", "bench"]).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("`c4solver bench --json`"), "{e}");
        let e = parse(&["c4solver", "-w", "solve"]).unwrap_err();
        assert!(e.to_string().contains("`c4solver solve --weak`"), "{e}");
        let e = parse(&["c4solver", "--stats", "bench"]).unwrap_err();
        let has_no = if cfg!(feature = "research") {
            "`c4solver bench` has no --stats"
        } else {
            "unexpected argument '--stats'"
        };
        assert!(e.to_string().contains(has_no), "{e}");
        let e = parse(&[
            "c4solver",
            "--json",
            "generate",
            "--stage",
            "end",
            "--difficulty",
            "easy",
        ])
        .unwrap_err();
        assert!(
            e.to_string().contains("`c4solver generate` has no --json"),
            "{e}"
        );
    }

    #[test]
    fn empty_runs_are_refused() {
        // Regression: `bench --limit 0` printed a table of zeros and exited 0.
        let e = parse(&["c4solver", "bench", "--limit", "0"]).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        // Regression: "0 is not in 1..18446744073709551615".
        assert!(e.to_string().contains("must be at least 1"), "{e}");
        let e = parse(&[
            "c4solver",
            "generate",
            "--stage",
            "end",
            "--difficulty",
            "easy",
            "--count",
            "0",
        ])
        .unwrap_err();
        assert!(e.to_string().contains("must be at least 1"), "{e}");
        let e = parse(&["c4solver", "bench", "--limit", "x"]).unwrap_err();
        assert!(e.to_string().contains("invalid digit"), "{e}");
    }

    #[test]
    fn impossible_generate_pairs_are_usage_errors() {
        for (stage, difficulty, ok) in [
            ("end", "easy", true),
            ("end", "medium", false),
            ("end", "hard", false),
            ("middle", "easy", true),
            ("middle", "medium", true),
            ("middle", "hard", false),
            ("begin", "easy", true),
            ("begin", "medium", true),
            ("begin", "hard", true),
        ] {
            let r = parse(&[
                "c4solver",
                "generate",
                "--stage",
                stage,
                "--difficulty",
                difficulty,
            ]);
            assert_eq!(r.is_ok(), ok, "{stage} {difficulty}");
            if let Err(e) = r {
                assert_eq!(e.exit_code(), 2);
                assert!(e.to_string().contains("are never"), "{e}");
            }
        }
    }

    #[test]
    fn book_info_and_merge_take_only_the_size() {
        assert!(parse(&["c4solver", "book", "info", "--size", "7x6"]).is_ok());
        for args in [
            &["c4solver", "book", "info", "--threads", "2"][..],
            &["c4solver", "--table-mb", "8", "book", "info"][..],
            &["c4solver", "book", "merge", "a", "--out", "b", "--no-book"][..],
        ] {
            let e = parse(args).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains("takes only --size"), "{e}");
        }
        assert!(parse(&["c4solver", "book", "verify", "f", "--threads", "2"]).is_ok());
    }

    #[test]
    fn book_options() {
        let cli = parse(&["c4solver", "solve", "--book", "my.book", "f"]).unwrap();
        assert_eq!(
            cli.engine.book,
            Some(BookArg::File(PathBuf::from("my.book")))
        );
        let cli = parse(&["c4solver", "bench", "--book", "builtin", "set"]).unwrap();
        assert_eq!(cli.engine.book, Some(BookArg::Builtin));
        let cli = parse(&["c4solver", "solve", "--book", "none", "f"]).unwrap();
        assert_eq!(cli.engine.book, Some(BookArg::None));
        assert!(
            parse(&["c4solver", "solve", "--book"]).is_err(),
            "a value is needed"
        );
        assert!(parse(&["c4solver", "--book", "a", "--no-book"]).is_err());
        let cli = parse(&[
            "c4solver", "book", "generate", "--depth", "8", "--shard", "2/5", "--out", "b",
        ])
        .unwrap();
        let Some(Command::Book(BookArgs {
            action: BookAction::Generate(g),
        })) = cli.command
        else {
            panic!("not book generate")
        };
        assert_eq!((g.depth, g.shard), (8, Some(Shard { index: 2, count: 5 })));
        for bad in ["0/5", "6/5", "5"] {
            let args = ["c4solver", "book", "generate", "--depth", "8", "--out", "b"];
            assert!(
                parse(&[&args[..], &["--shard", bad]].concat()).is_err(),
                "{bad}"
            );
        }
        assert_eq!(shard(" 3 / 8 "), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/8", "9/8", "8", "a/b", "1/0", "1/70000"] {
            assert_eq!(
                shard(bad),
                Err(format!(
                    "shard {bad:?} is not I/K with 1 <= I <= K <= 65535"
                ))
            );
        }
        assert!(
            parse(&[
                "c4solver", "book", "generate", "--depth", "42", "--out", "b"
            ])
            .is_err()
        );
        assert!(parse(&["c4solver", "book", "merge", "--out", "b"]).is_err());
        let e = parse(&["c4solver", "book", "verify", "f", "--sample", "0"]).unwrap_err();
        assert!(e.to_string().contains("must be at least 1"), "{e}");
    }

    #[cfg(feature = "research")]
    #[test]
    fn compare_lists() {
        let cli = parse(&[
            "c4solver",
            "bench",
            "--compare",
            "--table",
            "upper,bounds",
            "--replace",
            "always,two-tier,bucket",
            "--table-mb",
            "16,64",
            "--depth-measure",
            "work",
        ])
        .unwrap();
        let Some(Command::Bench(b)) = cli.command else {
            panic!("not bench")
        };
        assert!(b.compare);
        use crate::cli::research::{DepthArg, ReplaceArg, TableArg};
        let r = &cli.engine.research;
        assert_eq!(r.table, vec![TableArg::Upper, TableArg::Bounds]);
        assert_eq!(
            r.replace,
            vec![ReplaceArg::Always, ReplaceArg::TwoTier, ReplaceArg::Bucket]
        );
        assert_eq!(cli.engine.table_mb, vec![16, 64]);
        assert_eq!(r.depth_measure, vec![DepthArg::Work]);
        let cli = parse(&["c4solver", "--stats", "--table", "bounds"]).unwrap();
        assert!(cli.solve.stats);
        assert_eq!(cli.engine.research.replace, vec![ReplaceArg::Always]);
        assert!(parse(&["c4solver", "--replace", "lru"]).is_err());
    }
}
