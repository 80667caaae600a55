//! The sources' shape, checked on the files themselves: no function longer than
//! [`MAX_FN_LINES`] lines, no research step or date in a comment (the history is
//! in docs/research/log.md), and no two modules that import each other (imports
//! flow one way: command line -> library -> position; docs/architecture.md). Tests
//! (`#[cfg(test)] mod tests`) are left aside.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest function allowed, signature and closing brace included.
const MAX_FN_LINES: usize = 110;

/// The source roots: the command line's and every crate's under crates/.
fn roots() -> Vec<PathBuf> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![top.join("src")];
    for entry in fs::read_dir(top.join("crates")).unwrap() {
        let src = entry.unwrap().path().join("src");
        if src.is_dir() {
            roots.push(src);
        }
    }
    roots
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The file's text without its unit tests (`#[cfg(test)]` before `mod tests`).
fn without_tests(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// One source file split into code (strings and comments blanked, lines kept) and
/// its comments (line number, text).
struct Scanned {
    code: Vec<String>,
    comments: Vec<(usize, String)>,
}

/// Splits Rust source into code and comments: string, char and comment contents
/// are blanked in the code so that their braces and paths do not count.
fn scan(text: &str) -> Scanned {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::new();
    let mut comments = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let push_blank = |code: &mut String, c: char| code.push(if c == '\n' { '\n' } else { ' ' });
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let start = i;
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            comments.push((line, chars[start..i].iter().collect()));
            continue;
        }
        if c == '/' && next == Some('*') {
            let (start, first_line) = (i, line);
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    line += 1;
                }
                push_blank(&mut code, chars[i]);
                i += 1;
            }
            i = (i + 2).min(chars.len());
            comments.push((first_line, chars[start..i].iter().collect()));
            continue;
        }
        if c == 'r' && (next == Some('"') || next == Some('#')) && !prev_is_ident(&chars, i) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) == Some(&'"') {
                let close: String = std::iter::once('"')
                    .chain("#".repeat(hashes).chars())
                    .collect();
                let rest: String = chars[j + 1..].iter().collect();
                let end = rest.find(&close).map_or(chars.len(), |k| {
                    j + 1 + rest[..k].chars().count() + close.chars().count()
                });
                for &ch in &chars[i..end] {
                    if ch == '\n' {
                        line += 1;
                    }
                    push_blank(&mut code, ch);
                }
                i = end;
                continue;
            }
        }
        if c == '"' {
            code.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    push_blank(&mut code, chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    push_blank(&mut code, chars[i]);
                    i += 1;
                }
            }
            code.push('"');
            i += 1;
            continue;
        }
        if c == '\'' {
            // A char literal ('x', '\n', '\u{..}'); otherwise a lifetime.
            let close = if next == Some('\\') {
                chars[i + 2..]
                    .iter()
                    .position(|&ch| ch == '\'')
                    .map(|k| i + 2 + k)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = close {
                code.push_str(&" ".repeat(end - i + 1));
                i = end + 1;
                continue;
            }
        }
        if c == '\n' {
            line += 1;
        }
        code.push(c);
        i += 1;
    }
    Scanned {
        code: code.lines().map(str::to_string).collect(),
        comments,
    }
}

