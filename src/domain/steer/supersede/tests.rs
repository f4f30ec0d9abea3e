use super::*;
use crate::domain::memory::workspace::{merge, NewMemory, Source};
use serde_json::Value;

fn store(entries: &[(MemoryType, &str)]) -> WorkspaceMemory {
    let mut memory = WorkspaceMemory::new("/r", "k");
    for (n, (kind, text)) in entries.iter().enumerate() {
        let new = NewMemory {
            kind: *kind,
            text: (*text).into(),
            rationale: None,
            source: Source::Explicit,
            confidence: 1.0,
        };
        merge(&mut memory, new, n as i64);
    }
    memory
}

fn texts(memory: &WorkspaceMemory, at: &[usize]) -> Vec<String> {
    at.iter().map(|&i| memory.entries[i].text.clone()).collect()
}

const F: MemoryType = MemoryType::Feedback;
const P: MemoryType = MemoryType::Project;

#[test]
fn words_drop_function_words_markers_and_particles() {
    let r = read("Always run the typecheck before committing");
    assert!(!r.negative);
    assert_eq!(
        r.words.into_iter().collect::<Vec<_>>(),
        ["befor", "commit", "typech"]
    );
    assert!(read("do not run the typecheck").negative);
    assert!(read("提交前不要运行类型检查").negative);
    let ko = read("타입체크를 실행해");
    assert!(ko.words.contains("타입") && ko.words.contains("체크"));
}

#[test]
fn forget_takes_the_one_entry_that_holds_the_subject() {
    let memory = store(&[
        (F, "use pnpm for all packages"),
        (P, "the staging database is read-only"),
        (F, "keep answers short"),
    ]);
    assert_eq!(match_forget(&memory, "pnpm"), ForgetMatch::Entries(vec![0]));
    assert_eq!(
        match_forget(&memory, "the read-only staging database"),
        ForgetMatch::Entries(vec![1])
    );
}

#[test]
fn forget_is_weak_when_too_little_of_the_subject_is_there() {
    let memory = store(&[(F, "use pnpm for all packages"), (F, "keep answers short")]);
    assert_eq!(
        match_forget(&memory, "the old proxy setting"),
        ForgetMatch::Weak
    );
    // One word of three is not enough.
    assert_eq!(
        match_forget(&memory, "yarn packages cache"),
        ForgetMatch::Weak
    );
    assert_eq!(match_forget(&memory, "it"), ForgetMatch::Weak);
}

#[test]
fn forget_is_ambiguous_when_two_entries_match_alike() {
    let memory = store(&[
        (F, "run pnpm install with --frozen-lockfile in CI"),
        (P, "pnpm workspaces are listed in pnpm-workspace.yaml"),
        (F, "keep answers short"),
    ]);
    assert!(matches!(match_forget(&memory, "pnpm"), ForgetMatch::Ambiguous(at) if at.len() == 2));
    // A subject naming more of one of them picks it.
    assert_eq!(
        match_forget(&memory, "the pnpm workspaces file"),
        ForgetMatch::Entries(vec![1])
    );
}

#[test]
fn forget_takes_one_text_stored_under_two_types_together() {
    let memory = store(&[
        (F, "deploys go out on Fridays"),
        (P, "deploys go out on Fridays"),
    ]);
    assert_eq!(
        match_forget(&memory, "Friday deploys"),
        ForgetMatch::Entries(vec![0, 1])
    );
}

#[test]
fn a_flipped_instruction_updates_the_old_one() {
    let memory = store(&[
        (F, "always run the typecheck before committing"),
        (F, "run the linter before pushing"),
    ]);
    let at = updated_by(&memory, F, "do not run the typecheck before committing");
    assert_eq!(
        texts(&memory, &at),
        ["always run the typecheck before committing"]
    );
    // The same polarity is no contradiction.
    assert!(updated_by(&memory, F, "run the typecheck before committing, always").is_empty());
}

#[test]
fn a_new_value_of_the_same_setting_updates_the_old_one() {
    let memory = store(&[
        (F, "use pnpm for all packages"),
        (F, "indent with 2 spaces"),
        (F, "reply in English"),
        (F, "run the tests before committing"),
    ]);
    assert_eq!(
        texts(&memory, &updated_by(&memory, F, "use bun for all packages")),
        ["use pnpm for all packages"]
    );
    assert_eq!(
        texts(&memory, &updated_by(&memory, F, "indent with 4 spaces")),
        ["indent with 2 spaces"]
    );
    assert_eq!(
        texts(
            &memory,
            &updated_by(&memory, F, "reply in Traditional Chinese")
        ),
        ["reply in English"]
    );
    // Another subject in the same frame is not a new value.
    assert!(updated_by(&memory, F, "run the linter before committing").is_empty());
}

#[test]
fn a_replacement_updates_entries_about_what_it_replaces() {
    let memory = store(&[
        (F, "use pnpm for all packages"),
        (
            F,
            "pnpm-lock.yaml must be committed with every dependency change",
        ),
        (P, "we use pnpm workspaces"),
    ]);
    let at = updated_by(&memory, F, "use bun instead of pnpm");
    assert_eq!(texts(&memory, &at), ["use pnpm for all packages"]);
    let zh = store(&[(F, "所有包都用pnpm管理")]);
    assert_eq!(updated_by(&zh, F, "用bun而不是pnpm"), [0]);
    let ja = store(&[(F, "パッケージ管理はpnpmを使う")]);
    assert_eq!(updated_by(&ja, F, "pnpmではなくbunを使って"), [0]);
}

