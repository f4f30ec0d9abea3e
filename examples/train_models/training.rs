//! Each model's examples, its training, and its figures on the test split.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use ocmem::domain::base::classifier::{
    train, train_conv, train_ranking, Blend, ConvExample, ConvOptions, ConvWeights, Example,
    TrainOptions, Weights,
};
use ocmem::domain::capture::candidates::{
    self, model as gate_model, parse_candidates, Candidate, HotState,
};
use ocmem::domain::capture::explicit::{self as explicit, learned, recall_model};
use ocmem::domain::guard::injection::model as guard_model;

use super::corpus::{self, is_test, CandidateCase, GuardCase, MessageCase};

pub struct Trained {
    pub path: &'static str,
    pub bytes: Vec<u8>,
    pub report: String,
}

fn options(classes: usize, bits: u32) -> TrainOptions {
    TrainOptions {
        classes,
        bits,
        epochs: 12,
        rate: 0.3,
        l2: 1e-5,
        seed: 0x0c3e_3e3e,
        prior_bias: false,
    }
}

fn leak(bytes: &[u8]) -> &'static [u8] {
    Box::leak(bytes.to_vec().into_boxed_slice())
}

/// The candidate of a case's line, as the gate reads it under a `Memory candidates:` label.
pub fn candidate_of(case: &CandidateCase) -> Option<Candidate> {
    parse_candidates(&format!("Memory candidates:\n{}", case.line))
        .0
        .into_iter()
        .next()
}

/// Counts of right answers by a key, printed as a table.
#[derive(Default)]
pub struct Score {
    rows: BTreeMap<String, (usize, usize)>,
}

impl Score {
    pub fn add(&mut self, key: &str, right: bool) {
        let row = self.rows.entry(key.to_owned()).or_default();
        row.0 += usize::from(right);
        row.1 += 1;
    }

    pub fn rate(&self, key: &str) -> f64 {
        self.rows
            .get(key)
            .map_or(1.0, |&(right, all)| right as f64 / all.max(1) as f64)
    }

    pub fn table(&self, title: &str) -> String {
        let mut out = format!("{title}\n");
        for (key, (right, all)) in &self.rows {
            let _ = writeln!(
                out,
                "  {key:<32} {right:>5}/{all:<5} {:>6.1}%",
                *right as f64 * 100.0 / (*all).max(1) as f64
            );
        }
        out
    }

    pub fn rows(&self) -> impl Iterator<Item = (&String, &(usize, usize))> {
        self.rows.iter()
    }
}

// ─── The candidate gate ─────────────────────────────────────────────────────────────────────

fn gate_examples<'a>(cases: impl Iterator<Item = &'a CandidateCase>) -> Vec<Example> {
    cases
        .filter_map(|case| {
            let candidate = candidate_of(case)?;
            let hits = candidates::rule_hits(&candidate.text);
            let input = gate_model::input(&candidate, &hits);
            let class = gate_model::class_of(case.keep, &case.kind);
            Some(Example::new(&input, gate_model::BITS, class, 1.0))
        })
        .collect()
}

pub fn train_gate(cases: &[CandidateCase]) -> Vec<u8> {
    let examples = gate_examples(cases.iter().filter(|c| !is_test(&c.id)));
    train(
        &examples,
        options(gate_model::CLASSES.len(), gate_model::BITS),
    )
}

/// The whole gate with `weights` on `cases`: durable facts kept, junk rejected, by language
/// and by kind.
pub fn score_gate(weights: &Weights, cases: &[&CandidateCase]) -> (Score, Score) {
    score_gate_at(candidates::JUNK_ODDS, weights, cases)
}

pub fn score_gate_at(
    junk_odds: candidates::JunkOdds,
    weights: &Weights,
    cases: &[&CandidateCase],
) -> (Score, Score) {
    let (mut by_language, mut by_kind) = (Score::default(), Score::default());
    for case in cases {
        let verdict = match candidate_of(case) {
            Some(candidate) => {
                let hot = HotState {
                    open_errors: &case.open_errors,
                    active_files: &case.active_files,
                };
                candidates::gate_at(junk_odds, weights, &candidate, hot).is_ok()
            }
            None => false,
        };
        let right = verdict == case.keep;
        if !right && case.keep && std::env::var_os("TRAIN_MISSES").is_some() {
            let why = candidate_of(case).map(|candidate| {
                let hot = HotState {
                    open_errors: &case.open_errors,
                    active_files: &case.active_files,
                };
                format!(
                    "{:?}",
                    candidates::gate_at(junk_odds, weights, &candidate, hot).err()
                )
            });
            println!("GATE DROPPED {} {:?}: {}", case.id, why, case.line);
        }
        let side = if case.keep { "kept" } else { "rejected" };
        by_language.add(&format!("{} {side}", case.lang), right);
        let kind = if case.keep {
            "durable".to_owned()
        } else {
            case.kind.clone()
        };
        by_kind.add(&format!("{kind} {side}"), right);
    }
    (by_language, by_kind)
}

// ─── Recall requests ───────────────────────────────────────────────────────────────────────

fn recall_examples<'a>(cases: impl Iterator<Item = &'a MessageCase>) -> Vec<Example> {
    cases
        .filter_map(|case| {
            let recall = case.recall?;
            let input = recall_model::input(&case.message);
            Some(Example::new(
                &input,
                recall_model::BITS,
                usize::from(recall),
                if recall { 2.0 } else { 1.0 },
            ))
        })
        .collect()
}

pub fn train_recall(cases: &[MessageCase]) -> Vec<u8> {
    let examples = recall_examples(cases.iter().filter(|c| !is_test(&c.id)));
    // Short messages (a greeting) have few features: the prior, not a drifted bias, answers
    // for what they do not say.
    let options = TrainOptions {
        prior_bias: true,
        ..options(2, recall_model::BITS)
    };
    train(&examples, options)
}

pub fn score_recall(weights: &Weights, cases: &[&MessageCase]) -> Score {
    let mut score = Score::default();
    for case in cases {
        let Some(recall) = case.recall else { continue };
        let said =
            recall_model::predict_with(weights, &case.message).probability(1) > recall_model::ODDS;
        let side = if recall {
            "recall asked, seen"
        } else {
            "not asked, not taken"
        };
        score.add(&format!("{} {side}", case.lang), said == recall);
        let tables = explicit::recall::asks_to_recall(&case.message);
        let key = if recall {
            "~tables alone: recall seen"
        } else {
            "~tables alone: negatives left"
        };
        score.add(key, tables == recall);
    }
    score
}

// ─── Explicit memories ─────────────────────────────────────────────────────────────────────

