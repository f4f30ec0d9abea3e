//! `ocmem baseline`: the read-only audit of a data directory, on one holding healthy stores,
//! stores the TypeScript plugin wrote, corrupt and newer-version stores, leftovers of crashed
//! writers; its table, its JSON schema, `--check` exit codes, and that it changes nothing.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use common::*;
use serde_json::{json, Value};

const HEALTHY: &str = "/nonexistent/ocmem-tests/baseline-healthy";
const LEGACY: &str = "/home/dev/legacy";
const FUTURE: &str = "/home/dev/future";
/// `NOW` in Unix ms.
const NOW_MS: i64 = 1_795_276_800_000;
const DAY_MS: i64 = 86_400_000;
const OPENAI_KEY: &str = "sk-proj-Zq7LmN4pR2sT9vW1xY3bC5dF8gH0jK6a";

fn key(root: &str) -> String {
    sha256_hex(root)[..16].to_string()
}

fn workspace_dir(env: &Env, root: &str) -> PathBuf {
    env.workspace_dir(root)
}

fn session_path(env: &Env, root: &str, session: &str) -> PathBuf {
    env.session_file(root, session)
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn write_json(path: &Path, value: &Value) {
    write(
        path,
        &format!("{}\n", serde_json::to_string_pretty(value).unwrap()),
    );
}

fn set_mtime(path: &Path, ms: i64) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(UNIX_EPOCH + Duration::from_millis(ms as u64))
        .unwrap();
}

/// A workspace made through the real hooks: an explicit memory, a compaction candidate, a
/// real typecheck failure and an edit.
fn seed_healthy(env: &Env) {
    let out = env.run(
        &["render"],
        json!({"directory": HEALTHY, "sessionID": "ses_healthy", "messageID": "m1",
               "prompt": "remember this: always run npm run typecheck before committing"})
        .to_string(),
    );
    assert_success(&out);
    env.tool_after(&bash(
        HEALTHY,
        "ses_healthy",
        "call_1",
        "npm run typecheck",
        "> demo@1.0.0 typecheck\n> tsc --noEmit\n\nsrc/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n",
        json!(2),
    ));
    env.tool_after(&file_tool(
        HEALTHY,
        "ses_healthy",
        "call_2",
        "read",
        "src/index.ts",
    ));
    let out = env.run(
        &["promote"],
        json!({"directory": HEALTHY, "sessionID": "ses_healthy",
               "summary": "Fixed the build.\n\nMemory candidates:\n- [decision] Use pnpm workspaces because the monorepo shares one lockfile\n"})
        .to_string(),
    );
    assert_success(&out);
}

/// The TypeScript plugin's workspace store: camelCase, ISO dates, `mem_<ms>_<base36>` ids, a
/// `migrations` array and fields ocmem does not know. One entry holds an OpenAI key, stored
/// before anything scrubbed secrets; one decision is past its 45 days.
fn legacy_memory() -> Value {
    json!({
        "version": 1,
        "workspace": {"root": LEGACY, "key": key(LEGACY), "label": "legacy"},
        "limits": {"maxRenderedChars": 5200, "maxEntries": 28},
        "entries": [
            {"id": "mem_1759999200000_k3x9q1", "type": "feedback",
             "text": "Answer in English even when the issue is written in German",
             "source": "explicit", "confidence": 1, "status": "active",
             "createdAt": "2025-10-09T08:40:00.000Z", "updatedAt": "2025-10-09T08:40:00.000Z",
             "tags": ["language"], "pinnedBy": "user"},
            {"id": "mem_1790000000000_a0b1c2", "type": "decision",
             "text": "Use Vitest instead of Jest for the unit tests",
             "rationale": "native ESM support without transforms",
             "source": "compaction", "confidence": 0.75, "status": "active",
             "createdAt": "2026-09-21T14:13:20.000Z", "updatedAt": "2026-09-21T14:13:20.000Z",
             "staleAfterDays": 45},
            {"id": "mem_1791000000000_zz09ab", "type": "reference",
             "text": format!("The staging bot uses the OpenAI key {OPENAI_KEY}"),
             "source": "manual", "confidence": 0.9, "status": "active",
             "createdAt": "2026-10-03T04:00:00.000Z", "updatedAt": "2026-10-03T04:00:00.000Z",
             "staleAfterDays": 90},
            {"id": "mem_1758000000000_0p9o8i", "type": "project",
             "text": "The backend is an Express app on Node 18",
             "source": "compaction", "confidence": 0.75, "status": "superseded",
             "createdAt": "2025-09-16T05:20:00.000Z", "updatedAt": "2025-10-01T00:00:00.000Z",
             "staleAfterDays": 60, "supersededBy": "mem_1759999200001_q2w3e4"}
        ],
        "migrations": ["2025-08-01-three-layer", "2025-09-15-entry-status"],
        "updatedAt": "2026-10-03T04:00:00.000Z",
        "pluginVersion": "1.2.4"
    })
}

