use std::path::Path;

use serde_json::json;

use super::*;

const HOOKS: &str = "/home/dev/.codex/hooks.json";

/// Hashes and keys as `codex app-server` reports them in `hooks/list` for a `hooks.json` with a
/// SessionStart group and a PostToolUse group matching `Bash|apply_patch`, each running
/// `/usr/bin/ocmem hook codex` with a timeout of 10.
const REPORTED: [(&str, &str); 2] = [
    (
        "/home/dev/.codex/hooks.json:session_start:0:0",
        "sha256:da23397dc461c5670f4aa780cce32c8e5eb4916e6500b9245718510430bd625f",
    ),
    (
        "/home/dev/.codex/hooks.json:post_tool_use:0:0",
        "sha256:734b3c57544b8d987f0dec0eb672dd1cd65c261100ccca78ce4834d4000f556f",
    ),
];

fn installed(file: &Value) -> Value {
    install(file, "/usr/bin/ocmem hook codex").unwrap()
}

#[test]
fn keys_and_hashes_are_those_codex_reports() {
    let file = installed(&json!({}));
    let found = ocmem_hooks(Path::new(HOOKS), &file);
    assert_eq!(found.len(), EVENTS.len());
    for (key, hash) in REPORTED {
        let hook = found.iter().find(|h| h.key == key).expect(key);
        assert_eq!(hook.hash, hash, "{key}");
        assert_eq!(hook.program, "/usr/bin/ocmem");
    }
    // A handler without a timeout is hashed with Codex's default one.
    let bare = json!({"type": "command", "command": "/usr/bin/ocmem hook codex"});
    let timed = json!({"type": "command", "command": "/usr/bin/ocmem hook codex", "timeout": 600});
    assert_eq!(
        trust_hash("session_start", None, &bare),
        trust_hash("session_start", None, &timed)
    );
    assert_ne!(
        trust_hash("session_start", None, &bare),
        trust_hash("session_end", None, &bare)
    );
}

#[test]
fn install_keeps_other_hooks_and_indexes_its_own_after_them() {
    let theirs = json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]}, "x": 1});
    let file = installed(&theirs);
    assert_eq!(file["x"], 1);
    assert_eq!(
        file["hooks"]["SessionStart"][0],
        theirs["hooks"]["SessionStart"][0]
    );
    let found = ocmem_hooks(Path::new(HOOKS), &file);
    let start = found.iter().find(|h| h.event == "SessionStart").unwrap();
    assert_eq!(start.key, format!("{HOOKS}:session_start:1:0"));
    assert_eq!(installed(&file), file, "installing twice changes nothing");
    assert_eq!(uninstall(&file), theirs);
    assert_eq!(uninstall(&installed(&json!({}))), json!({}));
}

#[test]
fn a_handler_of_another_program_is_not_ocmems() {
    for command in [
        "/usr/bin/ocmem hook claude-code",
        "/usr/bin/other hook codex",
        "ocmem hook codex --x",
    ] {
        assert_eq!(ocmem_program(command), None, "{command}");
    }
    assert_eq!(
        ocmem_program("'/a b/ocmem' hook codex").as_deref(),
        Some("/a b/ocmem")
    );
    assert_eq!(
        hook_command(Path::new("/a b/ocmem")),
        "'/a b/ocmem' hook codex"
    );
}

fn hooks() -> Vec<FoundHook> {
    ocmem_hooks(Path::new(HOOKS), &installed(&json!({})))
}

#[test]
fn trust_entries_are_laid_out_as_codex_writes_them() {
    let config = "model = \"gpt-5.5\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n";
    let hooks: Vec<FoundHook> = hooks().into_iter().take(2).collect();
    let written = with_trust(config, &hooks, None);
    let expected = format!(
        "{config}\n[hooks.state]\n\n[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n\n[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n",
        hooks[0].key, hooks[0].hash, hooks[1].key, hooks[1].hash
    );
    assert_eq!(written, expected);
    assert!(hooks.iter().all(|h| is_trusted(&written, h)));
    assert_eq!(
        without_trust(&written, &[&hooks[0].key, &hooks[1].key]),
        config
    );
    assert_eq!(
        with_trust(&written, &hooks, None),
        written,
        "writing twice changes nothing"
    );
}

#[test]
fn a_stale_or_missing_hash_is_not_trusted() {
    let all = hooks();
    let config = with_trust("", &all, None);
    let mut moved = all[0].clone();
    moved.hash = "sha256:00".into();
    assert!(!is_trusted(&config, &moved));
    assert!(!is_trusted("", &all[0]));
    // The right hash under another key (a decoy table) trusts nothing.
    let decoy = format!(
        "[hooks.state.\"other\"]\ntrusted_hash = \"{}\"\n",
        all[0].hash
    );
    assert!(!is_trusted(&decoy, &all[0]));
}

#[test]
fn other_entries_stay_when_ocmems_go() {
    let theirs =
        "[hooks.state]\n\n[hooks.state.\"/h/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:ab\"\n";
    let all = hooks();
    let config = with_trust(theirs, &all, None);
    assert_eq!(config.matches("[hooks.state]").count(), 1);
    let keys: Vec<&str> = all.iter().map(|h| h.key.as_str()).collect();
    assert_eq!(without_trust(&config, &keys), theirs);
}

#[test]
fn a_project_is_trusted_once() {
    let dir = Path::new("/home/dev/demo");
    let config = with_trust("", &[], Some(dir));
    assert_eq!(
        config,
        "\n[projects.\"/home/dev/demo\"]\ntrust_level = \"trusted\"\n"
    );
    assert_eq!(project_trust(&config, dir), Some(true));
    assert_eq!(with_trust(&config, &[], Some(dir)), config);
    let untrusted = "[projects.\"/home/dev/demo\"]\ntrust_level = \"untrusted\"\n";
    assert_eq!(project_trust(untrusted, dir), Some(false));
    assert_eq!(project_trust(untrusted, Path::new("/home/dev")), None);
    assert!(same_but_blank_lines(&without_project(&config, dir), ""));
}

#[test]
fn keys_with_quotes_are_escaped() {
    assert_eq!(toml_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
}

#[test]
fn the_compaction_prompt_is_a_top_level_key_and_comes_out_again() {
    let config = "model = \"gpt-5.5\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n";
    let set = with_compact_prompt(config, "Sum up.\nThen \"list\".").unwrap();
    assert_eq!(
        set,
        "model = \"gpt-5.5\"\ncompact_prompt = \"Sum up.\\nThen \\\"list\\\".\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n"
    );
    assert_eq!(
        with_compact_prompt(&set, "Sum up.\nThen \"list\".").unwrap(),
        set
    );
    assert!(same_but_blank_lines(
        &without_compact_prompt(&set, "Sum up.\nThen \"list\"."),
        config
    ));
    // Another prompt is the user's: neither replaced nor taken out.
    assert!(with_compact_prompt(&set, "Mine.").is_err());
    assert_eq!(without_compact_prompt(&set, "Mine."), set);
    // A key of that name inside a table is not the top-level one.
    let nested = "[profiles.x]\ncompact_prompt = \"theirs\"\n";
    let added = with_compact_prompt(nested, "ours").unwrap();
    assert_eq!(added, format!("compact_prompt = \"ours\"\n\n{nested}"));
    assert_eq!(
        with_compact_prompt("", "ours").unwrap(),
        "compact_prompt = \"ours\"\n"
    );
}