/// The examples of the explicit models from `cases`, the walk following the labels: a
/// sentence asks when one of its proposals gives memories that are all in the labels; the
/// proposals of such a sentence teach the span model; its right proposals, and every proposal
/// of a sentence that asks nothing, teach the request model; the labelled type of each memory
/// found teaches the type model.
///
/// Each message's examples depend on that message alone: the messages are walked in as many
/// runs as there are cores, side by side, and the runs' examples joined in the messages' order,
/// the same examples as one walk.
fn explicit_examples<'a>(
    cases: impl Iterator<Item = &'a MessageCase>,
    knobs: Knobs,
) -> ExplicitExamples {
    let cases: Vec<&MessageCase> = cases.collect();
    let runs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let run_length = cases.len().div_ceil(runs).max(1);
    std::thread::scope(|scope| {
        let walks: Vec<_> = cases
            .chunks(run_length)
            .map(|run| scope.spawn(move || explicit_examples_of(run, knobs)))
            .collect();
        let mut out = ExplicitExamples::default();
        for walk in walks {
            out.extend(walk.join().expect("a walk over the messages panicked"));
        }
        out
    })
}

/// The examples of `cases`, in their order.
fn explicit_examples_of(cases: &[&MessageCase], knobs: Knobs) -> ExplicitExamples {
    let mut out = ExplicitExamples::default();
    let ExplicitExamples {
        sentence,
        ruled,
        span,
        request,
        kind,
        sentence_conv,
        request_conv,
    } = &mut out;
    // The walk types memories with weights; the labels give the type, so these do not matter.
    let untrained = learned::models().kind;
    for case in cases {
        let Some(gold) = &case.memories else { continue };
        let gold_texts: Vec<&str> = gold.iter().map(|(text, _, _)| text.as_str()).collect();
        explicit::walk(&case.message, &untrained, |sentence_input, scored| {
            let right: Vec<bool> = scored
                .iter()
                .map(|p| {
                    !p.memories.is_empty()
                        && p.memories
                            .iter()
                            .all(|(_, text)| gold_texts.contains(&text.as_str()))
                })
                .collect();
            let chosen = right.iter().position(|&r| r);
            let (examples, bits) = if explicit::is_ruled(sentence_input) {
                (&mut *ruled, learned::RULED_BITS)
            } else {
                (&mut *sentence, learned::BITS)
            };
            for (proposal, &r) in scored.iter().zip(&right) {
                // A wrong proposal of a sentence that asks still holds its request.
                if !proposal.memories.is_empty() && (r || chosen.is_none()) {
                    request_conv.push(ConvExample::new(
                        &proposal.input,
                        learned::ORDER_BITS,
                        usize::from(r),
                        if r { knobs.request_positive } else { 1.0 },
                    ));
                    request.push(Example::new(
                        &proposal.input,
                        learned::BITS,
                        usize::from(r),
                        if r { knobs.request_positive } else { 1.0 },
                    ));
                }
            }
            if !explicit::is_ruled(sentence_input) {
                sentence_conv.push(ConvExample::new(
                    sentence_input,
                    learned::ORDER_BITS,
                    usize::from(chosen.is_some()),
                    if chosen.is_some() {
                        knobs.positive
                    } else {
                        1.0
                    },
                ));
            }
            examples.push(Example::new(
                sentence_input,
                bits,
                usize::from(chosen.is_some()),
                if chosen.is_some() {
                    knobs.positive
                } else {
                    1.0
                },
            ));
            if let Some(index) = chosen {
                span.push(
                    scored
                        .iter()
                        .zip(&right)
                        .filter(|(proposal, _)| !proposal.memories.is_empty())
                        .map(|(proposal, &r)| {
                            Example::new(&proposal.input, learned::BITS, usize::from(r), 1.0)
                        })
                        .collect(),
                );
                let whole = sentence_input
                    .texts
                    .iter()
                    .find(|(field, _)| *field == ocmem::domain::base::classifier::Field::Whole)
                    .map_or("", |(_, t)| t);
                for (_, text) in &scored[index].memories {
                    let Some((_, label, _)) = gold.iter().find(|(t, _, _)| t == text) else {
                        continue;
                    };
                    let Some(class) = learned::TYPES.iter().position(|t| t.as_str() == label)
                    else {
                        continue;
                    };
                    let rule_type = explicit::classify(text);
                    kind.push(Example::new(
                        &learned::type_input(text, whole, rule_type),
                        learned::TYPE_BITS,
                        class,
                        1.0,
                    ));
                }
            }
            chosen
        });
    }
    out
}

/// The examples of each explicit model.
#[derive(Default)]
struct ExplicitExamples {
    sentence: Vec<Example>,
    ruled: Vec<Example>,
    /// The proposals of each sentence that asks, read against each other.
    span: Vec<Vec<Example>>,
    request: Vec<Example>,
    kind: Vec<Example>,
    sentence_conv: Vec<ConvExample>,
    request_conv: Vec<ConvExample>,
}

impl ExplicitExamples {
    /// `other`'s examples after these.
    fn extend(&mut self, other: ExplicitExamples) {
        let ExplicitExamples {
            sentence,
            ruled,
            span,
            request,
            kind,
            sentence_conv,
            request_conv,
        } = other;
        self.sentence.extend(sentence);
        self.ruled.extend(ruled);
        self.span.extend(span);
        self.request.extend(request);
        self.kind.extend(kind);
        self.sentence_conv.extend(sentence_conv);
        self.request_conv.extend(request_conv);
    }
}

/// How many labelled memories some proposal gives exactly, of all: what the span generator
/// can reach at best.
pub fn coverage(cases: &[MessageCase]) -> (usize, usize, Vec<String>) {
    let untrained = learned::models().kind;
    let (mut reached, mut all, mut unreached) = (0, 0, Vec::new());
    for case in cases {
        let Some(gold) = &case.memories else { continue };
        let mut produced: Vec<String> = Vec::new();
        explicit::walk(&case.message, &untrained, |_, scored| {
            for p in scored {
                produced.extend(p.memories.iter().map(|(_, t)| t.clone()));
            }
            None
        });
        for (text, _, _) in gold {
            all += 1;
            if produced.contains(text) {
                reached += 1;
            } else {
                unreached.push(format!("{} {:?} <- {:?}", case.id, text, case.message));
            }
        }
    }
    (reached, all, unreached)
}

