//! The documentation says what the program does: the commands and options of
//! `docs/cli.md` are exactly those of `--help`, command by command, and the board
//! sizes' tables are those of the recorded results.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_c4solver"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The long options `--help` lists (but `--help` and `--version`).
fn help_options(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l
                .strip_prefix("-")
                .filter(|r| r.chars().nth(1) == Some(','))
                .map_or(l, |r| r[2..].trim_start());
            let name = l.strip_prefix("--")?;
            let name: String = name
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            (!name.is_empty() && name != "help" && name != "version").then_some(name)
        })
        .collect()
}

/// The subcommands `--help` lists (but `help`).
fn help_commands(text: &str) -> BTreeSet<String> {
    let mut in_commands = false;
    let mut out = BTreeSet::new();
    for l in text.lines() {
        if l == "Commands:" {
            in_commands = true;
        } else if in_commands && l.starts_with("  ") {
            let name = l.split_whitespace().next().unwrap();
            if name != "help" {
                out.insert(name.to_string());
            }
        } else if in_commands {
            break;
        }
    }
    out
}

fn cli_md() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/cli.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the `## HEADING` section.
fn section<'a>(md: &'a str, heading: &str) -> &'a str {
    let start = md
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("docs/cli.md has no section `## {heading}`"));
    let body = &md[start + heading.len() + 5..];
    &body[..body.find("\n## ").unwrap_or(body.len())]
}

/// The options documented in a section's option table (rows starting with
/// `` | `--name` `` or `` | `-x`, `--name` ``).
fn documented_options(section: &str) -> BTreeSet<String> {
    section
        .lines()
        .filter(|l| l.starts_with("| `-"))
        .filter_map(|l| {
            let at = l.find("`--")?;
            let name: String = l[at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            Some(name)
        })
        .collect()
}

/// The `## c4solver ...` headings, each as its words after `c4solver`.
fn documented_commands(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter_map(|l| l.strip_prefix("## c4solver "))
        .map(|c| c.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn every_command_is_documented_and_every_documented_command_exists() {
    let md = cli_md();
    let documented = documented_commands(&md);
    let top: BTreeSet<String> = documented
        .iter()
        .filter(|c| c.len() == 1)
        .map(|c| c[0].clone())
        .collect();
    assert_eq!(help_commands(&help(&[])), top);
    // Subcommands (`c4solver book generate`) have a section each too.
    for command in &top {
        let subs: BTreeSet<String> = documented
            .iter()
            .filter(|c| c.len() == 2 && &c[0] == command)
            .map(|c| c[1].clone())
            .collect();
        assert_eq!(help_commands(&help(&[command])), subs, "c4solver {command}");
    }
}

/// The research options of docs/cli.md that belong to one command (the others
/// are solver options of every command).
const RESEARCH_OF_ONE_COMMAND: [(&str, &str); 2] = [("stats", "solve"), ("compare", "bench")];

/// The options of `command` that the build has: those of its section, the solver
/// options, and with the `research` feature the research options it takes.
fn expected_options(md: &str, heading: &str, command: &str) -> BTreeSet<String> {
    let solver = section(md, "Solver options");
    let (plain, research) = solver
        .split_once("\n### Research options\n")
        .expect("docs/cli.md has a `### Research options` part under `## Solver options`");
    let mut want = documented_options(section(md, heading));
    want.extend(documented_options(plain));
    if cfg!(feature = "research") {
        for option in documented_options(research) {
            match RESEARCH_OF_ONE_COMMAND.iter().find(|(o, _)| *o == option) {
                Some((_, only)) if *only != command => {}
                _ => {
                    want.insert(option);
                }
            }
        }
    }
    want
}

#[test]
fn every_option_matches_help() {
    let md = cli_md();
    for command in help_commands(&help(&[])) {
        assert_eq!(
            help_options(&help(&[&command])),
            expected_options(&md, &format!("c4solver {command}"), &command),
            "`c4solver {command} --help` and docs/cli.md differ"
        );
        for sub in help_commands(&help(&[&command])) {
            let heading = format!("c4solver {command} {sub}");
            assert_eq!(
                help_options(&help(&[&command, &sub])),
                expected_options(&md, &heading, &format!("{command} {sub}")),
                "`{heading} --help` and docs/cli.md differ"
            );
        }
    }
    // Bare c4solver takes the options of solve.
    assert_eq!(
        help_options(&help(&[])),
        expected_options(&md, "c4solver solve", "solve"),
        "`c4solver --help` and docs/cli.md differ"
    );
}

#[test]
fn the_readme_points_to_the_reference() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    assert!(readme.contains("docs/cli.md"));
}

/// The text between `<!-- {name} -->` and the next `<!-- end sizes -->` of `md`.
fn block<'a>(md: &'a str, name: &str) -> &'a str {
    let start = md
        .find(&format!("<!-- {name} -->\n"))
        .unwrap_or_else(|| panic!("no <!-- {name} --> block"));
    let rest = &md[start..];
    let body = &rest[rest.find('\n').unwrap() + 1..];
    &body[..body.find("<!-- end sizes -->").expect("block not closed")]
}

