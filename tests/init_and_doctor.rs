//! `ocmem init` and `ocmem doctor` as a user runs them: in a project (a git repository, from a
//! subdirectory), with HOME, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR and the data directory in a
//! private temp dir.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

mod common;
use common::sandbox::{binary, output_once_free, Sandbox as Setup};
use common::PROCESS_TIMEOUT;

/// A user's settings as they wrote them: four-space indent, an escaped character, a final
/// newline missing, hooks of their own, one a decoy naming ocmem.
const USER_SETTINGS: &str = "{
    \"model\": \"opus\",
    \"statusLine\": {\"type\": \"command\", \"command\": \"echo caf\\u00e9\"},
    \"hooks\": {
        \"PostToolUse\": [
            {\"matcher\": \"Edit|Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"npx prettier --write .\"}]}
        ],
        \"Notification\": [
            {\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send 'ocmem hook claude-code'\"}]}
        ]
    },
    \"permissions\": {\"allow\": [\"Bash(cargo test:*)\"]}
}";

/// The project run from `src/deep`, and HOME.
fn setup() -> Setup {
    Setup::new("src/deep", &["home"])
}

impl Setup {
    fn claude_local(&self) -> PathBuf {
        self.project().join(".claude/settings.local.json")
    }
    fn user_plugin(&self) -> PathBuf {
        self.xdg().join("opencode/plugins/ocmem.js")
    }
    fn project_plugin(&self) -> PathBuf {
        self.project().join(".opencode/plugins/ocmem.js")
    }

    /// `binary` run from a subdirectory of the project, with this setup's environment.
    fn run_binary(&self, binary: &Path, args: &[&str]) -> Output {
        output_once_free(
            self.command(binary)
                .env_remove("XDG_DATA_HOME")
                .env_remove("OCMEM_BIN")
                .args(args),
        )
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_binary(&binary(), args)
    }