/// How the sentence model's examples count: a sentence that asks (`positive`), and a
/// candidate line said as a statement (`statements`; 0 leaves them out), against 1 for a
/// sentence of a message that asks nothing. Chosen on the development split by `--tune`.
#[derive(Debug, Clone, Copy)]
pub struct Knobs {
    pub positive: f64,
    pub statements: f64,
    /// The weight of a right proposal for the request model, against 1 for each proposal of
    /// a sentence that asks nothing: those are many more.
    pub request_positive: f64,
    /// The weight of each proposal of a candidate line said as a message, a request-model
    /// negative.
    pub request_statements: f64,
}

pub const KNOBS: Knobs = Knobs {
    positive: 1.0,
    statements: 0.0,
    request_positive: 1.0,
    request_statements: 1.0,
};

/// Of `cases`' candidate lines said as a user message, how many the models take a memory from:
/// a statement is not a request to remember it.
pub fn statements_taken(models: &learned::Models, cases: &[&CandidateCase]) -> Score {
    statements_taken_at(explicit::ODDS, models, cases)
}

pub fn statements_taken_at(
    odds: explicit::Odds,
    models: &learned::Models,
    cases: &[&CandidateCase],
) -> Score {
    let mut score = Score::default();
    for case in cases {
        let Some(candidate) = candidate_of(case) else {
            continue;
        };
        let got = explicit::capture_with(odds, models, &candidate.text);
        score.add(
            &format!("{} statement, nothing taken", case.lang),
            got.memories.is_empty(),
        );
    }
    score
}

/// Sentences that state a fact without asking to keep it: the text of every candidate line. A
/// user says such things all the time; the messages alone hold too few of them.
fn statement_examples<'a>(
    cases: impl Iterator<Item = &'a CandidateCase>,
    weight: f64,
) -> Vec<Example> {
    cases
        .filter_map(|case| {
            let candidate = candidate_of(case)?;
            let context = learned::SentenceContext {
                sentence: &candidate.text,
                before: None,
                next: "",
                list_follows: false,
                is_question: false,
                rule_in_sentence: !explicit::rule_capture(&candidate.text).memories.is_empty(),
                rule_points_here: false,
                read_with_previous: false,
                taken: None,
            };
            Some(Example::new(
                &learned::sentence_input(&context),
                learned::BITS,
                0,
                weight,
            ))
        })
        .collect()
}

/// The durable candidate lines as type-model examples: a line a model wrote of a fact, a rule,
/// a decision or a place says its type as a user's memory does.
fn candidate_type_examples<'a>(
    cases: impl Iterator<Item = &'a CandidateCase>,
    weight: f64,
) -> Vec<Example> {
    cases
        .filter(|case| case.keep)
        .filter_map(|case| {
            let class = learned::TYPES
                .iter()
                .position(|t| t.as_str() == case.kind)?;
            let candidate = candidate_of(case)?;
            let rule_type = explicit::classify(&candidate.text);
            Some(Example::new(
                &learned::type_input(&candidate.text, &candidate.text, rule_type),
                learned::TYPE_BITS,
                class,
                weight,
            ))
        })
        .collect()
}

/// The proposals of every candidate line said as a user message, as request-model negatives:
/// a statement holds no request, whatever it says.
fn statement_request_examples<'a>(
    cases: impl Iterator<Item = &'a CandidateCase>,
    weight: f64,
) -> (Vec<Example>, Vec<ConvExample>) {
    let untrained = learned::models().kind;
    let (mut bag, mut order) = (Vec::new(), Vec::new());
    for case in cases {
        let Some(candidate) = candidate_of(case) else {
            continue;
        };
        explicit::walk(&candidate.text, &untrained, |_, scored| {
            for proposal in scored.iter().filter(|p| !p.memories.is_empty()) {
                bag.push(Example::new(&proposal.input, learned::BITS, 0, weight));
                order.push(ConvExample::new(
                    &proposal.input,
                    learned::ORDER_BITS,
                    0,
                    weight,
                ));
            }
            None
        });
    }
    (bag, order)
}

/// The explicit models of the weights of `train_explicit`.
fn models_of(
    [sentence, ruled, span, request, kind, sentence_order, request_order]: &[Vec<u8>; 7],
) -> learned::Models {
    // `ORDER_OFF` reads by the bags alone, to compare.
    let order = |bytes: &Vec<u8>| {
        (std::env::var_os("ORDER_OFF").is_none())
            .then(|| ConvWeights::parse(leak(bytes), 2).unwrap())
    };
    learned::Models {
        sentence: Blend {
            bag: Weights::parse(leak(sentence), 2).unwrap(),
            order: order(sentence_order),
        },
        ruled: Weights::parse(leak(ruled), 2).unwrap(),
        span: Weights::parse(leak(span), 2).unwrap(),
        request: Blend {
            bag: Weights::parse(leak(request), 2).unwrap(),
            order: order(request_order),
        },
        kind: Weights::parse(leak(kind), learned::TYPES.len()).unwrap(),
    }
}

/// How the span model's ranking is trained: more passes at a lower rate than the other
/// models, and a stronger L2 penalty (chosen on the development split; see
/// docs/capture-models.md).
fn span_options() -> TrainOptions {
    TrainOptions {
        epochs: 24,
        rate: 0.2,
        l2: 1e-4,
        ..options(2, learned::BITS)
    }
}

/// How the convolutions that read in order are trained.
fn order_options() -> ConvOptions {
    ConvOptions {
        classes: 2,
        bits: learned::ORDER_BITS,
        epochs: 6,
        rate: 0.05,
        seed: 0x0c3e_3e3e,
    }
}

/// The weights of the sentence, ruled, span, request and type models, then the sentence and
/// request models' convolutions, in that order.
pub fn train_explicit(cases: &[MessageCase], statements: &[CandidateCase]) -> [Vec<u8>; 7] {
    train_explicit_with(KNOBS, cases, statements)
}

pub fn train_explicit_with(
    knobs: Knobs,
    cases: &[MessageCase],
    statements: &[CandidateCase],
) -> [Vec<u8>; 7] {
    let ExplicitExamples {
        mut sentence,
        ruled,
        span,
        mut request,
        mut kind,
        sentence_conv,
        mut request_conv,
    } = explicit_examples(cases.iter().filter(|c| !is_test(&c.id)), knobs);
    if knobs.request_statements > 0.0 {
        let (bag, order) = statement_request_examples(
            statements.iter().filter(|c| !is_test(&c.id)),
            knobs.request_statements,
        );
        request.extend(bag);
        request_conv.extend(order);
    }
    // The durable candidate lines teach the type model too, at half the weight of a user's
    // memory: twice its examples, in a model's words rather than a user's.
    kind.extend(candidate_type_examples(
        statements.iter().filter(|c| !is_test(&c.id)),
        0.5,
    ));
    if knobs.statements > 0.0 {
        sentence.extend(statement_examples(
            statements.iter().filter(|c| !is_test(&c.id)),
            knobs.statements,
        ));
    }
    // Each model learns from its own examples alone, so they train side by side: the same
    // bytes as one after another, in a fraction of the time on a machine with several cores.
    std::thread::scope(|scope| {
        let trainings = [
            scope.spawn(|| train(&sentence, options(2, learned::BITS))),
            scope.spawn(|| train(&ruled, options(2, learned::RULED_BITS))),
            scope.spawn(|| train_ranking(&span, span_options())),
            scope.spawn(|| train(&request, options(2, learned::BITS))),
            scope.spawn(|| train(&kind, options(learned::TYPES.len(), learned::TYPE_BITS))),
            scope.spawn(|| train_conv(&sentence_conv, order_options())),
            scope.spawn(|| train_conv(&request_conv, order_options())),
        ];
        trainings.map(|training| training.join().expect("a model's training panicked"))
    })
}