/// A session the plugin wrote: it took a `git log` whose commit subjects say "error" for a
/// failure, next to a real tsc error.
fn legacy_session() -> Value {
    json!({
        "version": 1,
        "sessionID": "ses_legacy",
        "turn": 12,
        "updatedAt": "2026-11-06T16:00:00.000Z",
        "activeFiles": [
            {"path": "/home/dev/legacy/src/app.ts", "action": "edit", "count": 3, "lastSeen": 1794067200000_i64}
        ],
        "openErrors": [
            {"id": "err_5d41402abc4b", "category": "runtime",
             "summary": "a1b2c3d fix: handle parse errors in the importer\n9f8e7d6 feat: error page",
             "command": "git log --oneline -20", "fingerprint": "5d41402abc4b", "status": "open",
             "firstSeen": 1794067000000_i64, "lastSeen": 1794067000000_i64, "seenCount": 1},
            {"id": "err_7d793037a076", "category": "typecheck",
             "summary": "src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
             "command": "npx tsc --noEmit", "fingerprint": "7d793037a076", "status": "maybe_fixed",
             "firstSeen": 1794067100000_i64, "lastSeen": 1794067100000_i64, "seenCount": 2}
        ],
        "recentDecisions": [],
        "compactionCount": 2
    })
}

/// The data dir of the acceptance scenario: a healthy workspace; a TypeScript-written one with
/// a stored secret, a stale entry, a false positive, a corrupt session file, a quarantined copy
/// and an orphan temp file; and one whose memory a newer ocmem wrote.
fn seed_mixed(env: &Env) {
    seed_healthy(env);

    let legacy = workspace_dir(env, LEGACY);
    write_json(&legacy.join("workspace-memory.json"), &legacy_memory());
    write_json(&session_path(env, LEGACY, "ses_legacy"), &legacy_session());
    let corrupt = session_path(env, LEGACY, "ses_crashed");
    write(&corrupt, "{\n  \"version\": 1,\n  \"sessionID\": \"ses_cra");
    set_mtime(&corrupt, NOW_MS - 40 * DAY_MS);
    let mut quarantined = corrupt.clone().into_os_string();
    quarantined.push(".corrupt-1795000000000");
    write(Path::new(&quarantined), "{\"version\": 1, \"turn\": ");
    let temp = legacy.join("workspace-memory.json.tmp-4242-991");
    write(&temp, "{\"version\": 1");
    set_mtime(&temp, NOW_MS - 3 * DAY_MS);

    let future = workspace_dir(env, FUTURE);
    write_json(
        &future.join("workspace-memory.json"),
        &json!({"version": 99, "workspace": {"root": FUTURE, "key": key(FUTURE)},
                "entries": [], "shards": ["a", "b"]}),
    );
}

fn baseline(env: &Env, args: &[&str]) -> std::process::Output {
    // Bounded: reading a FIFO would block forever.
    env.ocmem()
        .arg("baseline")
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

/// Every file and directory below `dir`, with the size, the sha256 and the modification
/// time of each file.
fn listing(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.strip_prefix(base).unwrap().display().to_string();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                out.push(format!("{name}/"));
                walk(base, &path, out);
            } else if !meta.is_file() {
                out.push(format!(
                    "{name} {:?} {:?}",
                    meta.file_type(),
                    meta.modified().unwrap()
                ));
            } else {
                let bytes = fs::read(&path).unwrap();
                let text = String::from_utf8_lossy(&bytes);
                out.push(format!(
                    "{name} {} {} {:?}",
                    bytes.len(),
                    sha256_hex(&text),
                    meta.modified().unwrap()
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn dir_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let meta = fs::symlink_metadata(entry.path()).unwrap();
        total += if meta.is_dir() {
            dir_bytes(&entry.path())
        } else {
            meta.len()
        };
    }
    total
}

/// The cells of the table row that starts with `first` (KEY … BYTES, the byte count and its
/// unit as two cells).
fn row(table: &str, first: &str) -> Vec<String> {
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("{first} ")))
        .unwrap_or_else(|| panic!("no row {first}:\n{table}"));
    line.split_whitespace().map(str::to_string).collect()
}

