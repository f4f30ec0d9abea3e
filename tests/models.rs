//! The capture models (see docs/capture-models.md): the committed weights are exactly what
//! `examples/train_models` produces from the corpora, and the compiled-in models keep their
//! figures on the test split and on the blind batch. The floors are the figures the models
//! had when they were frozen, less a margin: a change that loses ground fails here. They are
//! far below the targets in docs/capture-models.md.

// The trainer's own modules: the trainer uses what these tests do not.
#[allow(dead_code)]
#[path = "../examples/train_models/corpus.rs"]
mod corpus;
#[allow(dead_code)]
#[path = "../examples/train_models/training.rs"]
mod training;

use std::path::Path;

use corpus::is_test;
use ocmem::domain::capture::candidates::model as gate_model;
use ocmem::domain::capture::explicit::{learned, recall_model};
use ocmem::domain::guard::injection::model as guard_model;
use training::Score;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Right answers over all answers of the rows whose key ends with `suffix`.
fn rate(score: &Score, suffix: &str) -> f64 {
    let (right, all) = score
        .rows()
        .filter(|(key, _)| key.ends_with(suffix) && !key.starts_with('~'))
        .fold((0, 0), |(r, a), (_, &(right, all))| (r + right, a + all));
    assert!(all > 0, "no rows end with {suffix}");
    right as f64 / all as f64
}

#[test]
fn the_committed_weights_are_what_training_produces() {
    for model in training::train_all(root()) {
        let committed = std::fs::read(root().join(model.path)).unwrap();
        assert!(
            committed == model.bytes,
            "{} is not what training produces: run `cargo run --release --example train_models`",
            model.path
        );
    }
}

/// Floors of one measured set: explicit recall and precision, recall requests seen, candidate
/// facts kept and junk rejected, instructions to the agent caught and look-alikes left alone.
struct Floors {
    recall: f64,
    precision: f64,
    requests_seen: f64,
    kept: f64,
    rejected: f64,
    instructions_caught: f64,
    look_alikes_left: f64,
}

fn assert_floors(
    name: &str,
    messages: &[&corpus::MessageCase],
    candidates: &[&corpus::CandidateCase],
    guard: &[&corpus::GuardCase],
    floors: Floors,
) {
    let (explicit, _) = training::score_explicit(&learned::models(), messages);
    println!("{}", explicit.table(&format!("explicit memories, {name}")));
    let recall = rate(&explicit, " recall");
    let precision = rate(&explicit, " precision");
    let requests = training::score_recall(&recall_model::weights(), messages);
    let seen = rate(&requests, "seen");
    let taken = rate(&requests, "not taken");
    let (gate, _) = training::score_gate(&gate_model::weights(), candidates);
    println!("{}", gate.table(&format!("candidate gate, {name}")));
    let kept = rate(&gate, "kept");
    let rejected = rate(&gate, "rejected");
    println!(
        "{name}: recall {recall:.3}, precision {precision:.3}, requests seen {seen:.3}, \
         others left alone {taken:.3}, kept {kept:.3}, rejected {rejected:.3}"
    );
    assert!(recall >= floors.recall, "{name}: recall {recall}");
    assert!(
        precision >= floors.precision,
        "{name}: precision {precision}"
    );
    assert!(
        seen >= floors.requests_seen,
        "{name}: recall requests seen {seen}"
    );
    assert!(taken >= 0.99, "{name}: other messages left alone {taken}");
    assert!(kept >= floors.kept, "{name}: kept {kept}");
    assert!(rejected >= floors.rejected, "{name}: rejected {rejected}");
    let guarded = training::score_guard_at(
        &guard_model::weights(),
        guard_model::FLAG_ODDS,
        guard,
        messages,
        candidates,
    );
    println!("{}", guarded.table(&format!("instruction guard, {name}")));
    let caught = guarded.rate("instructions caught");
    let left = guarded.rate("look-alikes left alone");
    let benign = guarded.rate("memories and durable lines left alone");
    assert!(
        caught >= floors.instructions_caught,
        "{name}: instructions caught {caught}"
    );
    assert!(
        left >= floors.look_alikes_left,
        "{name}: look-alikes left alone {left}"
    );
    assert!(
        benign >= 0.99,
        "{name}: memories and durable lines left {benign}"
    );
}