/// Memories captured, wrong captures and types, by language and by kind of message.
pub fn score_explicit(models: &learned::Models, cases: &[&MessageCase]) -> (Score, Score) {
    score_explicit_at(explicit::ODDS, models, cases)
}

pub fn score_explicit_at(
    odds: explicit::Odds,
    models: &learned::Models,
    cases: &[&MessageCase],
) -> (Score, Score) {
    let (mut by_language, mut by_kind) = (Score::default(), Score::default());
    for case in cases {
        let Some(gold) = &case.memories else { continue };
        let got = explicit::capture_with(odds, models, &case.message).memories;
        if std::env::var_os("TRAIN_MISSES").is_some() {
            let texts: Vec<String> = got
                .iter()
                .map(|m| format!("{} [{}]", m.text, m.kind.as_str()))
                .collect();
            let gold_texts: Vec<String> =
                gold.iter().map(|(t, k, _)| format!("{t} [{k}]")).collect();
            if texts != gold_texts {
                eprintln!(
                    "MISS {} [{}]\n  message: {:?}\n  gold: {:?}\n  got:  {:?}",
                    case.id, case.kind, case.message, gold_texts, texts
                );
            }
        }
        let by_rules = explicit::rule_capture(&case.message).memories;
        for (text, _, _) in gold {
            by_language.add("~rules recall", by_rules.iter().any(|m| &m.text == text));
        }
        for memory in &by_rules {
            by_language.add(
                "~rules precision",
                gold.iter().any(|(text, _, _)| *text == memory.text),
            );
        }
        for (text, kind, _) in gold {
            let found = got.iter().find(|m| &m.text == text);
            by_language.add(&format!("{} recall", case.lang), found.is_some());
            by_kind.add(&format!("{} recall", case.kind), found.is_some());
            if let Some(found) = found {
                by_language.add(&format!("{} type", case.lang), found.kind.as_str() == kind);
                let named = explicit::kind::named_type(text).unwrap_or(found.kind);
                by_language.add("~named type", named.as_str() == kind);
                let decided = match explicit::kind::named_type(text) {
                    Some(ocmem::domain::memory::kind::MemoryType::Decision) => "decision",
                    _ => found.kind.as_str(),
                };
                by_language.add("~named decision type", decided == kind);
            }
        }
        for memory in &got {
            let right = gold.iter().any(|(text, _, _)| *text == memory.text);
            by_language.add(&format!("{} precision", case.lang), right);
            by_kind.add(&format!("{} precision", case.kind), right);
        }
        if gold.is_empty() {
            by_kind.add(&format!("{} nothing taken", case.kind), got.is_empty());
        }
    }
    (by_language, by_kind)
}

// ─── The vocabulary ─────────────────────────────────────────────────────────────────────────

/// The words the sentence and span models read as themselves (see `explicit::vocabulary`):
/// those of at least `MIN_MESSAGES` training messages, and the trigger tables' words; sorted,
/// one a line.
pub fn vocabulary(root: &Path) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for case in corpus::messages(root).iter().filter(|c| !is_test(&c.id)) {
        let mut seen: Vec<String> = ocmem::domain::base::classifier::tokens(&case.message);
        let affixes: Vec<String> = seen
            .iter()
            .flat_map(|token| ocmem::domain::base::classifier::hangul_affixes(token))
            .collect();
        seen.extend(affixes);
        seen.sort();
        seen.dedup();
        for token in seen {
            *counts.entry(token).or_default() += 1;
        }
    }
    let mut words: Vec<String> = counts
        .into_iter()
        .filter(|(_, n)| *n >= explicit::vocabulary::MIN_MESSAGES)
        .map(|(word, _)| word)
        .collect();
    for word in explicit::spelling::trigger_words() {
        words.extend(ocmem::domain::base::classifier::tokens(word));
    }
    words.retain(|w| w != "_");
    words.sort();
    words.dedup();
    words.iter().map(|w| format!("{w}\n")).collect()
}

// ─── All ───────────────────────────────────────────────────────────────────────────────────