fn json_report(env: &Env, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = baseline(env, &all);
    assert_success(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

fn workspace<'a>(report: &'a Value, root: &str) -> &'a Value {
    report["workspaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["key"] == key(root))
        .unwrap_or_else(|| panic!("no workspace {root} in {report:#}"))
}

#[test]
fn a_healthy_data_dir_is_tabled_and_passes_the_check() {
    let env = Env::new();
    seed_healthy(&env);
    let before = listing(&env.data);

    let out = baseline(&env, &[]);
    assert_success(&out);
    let table = stdout(&out);
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        [
            "KEY",
            "ROOT",
            "ENTRIES",
            "CHARS",
            "SECRETS",
            "STALE",
            "SESSIONS",
            "OLDEST",
            "ERRORS",
            "MAYBE-FIXED",
            "SUSPECT",
            "CORRUPT",
            "QUARANTINED",
            "TEMP",
            "NEWER",
            "BYTES"
        ]
    );
    let cells = row(&table, &key(HEALTHY));
    assert_eq!(cells[1], "…/ocmem-tests/baseline-healthy", "{table}");
    assert_eq!(
        &cells[2..15],
        [
            "2/0/0",
            cells[3].as_str(),
            "0",
            "0",
            "1",
            "0d",
            "1",
            "0",
            "0",
            "0",
            "0",
            "0",
            "0"
        ]
    );
    assert!(cells[3].ends_with("/5200"), "{table}");
    let total = row(&table, "total");
    assert_eq!(&total[1..3], ["1", "workspace"]);
    assert_eq!(total[3..], cells[2..]);
    assert!(
        table.contains(&format!("{}  {HEALTHY}\n", key(HEALTHY))),
        "{table}"
    );
    assert!(
        table.contains(
            "  by type:   feedback 1/0/0  project 0/0/0  decision 1/0/0  reference 0/0/0\n"
        ),
        "{table}"
    );
    assert!(
        table.contains("  by source: explicit 1/0/0  manual 0/0/0  compaction 1/0/0\n"),
        "{table}"
    );
    assert!(table.ends_with("problems: none\n"), "{table}");

    let check = baseline(&env, &["--check"]);
    assert_success(&check);
    assert_eq!(stdout(&check), table);

    let report = json_report(&env, &["--check"]);
    let healthy = workspace(&report, HEALTHY);
    assert_eq!(healthy["root"], HEALTHY);
    assert_eq!(healthy["memory"], "ok");
    assert_eq!(healthy["entries"]["active"], 2);
    assert_eq!(healthy["entries"]["bySource"]["explicit"]["active"], 1);
    assert_eq!(healthy["entries"]["byType"]["decision"]["active"], 1);
    assert_eq!(healthy["errors"]["total"], 1);
    assert_eq!(healthy["errors"]["suspectedFalsePositives"], 0);
    assert_eq!(
        healthy["bytes"].as_u64().unwrap(),
        dir_bytes(&workspace_dir(&env, HEALTHY))
    );
    assert_eq!(report["problems"], json!([]));

    assert_eq!(listing(&env.data), before, "baseline changed the data dir");
}

