//! The Markdown files a reader follows: `README.md`, `CONTRIBUTING.md` and every `docs/**/*.md`.
//!
//! - Every relative link (`[text](path)`, `[text](path#anchor)`, `[text](#anchor)`) must lead to
//!   a file or folder that exists; an anchor into a Markdown file must be the GitHub slug of one
//!   of its headings.
//! - Every command shown in a shell code block (a fence marked `sh`, `bash`, `shell`,
//!   `console`, `text`, or nothing) that starts with `ocmem ` must parse with the real command
//!   line, `ocmem::cli::Cli`. Words are split as a shell splits them (quotes, backslashes); a
//!   `#` starting a word begins a comment, and `|`, `;`, `&`, `<` or `>` ends the command there.
//!   A `$ ` prompt before it is dropped; in a `console` block only the lines after a prompt are
//!   commands, the rest is their output. An unquoted `…` or `...` is a placeholder, which no
//!   shell would run: show a real command instead.
//!
//! A failure names the file, the line, and the link or clap's error.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use clap::error::ErrorKind;
use clap::Parser;
use ocmem::cli::Cli;

/// The info strings of the code blocks whose `ocmem` lines are commands.
const SHELL_FENCES: &[&str] = &["", "sh", "bash", "shell", "console", "text"];

/// The fewest commands the files show: fewer means the blocks were not read.
const MIN_COMMANDS: usize = 30;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files checked, relative to the root, sorted.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                out.push(path);
            }
        }
    }
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    walk(&root.join("docs"), &mut files);
    files
        .into_iter()
        .map(|path| path.strip_prefix(root).unwrap().to_path_buf())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Reading Markdown: fences, headings, links.

/// One line of a Markdown file, with the code block it lies in.
struct Line<'a> {
    number: usize,
    text: &'a str,
    /// The info string's first word of the enclosing fenced block; `None` outside one.
    fence: Option<&'a str>,
}

/// The lines of `text`, fence lines themselves left out.
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    // The fence's marker (its run of ``` or ~~~) and its info word, while inside one.
    let mut open: Option<(&str, &str)> = None;
    for (index, text) in text.lines().enumerate() {
        let trimmed = text.trim_start();
        let marker_len = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        let marker = match (marker_len('`'), marker_len('~')) {
            (n, _) if n >= 3 => Some(&trimmed[..n]),
            (_, n) if n >= 3 => Some(&trimmed[..n]),
            _ => None,
        };
        match (open, marker) {
            (None, Some(marker)) => {
                let info = trimmed[marker.len()..].split_whitespace().next();
                open = Some((marker, info.unwrap_or("")));
                continue;
            }
            (Some((opened, _)), Some(marker))
                if marker.starts_with(opened) && trimmed[marker.len()..].trim().is_empty() =>
            {
                open = None;
                continue;
            }
            _ => {}
        }
        out.push(Line {
            number: index + 1,
            text,
            fence: open.map(|(_, info)| info),
        });
    }
    out
}

/// GitHub's anchor for a heading: lower case, every character but letters, digits, spaces,
/// `-` and `_` dropped, spaces made `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings; a repeated one gets `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for line in lines(text).into_iter().filter(|l| l.fence.is_none()) {
        let hashes = line.text.chars().take_while(|&c| c == '#').count();
        let Some(heading) = line.text[hashes..].strip_prefix(' ') else {
            continue;
        };
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let base = slug(heading);
        let count = seen.entry(base.clone()).or_insert(0);
        out.push(if *count == 0 {
            base
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    out
}

/// A line with its inline code spans blanked out, so that code that looks like a link is not
/// read as one.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let marker = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        let Some(end) = after.find(marker) else {
            break;
        };
        out.push_str(&rest[..start]);
        out.extend(std::iter::repeat_n(
            ' ',
            ticks * 2 + after[..end].chars().count(),
        ));
        rest = &after[end + ticks..];
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links of one line, as written.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else {
            break;
        };
        // `[text](path "title")`: the title is not part of the target.
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.trim_matches(|c| c == '<' || c == '>').to_string());
        rest = &after[end..];
    }
    out
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