pub fn train_all(root: &Path) -> Vec<Trained> {
    let candidate_cases = corpus::candidates(root);
    let message_cases = corpus::messages(root);
    let guard_cases = corpus::guard(root);
    let mut out = Vec::new();

    // Every model learns from its own examples alone: they train side by side.
    let (gate_bytes, explicit_weights, recall_bytes, guard_bytes) = std::thread::scope(|scope| {
        let gate = scope.spawn(|| train_gate(&candidate_cases));
        let recall = scope.spawn(|| train_recall(&message_cases));
        let guard = scope.spawn(|| train_guard(&guard_cases, &message_cases, &candidate_cases));
        let explicit = train_explicit(&message_cases, &candidate_cases);
        let joined = "a model's training panicked";
        (
            gate.join().expect(joined),
            explicit,
            recall.join().expect(joined),
            guard.join().expect(joined),
        )
    });

    let bytes = gate_bytes;
    let weights = Weights::parse(leak(&bytes), gate_model::CLASSES.len()).unwrap();
    let test: Vec<&CandidateCase> = candidate_cases.iter().filter(|c| is_test(&c.id)).collect();
    let (by_language, by_kind) = score_gate(&weights, &test);
    out.push(Trained {
        path: gate_model::WEIGHTS_FILE,
        bytes,
        report: format!(
            "candidate gate: {} lines, {} in the test split\n{}{}",
            candidate_cases.len(),
            test.len(),
            by_language.table("by language"),
            by_kind.table("by kind")
        ),
    });

    if std::env::var_os("TRAIN_COVERAGE").is_some() {
        let (reached, all, unreached) = coverage(&message_cases);
        eprintln!("coverage {reached}/{all}");
        for line in unreached {
            eprintln!("UNREACHED {line}");
        }
    }
    let models = models_of(&explicit_weights);
    let [sentence, ruled, span, request, kind, sentence_order, request_order] = explicit_weights;
    let test: Vec<&MessageCase> = message_cases.iter().filter(|c| is_test(&c.id)).collect();
    let (by_language, by_kind) = score_explicit(&models, &test);
    let statements: Vec<&CandidateCase> =
        candidate_cases.iter().filter(|c| is_test(&c.id)).collect();
    out.push(Trained {
        path: learned::RULED_WEIGHTS_FILE,
        bytes: ruled,
        report: String::new(),
    });
    out.push(Trained {
        path: learned::SENTENCE_WEIGHTS_FILE,
        bytes: sentence,
        report: format!(
            "explicit memories: {} messages, {} in the test split\n{}{}{}",
            message_cases
                .iter()
                .filter(|c| c.memories.is_some())
                .count(),
            test.iter().filter(|c| c.memories.is_some()).count(),
            by_language.table("by language"),
            by_kind.table("by kind"),
            statements_taken(&models, &statements)
                .table("statements (candidate lines said as a message)")
        ),
    });
    out.push(Trained {
        path: learned::SPAN_WEIGHTS_FILE,
        bytes: span,
        report: String::new(),
    });
    out.push(Trained {
        path: learned::REQUEST_WEIGHTS_FILE,
        bytes: request,
        report: String::new(),
    });
    out.push(Trained {
        path: learned::TYPE_WEIGHTS_FILE,
        bytes: kind,
        report: String::new(),
    });
    out.push(Trained {
        path: learned::SENTENCE_ORDER_FILE,
        bytes: sentence_order,
        report: String::new(),
    });
    out.push(Trained {
        path: learned::REQUEST_ORDER_FILE,
        bytes: request_order,
        report: String::new(),
    });

    let bytes = recall_bytes;
    let weights = Weights::parse(leak(&bytes), 2).unwrap();
    let test: Vec<&MessageCase> = message_cases.iter().filter(|c| is_test(&c.id)).collect();
    out.push(Trained {
        path: recall_model::WEIGHTS_FILE,
        bytes,
        report: format!(
            "recall requests: {} messages, {} in the test split\n{}",
            message_cases.len(),
            test.len(),
            score_recall(&weights, &test).table("by language")
        ),
    });

    let bytes = guard_bytes;
    let weights = Weights::parse(leak(&bytes), guard_model::CLASSES.len()).unwrap();
    let guard_test: Vec<&GuardCase> = guard_cases.iter().filter(|c| is_test(&c.id)).collect();
    let message_test: Vec<&MessageCase> = message_cases.iter().filter(|c| is_test(&c.id)).collect();
    let candidate_test: Vec<&CandidateCase> =
        candidate_cases.iter().filter(|c| is_test(&c.id)).collect();
    out.push(Trained {
        path: guard_model::WEIGHTS_FILE,
        bytes,
        report: format!(
            "instruction guard: {} labelled texts, {} in the test split\n{}",
            guard_cases.len(),
            guard_test.len(),
            score_guard_at(
                &weights,
                guard_model::FLAG_ODDS,
                &guard_test,
                &message_test,
                &candidate_test
            )
            .table("rules, then the model")
        ),
    });
    out
}

/// Each model's test figures when trained on a growing share of its training split.
pub fn learning_curves(root: &Path) -> String {
    let candidate_cases = corpus::candidates(root);
    let test: Vec<&CandidateCase> = candidate_cases.iter().filter(|c| is_test(&c.id)).collect();
    let train_cases: Vec<CandidateCase> = candidate_cases
        .iter()
        .filter(|c| !is_test(&c.id))
        .cloned()
        .collect();
    let mut out = String::from("learning curve, candidate gate (share of training lines: kept / rejected on the test split)\n");
    for share in [10, 25, 50, 75, 100] {
        let n = train_cases.len() * share / 100;
        // Every k-th line rather than the first n, so each share covers every language.
        let subset: Vec<CandidateCase> = train_cases
            .iter()
            .enumerate()
            .filter(|(i, _)| (i * share) % 100 < share || share == 100)
            .map(|(_, c)| c.clone())
            .take(n.max(1))
            .collect();
        let bytes = train(
            &gate_examples(subset.iter()),
            options(gate_model::CLASSES.len(), gate_model::BITS),
        );
        let weights = Weights::parse(leak(&bytes), gate_model::CLASSES.len()).unwrap();
        let (_, by_kind) = score_gate(&weights, &test);
        let (mut kept, mut rejected) = ((0, 0), (0, 0));
        for (key, &(right, all)) in by_kind.rows() {
            let slot = if key.ends_with("kept") {
                &mut kept
            } else {
                &mut rejected
            };
            slot.0 += right;
            slot.1 += all;
        }
        let _ = writeln!(
            out,
            "  {share:>3}% ({n:>5} lines): kept {:.3}, rejected {:.3}",
            kept.0 as f64 / kept.1.max(1) as f64,
            rejected.0 as f64 / rejected.1.max(1) as f64
        );
    }
    let message_cases = corpus::messages(root);
    let test: Vec<&MessageCase> = message_cases.iter().filter(|c| is_test(&c.id)).collect();
    let train_cases: Vec<MessageCase> = message_cases
        .iter()
        .filter(|c| !is_test(&c.id))
        .cloned()
        .collect();
    out.push_str("learning curve, explicit memories (share of training messages: recall / precision on the test split)\n");
    for share in [10, 25, 50, 75, 100] {
        let subset: Vec<MessageCase> = train_cases
            .iter()
            .enumerate()
            .filter(|(i, _)| (i * share) % 100 < share || share == 100)
            .map(|(_, c)| c.clone())
            .collect();
        let models = models_of(&train_explicit(&subset, &corpus::candidates(root)));
        let (by_language, _) = score_explicit(&models, &test);
        let (mut recall, mut precision) = ((0, 0), (0, 0));
        for (key, &(right, all)) in by_language.rows() {
            if key.starts_with('~') {
                continue;
            }
            if key.ends_with(" recall") {
                recall.0 += right;
                recall.1 += all;
            } else if key.ends_with(" precision") {
                precision.0 += right;
                precision.1 += all;
            }
        }
        let _ = writeln!(
            out,
            "  {share:>3}% ({:>5} messages): recall {:.3}, precision {:.3}",
            subset.len(),
            recall.0 as f64 / recall.1.max(1) as f64,
            precision.0 as f64 / precision.1.max(1) as f64
        );
    }
    out
}

