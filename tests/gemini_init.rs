//! `ocmem init gemini` and `doctor` through the binary: ocmem's hooks merged into Gemini CLI's
//! settings.json and taken out byte for byte, and a hook command that exits 0 silently when
//! the binary is gone.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::{json, Value};

mod common;
use common::sandbox::{binary, output_once_free, Sandbox as Setup};
use common::PROCESS_TIMEOUT;

/// A user's settings as Gemini CLI users write them: two-space indent, hooks of their own.
const USER_SETTINGS: &str = "{
  \"security\": {
    \"auth\": {
      \"selectedType\": \"gemini-api-key\"
    }
  },
  \"hooks\": {
    \"AfterTool\": [
      {
        \"matcher\": \"write_file\",
        \"hooks\": [{\"type\": \"command\", \"command\": \"npx prettier --write .\"}]
      }
    ]
  },
  \"model\": {\"name\": \"gemini-2.5-pro\"}
}
";

/// The project run from `src`, and HOME.
fn setup() -> Setup {
    Setup::new("src", &["home"])
}

impl Setup {
    fn user_settings(&self) -> PathBuf {
        self.home().join(".gemini/settings.json")
    }
    fn project_settings(&self) -> PathBuf {
        self.project().join(".gemini/settings.json")
    }

    fn run_binary(&self, binary: &Path, args: &[&str]) -> Output {
        output_once_free(
            self.command(binary)
                .env("CLAUDE_CONFIG_DIR", self.tmp.path().join("claude"))
                .env_remove("XDG_DATA_HOME")
                .args(args),
        )
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_binary(&binary(), args)
    }
}

