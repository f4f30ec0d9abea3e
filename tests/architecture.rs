//! The layout of `src/` as `docs/architecture.md` describes it, read from the code's own paths:
//! no import loop between files, layers that point one way, a domain folder that only uses the
//! folders below it and never reaches for I/O, and subcommand files that never use one another.
//!
//! What is read: every `use` path and every `crate::`/`super::` path in the code of each file
//! of `src/`, up to its `#[cfg(test)]` part (tests may read fixtures and build any value).
//! Files that are test modules (`tests.rs`, or under a `tests/` folder) are not read.
//! A path names the file of the longest module it reaches. A module may use what is inside its
//! own folder (a `mod.rs` naming its children is how Rust holds a folder together), so an arrow
//! from a module to one of its own descendants is not drawn; every other arrow counts.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

/// The top-level layers, from the ground up, with their rank: a layer may use the layers of a
/// lower rank. Two layers of one rank may not use each other: the engine knows no host, and no
/// host knows the engine.
const LAYERS: &[(&str, u8)] = &[
    ("domain", 0),
    ("store", 1),
    ("cli", 1),
    ("context", 2),
    ("host", 3),
    ("engine", 3),
    ("cmd", 4),
];

/// The domain's concern folders, from the ground up, with their rank: a folder may use the
/// folders of a lower rank. Two folders of one rank may not use each other.
const CONCERNS: &[(&str, u8)] = &[
    ("base", 0),
    ("guard", 1),
    ("shell", 2),
    ("session", 3),
    ("memory", 3),
    ("capture", 4),
    ("prompt", 5),
    ("steer", 6),
    ("upkeep", 7),
];

/// What a domain file may not name: the disk, the environment, processes, the clock, and the
/// layers that do those things.
const DOMAIN_FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::env",
    "std::process",
    "std::net",
    "std::io::stdin",
    "std::io::stdout",
    "SystemTime",
    "Instant::now",
    "crate::store",
    "crate::context",
    "crate::cmd",
    "crate::host",
    "crate::engine",
    "crate::cli",
];

/// One file of `src/`: its module path and the code that is read.
struct SourceFile {
    rel: String,
    module: Vec<String>,
    code: String,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `domain/shell/extract/mod.rs` → `[domain, shell, extract]`; `lib.rs` → `[]`.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a file without comments, cut at its first `#[cfg(test)]`.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string literal is rare in these files' paths; cutting there only
            // loses the rest of that line.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn read_sources() -> Vec<SourceFile> {
    let root = src_dir();
    let mut paths = Vec::new();
    collect(&root, &mut paths);
    let mut files: Vec<SourceFile> = paths
        .into_iter()
        .filter_map(|path| {
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let is_test =
                rel.ends_with("/tests.rs") || rel.contains("/tests/") || rel.ends_with("_tests.rs");
            if is_test || rel == "main.rs" {
                return None;
            }
            let code = code_of(&fs::read_to_string(&path).unwrap());
            Some(SourceFile {
                module: module_of(&rel),
                rel,
                code,
            })
        })
        .collect();
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    files
}

/// Every path a `use` tree names: `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    static RENAME: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let rename = RENAME.get_or_init(|| Regex::new(r"\s+as\s+\w+").unwrap());
    let tree: String = rename
        .replace_all(tree, "")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.len() - 1];
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|item| !item.is_empty())
        .flat_map(|item| expand_use(&format!("{prefix}{item}")))
        .collect()
}

/// The paths a file names, from the crate root: its `use` trees and inline paths that start at
/// `crate` or `super`. Paths that start anywhere else are names of its children or of crates.
fn named_paths(file: &SourceFile) -> Vec<Vec<String>> {
    static USE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    static INLINE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let use_re = USE.get_or_init(|| Regex::new(r"(?s)\buse\s+([^;]+);").unwrap());
    let inline_re = INLINE.get_or_init(|| Regex::new(r"\b(?:crate|super)(?:::\w+)+").unwrap());
    let mut raw: Vec<String> = use_re
        .captures_iter(&file.code)
        .flat_map(|c| expand_use(&c[1]))
        .collect();
    let without_uses = use_re.replace_all(&file.code, "");
    raw.extend(
        inline_re
            .find_iter(&without_uses)
            .map(|m| m.as_str().to_string()),
    );
    raw.iter()
        .filter_map(|path| absolute(&file.module, path))
        .collect()
}

