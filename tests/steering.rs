//! Steering memory from the conversation, through the binary: a message captures memories, a
//! later one forgets or replaces them, and the next hot state and the next session's block
//! say so; decoys and weak requests change nothing on disk.

mod common;

use common::hooks::{claude_code_event, hook};
use common::*;
use serde_json::{json, Value};

const SESSION: &str = "ses_steering_1";

fn entries(env: &Env) -> Vec<Value> {
    let memory = env.memory_json(DEMO_DIR);
    memory["entries"].as_array().unwrap().clone()
}

fn entry<'a>(entries: &'a [Value], text: &str) -> &'a Value {
    entries
        .iter()
        .find(|e| e["text"] == text)
        .unwrap_or_else(|| panic!("no entry {text:?} in {entries:?}"))
}

fn render(env: &Env, session: &str, message: &str, prompt: &str) -> String {
    env.render_prompt(DEMO_DIR, session, message, prompt)
}

fn claude(env: &Env, session: &str, name: &str, extra: Value) -> String {
    let event = claude_code_event(session, name, extra);
    let printed = hook(env, "claude-code", &event);
    if printed.is_empty() {
        return printed;
    }
    let value: Value = serde_json::from_str(&printed).unwrap();
    value["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn prompt(env: &Env, session: &str, id: &str, text: &str) -> String {
    claude(
        env,
        session,
        "UserPromptSubmit",
        json!({"prompt_id": id, "prompt": text}),
    )
}

/// "Remember to …" is how a one-off for the task is asked most of the time, and the models
/// leave it ("… before you finish this"); a habit asked the same way is left too, and
/// then the agent is told, not left unaware: it reads the whole conversation and saves what
/// the user meant to last.
#[test]
fn a_request_read_as_one_for_the_task_is_not_stored_and_the_agent_hears_of_it() {
    let env = Env::new();
    claude(&env, "s-1", "SessionStart", json!({"source": "startup"}));
    let shown = prompt(
        &env,
        "s-1",
        "p1",
        "Fix the header. Also remember to run the tests before you finish this.",
    );
    assert!(
        shown.contains(
            "- [not saved] 1 in the latest message read as a request for this task only: \
             if the user meant it for later sessions too, save it with the memory_add tool"
        ),
        "{shown}"
    );
    assert!(
        !env.memory_file(DEMO_DIR).exists() || entries(&env).is_empty(),
        "{:?}",
        entries(&env)
    );
    // The next message says nothing of it any more.
    let next = prompt(&env, "s-1", "p2", "thanks, now run the tests");
    assert!(!next.contains("not saved"), "{next}");
}

#[test]
fn a_forget_through_claude_code_supersedes_the_entry_and_the_next_session_drops_it() {
    let env = Env::new();
    claude(&env, "s-1", "SessionStart", json!({"source": "startup"}));
    prompt(
        &env,
        "s-1",
        "p1",
        "Remember: the staging database is read-only. Also remember: keep answers short.",
    );
    let shown = prompt(
        &env,
        "s-1",
        "p2",
        "- Also: forget about the read-only staging DB, it's writable since Monday",
    );
    assert!(
        shown.contains("[forgotten] \"the staging database is read-only\""),
        "{shown}"
    );
    // No longer pending: it is forgotten.
    assert!(!shown.contains("[project] the staging database"), "{shown}");
    let all = entries(&env);
    let forgotten = entry(&all, "the staging database is read-only");
    assert_eq!(forgotten["status"], "superseded");
    assert_eq!(forgotten["supersededAt"], "2026-11-21T16:00:00.000Z");
    assert_eq!(
        forgotten["supersededReason"],
        "forgotten on request: - Also: forget about the read-only staging DB, it's writable since Monday"
    );
    assert_eq!(entry(&all, "keep answers short")["status"], "active");
    // The next message clears the line; the next session's block no longer has the entry.
    let next = prompt(&env, "s-1", "p3", "thanks, now run the tests");
    assert!(!next.contains("forgotten"), "{next}");
    let started = claude(&env, "s-2", "SessionStart", json!({"source": "startup"}));
    assert!(started.contains("- keep answers short"), "{started}");
    assert!(!started.contains("staging"), "{started}");
}

#[test]
fn a_contradicting_memory_through_render_replaces_the_old_one() {
    let env = Env::new();
    render(
        &env,
        SESSION,
        "m1",
        "remember: always run the typecheck before committing. Remember to use pnpm for all packages.",
    );
    let shown = render(
        &env,
        SESSION,
        "m2",
        // "And from now on use bun instead of pnpm." read as a request for the task only after
        // the eighteenth round's retrain, and "use bun instead of pnpm" as a decision
        // (docs/capture-models.md, "borderline readings flip between trainings"): this test is
        // about what a contradicting rule replaces, so it says the rule in the old one's words.
        "From now on, do not run the typecheck before committing. From now on, use bun instead of pnpm for all packages.",
    );
    assert!(
        shown.contains(
            "- [feedback] do not run the typecheck before committing (replaces: always run the typecheck before committing)"
        ),
        "{shown}"
    );
    assert!(
        shown.contains(
            "- [feedback] use bun instead of pnpm for all packages (replaces: use pnpm for all packages)"
        ),
        "{shown}"
    );
    let all = entries(&env);
    let old = entry(&all, "always run the typecheck before committing");
    let new = entry(&all, "do not run the typecheck before committing");
    assert_eq!(old["status"], "superseded");
    assert_eq!(old["supersededBy"], new["id"]);
    assert_eq!(new["supersedes"], old["id"]);
    let block = render(&env, "ses_steering_2", "m1", "hello");
    assert!(
        block.contains("- do not run the typecheck before committing\n")
            && block.contains("- use bun instead of pnpm for all packages\n"),
        "{block}"
    );
    assert!(
        !block.contains("always run") && !block.contains("use pnpm"),
        "{block}"
    );
}

#[test]
fn decoys_and_weak_requests_change_nothing_on_disk() {
    let env = Env::new();
    render(
        &env,
        SESSION,
        "m1",
        "remember: use pnpm for all packages. Remember that pnpm-lock.yaml is always committed.",
    );
    let before = std::fs::read(env.memory_file(DEMO_DIR)).unwrap();
    for (n, message) in [
        "I forgot to run pnpm install before committing",
        "should we forget about pnpm?",
        "The doc says \"forget that we use pnpm\" which is odd",
        "```\n# forget that we use pnpm\n```",
        "forget it, let's ship",
        "forget about the Redis cache TTL",
        "forget about pnpm",
    ]
    .iter()
    .enumerate()
    {
        let shown = render(&env, SESSION, &format!("d{n}"), message);
        assert_eq!(
            std::fs::read(env.memory_file(DEMO_DIR)).unwrap(),
            before,
            "{message}"
        );
        let asked = message.starts_with("forget about");
        assert_eq!(
            shown.contains("[not forgotten]"),
            asked,
            "{message}: {shown}"
        );
        assert!(!shown.contains("[forgotten]"), "{message}: {shown}");
    }
    let ambiguous = render(&env, SESSION, "d9", "forget about pnpm");
    assert!(
        ambiguous.contains("[not forgotten] \"pnpm\" matches 2 entries alike"),
        "{ambiguous}"
    );
}

#[test]
fn a_message_read_again_forgets_nothing_more() {
    let env = Env::new();
    render(
        &env,
        SESSION,
        "m1",
        "remember: use pnpm for all packages. Remember that pnpm-lock.yaml must be committed with every dependency change.",
    );
    let message = "forget that we use pnpm for packages";
    render(&env, SESSION, "m2", message);
    // The same message again (a host rendering twice for one turn): the next best entry stays.
    let again = render(&env, SESSION, "m2", message);
    assert!(
        again.contains("[forgotten] \"use pnpm for all packages\""),
        "{again}"
    );
    let all = entries(&env);
    assert_eq!(
        entry(&all, "use pnpm for all packages")["status"],
        "superseded"
    );
    assert_eq!(
        entry(
            &all,
            "pnpm-lock.yaml must be committed with every dependency change"
        )["status"],
        "active"
    );
}

#[test]
fn what_a_conversation_forgot_shows_why_and_restores_by_hand() {
    let env = Env::new();
    render(
        &env,
        SESSION,
        "m1",
        "Remember: the staging database is read-only.",
    );
    render(
        &env,
        SESSION,
        "m2",
        "forget about the read-only staging database, it is writable now",
    );
    let all = entries(&env);
    let forgotten = entry(&all, "the staging database is read-only");
    assert_eq!(forgotten["supersededWhy"], "asked");
    let id = forgotten["id"].as_str().unwrap().to_string();

    let memory = |args: &[&str]| {
        let mut full = vec!["memory"];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--workspace", DEMO_DIR]);
        env.run(&full, "")
    };
    let out = memory(&["show", &id]);
    assert_success(&out);
    let shown = stdout(&out);
    assert!(
        shown.contains("forgotten when the user asked in the conversation"),
        "{shown}"
    );
    assert!(shown.contains("forget about the read-only"), "{shown}");

    assert_success(&memory(&["restore", &id]));
    let all = entries(&env);
    let restored = entry(&all, "the staging database is read-only");
    assert_eq!(restored["status"], "active");
    for field in [
        "supersededAt",
        "supersededWhy",
        "supersededReason",
        "supersededBy",
    ] {
        assert!(restored.get(field).is_none(), "{field} left on {restored}");
    }
}
