//! `ocmem init codex` and `ocmem doctor` for Codex as a user runs them: in a project (a git
//! repository, from a subdirectory), with HOME, CODEX_HOME and the data directory in a private
//! temp dir.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;
use common::sandbox::Sandbox as Setup;

/// A user's config.toml as they wrote it: a project of their own trusted, a trust entry of
/// their own, no final newline.
const USER_CONFIG: &str = "model = \"gpt-5.5\"\n\n[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n\n[hooks.state]\n\n[hooks.state.\"/x/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:ab\"";

/// A user's hooks.json: four-space indent and a hook of their own.
const USER_HOOKS: &str = "{\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]\n            }\n        ]\n    }\n}\n";

/// The project run from `src/deep`, and Codex's home.
fn setup() -> Setup {
    Setup::new("src/deep", &["codex-home"])
}

impl Setup {
    fn codex_home(&self) -> PathBuf {
        self.path("codex-home")
    }
    fn config(&self) -> PathBuf {
        self.codex_home().join("config.toml")
    }
    fn user_hooks(&self) -> PathBuf {
        self.codex_home().join("hooks.json")
    }
    fn project_hooks(&self) -> PathBuf {
        self.project().join(".codex/hooks.json")
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(&assert_cmd::cargo::cargo_bin("ocmem"))
            .env("CODEX_HOME", self.codex_home())
            .args(args)
            .output()
            .unwrap()
    }
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }
    fn doctor(&self) -> Value {
        let out = self.run(&["doctor", "--json"]);
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap()
}

