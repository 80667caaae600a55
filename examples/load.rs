//! A bounded load test of `c4solver serve` over loopback: many clients, each on
//! its own keep-alive connection, ask `/solve` for a mix of opening positions
//! (every position of up to 4 stones: the book's) and the positions of a test
//! set (Test_L2_R2: searched once, then cached). Every answer is checked to be a
//! 200 with a score array; the figures are requests per second, p50 and p99
//! latency, errors, and the server's peak memory (`VmHWM` of its pid).
//!
//! ```text
//! cargo run --release --example load -- ADDR PID SET [CLIENTS] [REQUESTS] [SECONDS]
//! ```
//!
//! A first pass asks every position once (the cold pass: book answers and
//! searches); the measured pass then asks `REQUESTS` (default 200,000) at random
//! among them from `CLIENTS` (default 50) clients, stopping after `SECONDS`
//! (default 60) whatever happens.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// One keep-alive connection.
struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Client {
    fn connect(addr: &str) -> anyhow::Result<Client> {
        let stream = TcpStream::connect(addr).with_context(|| format!("connect {addr}"))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Client {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }

    /// `GET path`: the status and body.
    fn get(&mut self, path: &str) -> anyhow::Result<(u16, String)> {
        write!(self.writer, "GET {path} HTTP/1.1\r\nHost: load\r\n\r\n")?;
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("bad status line {line:?}"))?;
        let mut length = 0;
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse()?;
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        Ok((status, String::from_utf8(body)?))
    }
}

/// Every move string of up to `depth` stones (a full column or a finished game
/// never arises so early).
fn openings(depth: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut layer = vec![String::new()];
    for _ in 0..depth {
        layer = layer
            .iter()
            .flat_map(|m| (1..=7).map(move |c| format!("{m}{c}")))
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

/// The server's peak resident memory in kB.
fn peak_kb(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .context("no VmHWM")?;
    Ok(line
        .split_whitespace()
        .nth(1)
        .context("no value")?
        .parse()?)
}

/// A small fast generator (xorshift), so that each client picks its own sequence.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn run() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        bail!("usage: load ADDR PID SET [CLIENTS] [REQUESTS] [SECONDS]");
    }
    let (addr, pid, set) = (&args[0], args[1].parse::<u32>()?, &args[2]);
    let clients: usize = args.get(3).map_or(Ok(50), |a| a.parse())?;
    let requests: usize = args.get(4).map_or(Ok(200_000), |a| a.parse())?;
    let seconds: u64 = args.get(5).map_or(Ok(60), |a| a.parse())?;
    let mut positions = openings(4);
    let opening_count = positions.len();
    let text = std::fs::read_to_string(set).with_context(|| format!("read {set}"))?;
    positions.extend(
        text.lines()
            .filter_map(|l| l.split(' ').next())
            .map(String::from),
    );
    let paths: Vec<String> = positions
        .iter()
        .map(|m| format!("/solve?pos={m}"))
        .collect();

    let cold = Instant::now();
    let mut client = Client::connect(addr)?;
    for p in &paths {
        let (status, body) = client.get(p)?;
        if status != 200 || !body.contains("\"score\":[") {
            bail!("{p}: {status} {body}");
        }
    }
    println!(
        "cold pass: {} positions ({opening_count} openings, {} of {set}) in {:.2} s, one client",
        paths.len(),
        paths.len() - opening_count,
        cold.elapsed().as_secs_f64()
    );

    let issued = AtomicUsize::new(0);
    let errors = AtomicUsize::new(0);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let late = AtomicBool::new(false);
    let start = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..clients)
            .map(|k| {
                let (paths, issued, errors, late) = (&paths, &issued, &errors, &late);
                scope.spawn(move || {
                    let mut seen = Vec::new();
                    let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ (k as u64 + 1);
                    let Ok(mut client) = Client::connect(addr) else {
                        errors.fetch_add(1, Ordering::Relaxed);
                        return seen;
                    };
                    while issued.fetch_add(1, Ordering::Relaxed) < requests {
                        if Instant::now() > deadline {
                            late.store(true, Ordering::Relaxed);
                            break;
                        }
                        let path = &paths[(next(&mut rng) % paths.len() as u64) as usize];
                        let t = Instant::now();
                        match client.get(path) {
                            Ok((200, body)) if body.contains("\"score\":[") => {
                                seen.push(t.elapsed())
                            }
                            _ => {
                                errors.fetch_add(1, Ordering::Relaxed);
                                match Client::connect(addr) {
                                    Ok(c) => client = c,
                                    Err(_) => break,
                                }
                            }
                        }
                    }
                    seen
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let wall = start.elapsed();
    if latencies.is_empty() {
        bail!(
            "no answer at all ({} errors)",
            errors.load(Ordering::Relaxed)
        );
    }
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "measured pass: {} clients, {} answers in {:.2} s{}: {:.0} requests/s, p50 {:.2} ms, \
         p99 {:.2} ms, max {:.2} ms, errors {}",
        clients,
        latencies.len(),
        wall.as_secs_f64(),
        if late.load(Ordering::Relaxed) {
            " (stopped at the time limit)"
        } else {
            ""
        },
        latencies.len() as f64 / wall.as_secs_f64(),
        ms(at(0.50)),
        ms(at(0.99)),
        ms(*latencies.last().unwrap()),
        errors.load(Ordering::Relaxed)
    );
    println!("server peak memory (VmHWM): {} MB", peak_kb(pid)? / 1024);
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("load: {e:#}");
            ExitCode::FAILURE
        }
    }
}