#[test]
fn a_mixed_data_dir_is_reported_in_full() {
    let env = Env::new();
    seed_mixed(&env);
    let before = listing(&env.data);

    let out = baseline(&env, &[]);
    assert_success(&out);
    let table = stdout(&out);
    // KEY ROOT ENTRIES CHARS SECRETS STALE SESSIONS OLDEST ERRORS MAYBE-FIXED SUSPECT CORRUPT
    // QUARANTINED TEMP NEWER BYTES
    let legacy = row(&table, &key(LEGACY));
    assert_eq!(legacy[1], LEGACY);
    assert_eq!(legacy[2], "3/0/1", "{table}");
    assert!(legacy[3].ends_with("/5200"));
    assert_eq!(
        &legacy[4..15],
        ["1", "1", "2", "40d", "2", "1", "1", "1", "1", "1", "0"],
        "{table}"
    );
    let future = row(&table, &key(FUTURE));
    assert_eq!(
        &future[1..16],
        ["(newer", "memory)", "-", "-", "0", "0", "0", "-", "0", "0", "0", "0", "0", "0", "1"],
        "{table}"
    );
    let total = row(&table, "total");
    assert_eq!(&total[1..3], ["3", "workspaces"]);
    assert_eq!(total[3], "5/0/1");
    assert_eq!(
        &total[5..16],
        ["1", "1", "3", "40d", "3", "1", "1", "1", "1", "1", "1"],
        "{table}"
    );
    // Every row has its cells under the headers: right-aligned columns end together.
    let lines: Vec<&str> = table.lines().take(5).collect();
    for line in &lines[1..] {
        assert_eq!(line.chars().count(), lines[0].chars().count(), "{table}");
    }
    assert!(table.contains(&format!(
        "{}  {LEGACY}\n  by type:   feedback 1/0/0  project 0/0/1  decision 1/0/0  reference 1/0/0\n  by source: explicit 1/0/0  manual 1/0/0  compaction 1/0/1\n",
        key(LEGACY)
    )), "{table}");
    assert!(
        table.contains(&format!(
            "{}  (root unknown)\n  workspace memory has format version 99: not read\n",
            key(FUTURE)
        )),
        "{table}"
    );

    let problems = table.split("problems (4):\n").nth(1).expect(&table);
    let crashed = format!("sessions/{}.json", &sha256_hex("ses_crashed")[..32]);
    let legacy_session = format!("sessions/{}.json", &sha256_hex("ses_legacy")[..32]);
    for expected in [
        format!(
            "- {} secret: workspace-memory.json: active reference entry mem_1791000000000_zz09ab (manual) holds a secret (openai) in plain text",
            key(LEGACY)
        ),
        format!(
            "- {} false-positive: {legacy_session}: error err_5d41402abc4b [runtime] \"a1b2c3d fix: handle parse errors in the importer 9f8e7d6 feat: error page\" (from `git log --oneline -20`): recorded from a command that only inspects or sets up (git, cat, grep, ls …)",
            key(LEGACY)
        ),
        format!("- {} corrupt: {crashed} does not parse (", key(LEGACY)),
        format!(
            "- {} newer-version: workspace-memory.json has format version 99, newer than this ocmem reads (1); not read, and never overwritten",
            key(FUTURE)
        ),
    ] {
        assert!(problems.contains(&expected), "{expected}\nnot in:\n{table}");
    }
    assert!(
        !table.contains(OPENAI_KEY),
        "the secret itself is never printed"
    );

    // The table is reproducible with OCMEM_NOW set.
    assert_eq!(stdout(&baseline(&env, &[])), table);

    let report = json_report(&env, &[]);
    assert_eq!(report["schema"], 1);
    assert_eq!(report["dataDir"], env.data.to_str().unwrap());
    assert_eq!(report["now"], "2026-11-21T16:00:00.000Z");
    let keys: Vec<&str> = field_strs(&report["workspaces"], "key");
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "workspaces come sorted by key");

    let legacy = workspace(&report, LEGACY);
    assert_eq!(legacy["root"], LEGACY);
    assert_eq!(legacy["dir"], workspace_dir(&env, LEGACY).to_str().unwrap());
    assert_eq!(legacy["memory"], "ok");
    assert_eq!(legacy["memoryVersion"], 1);
    assert_eq!(
        legacy["entries"]["byType"]["project"],
        json!({"active": 0, "notRendered": 0, "superseded": 1})
    );
    assert_eq!(
        legacy["entries"]["bySource"]["manual"],
        json!({"active": 1, "notRendered": 0, "superseded": 0})
    );
    assert_eq!(legacy["budgetChars"], 5200);
    let rendered = legacy["renderedChars"].as_u64().unwrap();
    assert!(rendered > 100 && rendered < 5200, "{rendered}");
    assert_eq!(legacy["secrets"], json!({"entries": 1, "sessionValues": 0}));
    assert_eq!(legacy["stale"], 1);
    assert_eq!(legacy["sessions"], json!({"count": 2, "oldestDays": 40}));
    assert_eq!(
        legacy["errors"],
        json!({"total": 2, "open": 1, "maybeFixed": 1, "suspectedFalsePositives": 1})
    );
    assert_eq!(
        legacy["files"],
        json!({"corrupt": 1, "quarantined": 1, "orphanTemp": 1, "newerVersion": 0, "malformedArchiveLines": 0})
    );
    assert_eq!(
        legacy["bytes"].as_u64().unwrap(),
        dir_bytes(&workspace_dir(&env, LEGACY))
    );

    let future = workspace(&report, FUTURE);
    assert_eq!(future["root"], Value::Null);
    assert_eq!(future["memory"], "newer-version");
    assert_eq!(future["memoryVersion"], 99);
    assert_eq!(future["budgetChars"], Value::Null);
    assert_eq!(future["files"]["newerVersion"], 1);

    let totals = &report["totals"];
    assert_eq!(totals["workspaces"], 3);
    assert_eq!(totals["entries"]["active"], 5);
    assert_eq!(totals["sessions"]["count"], 3);
    assert_eq!(totals["problems"], 4);
    assert_eq!(totals["bytes"].as_u64().unwrap(), dir_bytes(&env.data));

    let problems = report["problems"].as_array().unwrap();
    let kinds: Vec<&str> = problems
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 4);
    for kind in ["secret", "false-positive", "corrupt", "newer-version"] {
        assert!(kinds.contains(&kind), "{kinds:?}");
    }
    let by_kind = |kind: &str| problems.iter().find(|p| p["kind"] == kind).unwrap();
    let secret = by_kind("secret");
    assert_eq!(secret["workspace"], key(LEGACY));
    assert_eq!(secret["id"], "mem_1791000000000_zz09ab");
    assert_eq!(
        secret["path"],
        workspace_dir(&env, LEGACY)
            .join("workspace-memory.json")
            .to_str()
            .unwrap()
    );
    let false_positive = by_kind("false-positive");
    assert_eq!(false_positive["rule"], "inspection-command");
    assert_eq!(false_positive["id"], "err_5d41402abc4b");
    assert_eq!(
        by_kind("corrupt")["path"],
        session_path(&env, LEGACY, "ses_crashed").to_str().unwrap()
    );
    assert_eq!(by_kind("newer-version")["workspace"], key(FUTURE));
    assert!(by_kind("newer-version").get("rule").is_none());

    // --workspace narrows the report to one workspace.
    let only = json_report(&env, &["--workspace", LEGACY]);
    assert_eq!(only["workspaces"].as_array().unwrap().len(), 1);
    assert_eq!(only["workspaces"][0]["key"], key(LEGACY));
    assert_eq!(only["totals"]["problems"], 3);

    assert_eq!(listing(&env.data), before, "baseline changed the data dir");
}

