//! The shell completions in `completions/` and the man pages in `man/` are generated from the
//! clap definitions in `src/cli/mod.rs`. This test fails when a committed file is missing, differs
//! from what the current CLI generates, or belongs to a subcommand that no longer exists.
//! Regenerate them all with
//!
//!     OCMEM_REGENERATE=1 cargo test --test generated_files
//!
//! Everything here is deterministic: the man pages carry no date.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::PathBuf;

use clap::{Command, CommandFactory};
use clap_complete::{Generator, Shell};
use clap_mangen::roff::{bold, roman, Inline, Roff};
use clap_mangen::Man;
use ocmem::cli::Cli;

const REGENERATE: &str = "OCMEM_REGENERATE=1 cargo test --test generated_files";
const COMPLETIONS_DIR: &str = "completions";
const MAN_DIR: &str = "man";
const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

// ---------------------------------------------------------------------------------------------
// The texts ocmem's man pages add to what clap knows. docs/reference.md ("Exit status",
// "Environment") and docs/files-on-disk.md are the source of truth for them.

const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "Success, also when a corrupt store was quarantined or a newer-version store was left \
         alone (a warning line goes to standard error).",
    ),
    (
        "1",
        "Bad input, or an I/O failure such as \"store busy\" (another process held the lock \
         for 2 s); also a settings file init refused, and any problem doctor found.",
    ),
    (
        "2",
        "Command-line usage error, also an OCMEM_TTL_DAYS outside 1-365.",
    ),
];

const FILES_INTRO: &str = "The data directory is --data-dir, else $OCMEM_DATA_DIR, else \
    $XDG_DATA_HOME/opencode-working-memory, else ~/.local/share/opencode-working-memory. \
    Stores are JSON in the format of the TypeScript plugin opencode-working-memory.";

const FILES: &[(&str, &str)] = &[
    (
        "<data dir>/workspaces/<key>/workspace-memory.json",
        "Long-term memory of one workspace. <key> is the first 16 hex digits of the SHA-256 of \
         the workspace root: the canonical path of the event's directory or, inside a git \
         repository, the top level of its main worktree.",
    ),
    (
        "<data dir>/workspaces/<key>/sessions/<32 hex>.json",
        "Hot state of one session, named by the first 32 hex digits of the SHA-256 of its \
         sessionID.",
    ),
    (
        "<file>.lock",
        "The lock file next to each store, held exclusively for every change; never renamed.",
    ),
    (
        "<file>.corrupt-<unix ms>",
        "A store that could not be read, moved aside and replaced by a fresh one (the newest 3 \
         copies are kept).",
    ),
    (
        "<file>.tmp-<pid>-<n>",
        "A write in progress; gc --sweep removes those older than an hour.",
    ),
    (
        "<data dir>/backups/<UTC timestamp>/",
        "What gc --false-positives changed, as it was: each session file it changes is first \
         copied here under the same relative path (timestamp such as 20261121T193109.504Z).",
    ),
    (
        "<data dir>/init/<16 hex>.json",
        "A host file as it was before init first changed it (named by the SHA-256 of its \
         path), and the directories init created for it, so that init --uninstall can put it \
         back byte for byte.",
    ),
    (
        "<data dir>/workspaces/<key>/off",
        "Memory is off for the workspace (ocmem memory off): every hook for it does nothing and \
         prints nothing. ocmem memory on removes it.",
    ),
    (
        "<repository>/.ocmem/memory.md",
        "Team memory, committed with the repository: Markdown, a section per type, a bullet per \
         entry ending with its id. Written only by ocmem memory add --team, share and unshare.",
    ),
    (
        "<data dir>/team-locks/<16 hex>.lock",
        "The lock held while a repository's team memory is rewritten, named by the SHA-256 of \
         the repository's root.",
    ),
];