    /// A copy of the binary elsewhere, as after `cargo install` to another prefix.
    fn copy_binary(&self, dir: &str) -> PathBuf {
        let copy = self.path(dir).join("ocmem");
        fs::create_dir_all(copy.parent().unwrap()).unwrap();
        fs::copy(binary(), &copy).unwrap();
        copy
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[track_caller]
fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    stdout(&out)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// Every ocmem command line in a settings file's hooks, by event.
fn ocmem_commands(settings: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (event, groups) in settings["hooks"].as_object().unwrap() {
        for group in groups.as_array().unwrap() {
            for handler in group["hooks"].as_array().unwrap() {
                let command = handler["command"].as_str().unwrap();
                if command.ends_with(" hook claude-code") && !command.starts_with("notify-send") {
                    found.push((event.clone(), command.to_string()));
                }
            }
        }
    }
    found
}

/// Every file and directory under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        let Ok(entries) = fs::read_dir(&next) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            found.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    found.sort();
    found
}

// ---------------------------------------------------------------------------------------------
// init claude-code

#[test]
fn claude_code_hooks_merge_into_existing_settings_and_come_out_byte_for_byte() {
    let setup = setup();
    fs::create_dir_all(setup.claude_local().parent().unwrap()).unwrap();
    fs::write(setup.claude_local(), USER_SETTINGS).unwrap();

    let said = ok(setup.run(&["init", "claude-code"]));
    assert!(
        said.starts_with("installed Claude Code's ocmem hooks for the project"),
        "{said}"
    );
    let settings = read_json(&setup.claude_local());
    assert_eq!(
        keys(&settings),
        ["model", "statusLine", "hooks", "permissions"]
    );
    assert_eq!(settings["statusLine"]["command"], "echo café");
    assert_eq!(settings["permissions"]["allow"][0], "Bash(cargo test:*)");
    let hooks = &settings["hooks"];
    assert_eq!(&keys(hooks)[..2], ["PostToolUse", "Notification"]);
    assert_eq!(
        hooks["PostToolUse"][0]["hooks"][0]["command"],
        "npx prettier --write ."
    );
    assert_eq!(
        hooks["PostToolUse"][1]["matcher"],
        "Read|Edit|MultiEdit|NotebookEdit|Write|Grep|Bash"
    );
    let commands = ocmem_commands(&settings);
    let events: Vec<&str> = commands.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(
        events,
        [
            "PostToolUse",
            "SessionStart",
            "UserPromptSubmit",
            "PostToolUseFailure",
            "PreCompact",
            "PostCompact",
            "SessionEnd"
        ]
    );
    let wanted = format!("{} hook claude-code", binary().display());
    assert!(commands.iter().all(|(_, c)| *c == wanted), "{commands:?}");
    let text = fs::read_to_string(setup.claude_local()).unwrap();
    assert!(
        text.starts_with("{\n    \"model\""),
        "the file's indentation: {text}"
    );
    assert!(!text.contains("async"), "{text}");

    // Twice: nothing changes.
    let said = ok(setup.run(&["init", "claude-code", "--project"]));
    assert!(said.contains("already installed"), "{said}");
    assert_eq!(fs::read_to_string(setup.claude_local()).unwrap(), text);

    let said = ok(setup.run(&["init", "claude-code", "--uninstall"]));
    assert!(said.contains("as it was before"), "{said}");
    assert_eq!(
        fs::read_to_string(setup.claude_local()).unwrap(),
        USER_SETTINGS
    );
    let said = ok(setup.run(&["init", "claude-code", "--uninstall"]));
    assert!(said.contains("not installed"), "{said}");
    assert_eq!(
        fs::read_to_string(setup.claude_local()).unwrap(),
        USER_SETTINGS
    );
}

#[test]
fn a_settings_file_init_created_is_removed_again_with_its_directory() {
    let setup = setup();
    let before = tree(&setup.project());
    ok(setup.run(&["init", "claude-code"]));
    assert_eq!(ocmem_commands(&read_json(&setup.claude_local())).len(), 7);
    ok(setup.run(&["init", "claude-code", "--uninstall"]));
    assert_eq!(tree(&setup.project()), before);

    // For the user: into CLAUDE_CONFIG_DIR, which is kept when it existed.
    fs::create_dir_all(setup.path("claude-config")).unwrap();
    ok(setup.run(&["init", "claude-code", "--user"]));
    let user = setup.path("claude-config/settings.json");
    assert_eq!(ocmem_commands(&read_json(&user)).len(), 7);
    assert!(!setup.home().join(".claude").exists());
    ok(setup.run(&["init", "claude-code", "--user", "--uninstall"]));
    assert!(!user.exists());
    assert!(setup.path("claude-config").is_dir());
}

#[test]
fn uninstall_keeps_what_the_user_changed_since() {
    let setup = setup();
    fs::create_dir_all(setup.claude_local().parent().unwrap()).unwrap();
    fs::write(setup.claude_local(), USER_SETTINGS).unwrap();
    ok(setup.run(&["init", "claude-code"]));
    let mut settings = read_json(&setup.claude_local());
    settings["theme"] = "dark".into();
    fs::write(
        setup.claude_local(),
        serde_json::to_string_pretty(&settings).unwrap(),
    )
    .unwrap();

    let said = ok(setup.run(&["init", "claude-code", "--uninstall"]));
    assert!(said.contains("keeping everything else"), "{said}");
    let after = read_json(&setup.claude_local());
    assert_eq!(after["theme"], "dark");
    assert!(ocmem_commands(&after).is_empty());
    let mut expected: Value = serde_json::from_str(USER_SETTINGS).unwrap();
    expected["theme"] = "dark".into();
    assert_eq!(after, expected);
    assert_eq!(
        keys(&after),
        ["model", "statusLine", "hooks", "permissions", "theme"]
    );
}

#[test]
fn a_settings_file_that_is_not_json_is_refused_and_left_alone() {
    let setup = setup();
    let broken = "{\n  \"model\": \"opus\",\n}\n";
    fs::create_dir_all(setup.claude_local().parent().unwrap()).unwrap();
    fs::write(setup.claude_local(), broken).unwrap();
    for args in [
        &["init", "claude-code"][..],
        &["init", "claude-code", "--uninstall"],
    ] {
        let out = setup.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("is not valid JSON"), "{err}");
        assert!(stdout(&out).is_empty());
        assert_eq!(fs::read_to_string(setup.claude_local()).unwrap(), broken);
        assert!(!setup.data().exists());
    }
}