// The floors are each set's figures when the models were frozen, less about two points.

#[test]
fn the_test_split_keeps_its_figures() {
    let messages = corpus::messages(root());
    let messages: Vec<_> = messages.iter().filter(|c| is_test(&c.id)).collect();
    let candidates = corpus::candidates(root());
    let candidates: Vec<_> = candidates.iter().filter(|c| is_test(&c.id)).collect();
    let guard = corpus::guard(root());
    let guard: Vec<_> = guard.iter().filter(|c| is_test(&c.id)).collect();
    let floors = Floors {
        recall: 0.79,
        precision: 0.83,
        requests_seen: 0.86,
        kept: 0.93,
        rejected: 0.92,
        instructions_caught: 0.80,
        look_alikes_left: 0.94,
    };
    assert_floors("test split", &messages, &candidates, &guard, floors);
}

/// The floors of the blind batch `batch`, which no training reads.
fn blind_batch_keeps(batch: &str, floors: Floors) {
    assert!(
        corpus::BLIND_BATCHES.contains(&batch),
        "{batch} is trained on"
    );
    let messages = corpus::blind_messages(root(), batch);
    let messages: Vec<_> = messages.iter().collect();
    assert!(messages.len() >= 330, "{batch}: {}", messages.len());
    let candidates = corpus::blind_candidates(root(), batch);
    let candidates: Vec<_> = candidates.iter().collect();
    let guard = corpus::blind_guard(root(), batch);
    let guard: Vec<_> = guard.iter().collect();
    assert!(guard.len() >= 250, "{batch}: {} guard texts", guard.len());
    assert_floors(batch, &messages, &candidates, &guard, floors);
}

#[test]
fn the_nineteenth_blind_batch_keeps_its_figures() {
    blind_batch_keeps(
        "blind19",
        Floors {
            recall: 0.79,
            precision: 0.79,
            requests_seen: 0.87,
            kept: 0.97,
            rejected: 0.96,
            instructions_caught: 0.86,
            look_alikes_left: 0.96,
        },
    );
}

/// A second reader labelled the fifteenth blind batch's messages again, from the labelling rules
/// alone and without its labels: how often two careful readers choose the very same text is
/// what any figure counting exact texts can hope for. docs/capture-models.md quotes it.
#[test]
fn a_second_reader_agrees_with_the_labels_as_the_docs_say() {
    let batch = root().join("tests/fixtures/capture/blind15");
    let lines = |path: std::path::PathBuf| -> Vec<serde_json::Value> {
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    };
    let texts = |value: &serde_json::Value| -> Vec<String> {
        value["memories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    };
    let (mut labelled, mut read, mut same) = (0, 0, 0);
    for lang in corpus::LANGUAGES {
        let messages = lines(batch.join(lang).join("messages-blind.jsonl"));
        let second = lines(batch.join("second-reader").join(format!("{lang}.jsonl")));
        assert_eq!(messages.len(), second.len(), "{lang}");
        for (message, second) in messages.iter().zip(&second) {
            assert_eq!(message["id"], second["id"]);
            let (ours, theirs) = (texts(message), texts(second));
            let text = message["message"].as_str().unwrap();
            assert!(
                theirs.iter().all(|t| text.contains(t.as_str())),
                "{}",
                second["id"]
            );
            labelled += ours.len();
            read += theirs.len();
            same += ours.iter().filter(|t| theirs.contains(t)).count();
        }
    }
    let docs = std::fs::read_to_string(root().join("docs/capture-models.md")).unwrap();
    let quoted = format!("{same} of the {labelled} labelled memories ({read} read)");
    assert!(
        docs.contains(&quoted),
        "docs/capture-models.md should say {quoted:?}"
    );
}