const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "OCMEM_DATA_DIR",
        "The data directory, unless --data-dir is given. replay ignores it and uses a temporary \
         directory unless --data-dir is given.",
    ),
    (
        "XDG_DATA_HOME",
        "The default data directory is $XDG_DATA_HOME/opencode-working-memory (absolute paths \
         only), else ~/.local/share/opencode-working-memory, on every OS.",
    ),
    (
        "XDG_CONFIG_HOME",
        "OpenCode's global config directory, where init opencode --user installs the plugin, is \
         $XDG_CONFIG_HOME/opencode, else ~/.config/opencode.",
    ),
    (
        "CLAUDE_CONFIG_DIR",
        "Claude Code's user directory, where init claude-code --user adds the hooks to \
         settings.json, else ~/.claude.",
    ),
    (
        "OCMEM_NOW",
        "The current time, RFC 3339 (2026-11-21T16:00:00Z) or Unix milliseconds; for tests and \
         reproducible reports.",
    ),
    (
        "OCMEM_TTL_DAYS",
        "Days a session may stay idle before gc --sweep removes it (1-365, default 30; any \
         other value is a usage error); --older-than overrides it.",
    ),
    (
        "OCMEM_DISABLE",
        "1 (any value but 0, false, no or off) turns every hook off: render, tool-after, \
         compact, promote and hook read their event and do nothing, printing nothing.",
    ),
    (
        "VISUAL, EDITOR",
        "The editor ocmem memory edit runs when no new text is given.",
    ),
    (
        "COLUMNS, NO_COLOR",
        "The width ocmem memory cuts its tables to (else the terminal's), and no colour even on \
         a terminal.",
    ),
];

const STDIN_RULES: &str = "The event is one JSON object; unknown fields are ignored. Malformed \
    JSON, empty input, input that is not UTF-8, or a missing or wrongly typed required field is \
    rejected with one line on standard error, and nothing is written.";

// ---------------------------------------------------------------------------------------------
// Generation.

/// The command as the binary builds it: subcommands know their full names and carry the
/// global options. clap's own `help` subcommand gets no page, so it is left out.
fn command() -> Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// The page sections ocmem writes itself. A paragraph of the long about headed by one of
/// them (such as `Environment:` in the top command's) is left to that section.
const OWN_SECTIONS: [&str; 4] = ["STDIN", "EXIT STATUS", "ENVIRONMENT", "FILES"];

fn without_own_sections(cmd: Command) -> Command {
    let Some(long_about) = cmd.get_long_about().map(|text| text.to_string()) else {
        return cmd;
    };
    let kept: Vec<&str> = long_about
        .split("\n\n")
        .filter(|paragraph| {
            let heading = paragraph.split(':').next().unwrap_or_default();
            !OWN_SECTIONS.contains(&heading.trim().to_uppercase().as_str())
        })
        .collect();
    cmd.long_about(kept.join("\n\n"))
}

/// The subcommands that get a man page.
fn documented_subcommands(cmd: &Command) -> Vec<&Command> {
    cmd.get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .collect()
}

/// Every generated file, by path relative to the crate root.
fn generate() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for shell in SHELLS {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "ocmem", &mut buf);
        files.insert(
            format!("{COMPLETIONS_DIR}/{}", shell.file_name("ocmem")),
            String::from_utf8(buf).expect("completion scripts are UTF-8"),
        );
    }
    let cmd = command();
    let pages = std::iter::once((&cmd, None)).chain(
        documented_subcommands(&cmd)
            .into_iter()
            .map(|sub| (sub, Some(&cmd))),
    );
    for (page_cmd, parent) in pages {
        let man = man(&cmd, page_cmd);
        files.insert(
            format!("{MAN_DIR}/{}", man.get_filename()),
            man_page(&man, page_cmd, parent),
        );
    }
    files
}

fn man(top: &Command, cmd: &Command) -> Man {
    let version = top.get_version().unwrap_or_default();
    Man::new(without_own_sections(cmd.clone())).source(format!("{} {version}", top.get_name()))
}

/// Builds a page from clap_mangen's sections and ocmem's own, in the usual man page order.
struct Page {
    text: String,
    /// What every rendered piece of roff starts with; kept once, at the top of the page.
    preamble: String,
}