/// `path` from the crate root, seen from `module`; `None` when it does not start at the crate.
fn absolute(module: &[String], path: &str) -> Option<Vec<String>> {
    let mut segments = path
        .split("::")
        .filter(|s| !s.is_empty() && *s != "*" && *s != "self");
    let first = segments.next()?;
    let mut base: Vec<String> = match first {
        "crate" => Vec::new(),
        "super" => module[..module.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    for segment in segments {
        if segment == "super" {
            base.pop();
        } else {
            base.push(segment.to_string());
        }
    }
    Some(base)
}

/// The file of the longest module `path` reaches.
fn target<'a>(modules: &'a BTreeMap<Vec<String>, String>, path: &[String]) -> Option<&'a String> {
    (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

/// Arrows between files: `from → to` with the path that draws it.
fn arrows(files: &[SourceFile]) -> BTreeMap<(String, String), String> {
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (f.module.clone(), f.rel.clone()))
        .collect();
    let mut arrows = BTreeMap::new();
    for file in files {
        for path in named_paths(file) {
            let Some(to) = target(&modules, &path) else {
                continue;
            };
            let to_module = module_of(to);
            // A module may use what is inside its own folder.
            if to == &file.rel || to_module.starts_with(&file.module) {
                continue;
            }
            arrows
                .entry((file.rel.clone(), to.clone()))
                .or_insert_with(|| path.join("::"));
        }
    }
    arrows
}

/// The loops of the graph (strongly connected components of more than one file).
fn loops(arrows: &BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        next.entry(from).or_default().push(to);
        next.entry(to).or_default();
    }
    // Kosaraju: order by finish time, then walk the reversed graph.
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    for &start in next.keys() {
        let mut stack = vec![(start, 0usize)];
        if !seen.insert(start) {
            continue;
        }
        while let Some((node, i)) = stack.pop() {
            if let Some(&child) = next[node].get(i) {
                stack.push((node, i + 1));
                if seen.insert(child) {
                    stack.push((child, 0));
                }
            } else {
                order.push(node);
            }
        }
    }
    let mut back: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        back.entry(to).or_default().push(from);
    }
    let mut assigned = BTreeSet::new();
    let mut components = Vec::new();
    for &node in order.iter().rev() {
        if !assigned.insert(node) {
            continue;
        }
        let mut component = vec![node.to_string()];
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            for &m in back.get(n).map(Vec::as_slice).unwrap_or(&[]) {
                if assigned.insert(m) {
                    component.push(m.to_string());
                    stack.push(m);
                }
            }
        }
        if component.len() > 1 {
            component.sort();
            components.push(component);
        }
    }
    components
}

fn layer_of(rel: &str) -> Option<(&'static str, u8)> {
    let top = rel.split('/').next()?.trim_end_matches(".rs");
    LAYERS.iter().copied().find(|(name, _)| *name == top)
}

fn concern_of(rel: &str) -> Option<(&'static str, u8)> {
    let folder = rel.strip_prefix("domain/")?.split('/').next()?;
    CONCERNS.iter().copied().find(|(name, _)| *name == folder)
}

/// The subcommand a file of `cmd/` belongs to (`cmd/memory/table.rs` → `memory`); `None` for
/// `cmd/mod.rs`, which every subcommand may use.
fn subcommand_of(rel: &str) -> Option<&str> {
    let rest = rel.strip_prefix("cmd/")?;
    let first = rest.split('/').next()?.trim_end_matches(".rs");
    (first != "mod").then_some(first)
}