#[test]
fn print_shows_what_would_be_written_and_writes_nothing() {
    let setup = setup();
    let before = tree(setup.tmp.path());
    let shown = ok(setup.run(&["init", "claude-code", "--print"]));
    assert!(
        shown.starts_with(&format!(
            "would write {}:\n{{\n",
            setup.claude_local().display()
        )),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("{} hook claude-code", binary().display())),
        "{shown}"
    );
    let shown = ok(setup.run(&["init", "opencode", "--user", "--print"]));
    assert!(
        shown.starts_with(&format!("would write {}:\n", setup.user_plugin().display())),
        "{shown}"
    );
    assert!(
        shown.contains(&format!(
            "const INSTALLED_BIN = {:?};",
            binary().display().to_string()
        )),
        "{shown}"
    );
    assert_eq!(tree(setup.tmp.path()), before);

    ok(setup.run(&["init", "claude-code"]));
    let installed = fs::read(setup.claude_local()).unwrap();
    let shown = ok(setup.run(&["init", "claude-code", "--uninstall", "--print"]));
    assert_eq!(
        shown,
        format!("would remove {}\n", setup.claude_local().display())
    );
    assert_eq!(fs::read(setup.claude_local()).unwrap(), installed);
}

#[test]
fn an_install_of_another_binary_is_updated_in_place() {
    let setup = setup();
    let old = setup.copy_binary("old-prefix/bin");
    ok(setup.run_binary(&old, &["init", "claude-code"]));
    ok(setup.run_binary(&old, &["init", "opencode"]));
    let before = read_json(&setup.claude_local());
    assert!(ocmem_commands(&before)
        .iter()
        .all(|(_, c)| c.starts_with(&old.display().to_string())));

    let said = ok(setup.run(&["init", "claude-code"]));
    assert!(
        said.contains(&format!(
            "updated Claude Code's ocmem hooks in {} (they ran {})",
            setup.claude_local().display(),
            old.display()
        )),
        "{said}"
    );
    let after = read_json(&setup.claude_local());
    assert_eq!(keys(&after["hooks"]), keys(&before["hooks"]));
    let commands = ocmem_commands(&after);
    assert_eq!(commands.len(), 7);
    assert!(
        commands
            .iter()
            .all(|(_, c)| *c == format!("{} hook claude-code", binary().display())),
        "{commands:?}"
    );

    let said = ok(setup.run(&["init", "opencode"]));
    assert!(
        said.contains(&format!(
            "it ran {}, now {}",
            old.display(),
            binary().display()
        )),
        "{said}"
    );
    let plugin = fs::read_to_string(setup.project_plugin()).unwrap();
    assert!(plugin.contains(&format!(
        "const INSTALLED_BIN = {:?};",
        binary().display().to_string()
    )));

    // Uninstalling after the update still puts back what was there before the first install.
    ok(setup.run(&["init", "claude-code", "--uninstall"]));
    ok(setup.run(&["init", "opencode", "--uninstall"]));
    assert!(!setup.project().join(".claude").exists());
    assert!(!setup.project().join(".opencode").exists());
}

// ---------------------------------------------------------------------------------------------
// init opencode

