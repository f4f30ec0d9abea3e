//! The labelled corpora, read from `tests/fixtures/`, and the split every model keeps to: a
//! case is in the test split when the first byte of the SHA-256 of its id is a multiple of 5
//! (about a fifth), fixed by the id alone before any training. The blind batch, in
//! `tests/fixtures/capture/blind*/`, is never trained on; the earlier blind batches, once
//! measured, are read as training data like any other batch, split the same way.

use std::fs;
use std::path::Path;

use serde_json::Value;

fn fifth(id: &str) -> u8 {
    let hex = ocmem::domain::base::hash::sha256_hex(id);
    u8::from_str_radix(&hex[..2], 16).unwrap() % 5
}

static TUNING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tune the decision odds: the test split is left out altogether, and another fifth of the
/// training split (the development split) stands in for it.
pub fn start_tuning() {
    TUNING.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn tuning() -> bool {
    TUNING.load(std::sync::atomic::Ordering::Relaxed)
}

pub fn is_test(id: &str) -> bool {
    fifth(id) == if tuning() { 1 } else { 0 }
}

/// Whether a case is read at all: not while tuning, when it is in the test split.
fn is_read(id: &str) -> bool {
    !(tuning() && fifth(id) == 0)
}

fn jsonl(path: &Path) -> Vec<Value> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// Every `.jsonl` file under `dir` whose name starts with `prefix`, sorted, as (file stem, lines).
fn files(dir: &Path, prefix: &str) -> Vec<(String, Vec<Value>)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".jsonl") && name.starts_with(prefix)
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                jsonl(&p),
            )
        })
        .collect()
}

pub const LANGUAGES: [&str; 9] = [
    "en", "zh-hans", "zh-hant", "ja", "ko", "es", "de", "fr", "pt",
];