fn codex_problems(doctor: &Value) -> Vec<String> {
    doctor["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["host"] == "codex")
        .map(|p| p["text"].as_str().unwrap().to_string())
        .collect()
}

fn ocmem() -> String {
    assert_cmd::cargo::cargo_bin("ocmem").display().to_string()
}

#[test]
fn a_user_install_is_trusted_and_uninstalls_byte_for_byte() {
    let s = setup();
    fs::write(s.config(), USER_CONFIG).unwrap();
    fs::write(s.user_hooks(), USER_HOOKS).unwrap();
    let said = s.ok(&["init", "codex", "--user"]);
    assert!(
        said.contains("installed Codex's ocmem hooks for the user"),
        "{said}"
    );
    let hooks: Value = serde_json::from_str(&read(&s.user_hooks())).unwrap();
    let command = format!("{} hook codex", ocmem());
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "SessionEnd",
    ] {
        assert_eq!(
            hooks["hooks"][event][0]["hooks"][0]["command"],
            command.as_str(),
            "{event}"
        );
    }
    assert_eq!(
        hooks["hooks"]["PostToolUse"][0]["matcher"],
        "Bash|apply_patch"
    );
    // Codex clamps a SessionEnd hook's timeout to 3 s, and says so in every run.
    assert_eq!(hooks["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3);
    assert_eq!(
        hooks["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send done"
    );
    let config = read(&s.config());
    assert!(config.starts_with(USER_CONFIG), "{config}");
    let key = format!(
        "[hooks.state.\"{}:post_tool_use:0:0\"]",
        s.user_hooks().display()
    );
    assert!(config.contains(&key), "{config}");
    assert_eq!(config.matches("[hooks.state]").count(), 1, "{config}");
    assert!(
        !config.contains(&s.project().display().to_string()),
        "no project trust for --user"
    );
    assert!(
        codex_problems(&s.doctor()).is_empty(),
        "{:?}",
        codex_problems(&s.doctor())
    );
    // Again: nothing to do.
    let again = s.ok(&["init", "codex", "--user"]);
    assert!(again.contains("already installed"), "{again}");
    s.ok(&["init", "codex", "--user", "--uninstall"]);
    assert_eq!(read(&s.user_hooks()), USER_HOOKS);
    assert_eq!(read(&s.config()), USER_CONFIG);
}

#[test]
fn a_project_install_trusts_the_project_and_leaves_no_file_behind() {
    let s = setup();
    s.ok(&["init", "codex"]);
    assert!(s.project_hooks().is_file());
    let config = read(&s.config());
    let project = format!(
        "[projects.\"{}\"]\ntrust_level = \"trusted\"",
        s.project().display()
    );
    assert!(config.contains(&project), "{config}");
    let key = format!(
        "[hooks.state.\"{}:session_start:0:0\"]",
        s.project_hooks().display()
    );
    assert!(config.contains(&key), "{config}");
    let printed = s.ok(&["init", "codex", "--uninstall", "--print"]);
    assert!(printed.contains("would remove"), "{printed}");
    assert!(s.project_hooks().is_file(), "--print changes nothing");
    s.ok(&["init", "codex", "--uninstall"]);
    assert!(!s.project().join(".codex").exists());
    assert!(!s.config().exists());
}

#[test]
fn doctor_finds_an_untrusted_or_edited_hook() {
    let s = setup();
    s.ok(&["init", "codex", "--user"]);
    // The user edits one hook's timeout: Codex no longer trusts it.
    let edited = read(&s.user_hooks()).replacen("\"timeout\": 10", "\"timeout\": 11", 1);
    fs::write(s.user_hooks(), &edited).unwrap();
    let problems = codex_problems(&s.doctor());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("SessionStart") && problems[0].contains("trust"),
        "{problems:?}"
    );
    // init trusts it as it stands again.
    s.ok(&["init", "codex", "--user"]);
    assert!(codex_problems(&s.doctor()).is_empty());
    // Trust entries gone: every hook is reported.
    fs::write(s.config(), "model = \"gpt-5.5\"\n").unwrap();
    let problems = codex_problems(&s.doctor());
    assert!(
        problems[0].contains("SessionStart, UserPromptSubmit, PostToolUse, SessionEnd"),
        "{problems:?}"
    );
}

#[test]
fn an_untrusted_project_or_a_broken_file_is_refused_and_nothing_changes() {
    let s = setup();
    let untrusted = format!(
        "[projects.\"{}\"]\ntrust_level = \"untrusted\"\n",
        s.project().display()
    );
    fs::write(s.config(), &untrusted).unwrap();
    let out = s.run(&["init", "codex"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("untrusted") && err.contains("--user"), "{err}");
    assert!(!s.project_hooks().exists());
    assert_eq!(read(&s.config()), untrusted);
    fs::write(s.user_hooks(), "{\"hooks\": [").unwrap();
    let out = s.run(&["init", "codex", "--user"]);
    assert!(!out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    assert_eq!(read(&s.config()), untrusted);
}

#[test]
fn the_compaction_prompt_is_opt_in_and_goes_with_the_hooks() {
    let s = setup();
    fs::write(s.config(), USER_CONFIG).unwrap();
    s.ok(&["init", "codex", "--user"]);
    assert!(!read(&s.config()).contains("compact_prompt"));
    s.ok(&["init", "codex", "--user", "--compact-prompt"]);
    let config = read(&s.config());
    let line = config
        .lines()
        .find(|l| l.starts_with("compact_prompt = \""))
        .unwrap_or_else(|| panic!("{config}"));
    assert!(line.contains("Memory candidates:"), "{line}");
    assert!(
        config.find("compact_prompt").unwrap() < config.find('[').unwrap(),
        "a top-level key: {config}"
    );
    // A prompt of the user's own is left alone, and nothing changes.
    let theirs = config.replace(line, "compact_prompt = \"mine\"");
    fs::write(s.config(), &theirs).unwrap();
    let out = s.run(&["init", "codex", "--user", "--compact-prompt"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("compact_prompt"));
    assert_eq!(read(&s.config()), theirs);
    fs::write(s.config(), &config).unwrap();
    s.ok(&["init", "codex", "--user", "--uninstall"]);
    assert_eq!(read(&s.config()), USER_CONFIG);
    let out = s.run(&["init", "claude-code", "--compact-prompt"]);
    assert!(!out.status.success());
}
