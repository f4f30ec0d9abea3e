//! `ocmem handoff` on the recorded Claude Code session, once it has ended.

mod common;

use std::path::Path;

use common::{assert_success, stdout, Env, DEMO_DIR};
use serde_json::Value;

fn finished_session() -> Env {
    let env = Env::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/claude-code-2.1.330/session-hooks.jsonl");
    for line in std::fs::read_to_string(path).unwrap().lines() {
        assert_success(&env.run(&["hook", "claude-code"], line));
    }
    env
}

fn digest(env: &Env) -> Value {
    let out = env.run(&["sessions", "--workspace", DEMO_DIR, "--json"], "");
    assert_success(&out);
    let listed: Vec<Value> = serde_json::from_str(&stdout(&out)).unwrap();
    listed[0].clone()
}

fn handoff(env: &Env, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["handoff", "--workspace", DEMO_DIR];
    args.extend_from_slice(extra);
    env.run(&args, "")
}

/// The bullets under each `## ` heading.
fn sections(note: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in note.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            out.push((heading.to_string(), Vec::new()));
        } else if let (Some(item), Some(last)) = (line.strip_prefix("- "), out.last_mut()) {
            last.1.push(item.to_string());
        }
    }
    out
}

#[test]
fn every_bullet_of_the_note_is_traceable_to_the_digest() {
    let env = finished_session();
    let digest = digest(&env);
    let out = handoff(&env, &[]);
    assert_success(&out);
    let note = stdout(&out);
    let sections = sections(&note);
    let headings: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(headings, ["Now", "Decisions", "Next", "Risks"], "{note}");
    let mut quoted = 0;
    for (heading, bullets) in &sections {
        assert!((3..=5).contains(&bullets.len()), "{heading}: {bullets:?}");
        for bullet in bullets {
            let (text, field) = bullet
                .rsplit_once(" `[")
                .unwrap_or_else(|| panic!("no source: {bullet}"));
            let field = field.trim_end_matches("]`");
            assert!(
                !digest[field].is_null() || field == "endedBy",
                "{bullet}: no field {field}"
            );
            let values: Vec<String> = match &digest[field] {
                Value::Array(items) => items.iter().map(|i| i.as_str().unwrap().into()).collect(),
                Value::String(s) => vec![s.clone()],
                _ => Vec::new(),
            };
            if values
                .iter()
                .any(|v| !v.is_empty() && text.contains(v.as_str()))
            {
                quoted += 1;
            }
        }
    }
    // The session's substance is quoted, not paraphrased.
    assert!(quoted >= 5, "{note}");
    assert!(note.contains("always run npm run typecheck before committing"));
    assert!(note.contains("src/index.ts"));
}

#[test]
fn write_never_replaces_a_file_changed_since_ocmem_wrote_it() {
    let env = finished_session();
    let target = env.tmp.path().join("HANDOFF.md");
    let target_arg = target.to_str().unwrap();
    assert_success(&handoff(&env, &["--write", target_arg]));
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(written.starts_with("# Handoff: "));
    // Unchanged since: written again.
    assert_success(&handoff(&env, &["--write", target_arg]));

    std::fs::write(&target, format!("{written}\nmy own notes\n")).unwrap();
    let refused = handoff(&env, &["--write", target_arg]);
    assert!(!refused.status.success());
    assert_eq!(String::from_utf8_lossy(&refused.stderr).lines().count(), 1);
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("my own notes"));

    assert_success(&handoff(&env, &["--write", target_arg, "--force"]));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), written);
}

#[test]
fn a_file_ocmem_never_wrote_is_left_alone() {
    let env = finished_session();
    let target = env.tmp.path().join("NOTES.md");
    std::fs::write(&target, "someone else's\n").unwrap();
    let out = handoff(&env, &["--write", target.to_str().unwrap()]);
    assert!(!out.status.success());
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "someone else's\n"
    );
}

#[test]
fn an_unknown_session_is_an_error() {
    let env = finished_session();
    let out = handoff(&env, &["--session", "ses_never"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("ses_never"));
    let known = digest(&env)["sessionID"].as_str().unwrap().to_string();
    assert_success(&handoff(&env, &["--session", &known]));
}