#[test]
fn check_fails_with_the_reasons_and_still_prints_the_report() {
    let env = Env::new();
    seed_mixed(&env);
    let before = listing(&env.data);
    let report = stdout(&baseline(&env, &[]));

    let out = baseline(&env, &["--check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), report);
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    for kind in ["secret", "false-positive", "corrupt"] {
        let prefix = format!("ocmem: check: {}: {kind}: ", key(LEGACY));
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{prefix}\n{err}"
        );
    }
    let prefix = format!("ocmem: check: {}: newer-version: ", key(FUTURE));
    assert!(lines.iter().any(|l| l.starts_with(&prefix)), "{err}");
    assert_eq!(lines[4], "ocmem: baseline check failed: 4 problems");
    assert!(!err.contains(OPENAI_KEY));

    // --json --check: the document on stdout, the reasons on stderr.
    let out = baseline(&env, &["--json", "--check"]);
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["totals"]["problems"], 4);
    assert_eq!(stderr(&out), err);

    assert_eq!(listing(&env.data), before, "baseline changed the data dir");
}

#[test]
fn check_fails_on_each_kind_of_problem_alone() {
    type Seed = fn(&Env);
    let cases: [(&str, &str, Seed); 7] = [
        ("false-positive", LEGACY, |env| {
            let mut session = legacy_session();
            session["openErrors"].as_array_mut().unwrap().truncate(1);
            write_json(&session_path(env, LEGACY, "ses_legacy"), &session);
        }),
        ("secret", LEGACY, |env| {
            let mut memory = legacy_memory();
            memory["entries"].as_array_mut().unwrap().swap_remove(0);
            write_json(
                &workspace_dir(env, LEGACY).join("workspace-memory.json"),
                &memory,
            );
        }),
        ("corrupt", LEGACY, |env| {
            write(
                &workspace_dir(env, LEGACY).join("workspace-memory.json"),
                "{\"version\": 1, \"entries\": [",
            );
        }),
        ("newer-version", FUTURE, |env| {
            write_json(
                &session_path(env, FUTURE, "ses_future"),
                &json!({"version": 99, "sessionID": "ses_future", "lanes": []}),
            );
        }),
        ("corrupt", LEGACY, |env| {
            let dir = session_path(env, LEGACY, "ses_legacy");
            fs::create_dir_all(&dir).unwrap();
        }),
        ("corrupt", FUTURE, |env| {
            let path = workspace_dir(env, FUTURE).join("workspace-memory.json");
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            let made = std::process::Command::new("mkfifo").arg(&path).status();
            assert!(made.unwrap().success());
        }),
        ("corrupt", HEALTHY, |env| {
            let lock = workspace_dir(env, HEALTHY).join("workspace-memory.json.lock");
            fs::remove_file(&lock).unwrap();
            fs::create_dir(&lock).unwrap();
        }),
    ];
    for (kind, root, seed) in cases {
        let env = Env::new();
        seed_healthy(&env);
        assert_success(&baseline(&env, &["--check"]));
        seed(&env);
        let before = listing(&env.data);
        let out = baseline(&env, &["--check"]);
        assert_eq!(out.status.code(), Some(1), "{kind}: {}", stderr(&out));
        let err = stderr(&out);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{kind}: {err}");
        assert!(
            lines[0].starts_with(&format!("ocmem: check: {}: {kind}: ", key(root))),
            "{err}"
        );
        assert_eq!(lines[1], "ocmem: baseline check failed: 1 problem");
        assert!(stdout(&out).contains("problems (1):\n"), "{kind}");
        // Without --check the same data dir is only reported.
        assert_success(&baseline(&env, &[]));
        assert_eq!(
            listing(&env.data),
            before,
            "{kind}: baseline changed the data dir"
        );
    }
}