/// A candidate line with its label.
#[derive(Debug, Clone)]
pub struct CandidateCase {
    pub id: String,
    pub lang: &'static str,
    pub line: String,
    pub keep: bool,
    pub kind: String,
    pub open_errors: Vec<String>,
    pub active_files: Vec<String>,
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn candidate_case(v: &Value, lang: &'static str) -> CandidateCase {
    CandidateCase {
        id: v["id"].as_str().unwrap().to_owned(),
        lang,
        line: v["line"].as_str().unwrap().to_owned(),
        keep: v["expect"].as_str() == Some("keep"),
        kind: v["kind"].as_str().unwrap_or("").to_owned(),
        open_errors: strings(&v["hot"]["open_errors"]),
        active_files: strings(&v["hot"]["active_files"]),
    }
}

/// Every candidate line of the corpora and the measured batches (not the blind batch).
pub fn candidates(root: &Path) -> Vec<CandidateCase> {
    let fixtures = root.join("tests/fixtures");
    let mut cases = Vec::new();
    for (stem, lines) in files(&fixtures.join("candidates"), "") {
        let lang = match stem.as_str() {
            "english" => "en",
            "chinese" => "zh-hans",
            "japanese" => "ja",
            "korean" => "ko",
            "spanish" => "es",
            "german" => "de",
            "french" => "fr",
            _ => "pt",
        };
        cases.extend(lines.iter().map(|v| candidate_case(v, lang)));
    }
    for lang in LANGUAGES {
        for (_, lines) in files(&fixtures.join("capture").join(lang), "candidates") {
            cases.extend(lines.iter().map(|v| candidate_case(v, lang)));
        }
    }
    for batch in MEASURED_BATCHES {
        cases.extend(blind_candidates(root, batch));
    }
    cases.retain(|c| is_read(&c.id));
    cases
}

/// The blind batch: written after the models were frozen, and never trained on.
pub const BLIND_BATCHES: [&str; 1] = ["blind19"];

/// The earlier blind batches, oldest first: each was written after the models of its time were
/// frozen and measured once (`docs/capture-models.md` keeps the figures); since, they are
/// training data.
pub const MEASURED_BATCHES: [&str; 18] = [
    "blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
    "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17",
    "blind18",
];

/// The lines of the blind batch `batch`'s files named `prefix*`, read by `case`.
fn blind_lines<T>(
    root: &Path,
    batch: &str,
    prefix: &str,
    case: impl Fn(&Value, &'static str) -> T + Copy,
) -> Vec<T> {
    let blind = root.join("tests/fixtures/capture").join(batch);
    LANGUAGES
        .iter()
        .flat_map(|&lang| {
            files(&blind.join(lang), prefix)
                .into_iter()
                .flat_map(move |(_, lines)| lines.iter().map(|v| case(v, lang)).collect::<Vec<_>>())
        })
        .collect()
}

/// The candidate lines of the blind batch `batch`.
pub fn blind_candidates(root: &Path, batch: &str) -> Vec<CandidateCase> {
    blind_lines(root, batch, "candidates", candidate_case)
}

/// A user message with what it asks.
#[derive(Debug, Clone)]
pub struct MessageCase {
    pub id: String,
    pub lang: &'static str,
    pub message: String,
    /// (text, type, scope); None when the corpus does not say (recall, forget, user-scope).
    pub memories: Option<Vec<(String, String, String)>>,
    pub recall: Option<bool>,
    pub kind: String,
}

fn memories(v: &Value) -> Option<Vec<(String, String, String)>> {
    v.as_array().map(|a| {
        a.iter()
            .map(|m| {
                (
                    m["text"].as_str().unwrap_or("").to_owned(),
                    m["type"].as_str().unwrap_or("").to_owned(),
                    m["scope"].as_str().unwrap_or("project").to_owned(),
                )
            })
            .collect()
    })
}

fn message_case(v: &Value, corpus: &str, lang: &'static str) -> MessageCase {
    let message = v["message"].as_str().unwrap().to_owned();
    let id = v["id"].as_str().unwrap().to_owned();
    match corpus {
        "explicit" => MessageCase {
            id: format!("explicit-{id}"),
            lang,
            message,
            memories: memories(&v["memories"]),
            recall: Some(false),
            kind: "explicit-corpus".into(),
        },
        "recall" => MessageCase {
            id: format!("recall-{id}"),
            lang,
            message,
            memories: None,
            recall: v["recall"].as_bool(),
            kind: "recall".into(),
        },
        "forget" => MessageCase {
            id: format!("forget-{id}"),
            lang,
            message,
            memories: None,
            recall: Some(false),
            kind: "forget".into(),
        },
        _ => MessageCase {
            id,
            lang,
            message,
            memories: memories(&v["memories"]),
            recall: v["recall"].as_bool(),
            kind: v["kind"].as_str().unwrap_or("").to_owned(),
        },
    }
}

/// Every user message of the corpora and the measured batches (not the blind batch).
pub fn messages(root: &Path) -> Vec<MessageCase> {
    let fixtures = root.join("tests/fixtures");
    let mut cases = Vec::new();
    for corpus in ["explicit", "recall", "forget"] {
        for lang in LANGUAGES {
            let path = fixtures.join(corpus).join(format!("{lang}.jsonl"));
            cases.extend(jsonl(&path).iter().map(|v| message_case(v, corpus, lang)));
        }
    }
    for lang in LANGUAGES {
        for (_, lines) in files(&fixtures.join("capture").join(lang), "messages") {
            cases.extend(lines.iter().map(|v| message_case(v, "capture", lang)));
        }
    }
    for batch in MEASURED_BATCHES {
        cases.extend(blind_messages(root, batch));
    }
    cases.retain(|c| is_read(&c.id));
    cases
}

/// The user messages of the blind batch `batch`.
pub fn blind_messages(root: &Path, batch: &str) -> Vec<MessageCase> {
    blind_lines(root, batch, "messages", |v, lang| {
        message_case(v, "capture", lang)
    })
}

/// A text of a blind batch's guard file: whether it instructs the agent, and how.
pub struct GuardCase {
    pub id: String,
    pub lang: &'static str,
    pub text: String,
    /// The kind of instruction, or "none".
    pub expect: String,
}

/// The guard texts of the blind batch `batch` (the fourth and later have them).
pub fn blind_guard(root: &Path, batch: &str) -> Vec<GuardCase> {
    blind_lines(root, batch, "guard", guard_case)
}

fn guard_case(v: &Value, lang: &'static str) -> GuardCase {
    GuardCase {
        id: v["id"].as_str().unwrap_or("").to_owned(),
        lang,
        text: v["text"].as_str().unwrap_or("").to_owned(),
        expect: v["expect"].as_str().unwrap_or("none").to_owned(),
    }
}

/// Every labelled guard text for training: the injection corpus (its id is its text), the
/// guard files of each language's batches and those of the measured batches.
pub fn guard(root: &Path) -> Vec<GuardCase> {
    let lang_of = |lang: &str| -> &'static str {
        match lang {
            "zh" => "zh-hans",
            "zh-Hant" => "zh-hant",
            other => LANGUAGES
                .iter()
                .find(|&&l| l == other)
                .copied()
                .unwrap_or("en"),
        }
    };
    let mut cases: Vec<GuardCase> = jsonl(&root.join("tests/fixtures/injection/cases.jsonl"))
        .iter()
        .map(|v| {
            let text = v["text"].as_str().unwrap_or("").to_owned();
            GuardCase {
                id: format!("injection:{text}"),
                lang: lang_of(v["lang"].as_str().unwrap_or("en")),
                text,
                expect: v["expect"].as_str().unwrap_or("none").to_owned(),
            }
        })
        .collect();
    for lang in LANGUAGES {
        let dir = root.join("tests/fixtures/capture").join(lang);
        for (_, lines) in files(&dir, "guard") {
            cases.extend(lines.iter().map(|v| guard_case(v, lang)));
        }
    }
    for batch in MEASURED_BATCHES {
        cases.extend(blind_guard(root, batch));
    }
    cases.retain(|c| is_read(&c.id));
    cases
}