/// The figures of the weights trained from the corpora on the blind batches, which no training
/// reads, with the phrase tables' alone for comparison.
/// The committed weights, read as `blind` reads what training produced: to measure the blind
/// batch without training again.
pub fn committed(root: &Path) -> Vec<Trained> {
    [
        gate_model::WEIGHTS_FILE,
        recall_model::WEIGHTS_FILE,
        guard_model::WEIGHTS_FILE,
        learned::SENTENCE_WEIGHTS_FILE,
        learned::SENTENCE_ORDER_FILE,
        learned::RULED_WEIGHTS_FILE,
        learned::SPAN_WEIGHTS_FILE,
        learned::REQUEST_WEIGHTS_FILE,
        learned::REQUEST_ORDER_FILE,
        learned::TYPE_WEIGHTS_FILE,
    ]
    .into_iter()
    .map(|path| Trained {
        path,
        bytes: std::fs::read(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}")),
        report: String::new(),
    })
    .collect()
}

pub fn blind(root: &Path, trained: &[Trained]) -> String {
    let bytes = |path: &str| leak(&trained.iter().find(|t| t.path == path).unwrap().bytes);
    let gate = Weights::parse(bytes(gate_model::WEIGHTS_FILE), gate_model::CLASSES.len()).unwrap();
    let recall = Weights::parse(bytes(recall_model::WEIGHTS_FILE), 2).unwrap();
    let guard_weights =
        Weights::parse(bytes(guard_model::WEIGHTS_FILE), guard_model::CLASSES.len()).unwrap();
    let models = learned::Models {
        sentence: Blend {
            bag: Weights::parse(bytes(learned::SENTENCE_WEIGHTS_FILE), 2).unwrap(),
            order: Some(ConvWeights::parse(bytes(learned::SENTENCE_ORDER_FILE), 2).unwrap()),
        },
        ruled: Weights::parse(bytes(learned::RULED_WEIGHTS_FILE), 2).unwrap(),
        span: Weights::parse(bytes(learned::SPAN_WEIGHTS_FILE), 2).unwrap(),
        request: Blend {
            bag: Weights::parse(bytes(learned::REQUEST_WEIGHTS_FILE), 2).unwrap(),
            order: Some(ConvWeights::parse(bytes(learned::REQUEST_ORDER_FILE), 2).unwrap()),
        },
        kind: Weights::parse(bytes(learned::TYPE_WEIGHTS_FILE), learned::TYPES.len()).unwrap(),
    };
    let mut out = String::new();
    for batch in corpus::BLIND_BATCHES {
        let candidates = corpus::blind_candidates(root, batch);
        let messages = corpus::blind_messages(root, batch);
        let (gate_language, gate_kind) = score_gate(&gate, &candidates.iter().collect::<Vec<_>>());
        let message_refs: Vec<&MessageCase> = messages.iter().collect();
        let (explicit_language, explicit_kind) = score_explicit(&models, &message_refs);
        let _ = write!(
            out,
            "BLIND {batch}: {} candidate lines, {} messages\n{}{}{}{}{}",
            candidates.len(),
            messages.len(),
            gate_language.table("candidate gate by language"),
            gate_kind.table("candidate gate by kind"),
            explicit_language.table("explicit memories by language"),
            explicit_kind.table("explicit memories by kind"),
            score_recall(&recall, &message_refs).table("recall requests by language"),
        );
        let guard = corpus::blind_guard(root, batch);
        if !guard.is_empty() {
            let _ = write!(
                out,
                "{}",
                score_guard_at(
                    &guard_weights,
                    guard_model::FLAG_ODDS,
                    &guard.iter().collect::<Vec<_>>(),
                    &messages.iter().collect::<Vec<_>>(),
                    &candidates.iter().collect::<Vec<_>>()
                )
                .table("instruction guard")
            );
        }
    }
    out
}

/// The instruction guard at `odds` (the rules, then the model): of the texts that instruct the
/// agent, how many it catches; of the look-alikes, and of every memory text and durable
/// candidate line, how many it flags; of the candidate lines labelled instructions, how many
/// it catches.
pub fn score_guard_at(
    weights: &Weights,
    odds: f64,
    guard: &[&GuardCase],
    messages: &[&MessageCase],
    candidates: &[&CandidateCase],
) -> Score {
    use ocmem::domain::guard::injection::instructs_agent_by_rules;
    let judge = |text: &str| {
        instructs_agent_by_rules(text)
            .or_else(|| guard_model::kind_at(&guard_model::predict_with(weights, text), odds))
    };
    let misses = std::env::var_os("TRAIN_MISSES").is_some();
    let mut score = Score::default();
    for case in guard {
        let found = judge(&case.text);
        if case.expect == "none" {
            score.add("look-alikes left alone", found.is_none());
            score.add(
                &format!("{} look-alikes left alone", case.lang),
                found.is_none(),
            );
            if misses && found.is_some() {
                eprintln!("GUARD FLAGGED {:?}", case.text);
            }
        } else {
            score.add("instructions caught", found.is_some());
            score.add(
                &format!("{} instructions caught", case.lang),
                found.is_some(),
            );
            score.add(&format!("{} caught", case.expect), found.is_some());
            if misses && found.is_none() {
                eprintln!("GUARD MISSED [{}] {:?}", case.expect, case.text);
            }
        }
    }
    for case in messages {
        score.add("user messages left alone", judge(&case.message).is_none());
    }
    for (text, instruction) in benign_and_instruction_texts(messages, candidates) {
        let found = judge(&text);
        if instruction {
            score.add("candidate instruction lines caught", found.is_some());
        } else {
            score.add("memories and durable lines left alone", found.is_none());
            if misses && found.is_some() {
                eprintln!("GUARD FLAGGED BENIGN {text:?}");
            }
        }
    }
    score
}

/// The memory texts of `messages` and the candidate lines' texts, each with whether it is
/// labelled an instruction to the agent (a candidate line of kind `instruction`); junk lines of
/// other kinds are left out (a count or a question instructs nobody, but the guard is not
/// asked about them apart from the gate).
fn benign_and_instruction_texts(
    messages: &[&MessageCase],
    candidates: &[&CandidateCase],
) -> Vec<(String, bool)> {
    let memories = messages.iter().flat_map(|m| {
        m.memories
            .iter()
            .flatten()
            .map(|(text, _, _)| (text.clone(), false))
    });
    let lines = candidates
        .iter()
        .filter(|c| c.keep || c.kind == "instruction")
        .filter_map(|c| candidate_of(c).map(|candidate| (candidate.text, !c.keep)));
    memories.chain(lines).collect()
}

