//! A workspace memory of 10 000 entries on disk, as years of compactions leave it: a promote
//! through the binary gives exactly what merging its candidates one at a time gives, and a
//! render shows the same block the domain renders. Cost is measured by `cargo bench` and the
//! domain's work counters, not here.

mod common;

use common::*;
use ocmem::domain::capture::candidates::{gate, parse_candidates};
use ocmem::domain::memory::workspace::{
    merge, render_block, NewMemory, Source, WorkspaceMemory, COMPACTION_CONFIDENCE,
};
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/scale";
const ENTRIES: usize = 10_000;
/// `common::NOW` in Unix ms.
const NOW_MS: i64 = 1_795_276_800_000;
const SOURCES: [&str; 3] = ["compaction", "explicit", "manual"];

fn memory_file(env: &Env) -> std::path::PathBuf {
    env.memory_file(DIR)
}

fn grown_store() -> Value {
    let kinds = ["feedback", "project", "decision", "reference"];
    let entries: Vec<Value> = (0..ENTRIES)
        .map(|i| {
            let at = ocmem::domain::base::time::format_rfc3339_ms(
                NOW_MS - (ENTRIES - i) as i64 * 60_000,
            );
            let text = if i % 5 == 1 {
                format!("Ｒｅｐｌｙ in Traditional Chinese for module {i}")
            } else {
                format!("The build of package {i} uses the shared pnpm cache")
            };
            json!({"id": format!("mem_1_{i:06}"), "type": kinds[i % 4], "text": text,
                   "source": SOURCES[i % 7 % 3],
                   "confidence": if i % 2 == 0 { 0.5 } else { 0.9 },
                   "status": if i % 3 == 0 { "superseded" } else { "active" },
                   "createdAt": at, "updatedAt": at})
        })
        .collect();
    json!({"version": 1, "workspace": {"root": DIR, "key": &sha256_hex(DIR)[..16]},
           "limits": {"maxRenderedChars": 5200, "maxEntries": 28}, "entries": entries,
           "updatedAt": "2026-01-01T00:00:00.000Z"})
}

/// 30 candidates: some restate stored entries (weaker, stronger, superseded), some restate
/// each other, the rest are new.
fn summary() -> String {
    let kinds = ["feedback", "project", "decision", "reference"];
    let lines: Vec<String> = (0..30)
        .map(|i| {
            let n = i * 331 + 4;
            match i % 3 {
                0 => format!(
                    "- [{}] the build of package {n} uses the shared PNPM cache!",
                    kinds[n % 4]
                ),
                1 => "- [decision] Deploys always go through the staging queue first".into(),
                _ => {
                    format!("- [project] Reports of tenant {i} are generated nightly by the worker")
                }
            }
        })
        .collect();
    format!(
        "## Work\n- done\n\nMemory candidates:\n{}\n",
        lines.join("\n")
    )
}

#[test]
fn a_promote_into_ten_thousand_entries_merges_as_one_at_a_time_would() {
    let env = Env::new();
    let store = grown_store();
    std::fs::create_dir_all(memory_file(&env).parent().unwrap()).unwrap();
    std::fs::write(
        memory_file(&env),
        serde_json::to_string_pretty(&store).unwrap(),
    )
    .unwrap();

    let mut expected: WorkspaceMemory = serde_json::from_value(store).unwrap();
    let (candidates, _) = parse_candidates(&summary());
    let outcomes: Vec<Value> = candidates
        .iter()
        .filter(|c| gate(c).is_ok())
        .map(|c| {
            let new = NewMemory {
                kind: c.kind,
                text: c.text.clone(),
                rationale: c.rationale.clone(),
                source: Source::Compaction,
                confidence: COMPACTION_CONFIDENCE,
            };
            serde_json::to_value(merge(&mut expected, new, NOW_MS)).unwrap()
        })
        .collect();
    let kinds: Vec<&str> = outcomes
        .iter()
        .map(|o| o["outcome"].as_str().unwrap())
        .collect();
    for kind in ["added", "replaced", "duplicate"] {
        assert!(kinds.contains(&kind), "no {kind} outcome among {kinds:?}");
    }

    let out = env.run(
        &["promote", "--json"],
        json!({"directory": DIR, "sessionID": "s", "summary": summary()}).to_string(),
    );
    assert_success(&out);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got: Vec<Value> = report["accepted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let mut outcome = json!({"outcome": a["outcome"], "id": a["id"]});
            if let Some(old) = a.get("superseded") {
                outcome["superseded"] = old.clone();
            }
            outcome
        })
        .collect();
    assert_eq!(got, outcomes);

    let written: WorkspaceMemory =
        serde_json::from_str(&std::fs::read_to_string(memory_file(&env)).unwrap()).unwrap();
    assert_eq!(written.entries, expected.entries);

    let render = env.run(
        &["render", "--json"],
        json!({"directory": DIR, "sessionID": "fresh"}).to_string(),
    );
    assert_success(&render);
    let block: Value = serde_json::from_slice(&render.stdout).unwrap();
    assert_eq!(block["workspace"], render_block(&expected, Some(NOW_MS)));
}