impl Page {
    fn push(&mut self, render: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
        let mut buf = Vec::new();
        render(&mut buf).expect("rendering to memory cannot fail");
        let rendered = String::from_utf8(buf).expect("man pages are UTF-8");
        let body = if self.text.is_empty() {
            rendered.as_str()
        } else {
            rendered.strip_prefix(&self.preamble).unwrap_or(&rendered)
        };
        self.text.push_str(body);
    }

    fn push_roff(&mut self, roff: &Roff) {
        self.push(|w| roff.to_writer(w));
    }
}

fn man_page(man: &Man, cmd: &Command, parent: Option<&Command>) -> String {
    let mut page = Page {
        text: String::new(),
        preamble: Roff::new().render(),
    };
    page.push(|w| man.render_title(w));
    page.push(|w| man.render_name_section(w));
    page.push(|w| man.render_synopsis_section(w));
    page.push(|w| man.render_description_section(w));
    if cmd.get_arguments().any(|arg| !arg.is_hide_set()) {
        page.push(|w| man.render_options_section(w));
    }
    let subcommands = documented_subcommands(cmd);
    if !subcommands.is_empty() {
        page.push(|w| man.render_subcommands_section(w));
    }

    let mut roff = Roff::new();
    stdin_section(&mut roff, cmd, &subcommands);
    exit_status_section(&mut roff, cmd, &subcommands);
    list_section(&mut roff, "ENVIRONMENT", None, ENVIRONMENT);
    list_section(&mut roff, "FILES", Some(FILES_INTRO), FILES);
    examples_section(&mut roff, cmd);
    see_also_section(&mut roff, parent, &subcommands);
    page.push_roff(&roff);

    if parent.is_none() && cmd.get_version().is_some() {
        page.push(|w| man.render_version_section(w));
    }
    page.text
}

/// The subcommand's after_help split into its stdin contract (the lines from the one starting
/// with `Stdin` up to the first blank line) and the rest (the examples).
fn after_help_parts(cmd: &Command) -> (Option<Vec<String>>, Vec<String>) {
    let text = cmd
        .get_after_help()
        .map(|help| help.to_string())
        .unwrap_or_default();
    let mut stdin = None;
    let mut rest = Vec::new();
    let mut lines = text.lines().map(str::trim_end).peekable();
    while let Some(line) = lines.next() {
        if stdin.is_none() && line.trim_start().starts_with("Stdin") {
            let mut contract = vec![line.trim().to_owned()];
            while let Some(next) = lines.next_if(|l| !l.trim().is_empty()) {
                contract.push(next.trim().to_owned());
            }
            stdin = Some(contract);
        } else {
            rest.push(line.to_owned());
        }
    }
    while rest.first().is_some_and(|l| l.trim().is_empty()) {
        rest.remove(0);
    }
    while rest.last().is_some_and(|l| l.trim().is_empty()) {
        rest.pop();
    }
    (stdin, rest)
}

fn invocation(cmd: &Command) -> String {
    cmd.get_bin_name().unwrap_or(cmd.get_name()).to_owned()
}

fn stdin_section(roff: &mut Roff, cmd: &Command, subcommands: &[&Command]) {
    roff.control("SH", ["STDIN"]);
    if subcommands.is_empty() {
        match after_help_parts(cmd).0 {
            Some(contract) => {
                roff.text([roman(contract.join("\n"))]);
                roff.control("PP", []);
                roff.text([roman(STDIN_RULES)]);
            }
            None => {
                roff.text([roman(format!(
                    "{} reads no standard input.",
                    invocation(cmd)
                ))]);
            }
        }
        return;
    }
    roff.text([roman(format!(
        "{} itself reads no standard input. Its subcommands read:",
        invocation(cmd)
    ))]);
    for sub in subcommands {
        roff.control("TP", []);
        roff.text([bold(invocation(sub))]);
        match after_help_parts(sub).0 {
            Some(contract) => roff.text([roman(contract.join("\n"))]),
            None => roff.text([roman("no standard input")]),
        };
    }
    roff.control("PP", []);
    roff.text([roman(STDIN_RULES)]);
}