#[track_caller]
fn ok(out: Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

/// Every ocmem command in a settings file, by event.
fn ocmem_commands(settings: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (event, groups) in settings["hooks"].as_object().unwrap() {
        for group in groups.as_array().unwrap() {
            for handler in group["hooks"].as_array().unwrap() {
                let command = handler["command"].as_str().unwrap();
                if command.contains("hook gemini") {
                    found.push((event.clone(), command.to_string()));
                }
            }
        }
    }
    found
}

#[test]
fn gemini_hooks_merge_into_user_settings_and_come_out_byte_for_byte() {
    let setup = setup();
    fs::create_dir_all(setup.user_settings().parent().unwrap()).unwrap();
    fs::write(setup.user_settings(), USER_SETTINGS).unwrap();
    let said = ok(setup.run(&["init", "gemini", "--user"]));
    assert!(
        said.starts_with("installed Gemini CLI's ocmem hooks for the user"),
        "{said}"
    );
    let settings = read_json(&setup.user_settings());
    let commands = ocmem_commands(&settings);
    let events: Vec<&str> = commands.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(
        events,
        ["AfterTool", "SessionStart", "BeforeAgent", "SessionEnd"]
    );
    let expected = format!("{} hook gemini 2>/dev/null || true", binary().display());
    assert!(commands.iter().all(|(_, c)| *c == expected), "{commands:?}");
    assert_eq!(settings["hooks"]["AfterTool"][0]["matcher"], "write_file");
    assert_eq!(
        settings["security"]["auth"]["selectedType"],
        "gemini-api-key"
    );
    assert_eq!(
        settings["hooks"]["SessionStart"][0]["hooks"][0]["timeout"],
        10_000
    );
    // Again: nothing changes.
    let before = fs::read(setup.user_settings()).unwrap();
    let said = ok(setup.run(&["init", "gemini", "--user"]));
    assert!(said.contains("already installed"), "{said}");
    assert_eq!(fs::read(setup.user_settings()).unwrap(), before);
    // The project level was left alone.
    assert!(!setup.project_settings().exists());
    // Doctor sees the install and finds nothing wrong with it.
    let doctor: Value =
        serde_json::from_str(&ok(setup.run(&["doctor", "--json"]))).unwrap_or(json!(null));
    let gemini = doctor["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == "gemini")
        .unwrap()
        .clone();
    assert_eq!(gemini["installs"][0]["level"], "user");
    assert_eq!(gemini["installs"][0]["error"], Value::Null);
    assert_eq!(gemini["installs"][0]["binaries"][0]["runs"], true);
    let said = ok(setup.run(&["init", "gemini", "--user", "--uninstall"]));
    assert!(said.contains("as it was before"), "{said}");
    assert_eq!(
        fs::read_to_string(setup.user_settings()).unwrap(),
        USER_SETTINGS
    );
}

#[test]
fn a_project_settings_file_init_created_is_removed_with_its_directory() {
    let setup = setup();
    ok(setup.run(&["init", "gemini"]));
    assert_eq!(
        ocmem_commands(&read_json(&setup.project_settings())).len(),
        4
    );
    let printed = ok(setup.run(&["init", "gemini", "--uninstall", "--print"]));
    assert!(printed.contains("would remove"), "{printed}");
    ok(setup.run(&["init", "gemini", "--uninstall"]));
    assert!(!setup.project().join(".gemini").exists());
    let said = ok(setup.run(&["init", "gemini", "--uninstall"]));
    assert!(said.contains("not installed"), "{said}");
}

#[test]
fn settings_changed_since_keep_the_change_when_ocmem_comes_out() {
    let setup = setup();
    ok(setup.run(&["init", "gemini"]));
    let mut settings = read_json(&setup.project_settings());
    settings["ui"] = json!({"theme": "Dracula"});
    fs::write(setup.project_settings(), settings.to_string()).unwrap();
    ok(setup.run(&["init", "gemini", "--uninstall"]));
    assert_eq!(
        read_json(&setup.project_settings()),
        json!({"ui": {"theme": "Dracula"}})
    );
}

#[test]
fn invalid_settings_are_refused_and_left_alone() {
    let setup = setup();
    fs::create_dir_all(setup.project_settings().parent().unwrap()).unwrap();
    fs::write(setup.project_settings(), "{\"hooks\": [}").unwrap();
    let out = setup.run(&["init", "gemini"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not valid JSON") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(setup.project_settings()).unwrap(),
        "{\"hooks\": [}"
    );
}

/// Runs a settings file's hook command as Gemini CLI does: `bash -c`, the event on stdin.
fn run_hook_command(command: &str, setup: &Setup, stdin: &str) -> Output {
    Command::new("bash")
        .timeout(PROCESS_TIMEOUT)
        .args(["-c", command])
        .current_dir(setup.project())
        .env("HOME", setup.home())
        .env("OCMEM_DATA_DIR", setup.tmp.path().join("data"))
        .write_stdin(stdin)
        .output()
        .unwrap()
}

#[test]
fn the_installed_command_exits_zero_silently_when_ocmem_cannot_run() {
    let setup = setup();
    let copy = setup.tmp.path().join("bin/ocmem");
    fs::create_dir_all(copy.parent().unwrap()).unwrap();
    fs::copy(binary(), &copy).unwrap();
    ok(setup.run_binary(&copy, &["init", "gemini"]));
    let commands = ocmem_commands(&read_json(&setup.project_settings()));
    let command = &commands[0].1;
    let project = setup.project().to_string_lossy().into_owned();
    let prompt = json!({"session_id": "s", "cwd": project, "hook_event_name": "BeforeAgent",
        "timestamp": "2026-11-22T11:12:07.717Z", "prompt": "remember this: keep the changelog short"})
    .to_string();
    let working = run_hook_command(command, &setup, &prompt);
    assert_eq!(working.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&working.stdout).unwrap();
    assert!(printed["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .contains("keep the changelog short"));
    fs::remove_file(&copy).unwrap();
    let gone = run_hook_command(command, &setup, &prompt);
    assert_eq!(gone.status.code(), Some(0));
    assert!(gone.stdout.is_empty() && gone.stderr.is_empty(), "{gone:?}");
    // The same command without the silencer is what Gemini CLI would turn into a refusal.
    let bare = command.trim_end_matches(" 2>/dev/null || true");
    assert_eq!(
        run_hook_command(bare, &setup, &prompt).status.code(),
        Some(127)
    );
    // Doctor says the binary is gone.
    let out = setup.run(&["doctor", "--json"]);
    assert!(!out.status.success());
    let doctor: Value = serde_json::from_slice(&out.stdout).unwrap();
    let gemini = &doctor["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == "gemini")
        .unwrap()["installs"][0];
    assert_eq!(gemini["binaries"][0]["runs"], false);
}

#[test]
fn doctor_reports_a_hook_without_the_silencer() {
    let setup = setup();
    let bare = json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
        "command": format!("{} hook gemini", binary().display())}]}]}});
    fs::create_dir_all(setup.project_settings().parent().unwrap()).unwrap();
    fs::write(setup.project_settings(), bare.to_string()).unwrap();
    let out = setup.run(&["doctor", "--json"]);
    assert!(!out.status.success());
    let doctor: Value = serde_json::from_slice(&out.stdout).unwrap();
    let install = &doctor["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == "gemini")
        .unwrap()["installs"][0];
    assert!(
        install["error"]
            .as_str()
            .unwrap()
            .contains("2>/dev/null || true"),
        "{install}"
    );
    assert_eq!(
        install["missing_events"],
        json!(["BeforeAgent", "AfterTool", "SessionEnd"])
    );
    // Installing again puts the silencer in.
    ok(setup.run(&["init", "gemini"]));
    let settings = read_json(&setup.project_settings());
    assert!(ocmem_commands(&settings)
        .iter()
        .all(|(_, c)| c.ends_with("2>/dev/null || true")));
    assert_eq!(
        settings["hooks"]["SessionStart"].as_array().unwrap().len(),
        1
    );
}
