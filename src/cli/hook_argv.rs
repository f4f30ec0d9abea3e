//! The hook subcommands' command lines, recognised without clap.
//!
//! A plugin runs `tool-after` after every tool call, so its start-up is most of its cost, and
//! building clap's whole command tree would cost more than the hook's own work. The few plain
//! forms a plugin uses are recognised here; anything else (help, a typo, a repeated flag, an
//! unusual value) returns `None` and goes to clap, which stays the one definition of the
//! command line and so of every message and exit status. The tests check, over every short
//! argv from a vocabulary of tokens, that each form accepted here parses the same with clap.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{Command, Compact, Hook, HookHost, Promote, Render, ToolAfter};

/// The hooks recognised here and whether each takes `--json`.
const HOOKS: [(&str, bool); 4] = [
    ("tool-after", true),
    ("render", true),
    ("compact", false),
    ("promote", true),
];

/// The hosts of `ocmem hook <host>`, as clap spells them.
const HOOK_HOSTS: [(&str, HookHost); 3] = [
    ("claude-code", HookHost::ClaudeCode),
    ("codex", HookHost::Codex),
    ("gemini", HookHost::Gemini),
];

/// `--data-dir` and the hook command when `args` (program name first) is a hook invocation
/// that clap would accept as it stands; `None` for clap to handle.
pub fn parse(args: &[OsString]) -> Option<(Option<PathBuf>, Command)> {
    let mut data_dir: Option<PathBuf> = None;
    let mut hook: Option<(&str, bool)> = None;
    let mut json = false;
    let mut prune = false;
    let mut hook_host: Option<HookHost> = None;
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        let arg = arg.to_str()?;
        let dir = if arg == "--data-dir" {
            Some(rest.next()?.to_str()?)
        } else {
            arg.strip_prefix("--data-dir=")
        };
        if let Some(dir) = dir {
            // Empty or dash-led values, and a second --data-dir, are clap's to judge.
            if data_dir.is_some() || dir.is_empty() || dir.starts_with('-') {
                return None;
            }
            data_dir = Some(PathBuf::from(dir));
        } else if arg == "--prune" && hook.is_some_and(|(name, _)| name == "tool-after") {
            // Once, and never with --json: clap refuses both.
            if prune || json {
                return None;
            }
            prune = true;
        } else if let Some((_, takes_json)) = hook {
            if arg != "--json" || !takes_json || json || prune {
                return None;
            }
            json = true;
        } else if arg == "hook" {
            // `hook <host>`: the host's name comes next, as clap spells it.
            let host = rest.next()?.to_str()?;
            hook_host = Some(HOOK_HOSTS.iter().find(|(name, _)| *name == host)?.1);
            hook = Some(("hook", false));
        } else {
            hook = Some(*HOOKS.iter().find(|(name, _)| *name == arg)?);
        }
    }
    let command = match hook?.0 {
        "hook" => Command::Hook(Hook { host: hook_host? }),
        "tool-after" => Command::ToolAfter(ToolAfter { json, prune }),
        "render" => Command::Render(Render { json }),
        "compact" => Command::Compact(Compact {}),
        _ => Command::Promote(Promote { json }),
    };
    Some((data_dir, command))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;

    /// Tokens a command line may be made of: the hook forms, and decoys next to them.
    const TOKENS: [&str; 24] = [
        "tool-after",
        "--prune",
        "hook",
        "claude-code",
        "codex",
        "claude",
        "gemini",
        "render",
        "compact",
        "promote",
        "gc",
        "--json",
        "--data-dir",
        "--data-dir=d",
        "d",
        "",
        "--data-dir=",
        "--data-dir=-x",
        "-x",
        "--",
        "--jsonx",
        "--help",
        "-V",
        "help",
    ];

    /// Tokens whose every clap-accepted use the fast path must take too.
    fn plain(token: &str) -> bool {
        [
            "tool-after",
            "--prune",
            "hook",
            "claude-code",
            "codex",
            "gemini",
            "render",
            "compact",
            "promote",
            "--json",
            "--data-dir",
            "--data-dir=d",
            "d",
        ]
        .contains(&token)
    }

    fn data_dir_count(tokens: &[&str]) -> usize {
        tokens
            .iter()
            .filter(|t| t.starts_with("--data-dir"))
            .count()
    }

    fn argv(tokens: &[&str]) -> Vec<OsString> {
        std::iter::once("ocmem")
            .chain(tokens.iter().copied())
            .map(OsString::from)
            .collect()
    }

    /// Every argv of up to three tokens, and of four whose first three are plain (clap is
    /// slow enough in a test build that all of length four would take most of a minute).
    fn every_argv() -> Vec<Vec<&'static str>> {
        let mut all = vec![vec![]];
        let mut last: Vec<Vec<&str>> = vec![vec![]];
        for len in 1..=4 {
            last = last
                .iter()
                .filter(|prefix| len < 4 || prefix.iter().all(|t| plain(t)))
                .flat_map(|prefix| {
                    TOKENS.iter().map(move |t| {
                        let mut next = prefix.clone();
                        next.push(*t);
                        next
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    fn is_hook(command: &Command) -> bool {
        matches!(
            command,
            Command::ToolAfter(_)
                | Command::Render(_)
                | Command::Compact(_)
                | Command::Promote(_)
                | Command::Hook(_)
        )
    }

    #[test]
    fn every_form_taken_parses_the_same_with_clap_and_no_plain_form_is_missed() {
        let mut taken = 0;
        for tokens in every_argv() {
            let args = argv(&tokens);
            let fast = parse(&args);
            let clap = Cli::try_parse_from(&args);
            match (&fast, &clap) {
                (Some((data_dir, command)), Ok(cli)) => {
                    assert_eq!(data_dir, &cli.data_dir, "{tokens:?}");
                    assert_eq!(
                        format!("{command:?}"),
                        format!("{:?}", cli.command),
                        "{tokens:?}"
                    );
                    taken += 1;
                }
                (Some(_), Err(e)) => panic!("{tokens:?} taken, but clap says: {e}"),
                // clap takes --data-dir once on each side of the subcommand; that is left
                // to it, as it is no plugin's way.
                // So is a flag between `hook` and its host.
                (None, Ok(cli)) => assert!(
                    !(is_hook(&cli.command)
                        && tokens.iter().all(|t| plain(t))
                        && data_dir_count(&tokens) <= 1
                        && tokens
                            .windows(2)
                            .all(|w| w[0] != "hook" || ["claude-code", "codex"].contains(&w[1]))),
                    "{tokens:?} is a plain hook form left to clap"
                ),
                (None, Err(_)) => {}
            }
        }
        // tool-after, render and promote each with or without --json, compact, each with no
        // --data-dir, or one in either spelling before or after the subcommand.
        assert!(taken > 30, "only {taken} forms taken");
    }

    #[test]
    fn the_forms_a_plugin_uses_are_taken() {
        for (tokens, data_dir, command) in [
            (
                &["tool-after"][..],
                None,
                "ToolAfter(ToolAfter { json: false, prune: false })",
            ),
            (
                &["tool-after", "--prune"][..],
                None,
                "ToolAfter(ToolAfter { json: false, prune: true })",
            ),
            (
                &["render", "--json"][..],
                None,
                "Render(Render { json: true })",
            ),
            (
                &["--data-dir", "/m", "compact"][..],
                Some("/m"),
                "Compact(Compact)",
            ),
            (
                &["promote", "--data-dir=/m", "--json"][..],
                Some("/m"),
                "Promote(Promote { json: true })",
            ),
            (
                &["hook", "claude-code"][..],
                None,
                "Hook(Hook { host: ClaudeCode })",
            ),
            (
                &["--data-dir=/m", "hook", "codex"][..],
                Some("/m"),
                "Hook(Hook { host: Codex })",
            ),
        ] {
            let (dir, parsed) = parse(&argv(tokens)).expect("taken");
            assert_eq!(dir, data_dir.map(PathBuf::from), "{tokens:?}");
            assert_eq!(format!("{parsed:?}"), command, "{tokens:?}");
        }
    }

    #[test]
    fn unusual_forms_go_to_clap() {
        for tokens in [
            &[][..],
            &["--help"],
            &["render", "--help"],
            &["compact", "--json"],
            &["hook", "claude-code", "--json"],
            &["hook", "codex", "--json"],
            &["hook", "claude"],
            &["hook", "--help"],
            &["gc"],
            &["render", "--json", "--json"],
            &["tool-after", "--prune", "--json"],
            &["tool-after", "--json", "--prune"],
            &["tool-after", "--prune", "--prune"],
            &["render", "--prune"],
            &["--data-dir", "a", "render", "--data-dir", "b"],
            &["--data-dir", "", "render"],
            &["--data-dir=-x", "render"],
            &["render", "--"],
            &["--json", "render"],
            &["render", "render"],
            &["tool-after", "--data-dir"],
        ] {
            assert!(parse(&argv(tokens)).is_none(), "{tokens:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_data_dir_that_is_not_unicode_goes_to_clap() {
        use std::os::unix::ffi::OsStringExt;
        let mut args = argv(&["render", "--data-dir"]);
        args.push(OsString::from_vec(b"/m/\xff".to_vec()));
        assert!(parse(&args).is_none());
    }
}