/// Options whose help states an exit status of their own, such as `baseline --check`.
fn exit_status_options(cmd: &Command) -> Vec<(String, String)> {
    cmd.get_arguments()
        .filter(|arg| !arg.is_hide_set())
        .filter_map(|arg| {
            let long = arg.get_long()?;
            let help = arg.get_help()?.to_string();
            let words: Vec<&str> = help.split_whitespace().collect();
            let states_status = words.windows(2).any(|pair| {
                matches!(pair[0].to_lowercase().as_str(), "exit" | "exits")
                    && pair[1].starts_with(|c: char| c.is_ascii_digit())
            });
            states_status.then(|| (format!("--{long}"), help))
        })
        .collect()
}

fn exit_status_section(roff: &mut Roff, cmd: &Command, subcommands: &[&Command]) {
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in EXIT_STATUS {
        roff.control("TP", []);
        roff.text([bold(*code)]);
        roff.text([roman(*meaning)]);
    }
    let owners = if subcommands.is_empty() {
        vec![cmd]
    } else {
        subcommands.to_vec()
    };
    for owner in owners {
        for (option, help) in exit_status_options(owner) {
            let sentence = if help.ends_with('.') {
                help
            } else {
                format!("{help}.")
            };
            roff.control("PP", []);
            roff.text([
                bold(format!("{} {option}", invocation(owner))),
                roman(format!(": {sentence}")),
            ]);
        }
    }
}

fn list_section(roff: &mut Roff, title: &str, intro: Option<&str>, items: &[(&str, &str)]) {
    roff.control("SH", [title]);
    if let Some(intro) = intro {
        roff.text([roman(intro)]);
    }
    for (term, meaning) in items {
        roff.control("TP", []);
        roff.text([bold(*term)]);
        roff.text([roman(*meaning)]);
    }
}

/// The after_help text other than the stdin contract, without its `Example(s):` heading,
/// as literal lines.
fn examples_section(roff: &mut Roff, cmd: &Command) {
    let (_, mut lines) = after_help_parts(cmd);
    if lines
        .first()
        .is_some_and(|l| matches!(l.trim(), "Example:" | "Examples:"))
    {
        lines.remove(0);
    }
    if lines.iter().all(|l| l.trim().is_empty()) {
        return;
    }
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    roff.control("SH", ["EXAMPLES"]);
    roff.control("nf", []);
    roff.control("RS", ["4"]);
    for line in &lines {
        let line = line.get(indent..).unwrap_or("");
        roff.text([roman(line)]);
    }
    roff.control("RE", []);
    roff.control("fi", []);
}

fn see_also_section(roff: &mut Roff, parent: Option<&Command>, subcommands: &[&Command]) {
    let related: Vec<&Command> = match parent {
        Some(parent) => vec![parent],
        None => subcommands.to_vec(),
    };
    if related.is_empty() {
        return;
    }
    roff.control("SH", ["SEE ALSO"]);
    let mut line: Vec<Inline> = Vec::new();
    for (i, other) in related.iter().enumerate() {
        if i > 0 {
            line.push(roman(", "));
        }
        let name = other.get_display_name().unwrap_or(other.get_name());
        line.push(bold(name));
        line.push(roman("(1)"));
    }
    roff.text(line);
}

// ---------------------------------------------------------------------------------------------
// Writing and checking.

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Says what regenerating changed, past the test harness's output capture.
fn report(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn regenerating() -> bool {
    std::env::var_os("OCMEM_REGENERATE").is_some_and(|v| v == "1")
}

/// Generated man pages on disk that no current command generates.
fn stale_man_pages(files: &BTreeMap<String, String>) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(root().join(MAN_DIR)) else {
        return Vec::new();
    };
    let mut stale: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with("ocmem")
                && name.ends_with(".1")
                && !files.contains_key(&format!("{MAN_DIR}/{name}"))
        })
        .collect();
    stale.sort();
    stale
}