#[test]
fn other_types_and_the_same_text_are_never_updated() {
    let memory = store(&[
        (P, "use pnpm for all packages"),
        (F, "use bun for all packages"),
    ]);
    assert!(updated_by(&memory, F, "use bun for all packages").is_empty());
    assert_eq!(updated_by(&memory, P, "use yarn for all packages"), [0]);
}

#[test]
fn supersede_keeps_the_entry_and_records_when_and_why() {
    let mut memory = store(&[(F, "use pnpm for all packages")]);
    supersede(
        &mut memory.entries[0],
        crate::domain::steer::edit::Why::Updated,
        "updated",
        Some("mem_2"),
        86_400_000,
    );
    let entry = &memory.entries[0];
    assert_eq!(entry.status, EntryStatus::Superseded);
    assert_eq!(entry.updated_at, "1970-01-02T00:00:00.000Z");
    assert_eq!(entry.extra["supersededAt"], "1970-01-02T00:00:00.000Z");
    assert_eq!(entry.extra["supersededReason"], "updated");
    assert_eq!(entry.extra["supersededBy"], "mem_2");
}

fn request(subject: &str, sentence: &str) -> crate::domain::capture::explicit::ForgetRequest {
    crate::domain::capture::explicit::ForgetRequest {
        subject: subject.into(),
        sentence: sentence.into(),
    }
}

#[test]
fn apply_forgets_supersedes_the_match_and_records_the_sentence_scrubbed() {
    let mut memory = store(&[(F, "use pnpm for all packages"), (F, "keep answers short")]);
    let key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let outcomes = apply_forgets(
        &mut memory,
        &[
            request("pnpm", &format!("forget about pnpm, token {key}")),
            request("the proxy", "forget the proxy"),
        ],
        5,
    );
    let entry = &memory.entries[0];
    assert_eq!(
        outcomes[0],
        ForgetOutcome::Forgotten(vec![(entry.id.clone(), entry.text.clone())])
    );
    assert_eq!(
        outcomes[1],
        ForgetOutcome::Weak {
            subject: "the proxy".into()
        }
    );
    let reason = entry.extra["supersededReason"].as_str().unwrap();
    assert!(
        reason.starts_with("forgotten on request: forget about pnpm"),
        "{reason}"
    );
    assert!(!reason.contains(key), "{reason}");
    assert!(entry.extra.get("supersededBy").is_none());
    assert_eq!(memory.entries[1].status, EntryStatus::Active);
}

#[test]
fn the_forget_note_says_what_was_forgotten_or_why_nothing_was() {
    assert_eq!(forget_note(&[]), None);
    let forgotten = ForgetOutcome::Forgotten(vec![("m1".into(), "use pnpm".into())]);
    assert_eq!(
        forget_note(std::slice::from_ref(&forgotten)).unwrap(),
        "[forgotten] \"use pnpm\": no longer true, do not rely on it"
    );
    let weak = ForgetOutcome::Weak {
        subject: "the proxy".into(),
    };
    let ambiguous = ForgetOutcome::Ambiguous {
        subject: "pnpm".into(),
        texts: vec!["a pnpm rule".into(), "another pnpm rule".into()],
    };
    assert_eq!(
        forget_note(&[weak.clone(), ambiguous]).unwrap(),
        "[not forgotten] nothing in memory matches \"the proxy\" closely; \"pnpm\" matches 2 \
         entries alike (\"a pnpm rule\", \"another pnpm rule\"): ask the user which entry they mean"
    );
    let both = forget_note(&[forgotten, weak]).unwrap();
    assert!(
        both.starts_with("[forgotten] \"use pnpm\"") && both.contains("not forgotten: nothing"),
        "{both}"
    );
}

#[test]
fn replace_links_the_new_entry_and_the_old_ones_both_ways() {
    let mut memory = store(&[(F, "use pnpm for all packages")]);
    let olds = updated_by(&memory, F, "use bun for all packages");
    let new = NewMemory {
        kind: F,
        text: "use bun for all packages".into(),
        rationale: None,
        source: Source::Explicit,
        confidence: 1.0,
    };
    let id = merge(&mut memory, new, 9).id().unwrap().to_owned();
    let replaced = replace(&mut memory, &olds, &id, 9);
    assert_eq!(replaced.len(), 1);
    let old = &memory.entries[0];
    assert_eq!(old.extra["supersededBy"], id.as_str());
    assert_eq!(old.extra["supersededReason"], UPDATED_REASON);
    assert_eq!(
        memory.entries[1].supersedes,
        Some(Value::String(old.id.clone()))
    );
}

#[test]
fn phrase_tables_are_written_normalized() {
    let replacements: Vec<&str> = REPLACEMENT_MARKERS.iter().map(|(p, _)| *p).collect();
    let tables: [&[&str]; 5] = [
        NEGATIVE_MARKERS,
        EMPHASIS_MARKERS,
        CJK_STOP_PHRASES,
        USE_VERBS,
        &replacements,
    ];
    for phrase in tables.iter().flat_map(|table| table.iter()) {
        assert_eq!(normalize(phrase), *phrase, "write {phrase:?} normalized");
    }
}

#[test]
fn values_of_alternatives_hold_no_marker() {
    for value in ALTERNATIVES.iter().flat_map(|set| set.iter()) {
        assert_eq!(Member::of(value).words, read(value).words, "{value:?}");
    }
}

#[test]
fn accented_markers_still_match_accented_text() {
    assert!(read("Não use tabs").negative);
    assert!(read("Évite les tabs").negative);
    assert!(!read("Use les tabs").negative);
}
