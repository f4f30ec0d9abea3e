use super::*;
use serde_json::json;

/// A user's settings as Claude Code writes them, with hooks of their own, among them decoys
/// that mention ocmem without being its hook.
const USER_SETTINGS: &str = r#"{
  "permissions": {
    "allow": ["Bash(npm run test:*)"],
    "deny": ["Read(./.env)"]
  },
  "env": {"DISABLE_TELEMETRY": "1"},
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {"type": "command", "command": "npx prettier --write \"$CLAUDE_FILE_PATHS\""},
          {"type": "command", "command": "echo ocmem hook claude-code"}
        ]
      }
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "/opt/tools/notocmem hook claude-code"}]}
    ]
  },
  "model": "opus"
}
"#;

const BIN: &str = "/home/dev/.cargo/bin/ocmem";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn keys(value: &Value) -> Vec<String> {
    value.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn install_adds_a_group_per_event_and_keeps_everything_else_in_order() {
    let before = parse(USER_SETTINGS);
    let command = hook_command(Path::new(BIN));
    let after = install(&before, &command).unwrap();

    assert_eq!(keys(&after), ["permissions", "env", "hooks", "model"]);
    assert_eq!(after["permissions"], before["permissions"]);
    assert_eq!(after["env"], before["env"]);
    let hook_keys = keys(&after["hooks"]);
    assert_eq!(&hook_keys[..2], ["PostToolUse", "Stop"], "the user's first");
    assert_eq!(
        hook_keys.len(),
        2 + EVENTS.len() - 1,
        "PostToolUse is shared"
    );

    // The user's PostToolUse group is untouched, ocmem's comes after it.
    let post = after["hooks"]["PostToolUse"].as_array().unwrap();
    assert_eq!(post[0], before["hooks"]["PostToolUse"][0]);
    assert_eq!(
        post[1],
        json!({"matcher": RECORDED_TOOLS, "hooks": [{"type": "command", "command": format!("{BIN} hook claude-code"), "timeout": HOOK_TIMEOUT_SECS}]})
    );
    assert_eq!(after["hooks"]["Stop"], before["hooks"]["Stop"]);
    let start = &after["hooks"]["SessionStart"][0];
    assert!(start.get("matcher").is_none(), "{start}");

    let found = ocmem_hooks(&after);
    assert_eq!(
        found.len(),
        EVENTS.len(),
        "the decoys are not ocmem's: {found:?}"
    );
    assert!(found.iter().all(|f| f.program == BIN));
    assert!(missing_events(&found).is_empty());
    assert_eq!(missing_events(&ocmem_hooks(&before)).len(), EVENTS.len());
}

#[test]
fn install_twice_changes_nothing_and_a_moved_binary_is_replaced_in_place() {
    let once = install(&parse(USER_SETTINGS), &hook_command(Path::new(BIN))).unwrap();
    let twice = install(&once, &hook_command(Path::new(BIN))).unwrap();
    assert_eq!(render(&twice, None), render(&once, None));

    let moved = install(&once, &hook_command(Path::new("/usr/local/bin/ocmem"))).unwrap();
    assert_eq!(keys(&moved["hooks"]), keys(&once["hooks"]));
    for (event, _) in EVENTS {
        assert_eq!(
            moved["hooks"][event].as_array().unwrap().len(),
            once["hooks"][event].as_array().unwrap().len(),
            "{event}"
        );
    }
    let found = ocmem_hooks(&moved);
    assert_eq!(found.len(), EVENTS.len());
    assert!(
        found.iter().all(|f| f.program == "/usr/local/bin/ocmem"),
        "{found:?}"
    );
}

#[test]
fn a_hand_written_hook_sharing_a_group_is_taken_out_and_replaced() {
    let settings = json!({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": "ocmem hook claude-code"},
        {"type": "command", "command": "date >> ~/prompts.log"}
    ]}]}});
    let after = install(&settings, &hook_command(Path::new(BIN))).unwrap();
    let groups = after["hooks"]["UserPromptSubmit"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(
        groups[0],
        json!({"hooks": [{"type": "command", "command": "date >> ~/prompts.log"}]})
    );
    assert_eq!(
        groups[1]["hooks"][0]["command"],
        format!("{BIN} hook claude-code")
    );
}