/// The guard's weights, from every corpus.
pub fn train_guard_of(root: &Path) -> Vec<u8> {
    train_guard(
        &corpus::guard(root),
        &corpus::messages(root),
        &corpus::candidates(root),
    )
}

// ─── The instruction guard ─────────────────────────────────────────────────────────────────

pub fn train_guard(
    guard: &[GuardCase],
    messages: &[MessageCase],
    candidates: &[CandidateCase],
) -> Vec<u8> {
    let mut examples: Vec<Example> = Vec::new();
    let example = |text: &str, class: usize, weight: f64| {
        let read = guard_model::read_form(text);
        Example::new(&guard_model::input(&read), guard_model::BITS, class, weight)
    };
    for case in guard.iter().filter(|c| !is_test(&c.id)) {
        let class = guard_model::class_of(&case.expect);
        examples.push(example(
            &case.text,
            class,
            if class == 0 { 2.0 } else { 3.0 },
        ));
    }
    let messages: Vec<&MessageCase> = messages.iter().filter(|c| !is_test(&c.id)).collect();
    let candidates: Vec<&CandidateCase> = candidates.iter().filter(|c| !is_test(&c.id)).collect();
    // The user's own messages are what the agent is told anyway, never stored as such: as
    // negatives they teach that a greeting or a short task instructs nobody to lower its guard.
    for case in &messages {
        examples.push(example(&case.message, 0, 1.0));
    }
    for (text, instruction) in benign_and_instruction_texts(&messages, &candidates) {
        let class = if instruction {
            guard_model::class_of("unnamed")
        } else {
            0
        };
        examples.push(example(&text, class, if instruction { 3.0 } else { 1.0 }));
    }
    let options = TrainOptions {
        prior_bias: true,
        // A hundred times the others' penalty: fewer attacks to learn from, and a false flag
        // refuses a memory the user asked for. At ten times, with blind15 trained on, a word
        // as common as "to" weighed for approving everything and "Never force-push to main"
        // read as an instruction.
        l2: 1e-3,
        ..options(guard_model::CLASSES.len(), guard_model::BITS)
    };
    train(&examples, options)
}

fn dev_lines(cases: &[CandidateCase]) -> Vec<&CandidateCase> {
    cases.iter().filter(|c| is_test(&c.id)).collect()
}

/// Sums of the rows of `score` whose key ends with `suffix`, as a rate.
fn rate_of(score: &Score, suffix: &str) -> (f64, usize) {
    let (mut right, mut all) = (0, 0);
    for (key, &(r, a)) in score.rows() {
        if !key.starts_with('~') && key.ends_with(suffix) {
            right += r;
            all += a;
        }
    }
    (right as f64 / all.max(1) as f64, all)
}

/// The values of the environment variable `name` (comma-separated), else `default`: a grid of
/// `tune`.
fn grid(name: &str, default: &[f64]) -> Vec<f64> {
    std::env::var(name).map_or(default.to_vec(), |list| {
        list.split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect()
    })
}

/// The development split's figures over a grid of decision odds, the models trained on the
/// rest of the training split (`corpus::start_tuning` must have been called).
pub fn tune(root: &Path) -> String {
    let mut out = String::new();
    let candidate_cases = corpus::candidates(root);
    let bytes = train_gate(&candidate_cases);
    let weights = Weights::parse(leak(&bytes), gate_model::CLASSES.len()).unwrap();
    let dev: Vec<&CandidateCase> = candidate_cases.iter().filter(|c| is_test(&c.id)).collect();
    let _ = writeln!(out, "candidate gate on {} development lines", dev.len());
    let pairs = grid("TUNE_GATE_UNRULED", &[candidates::JUNK_ODDS.unruled])
        .into_iter()
        .flat_map(|unruled| {
            grid("TUNE_GATE_RULED", &[candidates::JUNK_ODDS.ruled])
                .into_iter()
                .map(move |ruled| candidates::JunkOdds { unruled, ruled })
        })
        .collect::<Vec<_>>();
    for junk_odds in pairs {
        let (_, by_kind) = score_gate_at(junk_odds, &weights, &dev);
        let worst = by_kind
            .rows()
            .filter(|(k, _)| k.ends_with("rejected"))
            .map(|(k, &(r, a))| (r as f64 / a.max(1) as f64, k.clone()))
            .fold((1.0, String::new()), |m, x| if x.0 < m.0 { x } else { m });
        let _ = writeln!(
            out,
            "  junk odds {:.2} unruled, {:.2} ruled: kept {:.3}, rejected {:.3}, worst kind {} {:.3}",
            junk_odds.unruled,
            junk_odds.ruled,
            rate_of(&by_kind, "kept").0,
            rate_of(&by_kind, "rejected").0,
            worst.1,
            worst.0
        );
    }
    if std::env::var_os("TUNE_GATE_ONLY").is_some() {
        return out;
    }
    let message_cases = corpus::messages(root);
    let dev: Vec<&MessageCase> = message_cases.iter().filter(|c| is_test(&c.id)).collect();
    let guard_cases = corpus::guard(root);
    let bytes = train_guard(&guard_cases, &message_cases, &candidate_cases);
    let weights = Weights::parse(leak(&bytes), guard_model::CLASSES.len()).unwrap();
    let guard_dev: Vec<&GuardCase> = guard_cases.iter().filter(|c| is_test(&c.id)).collect();
    let _ = writeln!(
        out,
        "instruction guard on {} development texts",
        guard_dev.len()
    );
    for odds in [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8] {
        let score = score_guard_at(
            &weights,
            odds,
            &guard_dev,
            &dev,
            &dev_lines(&candidate_cases),
        );
        let _ = writeln!(
            out,
            "  flag odds {odds:.1}: caught {:.3}, look-alikes left {:.3}, benign left {:.3}, messages left {:.3}, candidate instructions caught {:.3}",
            score.rate("instructions caught"),
            score.rate("look-alikes left alone"),
            score.rate("memories and durable lines left alone"),
            score.rate("user messages left alone"),
            score.rate("candidate instruction lines caught"),
        );
    }
    let bytes = train_recall(&message_cases);
    let weights = Weights::parse(leak(&bytes), 2).unwrap();
    let recall_dev: Vec<&MessageCase> =
        dev.iter().copied().filter(|c| c.recall.is_some()).collect();
    for odds in [0.5, 0.6, 0.7, 0.8, 0.9] {
        let (mut seen, mut asked, mut left, mut others) = (0, 0, 0, 0);
        for case in &recall_dev {
            let said = recall_model::predict_with(&weights, &case.message).probability(1) > odds;
            if case.recall == Some(true) {
                asked += 1;
                seen += usize::from(said);
            } else {
                others += 1;
                left += usize::from(!said);
            }
        }
        let _ = writeln!(
            out,
            "  recall odds {odds:.1}: seen {seen}/{asked}, others left {left}/{others}"
        );
    }
    if std::env::var_os("TUNE_GUARD_ONLY").is_some() {
        return out;
    }
    let statements: Vec<&CandidateCase> =
        candidate_cases.iter().filter(|c| is_test(&c.id)).collect();
    let _ = writeln!(
        out,
        "explicit memories on {} development messages",
        dev.len()
    );
    let models = models_of(&train_explicit_with(
        KNOBS,
        &message_cases,
        &candidate_cases,
    ));
    // The grid, unless `TUNE_RULED`, `TUNE_UNRULED` or `TUNE_REQUEST` (comma-separated) say.
    let (unruled_grid, request_grid) = (
        grid("TUNE_UNRULED", &[0.8, 0.9, 0.95]),
        grid("TUNE_REQUEST", &[0.5, 0.6]),
    );
    let mut points = Vec::new();
    for floor in grid("TUNE_FLOOR", &[explicit::ODDS.floor]) {
        for ruled in grid("TUNE_RULED", &[0.1, 0.2, 0.3]) {
            for &unruled in &unruled_grid {
                for overrule in grid("TUNE_OVERRULE", &[explicit::ODDS.overrule]) {
                    points.extend(
                        request_grid
                            .iter()
                            .map(|&r| (floor, ruled, unruled, r, overrule)),
                    );
                }
            }
        }
    }
    for (floor, ruled, unruled, request, overrule) in points {
        let odds = explicit::Odds {
            ruled,
            unruled,
            request,
            floor,
            overrule,
            ..explicit::ODDS
        };
        let (by_language, by_kind) = score_explicit_at(odds, &models, &dev);
        let lines = statements_taken_at(odds, &models, &statements);
        let _ = writeln!(
            out,
            "  odds floor {floor:.2} ruled {ruled:.2} unruled {unruled:.2} request {request:.2} overrule {overrule:.2}: recall {:.3}, precision {:.3}, types {:.3}, nothing taken {:.3} (statement messages {:.3}, one-offs {:.3}, habits {:.3}), candidate lines left alone {:.3}",
            rate_of(&by_language, " recall").0,
            rate_of(&by_language, " precision").0,
            rate_of(&by_language, " type").0,
            rate_of(&by_kind, "nothing taken").0,
            by_kind.rate("statement nothing taken"),
            by_kind.rate("one-off nothing taken"),
            by_kind.rate("habit recall"),
            rate_of(&lines, "nothing taken").0,
        );
    }
    out
}