/// `path` with `.` and `..` folded, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Every broken relative link of `file` (relative to `root`), as `file:line: message`.
fn broken_links(root: &Path, file: &Path, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for line in lines(text).into_iter().filter(|l| l.fence.is_none()) {
        for target in link_targets(line.text) {
            if target.is_empty() || is_external(&target) {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let at = format!("{}:{}: link `{target}`", file.display(), line.number);
            if path.is_empty() {
                if let Some(anchor) = anchor.filter(|a| !anchors(text).iter().any(|h| h == a)) {
                    problems.push(format!("{at}: no heading here has the anchor #{anchor}"));
                }
                continue;
            }
            let linked = normalize(&file.parent().unwrap_or(Path::new("")).join(path));
            let full = root.join(&linked);
            if !full.exists() {
                problems.push(format!("{at}: {} does not exist", linked.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if full.extension().is_none_or(|ext| ext != "md") {
                continue;
            }
            let target_text = fs::read_to_string(&full).unwrap();
            if !anchors(&target_text).iter().any(|a| a == anchor) {
                problems.push(format!(
                    "{at}: {} has no heading whose anchor is #{anchor}",
                    linked.display()
                ));
            }
        }
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// Commands shown in code blocks.

/// The words of a shell command line, up to a comment or an operator; `Err` when a quote is
/// not closed or a word is a placeholder.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word is being read (so that `''` is a word, empty).
    let mut in_word = false;
    let mut placeholder = false;
    let mut chars = line.chars().peekable();
    let mut finish = |word: &mut String, in_word: &mut bool, placeholder: &mut bool| {
        if *placeholder {
            return Err(format!("`{word}` is a placeholder: show a real command"));
        }
        if *in_word {
            words.push(std::mem::take(word));
        }
        *in_word = false;
        Ok(())
    };
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => finish(&mut word, &mut in_word, &mut placeholder)?,
            '#' if !in_word => break,
            '|' | ';' | '&' => break,
            '<' | '>' => {
                // `2>/dev/null`: the digits name what is redirected, not an argument.
                if in_word && !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                break;
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => {
                            word.push(chars.next().unwrap())
                        }
                        Some(c) => word.push(c),
                        None => return Err("a double quote is not closed".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
                placeholder |= word.ends_with('…') || word.ends_with("...");
            }
        }
    }
    finish(&mut word, &mut in_word, &mut placeholder)?;
    Ok(words)
}

/// The `ocmem` command a code line shows, if it shows one.
fn shown_command<'a>(fence: &str, text: &'a str) -> Option<&'a str> {
    let text = text.trim_start();
    let command = match text.strip_prefix("$ ") {
        Some(after) => after.trim_start(),
        None if fence == "console" => return None,
        None => text,
    };
    (command == "ocmem" || command.starts_with("ocmem ")).then_some(command)
}

/// Checks every command `file` shows; returns how many it shows, and each failure as
/// `file:line: message`.
fn bad_commands(file: &Path, text: &str) -> (usize, Vec<String>) {
    let mut shown = 0;
    let mut problems = Vec::new();
    for line in lines(text) {
        let Some(fence) = line.fence.filter(|f| SHELL_FENCES.contains(f)) else {
            continue;
        };
        let Some(command) = shown_command(fence, line.text) else {
            continue;
        };
        shown += 1;
        let at = format!("{}:{}: `{command}`", file.display(), line.number);
        match shell_words(command) {
            Err(why) => problems.push(format!("{at}: {why}")),
            Ok(words) => match Cli::try_parse_from(&words) {
                Ok(_) => {}
                Err(e)
                    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {}
                Err(e) => problems.push(format!("{at}:\n{}", e.render())),
            },
        }
    }
    (shown, problems)
}

// ---------------------------------------------------------------------------------------------

#[test]
fn every_relative_link_leads_somewhere() {
    let root = root();
    let mut problems = Vec::new();
    for file in markdown_files(&root) {
        let text = fs::read_to_string(root.join(&file)).unwrap();
        problems.extend(broken_links(&root, &file, &text));
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_command_shown_parses() {
    let root = root();
    let mut shown = 0;
    let mut problems = Vec::new();
    for file in markdown_files(&root) {
        let text = fs::read_to_string(root.join(&file)).unwrap();
        let (count, found) = bad_commands(&file, &text);
        shown += count;
        problems.extend(found);
    }
    assert!(
        problems.is_empty(),
        "commands that do not parse:\n{}",
        problems.join("\n\n")
    );
    assert!(
        shown >= MIN_COMMANDS,
        "only {shown} commands found in the code blocks; were they read?"
    );
}

// The checks themselves, on texts made up here.

#[test]
fn a_missing_file_and_a_missing_heading_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("docs")).unwrap();
    fs::write(
        dir.path().join("docs/a.md"),
        "# A page\n\n## Files on disk: `gc`\n",
    )
    .unwrap();
    let text = "\
See [the page](a.md), [its section](a.md#files-on-disk-gc) and [here](#local).\n\
See [nothing](b.md) and [no section](a.md#files-on-disk), [nor here](#remote).\n\
`[code](not-a-link.md)`, [a site](https://example.com/x.md).\n\
\n\
## Local\n\
\n\
```sh\n\
[inside a block](missing.md)\n\
```\n";
    let problems = broken_links(dir.path(), Path::new("docs/here.md"), text);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].starts_with("docs/here.md:2: link `b.md`: docs/b.md does not exist"));
    assert!(problems[1].contains("docs/a.md has no heading whose anchor is #files-on-disk"));
    assert!(problems[2].contains("`#remote`: no heading here has the anchor #remote"));
}