#[test]
fn uninstall_takes_out_exactly_what_install_put_in() {
    for text in [USER_SETTINGS, "{}", r#"{"model": "opus"}"#] {
        let before = parse(text);
        let installed = install(&before, &hook_command(Path::new(BIN))).unwrap();
        let removed = uninstall(&installed);
        assert_eq!(removed, before, "{text}");
        assert_eq!(keys(&removed), keys(&before));
    }
    // A `hooks` left empty goes, even one that was empty before (init restores such a file
    // from its copy of the original).
    let empty_hooks = install(&json!({"hooks": {}}), &hook_command(Path::new(BIN))).unwrap();
    assert_eq!(uninstall(&empty_hooks), json!({}));
    // An empty event list the user wrote stays; a stale handler under an event ocmem no longer
    // registers goes.
    let stale = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "'/opt/my tools/ocmem' hook claude-code"}]}], "Notification": []}});
    assert_eq!(uninstall(&stale), json!({"hooks": {"Notification": []}}));
}

#[test]
fn shapes_claude_code_would_reject_are_refused() {
    let command = hook_command(Path::new(BIN));
    for (text, says) in [
        ("[]", "not a JSON object"),
        (r#"{"hooks": []}"#, "\"hooks\" is not an object"),
        (
            r#"{"hooks": {"SessionStart": {}}}"#,
            "\"SessionStart\" is not an array",
        ),
    ] {
        let err = install(&parse(text), &command).unwrap_err().to_string();
        assert!(err.contains(says), "{text}: {err}");
    }
}

#[test]
fn commands_are_quoted_for_the_shell_and_read_back() {
    for path in [
        BIN,
        "/Users/Dev Name/bin/ocmem",
        "/opt/it's/ocmem",
        "/tmp/$HOME/ocmem",
    ] {
        let command = hook_command(Path::new(path));
        assert!(command.ends_with(" hook claude-code"), "{command}");
        assert_eq!(ocmem_program(&command).as_deref(), Some(path), "{command}");
    }
    assert_eq!(
        hook_command(Path::new("/Users/Dev Name/bin/ocmem")),
        "'/Users/Dev Name/bin/ocmem' hook claude-code"
    );
    assert_eq!(
        ocmem_program(r#""/a b/ocmem" hook claude-code"#).as_deref(),
        Some("/a b/ocmem")
    );
    assert_eq!(
        ocmem_program(r"/a\ b/ocmem hook  claude-code").as_deref(),
        Some("/a b/ocmem")
    );
    for decoy in [
        "echo ocmem hook claude-code",
        "ocmem hook opencode",
        "ocmem hook claude-code --json",
        "/opt/notocmem hook claude-code",
        "'/unterminated/ocmem hook claude-code",
        "",
    ] {
        assert_eq!(ocmem_program(decoy), None, "{decoy}");
    }
}

#[test]
fn settings_paths_follow_the_level_and_claude_config_dir() {
    let root = Path::new("/home/dev/demo");
    let home = Some(Path::new("/home/dev"));
    assert_eq!(
        settings_path(Level::Project, root, home, None).unwrap(),
        Path::new("/home/dev/demo/.claude/settings.local.json")
    );
    assert_eq!(
        settings_path(Level::User, root, home, None).unwrap(),
        Path::new("/home/dev/.claude/settings.json")
    );
    assert_eq!(
        settings_path(Level::User, root, home, Some(Path::new("/cfg/claude"))).unwrap(),
        Path::new("/cfg/claude/settings.json")
    );
    assert_eq!(settings_path(Level::User, root, None, None), None);
}

#[test]
fn render_keeps_the_files_indentation_and_final_newline() {
    let value = json!({"a": {"b": 1}});
    assert_eq!(
        render(&value, None),
        "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n"
    );
    assert_eq!(
        render(&value, Some("{\n\t\"x\": 1\n}")),
        "{\n\t\"a\": {\n\t\t\"b\": 1\n\t}\n}"
    );
    assert_eq!(
        render(&value, Some("{\n    \"x\": 1\n}\n")),
        "{\n    \"a\": {\n        \"b\": 1\n    }\n}\n"
    );
    // A file Claude Code wrote comes back byte for byte.
    let text = render(&parse(USER_SETTINGS), None);
    assert_eq!(render(&parse(&text), Some(&text)), text);
}