/// Whether the character before `i` continues an identifier (so `r` is not a
/// raw string's prefix).
fn prev_is_ident(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// The functions of `code` longer than [`MAX_FN_LINES`]: (first line, name, lines).
fn long_functions(code: &[String]) -> Vec<(usize, String, usize)> {
    let mut long = Vec::new();
    for (start, line) in code.iter().enumerate() {
        let Some(name) = fn_name(line) else {
            continue;
        };
        // Find the body's opening brace (a declaration ends with `;` first).
        let mut depth = 0i32;
        let mut opened = false;
        'lines: for (k, l) in code[start..].iter().enumerate() {
            for ch in l.chars() {
                match ch {
                    ';' if !opened && depth == 0 => break 'lines,
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => {
                        depth -= 1;
                        if opened && depth == 0 {
                            let lines = k + 1;
                            if lines > MAX_FN_LINES {
                                long.push((start + 1, name.clone(), lines));
                            }
                            break 'lines;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    long
}

/// The name of the function a line starts, if it does.
fn fn_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while let Some(&w) = words.peek() {
        let qualifier = w.starts_with("pub")
            || matches!(
                w,
                "const" | "unsafe" | "async" | "extern" | "\"C\"" | "default"
            );
        if !qualifier {
            break;
        }
        words.next();
    }
    if words.next()? != "fn" {
        return None;
    }
    let rest = words.next()?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Whether a comment cites a research step ("step 31") or a date ("2026-11-24").
fn cites_history(comment: &str) -> bool {
    let words: Vec<&str> = comment
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let step = words.windows(2).any(|w| {
        matches!(w[0].to_lowercase().as_str(), "step" | "steps")
            && w[1].chars().all(|c| c.is_ascii_digit())
    });
    let date = words.iter().any(|w| {
        let parts: Vec<&str> = w.split('-').collect();
        parts.len() == 3
            && [4, 2, 2]
                .iter()
                .zip(&parts)
                .all(|(&n, p)| p.len() == n && p.chars().all(|c| c.is_ascii_digit()))
    });
    step || date
}

#[test]
fn no_function_is_longer_than_a_screen() {
    let mut long = Vec::new();
    for root in roots() {
        for file in rust_files(&root) {
            let text = fs::read_to_string(&file).unwrap();
            for (line, name, lines) in long_functions(&scan(without_tests(&text)).code) {
                long.push(format!(
                    "{}:{line}: fn {name}, {lines} lines",
                    file.display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines (split them into named parts):\n{}",
        long.join("\n")
    );
}

#[test]
fn no_comment_cites_a_research_step_or_a_date() {
    let mut found = Vec::new();
    for root in roots() {
        for file in rust_files(&root) {
            let text = fs::read_to_string(&file).unwrap();
            for (line, comment) in scan(&text).comments {
                if cites_history(&comment) {
                    found.push(format!("{}:{line}: {}", file.display(), comment.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "comments citing research steps or dates (say what and why, link \
         docs/tuned-solver.md; the history goes to docs/research/log.md):\n{}",
        found.join("\n")
    );
}

/// The module a file defines, as its path below the source root
/// (`solver::tuned`; the crate root is empty).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The paths a file names from the crate root: `crate::a::b`, `super::c` and
/// `self::d` resolved against its module, and each branch of `use crate::{...}`.
fn paths_used(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < bytes.len() {
        if i > 0 && (ident(bytes[i - 1]) || bytes[i - 1] == ':') {
            i += 1;
            continue;
        }
        let rest: String = bytes[i..bytes.len().min(i + 8)].iter().collect();
        let (base, skip) = if rest.starts_with("crate::") {
            (Vec::new(), 7)
        } else if rest.starts_with("super::") {
            // `super` is the parent module, for a mod.rs as for a file.
            let mut base = module.to_vec();
            base.pop();
            let mut j = i + 7;
            while bytes[j..].starts_with(&['s', 'u', 'p', 'e', 'r', ':', ':']) {
                base.pop();
                j += 7;
            }
            (base, j - i)
        } else if rest.starts_with("self::") {
            (module.to_vec(), 6)
        } else {
            i += 1;
            continue;
        };
        let mut j = i + skip;
        collect_tree(&bytes, &mut j, base, &mut paths);
        i = j.max(i + 1);
    }
    paths
}

/// Reads a use tree at `j` (`a::b`, `{a, b::c}`, nested) below `base`.
fn collect_tree(s: &[char], j: &mut usize, base: Vec<String>, out: &mut Vec<Vec<String>>) {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut path = base;
    loop {
        while *j < s.len() && s[*j].is_whitespace() {
            *j += 1;
        }
        if *j < s.len() && s[*j] == '{' {
            *j += 1;
            loop {
                collect_tree(s, j, path.clone(), out);
                while *j < s.len() && s[*j].is_whitespace() {
                    *j += 1;
                }
                match s.get(*j) {
                    Some(',') => *j += 1,
                    Some('}') => {
                        *j += 1;
                        return;
                    }
                    _ => return,
                }
                while *j < s.len() && s[*j].is_whitespace() {
                    *j += 1;
                }
                if s.get(*j) == Some(&'}') {
                    *j += 1;
                    return;
                }
            }
        }
        let start = *j;
        while *j < s.len() && ident(s[*j]) {
            *j += 1;
        }
        if start == *j {
            out.push(path);
            return;
        }
        path.push(s[start..*j].iter().collect());
        if s[*j..].starts_with(&[':', ':']) {
            *j += 2;
        } else {
            out.push(path);
            return;
        }
    }
}

#[test]
fn no_two_modules_import_each_other() {
    for root in roots() {
        // The unit of the check: a library's top-level modules; for the command
        // line (src/main.rs, src/cli/...), the command line's modules.
        let is_bin = root.join("main.rs").exists();
        let unit_len = if is_bin { 2 } else { 1 };
        let files = rust_files(&root);
        if files.len() < 2 {
            // One file (the WebAssembly bindings): no modules to import each other.
            continue;
        }
        let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&root, f)).collect();
        // Names re-exported at the crate root (`pub use a::{B, C}`) stand for
        // their module.
        let mut reexports: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for f in &files {
            if module_of(&root, f).is_empty() {
                let text = fs::read_to_string(f).unwrap();
                let code = scan(&text).code.join("\n");
                for line in code.split(';') {
                    let line = line.trim();
                    if let Some(tree) = line.strip_prefix("pub use ") {
                        let mut j = 0;
                        let chars: Vec<char> = tree.chars().collect();
                        let mut out = Vec::new();
                        collect_tree(&chars, &mut j, Vec::new(), &mut out);
                        for p in out {
                            if let Some((name, module)) = p.split_last() {
                                reexports.insert(name.clone(), module.to_vec());
                            }
                        }
                    }
                }
            }
        }
        let unit = |path: &[String]| -> Option<Vec<String>> {
            let path = match path.first().and_then(|n| reexports.get(n)) {
                Some(m) => m.clone(),
                None => path.to_vec(),
            };
            // The longest prefix that is a module.
            let module = (1..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|p| modules.contains(p))?;
            (module.len() >= unit_len).then(|| module[..unit_len].to_vec())
        };
        let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for f in &files {
            let module = module_of(&root, f);
            let Some(from) = unit(&module) else {
                continue;
            };
            let text = fs::read_to_string(f).unwrap();
            let code = scan(without_tests(&text)).code.join("\n");
            for path in paths_used(&code, &module) {
                if let Some(to) = unit(&path)
                    && to != from
                {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
        let mut cycles = Vec::new();
        for (a, tos) in &edges {
            for b in tos {
                if a < b && edges.get(b).is_some_and(|t| t.contains(a)) {
                    cycles.push(format!("{} <-> {}", a.join("::"), b.join("::")));
                }
            }
        }
        assert!(
            cycles.is_empty(),
            "{}: modules importing each other:\n{}",
            root.display(),
            cycles.join("\n")
        );
        // The check sees the imports it must: the command line uses its modules.
        assert!(!edges.is_empty(), "{}: no import found", root.display());
    }
}

/// GitHub's anchor of a heading: lowercase, spaces to dashes, other punctuation
/// dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn the_design_sections_the_comments_link_exist() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut links = 0;
    for root in roots() {
        for file in rust_files(&root) {
            let text = fs::read_to_string(&file).unwrap();
            for (line, comment) in scan(&text).comments {
                for (i, _) in comment.match_indices("docs/") {
                    let link: String = comment[i..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || "/-_.#".contains(*c))
                        .collect();
                    let Some((doc, section)) = link.split_once(".md#") else {
                        continue;
                    };
                    links += 1;
                    let md = fs::read_to_string(top.join(format!("{doc}.md"))).unwrap_or_default();
                    let found = md
                        .lines()
                        .filter_map(|l| l.strip_prefix('#'))
                        .any(|h| anchor(h.trim_start_matches('#')) == section);
                    if !found {
                        broken.push(format!("{}:{line}: {link}", file.display()));
                    }
                }
            }
        }
    }
    assert!(links > 0, "no link to a design section found");
    assert!(
        broken.is_empty(),
        "links to missing sections:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_checks_catch_what_they_look_for() {
    // A long function and a short one; a declaration without a body.
    let long = format!(
        "fn long() {{\n{}}}\nfn short() {{ let s = \"{{\"; }}\nfn decl();\n",
        "    x += 1;\n".repeat(MAX_FN_LINES)
    );
    let found = long_functions(&scan(&long).code);
    assert_eq!(found, vec![(1, "long".to_string(), MAX_FN_LINES + 2)]);
    assert!(cites_history("// measured in step 31"));
    assert!(cites_history("/// on 2026-11-24 it took"));
    assert!(!cites_history("// steps of 2 and a 64-bit key"));
    let code = "use crate::{a::B, c::{d, e::F}};\nfn f() { super::g::h(); }";
    let paths = paths_used(code, &["x".to_string(), "y".to_string()]);
    let names: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["a::B", "c::d", "c::e::F", "x::g::h"]);
    assert_eq!(
        anchor(" Enhanced transposition cutoffs"),
        "enhanced-transposition-cutoffs"
    );
    assert_eq!(
        anchor("Step 23: a near table (2026-11-24)"),
        "step-23-a-near-table-2026-11-24"
    );
}
