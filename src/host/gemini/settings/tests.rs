use super::*;
use serde_json::json;

const BINARY: &str = "/opt/ocmem bin/ocmem";

fn command() -> String {
    hook_command(Path::new(BINARY))
}

#[test]
fn the_command_is_quoted_and_silenced() {
    assert_eq!(
        command(),
        "'/opt/ocmem bin/ocmem' hook gemini 2>/dev/null || true"
    );
    assert_eq!(ocmem_program(&command()).as_deref(), Some(BINARY));
    assert!(is_silenced(&command()));
    assert_eq!(
        ocmem_program("/usr/bin/ocmem hook gemini").as_deref(),
        Some("/usr/bin/ocmem")
    );
    assert!(!is_silenced("/usr/bin/ocmem hook gemini"));
    for decoy in [
        "/usr/bin/ocmem hook claude-code",
        "/usr/bin/ocmem hook gemini --json",
        "/usr/bin/other hook gemini",
        "/usr/bin/ocmem hook gemini 2>/dev/null || exit 1",
        "echo ocmem hook gemini",
    ] {
        assert_eq!(ocmem_program(decoy), None, "{decoy}");
    }
}

#[test]
fn install_keeps_everything_else_and_uninstall_takes_only_ocmem_out() {
    let user = json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "hooks": {
            "AfterTool": [{"matcher": ".*", "hooks": [{"type": "command", "command": "probe"}]}],
            "PreCompress": [{"hooks": [{"type": "command", "command": "probe"}]}]
        },
        "model": {"name": "gemini-2.5-pro"}
    });
    let installed = install(&user, &command()).unwrap();
    let found = ocmem_hooks(&installed);
    assert_eq!(found.len(), EVENTS.len());
    assert!(found.iter().all(|f| f.program == BINARY && f.silenced));
    assert!(missing_events(&found).is_empty());
    assert_eq!(
        installed["hooks"]["AfterTool"][0],
        user["hooks"]["AfterTool"][0]
    );
    assert_eq!(
        installed["hooks"]["AfterTool"][1]["matcher"],
        RECORDED_TOOLS
    );
    assert_eq!(
        installed["hooks"]["SessionStart"][0]["hooks"][0]["timeout"],
        HOOK_TIMEOUT_MS
    );
    let keys: Vec<&String> = installed.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["security", "hooks", "model"]);
    assert_eq!(install(&installed, &command()).unwrap(), installed);
    assert_eq!(uninstall(&installed), user);
    assert_eq!(
        uninstall(&install(&json!({}), &command()).unwrap()),
        json!({})
    );
}

#[test]
fn an_install_running_another_binary_is_replaced_in_place() {
    let old = install(&json!({}), "/old/ocmem hook gemini").unwrap();
    let new = install(&old, &command()).unwrap();
    let found = ocmem_hooks(&new);
    assert_eq!(found.len(), EVENTS.len());
    assert!(found.iter().all(|f| f.program == BINARY));
}

#[test]
fn shapes_gemini_would_not_accept_are_refused() {
    assert!(install(&json!([]), "c").is_err());
    assert!(install(&json!({"hooks": []}), "c").is_err());
    assert!(install(&json!({"hooks": {"AfterTool": {}}}), "c").is_err());
}

#[test]
fn settings_live_in_dot_gemini() {
    let home = Path::new("/home/u");
    let project = Path::new("/w/p");
    assert_eq!(
        settings_path(Level::User, project, Some(home)).unwrap(),
        Path::new("/home/u/.gemini/settings.json")
    );
    assert_eq!(
        settings_path(Level::Project, project, None).unwrap(),
        Path::new("/w/p/.gemini/settings.json")
    );
    assert_eq!(settings_path(Level::User, project, None), None);
}