#[test]
fn the_opencode_plugin_is_installed_at_one_level_only() {
    let setup = setup();
    let said = ok(setup.run(&["init", "opencode", "--user"]));
    assert!(
        said.contains(&setup.user_plugin().display().to_string()),
        "{said}"
    );
    let plugin = fs::read_to_string(setup.user_plugin()).unwrap();
    assert!(plugin.contains("export const OcmemPlugin"));
    assert!(plugin.contains(&format!(
        "const INSTALLED_BIN = {:?};",
        binary().display().to_string()
    )));
    let said = ok(setup.run(&["init", "opencode", "--user"]));
    assert!(said.contains("already installed"), "{said}");

    let out = setup.run(&["init", "opencode"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("already installed for the user")
            && err.contains("`ocmem init opencode --user --uninstall`"),
        "{err}"
    );
    assert!(!setup.project().join(".opencode").exists());

    // A hand-made copy in the older directory name counts as installed, and is updated there.
    ok(setup.run(&["init", "opencode", "--user", "--uninstall"]));
    assert!(!setup.xdg().exists(), "the directories init made are gone");
    let hand = setup.project().join(".opencode/plugin/ocmem.js");
    fs::create_dir_all(hand.parent().unwrap()).unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/opencode/ocmem.js"),
        &hand,
    )
    .unwrap();
    let said = ok(setup.run(&["init", "opencode"]));
    assert!(said.contains("it ran `ocmem` on PATH"), "{said}");
    assert!(!setup.project_plugin().exists());
    assert!(fs::read_to_string(&hand)
        .unwrap()
        .contains(&binary().display().to_string()));
}

// ---------------------------------------------------------------------------------------------
// doctor

fn doctor_json(setup: &Setup) -> (Option<i32>, Value, String) {
    let out = setup.run(&["doctor", "--json"]);
    (
        out.status.code(),
        serde_json::from_slice(&out.stdout).unwrap(),
        stderr(&out),
    )
}

#[test]
fn doctor_reports_the_team_file_and_its_findings() {
    let setup = setup();
    ok(setup.run(&["init", "claude-code"]));
    let (_, json, _) = doctor_json(&setup);
    assert!(
        json.get("team").is_none(),
        "no team file, no team line: {json}"
    );
    let file = setup.project().join(".ocmem/memory.md");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(
        &file,
        "# Team memory\n\n## Decisions\n\n- Use pnpm, not npm <!-- ocmem:000318df -->\n",
    )
    .unwrap();
    let text = ok(setup.run(&["doctor"]));
    assert!(
        text.contains(&format!("team memory  {} (1 entries)", file.display())),
        "{text}"
    );
    assert!(text.contains("problems     none\n"), "{text}");
    // A merge conflict left in it: a problem, with where to look.
    fs::write(
        &file,
        "# Team memory\n\n## Decisions\n\n<<<<<<< HEAD\n- Use pnpm <!-- ocmem:000318df -->\n=======\n- Use yarn <!-- ocmem:000318df -->\n>>>>>>> other\n",
    )
    .unwrap();
    let (code, json, err) = doctor_json(&setup);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(json["team"]["entries"], 1);
    assert_eq!(
        json["team"]["findings"][0],
        ".ocmem/memory.md:5: unresolved merge conflict marker"
    );
    assert!(
        err.contains("has 4 finding(s), the first: .ocmem/memory.md:5: unresolved merge conflict marker; fix: `ocmem baseline --check --team`"),
        "{err}"
    );
}