#[test]
fn leftovers_are_counted_but_pass_the_check() {
    let env = Env::new();
    seed_healthy(&env);
    let dir = workspace_dir(&env, HEALTHY);
    write(
        &dir.join("sessions/0123.json.corrupt-1795000000000"),
        "{\"turn\": ",
    );
    let orphan = dir.join("workspace-memory.json.tmp-77-1");
    write(&orphan, "{");
    set_mtime(&orphan, NOW_MS - 2 * 60 * 60 * 1000);
    // A temp file written a minute ago may still be renamed by its writer: not an orphan.
    let fresh = dir.join("sessions/abcd.json.tmp-78-2");
    write(&fresh, "{");
    set_mtime(&fresh, NOW_MS - 60 * 1000);

    let out = baseline(&env, &["--check"]);
    assert_success(&out);
    let cells = row(&stdout(&out), &key(HEALTHY));
    // CORRUPT QUARANTINED TEMP NEWER
    assert_eq!(&cells[11..15], ["0", "1", "1", "0"], "{}", stdout(&out));
}

#[test]
fn a_missing_data_dir_is_an_error() {
    let env = Env::new();
    for args in [&["--check"][..], &["--json"]] {
        let out = baseline(&env, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out),
            format!(
                "ocmem: data directory {} does not exist\n",
                env.data.display()
            )
        );
        assert!(stdout(&out).is_empty());
    }
    assert!(!env.data.exists(), "baseline created the data dir");

    fs::write(&env.data, "").unwrap();
    let out = baseline(&env, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "ocmem: data directory {} is not a directory\n",
            env.data.display()
        )
    );
}

#[test]
fn an_empty_data_dir_has_nothing_to_audit() {
    let env = Env::new();
    fs::create_dir_all(&env.data).unwrap();
    let out = baseline(&env, &["--check"]);
    assert_success(&out);
    assert_eq!(
        stdout(&out),
        format!(
            "no workspaces under {}: nothing to audit\n",
            env.data.display()
        )
    );
    assert_eq!(listing(&env.data), Vec::<String>::new());

    let report = json_report(&env, &[]);
    assert_eq!(report["workspaces"], json!([]));
    assert_eq!(report["problems"], json!([]));
    assert_eq!(report["totals"]["workspaces"], 0);
    assert_eq!(report["totals"]["sessions"]["oldestDays"], Value::Null);

    // A --workspace that has no directory under the data dir: zero workspaces, no error.
    seed_healthy(&env);
    let out = baseline(&env, &["--workspace", "/nonexistent/elsewhere", "--check"]);
    assert_success(&out);
    assert_eq!(
        stdout(&out),
        format!(
            "no workspaces under {} for /nonexistent/elsewhere (key {}): nothing to audit\n",
            env.data.display(),
            key("/nonexistent/elsewhere")
        )
    );
    let report = json_report(&env, &["--workspace", "/nonexistent/elsewhere"]);
    assert_eq!(report["workspaces"], json!([]));
}