fn report(problems: &[String]) {
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

#[test]
fn no_file_of_src_is_in_an_import_loop() {
    let arrows = arrows(&read_sources());
    let problems: Vec<String> = loops(&arrows)
        .into_iter()
        .map(|component| {
            let ties: Vec<String> = arrows
                .iter()
                .filter(|((f, t), _)| component.contains(f) && component.contains(t))
                .map(|((f, t), path)| format!("    {f} -> {t} ({path})"))
                .collect();
            format!("loop of {} files:\n{}", component.len(), ties.join("\n"))
        })
        .collect();
    report(&problems);
}

#[test]
fn layers_point_one_way() {
    let problems: Vec<String> = arrows(&read_sources())
        .iter()
        .filter_map(|((from, to), path)| {
            let ((a, rank_a), (b, rank_b)) = (layer_of(from)?, layer_of(to)?);
            (a != b && rank_b >= rank_a).then(|| format!("{from} ({a}) uses {to} ({b}): {path}"))
        })
        .collect();
    report(&problems);
    for file in read_sources().iter().filter(|f| f.rel != "lib.rs") {
        assert!(
            layer_of(&file.rel).is_some(),
            "{} is in no layer of LAYERS",
            file.rel
        );
    }
}

#[test]
fn each_domain_folder_uses_only_the_folders_below_it() {
    let files = read_sources();
    let problems: Vec<String> = arrows(&files)
        .iter()
        .filter_map(|((from, to), path)| {
            let ((a, rank_a), (b, rank_b)) = (concern_of(from)?, concern_of(to)?);
            (a != b && rank_b >= rank_a).then(|| format!("{from} ({a}) uses {to} ({b}): {path}"))
        })
        .collect();
    report(&problems);
    // Every folder of the domain has its place in the order.
    for file in files
        .iter()
        .filter(|f| f.rel.starts_with("domain/") && f.rel != "domain/mod.rs")
    {
        assert!(
            concern_of(&file.rel).is_some(),
            "{} is in no concern of CONCERNS",
            file.rel
        );
    }
}

#[test]
fn the_domain_reaches_for_no_io() {
    let problems: Vec<String> = read_sources()
        .iter()
        .filter(|f| f.rel.starts_with("domain/"))
        .flat_map(|f| {
            DOMAIN_FORBIDDEN
                .iter()
                .filter(|word| f.code.contains(*word))
                .map(move |word| format!("{} names {word}", f.rel))
        })
        .collect();
    report(&problems);
}

#[test]
fn subcommand_files_never_use_one_another() {
    let problems: Vec<String> = arrows(&read_sources())
        .iter()
        .filter_map(|((from, to), path)| {
            let (a, b) = (subcommand_of(from)?, subcommand_of(to)?);
            (a != b).then(|| format!("{from} uses {to}: {path}"))
        })
        .collect();
    report(&problems);
}

/// The reading itself: a loop, a wrong-way arrow and I/O in the domain are seen.
#[test]
fn the_reading_sees_what_it_must_refuse() {
    let file = |rel: &str, code: &str| SourceFile {
        rel: rel.into(),
        module: module_of(rel),
        code: code_of(code),
    };
    let files = [
        file(
            "domain/base/text.rs",
            "use crate::domain::guard::structure::neutralise;",
        ),
        file(
            "domain/guard/structure.rs",
            "use super::super::base::text::{one_line, layout};",
        ),
        file("cmd/a.rs", "fn f() { crate::cmd::b::g(); }"),
        file("cmd/b.rs", "use crate::context::Context; // crate::cmd::a"),
        file("cmd/mod.rs", "pub mod a; pub mod b;"),
        file(
            "context.rs",
            "use crate::domain::base::text; fn now() { std::time::SystemTime::now(); }",
        ),
    ];
    let arrows = arrows(&files);
    assert_eq!(
        loops(&arrows),
        vec![vec![
            "domain/base/text.rs".to_string(),
            "domain/guard/structure.rs".to_string()
        ]]
    );
    assert!(arrows.contains_key(&("cmd/a.rs".into(), "cmd/b.rs".into())));
    assert!(
        !arrows.contains_key(&("cmd/b.rs".into(), "cmd/a.rs".into())),
        "comments are not read"
    );
    assert!(!arrows.contains_key(&("cmd/mod.rs".into(), "cmd/a.rs".into())));
    assert_eq!(concern_of("domain/base/text.rs"), Some(("base", 0)));
    assert_eq!(layer_of("cmd/a.rs"), Some(("cmd", 4)));
    assert_eq!(layer_of("context.rs"), Some(("context", 2)));
    assert_eq!(subcommand_of("cmd/memory/table.rs"), Some("memory"));
    assert_eq!(subcommand_of("cmd/mod.rs"), None);
    assert_eq!(
        expand_use("crate::a::{b, c::{d, e as f}}"),
        ["crate::a::b", "crate::a::c::d", "crate::a::c::e"]
    );
}