#[test]
fn doctor_on_a_healthy_setup_exits_0() {
    let setup = setup();
    ok(setup.run(&["init", "claude-code"]));
    ok(setup.run(&["init", "opencode", "--user"]));
    let text = ok(setup.run(&["doctor"]));
    assert!(text.contains("problems     none\n"), "{text}");
    assert!(
        text.contains(&format!("workspace    {} (key ", setup.project().display())),
        "{text}"
    );

    let (code, json, _) = doctor_json(&setup);
    assert_eq!(code, Some(0));
    assert_eq!(json["schema"], 1);
    assert_eq!(json["ocmem"]["path"], binary().display().to_string());
    assert_eq!(json["data_dir"]["writable"], true);
    let opencode = &json["hosts"][0];
    assert_eq!(opencode["host"], "opencode");
    assert_eq!(opencode["installs"][0]["level"], "user");
    assert_eq!(
        opencode["installs"][0]["path"],
        setup.user_plugin().display().to_string()
    );
    let claude = &json["hosts"][1]["installs"][0];
    assert_eq!(claude["level"], "project");
    assert_eq!(claude["binaries"][0]["runs"], true);
    assert_eq!(
        claude["binaries"][0]["version"],
        format!("ocmem {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(claude["missing_events"], serde_json::json!([]));
    assert_eq!(json["problems"], serde_json::json!([]));
}

#[test]
fn doctor_finds_a_half_installed_hook_set() {
    let setup = setup();
    ok(setup.run(&["init", "claude-code"]));
    let mut settings = read_json(&setup.claude_local());
    let hooks = settings["hooks"].as_object_mut().unwrap();
    hooks.shift_remove("PostToolUseFailure");
    hooks.shift_remove("SessionEnd");
    fs::write(setup.claude_local(), settings.to_string()).unwrap();

    let (code, json, err) = doctor_json(&setup);
    assert_eq!(code, Some(1));
    assert_eq!(
        json["hosts"][1]["installs"][0]["missing_events"],
        serde_json::json!(["PostToolUseFailure", "SessionEnd"])
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].contains("half installed") && lines[0].ends_with("fix: `ocmem init claude-code`"),
        "{err}"
    );

    // The fix it names fixes it.
    ok(setup.run(&["init", "claude-code"]));
    assert_eq!(doctor_json(&setup).0, Some(0));
}

#[test]
fn doctor_finds_a_missing_binary_and_nothing_installed() {
    let setup = setup();
    let (code, json, err) = doctor_json(&setup);
    assert_eq!(code, Some(1));
    assert!(json["problems"][0]["text"]
        .as_str()
        .unwrap()
        .contains("not installed in any host"));
    assert!(
        err.contains("`ocmem init opencode` or `ocmem init claude-code`"),
        "{err}"
    );

    let gone = setup.copy_binary("gone/bin");
    ok(setup.run_binary(&gone, &["init", "opencode", "--user"]));
    fs::remove_file(&gone).unwrap();
    let out = setup.run(&["doctor"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("runs {}: BROKEN: does not exist", gone.display())),
        "{text}"
    );
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{} runs {}, which does not exist; fix: `ocmem init opencode --user`",
            setup.user_plugin().display(),
            gone.display()
        )),
        "{err}"
    );

    // Installed at both levels behind init's back.
    fs::create_dir_all(setup.project_plugin().parent().unwrap()).unwrap();
    fs::copy(setup.user_plugin(), setup.project_plugin()).unwrap();
    let out = setup.run(&["doctor"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("installed for both the project and the user"),
        "{err}"
    );
}

/// The absolute path of `node`, from this process's PATH.
fn node() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("node"))
        .find(|candidate| candidate.is_file())
        .expect("Node.js on PATH, version 18 or newer")
}

#[test]
fn the_installed_opencode_plugin_runs_the_binary_that_installed_it() {
    let setup = setup();
    ok(setup.run(&["init", "opencode"]));
    // Loaded as OpenCode loads it, with no OCMEM_BIN and no ocmem on PATH: only the path init
    // wrote into it can find the binary. A plugin that cannot run it returns no hooks.
    let script = format!(
        "const {{ OcmemPlugin }} = await import({:?});
         const logs = [];
         const client = {{ app: {{ log: async ({{ body }}) => void logs.push(body) }} }};
         const hooks = await OcmemPlugin({{ client, directory: {:?} }});
         console.log(JSON.stringify({{ hooks: Object.keys(hooks), logs }}));",
        format!("file://{}", setup.project_plugin().display()),
        setup.project().display().to_string()
    );
    let out = Command::new(node())
        .timeout(PROCESS_TIMEOUT)
        .args(["--input-type=module", "-e", &script])
        .env("PATH", "/nonexistent")
        .env("OCMEM_DATA_DIR", setup.data())
        .env_remove("OCMEM_BIN")
        .output()
        .unwrap();
    let seen: Value = serde_json::from_str(&ok(out)).unwrap();
    assert_eq!(seen["logs"], serde_json::json!([]), "{seen}");
    let hooks = seen["hooks"].as_array().unwrap();
    assert!(hooks.contains(&"tool.execute.after".into()), "{seen}");
}