fn first_difference(committed: &str, generated: &str) -> String {
    let mut committed_lines = committed.lines();
    let mut generated_lines = generated.lines();
    for number in 1.. {
        match (committed_lines.next(), generated_lines.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (None, None) => return "line endings differ".to_owned(),
            (a, b) => {
                return format!(
                    "line {number}: committed {:?}, generated {:?}",
                    a.unwrap_or("<end of file>"),
                    b.unwrap_or("<end of file>")
                )
            }
        }
    }
    unreachable!()
}

#[test]
fn completions_and_man_pages_are_up_to_date() {
    let files = generate();
    let root = root();
    if regenerating() {
        for (relative, contents) in &files {
            let path = root.join(relative);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            if fs::read_to_string(&path).ok().as_deref() != Some(contents.as_str()) {
                fs::write(&path, contents)
                    .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
                report(&format!("wrote {relative}"));
            }
        }
        for path in stale_man_pages(&files) {
            fs::remove_file(&path)
                .unwrap_or_else(|e| panic!("cannot remove {}: {e}", path.display()));
            report(&format!("removed {}", path.display()));
        }
        return;
    }

    let mut problems = Vec::new();
    for (relative, contents) in &files {
        match fs::read_to_string(root.join(relative)) {
            Ok(committed) if committed.replace("\r\n", "\n") == *contents => {}
            Ok(committed) => problems.push(format!(
                "{relative} differs from what the CLI generates ({})",
                first_difference(&committed, contents)
            )),
            Err(e) => problems.push(format!("{relative} is missing ({e})")),
        }
    }
    for path in stale_man_pages(&files) {
        let relative = path.strip_prefix(&root).unwrap_or(&path);
        problems.push(format!(
            "{} belongs to no current subcommand",
            relative.display()
        ));
    }
    assert!(
        problems.is_empty(),
        "generated files are out of date:\n  {}\nRun `{REGENERATE}` and commit the result.",
        problems.join("\n  ")
    );
}

// ---------------------------------------------------------------------------------------------
// What the generated files must say.

/// Roff source as the reader sees it, near enough for `contains`.
fn plain(roff: &str) -> String {
    roff.replace(r"\-", "-")
        .replace(r"\*(Aq", "'")
        .replace(r"\fB", "")
        .replace(r"\fI", "")
        .replace(r"\fR", "")
        .replace(r"\&", "")
        .replace(r"\\", r"\")
}

/// The text of one `.SH` section of a page, in plain text.
fn section(page: &str, title: &str) -> Option<String> {
    let heading = if title.contains(' ') {
        format!(".SH \"{title}\"\n")
    } else {
        format!(".SH {title}\n")
    };
    let start = page.find(&heading)? + heading.len();
    let end = page[start..]
        .find("\n.SH ")
        .map_or(page.len(), |i| start + i + 1);
    Some(plain(&page[start..end]))
}

fn page_of<'a>(files: &'a BTreeMap<String, String>, cmd: &Command) -> &'a str {
    let name = cmd.get_display_name().unwrap_or(cmd.get_name());
    files
        .get(&format!("{MAN_DIR}/{name}.1"))
        .unwrap_or_else(|| panic!("no man page for {name}"))
}

#[test]
fn every_command_has_a_man_page_with_all_sections() {
    let files = generate();
    let cmd = command();
    let subcommands = documented_subcommands(&cmd);
    assert!(
        subcommands.len() >= 5,
        "expected the hook subcommands, got {}",
        subcommands.len()
    );
    for page_cmd in std::iter::once(&cmd).chain(subcommands.iter().copied()) {
        let page = page_of(&files, page_cmd);
        for title in [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "OPTIONS",
            "STDIN",
            "EXIT STATUS",
            "FILES",
            "ENVIRONMENT",
        ] {
            let text = section(page, title)
                .unwrap_or_else(|| panic!("{} has no {title} section", invocation(page_cmd)));
            assert!(
                !text.trim().is_empty(),
                "{} has an empty {title} section",
                invocation(page_cmd)
            );
        }
        let environment = section(page, "ENVIRONMENT").unwrap();
        for variable in [
            "OCMEM_DATA_DIR",
            "XDG_DATA_HOME",
            "OCMEM_NOW",
            "OCMEM_TTL_DAYS",
        ] {
            assert!(environment.contains(variable), "{variable} undocumented");
        }
        let files_section = section(page, "FILES").unwrap();
        assert!(files_section.contains("<data dir>/workspaces/<key>/sessions/<32 hex>.json"));
        assert!(files_section.contains("<data dir>/backups/<UTC timestamp>/"));
        assert!(
            section(page, "OPTIONS").unwrap().contains("--data-dir"),
            "the global --data-dir is missing from {}",
            invocation(page_cmd)
        );
        assert!(
            !page.contains(".SH EXTRA"),
            "raw after_help left in the page"
        );
    }
    let top_page = page_of(&files, &cmd);
    let listed = section(top_page, "SUBCOMMANDS").expect("the top page lists the subcommands");
    for sub in &subcommands {
        let name = format!("{}(1)", sub.get_display_name().unwrap());
        assert!(listed.contains(&name), "{name} missing from SUBCOMMANDS");
    }
}