#[test]
fn a_bad_flag_and_a_placeholder_are_reported() {
    let text = "\
```sh\n\
ocmem memory list --all            # fine\n\
ocmem memory list --everything\n\
ocmem memory share ID…\n\
```\n\
\n\
```console\n\
$ ocmem sessions --json | jq .\n\
ocmem        0.1.0 at /usr/local/bin/ocmem\n\
```\n\
\n\
```json\n\
ocmem is not a command here\n\
```\n";
    let (shown, problems) = bad_commands(Path::new("README.md"), text);
    assert_eq!(shown, 4);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0].starts_with("README.md:3: `ocmem memory list --everything`:"));
    assert!(problems[0].contains("--everything"), "{}", problems[0]);
    assert!(problems[1].starts_with("README.md:4:"));
    assert!(problems[1].contains("placeholder"));
}

#[test]
fn words_are_split_as_a_shell_splits_them() {
    let words = |line: &str| shell_words(line).unwrap();
    assert_eq!(
        words(r#"ocmem remember 'a "b" c' "d 'e'" f\ g # h 'i"#),
        ["ocmem", "remember", r#"a "b" c"#, "d 'e'", "f g"]
    );
    assert_eq!(
        words("ocmem memory export > memory.md"),
        ["ocmem", "memory", "export"]
    );
    assert_eq!(words("ocmem gc 2>/dev/null || true"), ["ocmem", "gc"]);
    assert_eq!(words("ocmem gc a2>x"), ["ocmem", "gc", "a2"]);
    assert_eq!(words("ocmem a#b ''"), ["ocmem", "a#b", ""]);
    assert!(shell_words("ocmem remember 'open").is_err());
    assert!(shell_words("ocmem remember 'a ... b'").is_ok());
    assert!(shell_words("ocmem memory show ...").is_err());
}

#[test]
fn anchors_are_github_slugs() {
    let text = "# ocmem\n## See and steer memory: `ocmem memory`\n### The block's entries\n\
                ```markdown\n# Team memory\n```\n## Install\n## Install\n#hashtag\n";
    assert_eq!(
        anchors(text),
        [
            "ocmem",
            "see-and-steer-memory-ocmem-memory",
            "the-blocks-entries",
            "install",
            "install-1"
        ]
    );
}
