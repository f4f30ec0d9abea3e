use super::*;

fn binary(program: &str, runs: bool) -> BinaryCheck {
    BinaryCheck {
        program: program.into(),
        path: Some(program.into()),
        runs,
        version: runs.then(|| "ocmem 0.1.0".into()),
        error: (!runs).then(|| "does not exist".into()),
    }
}

fn install(level: Level, path: &str, binaries: Vec<BinaryCheck>) -> InstallReport {
    InstallReport {
        level,
        path: path.into(),
        error: None,
        binaries,
        missing_events: Vec::new(),
        untrusted_events: Vec::new(),
    }
}

fn report(opencode: Vec<InstallReport>, claude: Vec<InstallReport>) -> Report {
    let mut report = Report {
        schema: SCHEMA,
        ocmem: ThisBinary {
            version: "0.1.0".into(),
            path: Some("/usr/local/bin/ocmem".into()),
        },
        data_dir: DataDir {
            path: "/home/dev/.local/share/opencode-working-memory".into(),
            exists: true,
            writable: true,
        },
        workspace: Some(WorkspaceInfo {
            root: "/home/dev/demo".into(),
            key: "0123456789abcdef".into(),
            adopted_from: None,
        }),
        memory: MemorySwitch::new(false, false),
        team: None,
        hosts: vec![
            HostReport {
                host: HostName::OpenCode,
                installs: opencode,
                last_call: Some("2026-11-21T16:00:00.000Z".into()),
            },
            HostReport {
                host: HostName::ClaudeCode,
                installs: claude,
                last_call: None,
            },
        ],
        warnings: Vec::new(),
        problems: Vec::new(),
    };
    report.problems = problems(&report);
    report
}

const BIN: &str = "/usr/local/bin/ocmem";

#[test]
fn a_healthy_setup_has_no_problem() {
    let r = report(
        vec![install(
            Level::User,
            "/home/dev/.config/opencode/plugins/ocmem.js",
            vec![binary(BIN, true)],
        )],
        vec![install(
            Level::Project,
            "/home/dev/demo/.claude/settings.local.json",
            vec![binary(BIN, true)],
        )],
    );
    assert_eq!(r.problems, []);
    let text = render_text(&r);
    assert!(text.contains("problems     none\n"), "{text}");
    assert!(
        text.contains("opencode     user    /home/dev/.config/opencode/plugins/ocmem.js\n"),
        "{text}"
    );
    assert!(
        text.contains("  runs /usr/local/bin/ocmem: ok, ocmem 0.1.0\n"),
        "{text}"
    );
    assert!(
        text.contains("last call 2026-11-21T16:00:00.000Z"),
        "{text}"
    );
    assert!(text.contains("last call never"), "{text}");
}

#[test]
fn each_broken_thing_is_one_problem_with_its_fix() {
    let nothing = report(vec![], vec![]);
    assert_eq!(nothing.problems.len(), 1);
    assert!(nothing.problems[0].fix.contains("ocmem init claude-code"));

    let mut half = install(
        Level::User,
        "/home/dev/.claude/settings.json",
        vec![binary(BIN, true)],
    );
    half.missing_events = vec!["PostToolUseFailure".into(), "SessionEnd".into()];
    let broken = report(
        vec![
            install(
                Level::Project,
                "/p/.opencode/plugins/ocmem.js",
                vec![binary("/gone/ocmem", false)],
            ),
            install(
                Level::User,
                "/u/opencode/plugins/ocmem.js",
                vec![binary(BIN, true)],
            ),
        ],
        vec![half],
    );
    let lines: Vec<String> = broken.problems.iter().map(Problem::line).collect();
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert_eq!(lines[0], "opencode: /p/.opencode/plugins/ocmem.js runs /gone/ocmem, which does not exist; fix: `ocmem init opencode` (points it at this binary)");
    assert!(
        lines[1].starts_with("opencode: the plugin is installed for both")
            && lines[1].ends_with("`ocmem init opencode --uninstall`"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "claude-code: /home/dev/.claude/settings.json is half installed: no ocmem hook for PostToolUseFailure, SessionEnd; fix: `ocmem init claude-code --user`");

    let mut unwritable = report(
        vec![install(Level::User, "/u/p.js", vec![binary(BIN, true)])],
        vec![],
    );
    unwritable.data_dir.writable = false;
    let found = problems(&unwritable);
    assert_eq!(found.len(), 1);
    assert!(found[0].text.contains("cannot be written"), "{found:?}");
}

#[test]
fn two_copies_at_one_level_and_two_binaries_in_one_file_are_problems() {
    let copies = report(
        vec![
            install(
                Level::Project,
                "/p/.opencode/plugins/ocmem.js",
                vec![binary(BIN, true)],
            ),
            install(
                Level::Project,
                "/p/.opencode/plugin/ocmem.js",
                vec![binary(BIN, true)],
            ),
        ],
        vec![install(
            Level::Project,
            "/p/.claude/settings.local.json",
            vec![binary(BIN, true), binary("/old/ocmem", true)],
        )],
    );
    let lines: Vec<String> = copies.problems.iter().map(Problem::line).collect();
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].contains("installed twice for the project"),
        "{lines:?}"
    );
    assert!(lines[1].contains("more than one ocmem binary"), "{lines:?}");
}

#[test]
fn the_json_has_the_schema_and_stable_names() {
    let r = report(vec![], vec![]);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["schema"], 1);
    assert_eq!(json["hosts"][1]["host"], "claude-code");
    assert_eq!(json["data_dir"]["writable"], true);
    assert_eq!(json["problems"][0]["host"], serde_json::Value::Null);
}

#[test]
fn an_untrusted_codex_hook_is_a_problem_saying_how_to_trust_it() {
    let mut codex = install(
        Level::User,
        "/home/dev/.codex/hooks.json",
        vec![binary("/bin/ocmem", true)],
    );
    let trusted = codex.clone();
    codex.untrusted_events = vec!["SessionStart".into(), "PostToolUse".into()];
    let mut problems = Vec::new();
    install_problems(HostName::Codex, &trusted, &mut problems);
    assert!(problems.is_empty());
    install_problems(HostName::Codex, &codex, &mut problems);
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].text.contains("SessionStart, PostToolUse"),
        "{}",
        problems[0].text
    );
    assert!(
        problems[0].fix.contains("ocmem init codex --user"),
        "{}",
        problems[0].fix
    );
}