/// `scripts/sizes-table.py`'s output for `args`.
fn sizes_script(args: &[&str]) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("scripts/sizes-table.py"))
        .args(args)
        .output()
        .expect("python3 runs scripts/sizes-table.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_sizes_tables_are_those_of_the_recorded_results() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let table = sizes_script(&[]);
    let projection = sizes_script(&["--projection"]);
    // Every solved size agrees with the sign of Tromp's table.
    assert!(
        !table.contains('≠'),
        "a result differs from Tromp's:\n{table}"
    );
    assert!(table.contains("**+1** +"), "no solved size in:\n{table}");
    let md = std::fs::read_to_string(root.join("docs/sizes.md")).unwrap();
    assert_eq!(
        block(&md, "sizes-table"),
        table,
        "docs/sizes.md's table is not docs/sizes.tsv's: run `python3 scripts/sizes-table.py --write docs/sizes.md`"
    );
    assert_eq!(
        block(&md, "sizes-projection"),
        projection,
        "docs/sizes.md's projection"
    );
}

/// The documents a user reads: the READMEs and docs/ (not the research logs,
/// which record what was true on their day).
fn user_documents() -> Vec<(PathBuf, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<PathBuf> = [
        "README.md",
        "python/README.md",
        "npm/README.md",
        "crates/c4solver/README.md",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect();
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            paths.push(path);
        }
    }
    paths
        .into_iter()
        .filter(|p| p.exists())
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Every run of board sizes written as a list (`5x12, 5x13 and 6x10`), with
/// the text after it.
fn size_lists(text: &str) -> Vec<(Vec<c4solver::Size>, &str)> {
    let mut lists = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let mut sizes = Vec::new();
        let mut tail = &rest[start..];
        loop {
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric()))
                .unwrap_or(tail.len());
            match tail[..end].parse::<c4solver::Size>() {
                Ok(size) if tail[..end].contains('x') => sizes.push(size),
                _ => break,
            }
            tail = &tail[end..];
            let sep = tail.trim_start_matches([',', ' ', '\n']);
            let sep = sep.strip_prefix("and").map_or(sep, |s| s.trim_start());
            if sep.len() == tail.len() || !sep.starts_with(|c: char| c.is_ascii_digit()) {
                break;
            }
            tail = sep;
        }
        if sizes.len() >= 3 {
            lists.push((sizes, tail));
            rest = tail;
            continue;
        }
        let skip = rest[start..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len() - start);
        rest = &rest[start + skip.max(1)..];
    }
    lists
}

#[test]
fn every_list_of_sizes_is_the_librarys() {
    use c4solver::Size;
    let wide = Size::listed(&Size::WIDE);
    let all = Size::ALL.len() + Size::WIDE.len();
    let mut checked = 0;
    for (path, text) in user_documents() {
        let name = path.display();
        for (sizes, _) in size_lists(&text) {
            // A list of boards over 64 bits is the library's whole list of them.
            if sizes.len() >= 5 && sizes.iter().all(|s| s.is_wide()) {
                assert_eq!(Size::listed(&sizes), wide, "{name}");
                checked += 1;
            }
            for s in &sizes {
                assert!(
                    !s.is_wide() || Size::WIDE.contains(s) || text.contains("not built"),
                    "{name}: {s} is over 64 bits and not one of Size::WIDE"
                );
            }
        }
        // Counts of sizes in prose agree with the list.
        for (phrase, count) in [
            (" other sizes", all - 1),
            (" sizes, from 4x4", Size::ALL.len()),
            (" board sizes up to 128 bits", all),
            (" boards over 64 bits", Size::WIDE.len()),
        ] {
            for (at, _) in text.match_indices(phrase) {
                let before = text[..at].trim_end();
                let word = before.rsplit([' ', '\n', '(']).next().unwrap();
                let n = match word {
                    "eleven" => 11,
                    w => match w.replace(',', "").parse::<usize>() {
                        Ok(n) => n,
                        Err(_) => continue,
                    },
                };
                assert_eq!(n, count, "{name}: \"{word}{phrase}\"");
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 5,
        "the documents list the sizes in {checked} places"
    );
}

#[test]
fn size_lists_are_found_in_prose() {
    let found = size_lists("on 5x12, 5x13 and\n6x10 boards; 7x6 alone; 4x4, 5x4, 6x4.");
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|(l, _)| l.iter().map(ToString::to_string).collect())
        .collect();
    assert_eq!(
        names,
        [vec!["5x12", "5x13", "6x10"], vec!["4x4", "5x4", "6x4"]]
    );
}