#[test]
fn a_workspace_subdirectory_selects_its_repository() {
    let env = Env::new();
    let repo = env.folder("repo", &[".git", "src/deep"]);
    let root = repo.to_str().unwrap();
    let out = env.run(
        &["render"],
        json!({"directory": root, "sessionID": "s1", "messageID": "m1",
               "prompt": "remember this: the repo uses tabs for indentation"})
        .to_string(),
    );
    assert_success(&out);
    seed_healthy(&env);
    let sub = env.tmp.path().join("repo/src/deep");
    let report = json_report(&env, &["--workspace", sub.to_str().unwrap()]);
    assert_eq!(report["workspaces"].as_array().unwrap().len(), 1);
    assert_eq!(report["workspaces"][0]["key"], key(root));
    assert_eq!(report["workspaces"][0]["root"], root);
}

#[test]
fn an_unreadable_store_is_an_error_naming_it() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    seed_mixed(&env);
    let path = session_path(&env, LEGACY, "ses_legacy");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&path).is_ok() {
        // Running as root: permissions do not stop reads.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        return;
    }
    let out = baseline(&env, &[]);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("ocmem: cannot read "), "{err}");
    assert!(err.contains(path.to_str().unwrap()), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn baseline_shares_locks_with_readers_and_waits_for_writers() {
    let env = Env::new();
    seed_healthy(&env);
    let mut lock_path = workspace_dir(&env, HEALTHY)
        .join("workspace-memory.json")
        .into_os_string();
    lock_path.push(".lock");
    let lock = fs::File::open(PathBuf::from(lock_path)).unwrap();

    // Another reader's shared lock does not stop it: no wait, no warning.
    lock.lock_shared().unwrap();
    let shared = baseline(&env, &["--check", "--json"]);
    lock.unlock().unwrap();
    assert_success(&shared);
    assert_eq!(stderr(&shared), "");

    // A writer's exclusive lock makes it wait; a writer stuck for 2 s does not stop the
    // audit, which reads the last whole version (replacement is atomic) and says so.
    lock.lock().unwrap();
    let out = baseline(&env, &["--check", "--json"]);
    lock.unlock().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(err.contains("locked by another process"), "{err}");
    assert!(err.contains("reading it without the lock"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(stdout(&out), stdout(&shared));
    // An audit writes nothing, not even its warning to the log.
    assert!(!env.data.join("ocmem.log").exists());
}

#[test]
fn host_markers_and_the_warnings_log_change_no_finding() {
    let env = Env::new();
    seed_healthy(&env);
    let before = json_report(&env, &[]);
    let dir = workspace_dir(&env, HEALTHY);
    for host in ["opencode", "claude-code"] {
        write(&dir.join("hosts").join(host), "");
        set_mtime(&dir.join("hosts").join(host), NOW_MS - DAY_MS);
    }
    write(
        &env.data.join("ocmem.log"),
        "{\"at\":\"2026-11-21T15:53:54.504Z\",\"text\":\"a warning\"}\n",
    );
    write(&env.data.join("ocmem.log.1"), "torn {\n");
    // A workspace that a host called for and that holds nothing else.
    const CALLED_ONLY: &str = "/nonexistent/ocmem-tests/called-only";
    write(&workspace_dir(&env, CALLED_ONLY).join("hosts/opencode"), "");
    let untouched = listing(&env.data);

    let out = baseline(&env, &["--check"]);
    assert_success(&out);
    let after = json_report(&env, &["--check"]);
    assert_eq!(workspace(&after, HEALTHY), workspace(&before, HEALTHY));
    assert_eq!(after["problems"], json!([]));
    let called_only = workspace(&after, CALLED_ONLY);
    assert_eq!(called_only["bytes"], 0, "{called_only:#}");
    assert_eq!(after["totals"]["workspaces"], 2);
    assert_eq!(listing(&env.data), untouched, "baseline changes nothing");
}
