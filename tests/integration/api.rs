//! The library's public API, listed: the names the crate root and each public
//! module export, read from their sources. A change to the API changes this
//! list, so that review sees it (issue 68: the root exports what a library user
//! touches; the generic engines live in `sized`).

use std::path::{Path, PathBuf};

/// The library's sources.
fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/c4solver/src")
}

/// The names of one `pub use` statement (`a::{B, C as D}` gives `B`, `D`).
fn use_names(statement: &str) -> Vec<String> {
    let body = statement.trim_end_matches(';');
    let items = match (body.find('{'), body.rfind('}')) {
        (Some(open), Some(close)) => body[open + 1..close].to_string(),
        _ => body.rsplit("::").next().unwrap_or("").to_string(),
    };
    items
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .map(|i| {
            i.rsplit(" as ")
                .next()
                .unwrap()
                .rsplit("::")
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// Every public name of the module whose body is `text` (its top-level items:
/// `pub use`, `pub mod`, `pub fn`, types, consts), each with `prefix`, and of its
/// public submodules, read from `dir`.
fn module_names(text: &str, prefix: &str, dir: &Path, out: &mut Vec<String>) {
    let mut lines = text.lines().peekable();
    let mut hidden = false;
    while let Some(line) = lines.next() {
        if line.starts_with("#[doc(hidden)]") {
            hidden = true;
            continue;
        }
        if line.starts_with("#[") || line.starts_with("//") {
            continue;
        }
        let was_hidden = std::mem::take(&mut hidden);
        if let Some(rest) = line.strip_prefix("pub use ") {
            let mut statement = rest.to_string();
            while !statement.trim_end().ends_with(';') {
                statement.push_str(lines.next().unwrap().trim());
            }
            out.extend(
                use_names(&statement)
                    .into_iter()
                    .map(|n| format!("{prefix}{n}")),
            );
        } else if let Some(rest) = line.strip_prefix("pub mod ") {
            let name = rest.trim_end_matches([';', '{', ' ']);
            let inner_prefix = format!("{prefix}{name}::");
            if rest.trim_end().ends_with('{') {
                let mut body = String::new();
                for inner in lines.by_ref() {
                    if inner == "}" {
                        break;
                    }
                    body.push_str(inner.strip_prefix("    ").unwrap_or(inner));
                    body.push('\n');
                }
                module_names(&body, &inner_prefix, dir, out);
            } else {
                let file = [
                    dir.join(format!("{name}.rs")),
                    dir.join(name).join("mod.rs"),
                ]
                .into_iter()
                .find(|p| p.exists())
                .expect("the module's file");
                let sub = std::fs::read_to_string(&file).unwrap();
                module_names(&sub, &inner_prefix, &dir.join(name), out);
            }
        } else if !was_hidden {
            for kind in [
                "fn ",
                "const fn ",
                "struct ",
                "enum ",
                "type ",
                "trait ",
                "const ",
                "static ",
            ] {
                if let Some(rest) = line.strip_prefix("pub ").and_then(|l| l.strip_prefix(kind)) {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    out.push(format!("{prefix}{name}"));
                    break;
                }
            }
        }
    }
}

/// The macros exported at the root and not hidden.
fn macros(out: &mut Vec<String>) {
    let mut files = vec![src()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut attrs = Vec::new();
        for line in text.lines() {
            if line.starts_with("#[") {
                attrs.push(line);
            } else if let Some(rest) = line.strip_prefix("macro_rules! ") {
                if attrs.contains(&"#[macro_export]") && !attrs.contains(&"#[doc(hidden)]") {
                    out.push(format!("{}!", rest.trim_end_matches([' ', '{'])));
                }
                attrs.clear();
            } else if !line.starts_with("///") {
                attrs.clear();
            }
        }
    }
}

/// Every exported name of the library, sorted, macros once.
fn exports() -> Vec<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut names = Vec::new();
    module_names(&lib, "", &src(), &mut names);
    macros(&mut names);
    names.sort();
    names.dedup();
    names
}

/// What the library exports; a change here is a change of the API.
const API: &str = include_str!("../data/api.txt");

#[test]
fn the_public_api_is_the_listed_one() {
    let listed: Vec<&str> = API.lines().filter(|l| !l.is_empty()).collect();
    let exported = exports();
    let added: Vec<&String> = exported
        .iter()
        .filter(|n| !listed.contains(&n.as_str()))
        .collect();
    let gone: Vec<&&str> = listed
        .iter()
        .filter(|n| !exported.iter().any(|e| e == **n))
        .collect();
    assert!(
        added.is_empty() && gone.is_empty(),
        "the library's API changed: update tests/data/api.txt if meant.\nadded: {added:?}\ngone: {gone:?}"
    );
    // The root holds the size-erased types, not the generic engines.
    for root in ["Position", "Solver", "Analysis", "Book", "Size", "Answer"] {
        assert!(exported.iter().any(|n| n == root), "{root}");
    }
    for generic in ["Board", "Bits", "Playable", "Query"] {
        assert!(
            !exported.iter().any(|n| n == generic),
            "{generic} at the root"
        );
        assert!(
            exported.iter().any(|n| *n == format!("sized::{generic}")),
            "sized::{generic}"
        );
    }
}

#[test]
fn use_statements_are_read_as_rust_reads_them() {
    assert_eq!(use_names("a::{B, c::D as E, F};"), ["B", "E", "F"]);
    assert_eq!(
        use_names("crate::cpu::unsupported as unsupported_cpu;"),
        ["unsupported_cpu"]
    );
    let mut out = Vec::new();
    module_names(
        "pub use x::{A,\n    B};\n#[doc(hidden)]\npub fn h() {}\npub mod m {\n    pub use y::C;\n}\npub struct S;\n",
        "",
        Path::new("."),
        &mut out,
    );
    assert_eq!(out, ["A", "B", "m::C", "S"]);
}