// ─── The word-order experiment ─────────────────────────────────────────────────────────────

/// Area under the ROC curve of `scored` (probability, is positive).
fn auc(scored: &[(f64, bool)]) -> f64 {
    let mut sorted = scored.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut negatives_below, mut sum) = (0.0, 0.0);
    let positives = sorted.iter().filter(|s| s.1).count() as f64;
    let negatives = sorted.len() as f64 - positives;
    for (_, positive) in &sorted {
        if *positive {
            sum += negatives_below;
        } else {
            negatives_below += 1.0;
        }
    }
    sum / (positives * negatives).max(1.0)
}

/// Positives above `odds`, negatives above `odds`.
fn at(scored: &[(f64, bool)], odds: f64) -> String {
    let tp = scored.iter().filter(|s| s.1 && s.0 > odds).count();
    let p = scored.iter().filter(|s| s.1).count();
    let fp = scored.iter().filter(|s| !s.1 && s.0 > odds).count();
    let n = scored.len() - p;
    format!("{tp}/{p} taken, {fp}/{n} wrongly")
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    (p / (1.0 - p)).ln()
}

/// The sentence and request decisions on the test split, by the linear model, the
/// convolution and both: whether reading word order helps.
pub fn conv_experiment(root: &Path) -> String {
    let cases = corpus::messages(root);
    let statements = corpus::candidates(root);
    let train_set = explicit_examples(cases.iter().filter(|c| !is_test(&c.id)), KNOBS);
    let test_set = explicit_examples(cases.iter().filter(|c| is_test(&c.id)), KNOBS);
    let mut request = train_set.request.clone();
    request
        .extend(statement_request_examples(statements.iter().filter(|c| !is_test(&c.id)), 1.0).0);
    let epochs: usize = std::env::var("CONV_EPOCHS")
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(6);
    let rate: f32 = std::env::var("CONV_RATE")
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(0.05);
    let mut out = String::new();
    for (name, linear_train, conv_train, linear_test, conv_test, odds) in [
        (
            "sentence",
            &train_set.sentence,
            &train_set.sentence_conv,
            &test_set.sentence,
            &test_set.sentence_conv,
            explicit::ODDS.unruled,
        ),
        (
            "request",
            &request,
            &train_set.request_conv,
            &test_set.request,
            &test_set.request_conv,
            explicit::ODDS.request,
        ),
    ] {
        if std::env::var("CONV_ONLY").is_ok_and(|only| only != name) {
            continue;
        }
        let linear =
            Weights::parse(leak(&train(linear_train, options(2, learned::BITS))), 2).unwrap();
        let started = std::time::Instant::now();
        let conv_bytes = train_conv(
            conv_train,
            ConvOptions {
                classes: 2,
                bits: learned::ORDER_BITS,
                epochs,
                rate,
                seed: 0x0c3e_3e3e,
            },
        );
        let seconds = started.elapsed().as_secs_f64();
        let conv = ConvWeights::parse(leak(&conv_bytes), 2).unwrap();
        let lin: Vec<(f64, bool)> = linear_test
            .iter()
            .map(|e| (e.predict(&linear).probability(1), e.class() == 1))
            .collect();
        let cnn: Vec<(f64, bool)> = conv_test
            .iter()
            .map(|e| (conv.predict_tokens(&e.tokens).probability(1), e.class == 1))
            .collect();
        let both: Vec<(f64, bool)> = lin
            .iter()
            .zip(&cnn)
            .map(|(a, b)| (1.0 / (1.0 + (-(logit(a.0) + logit(b.0)) / 2.0).exp()), a.1))
            .collect();
        let _ = writeln!(
            out,
            "{name}: {} train, {} test, conv trained in {seconds:.0} s",
            conv_train.len(),
            conv_test.len()
        );
        for (label, scored) in [("linear", &lin), ("conv", &cnn), ("both", &both)] {
            let _ = writeln!(
                out,
                "  {label:7} auc {:.4}  at {odds}: {}  at 0.5: {}",
                auc(scored),
                at(scored, odds),
                at(scored, 0.5)
            );
        }
    }
    out
}