#[test]
fn stdin_sections_carry_each_subcommands_contract() {
    let files = generate();
    let cmd = command();
    for sub in documented_subcommands(&cmd) {
        let stdin = section(page_of(&files, sub), "STDIN").unwrap();
        match after_help_parts(sub).0 {
            Some(contract) => {
                assert!(
                    stdin.contains(&contract.join("\n")),
                    "{}: STDIN lacks {contract:?}:\n{stdin}",
                    invocation(sub)
                );
                let examples = section(page_of(&files, sub), "EXAMPLES").unwrap_or_default();
                assert!(
                    !examples.contains(&contract[0]),
                    "the stdin contract is repeated under EXAMPLES"
                );
            }
            None => assert!(stdin.contains("reads no standard input"), "{stdin}"),
        }
    }
}

#[test]
fn gc_page_carries_the_gc_stdin_line() {
    let files = generate();
    let cmd = command();
    let gc = cmd
        .find_subcommand("gc")
        .expect("ocmem has a gc subcommand");
    let help = gc
        .get_after_help()
        .expect("gc has an after_help")
        .to_string();
    let line = help
        .lines()
        .find(|l| l.starts_with("Stdin"))
        .expect("gc's after_help states its stdin");
    let page = page_of(&files, gc);
    let stdin = section(page, "STDIN").expect("gc page has STDIN");
    assert!(stdin.contains(line), "{line:?} missing from:\n{stdin}");
    // The top page sums up every subcommand's stdin, gc's included.
    let top = section(page_of(&files, &cmd), "STDIN").unwrap();
    assert!(top.contains(line), "{line:?} missing from ocmem.1:\n{top}");
}

#[test]
fn baseline_check_exit_status_is_documented() {
    let files = generate();
    let cmd = command();
    let Some(baseline) = cmd.find_subcommand("baseline") else {
        return;
    };
    let exit = section(page_of(&files, baseline), "EXIT STATUS").unwrap();
    assert!(exit.contains("ocmem baseline --check"), "{exit}");
    let top = section(page_of(&files, &cmd), "EXIT STATUS").unwrap();
    assert!(top.contains("ocmem baseline --check"), "{top}");
}

#[test]
fn completions_know_every_subcommand_and_the_global_option() {
    let files = generate();
    let cmd = command();
    for shell in SHELLS {
        let name = format!("{COMPLETIONS_DIR}/{}", shell.file_name("ocmem"));
        let script = &files[&name];
        for sub in documented_subcommands(&cmd) {
            assert!(
                script.contains(sub.get_name()),
                "{name} lacks {}",
                sub.get_name()
            );
        }
        assert!(script.contains("data-dir"), "{name} lacks --data-dir");
    }
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(generate(), generate());
    // No date in the title line: a page must not change with the day it was generated on.
    let top = &generate()[&format!("{MAN_DIR}/ocmem.1")];
    let title = top.lines().find(|l| l.starts_with(".TH ")).unwrap();
    let digits: Vec<bool> = title.chars().map(|c| c.is_ascii_digit()).collect();
    assert!(
        !digits.windows(4).any(|w| w.iter().all(|&d| d)),
        "the title line must carry no date: {title}"
    );
}
