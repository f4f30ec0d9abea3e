//! What each decision of the language layer concludes about a text, and the features that
//! weighed most: `ocmem explain`'s report. Pure: the text in, the report out.

use serde::Serialize;

use crate::domain::base::classifier::Contribution;
use crate::domain::guard::injection::{instructs_agent_by_rules, model as guard_model};

use super::candidates::{self, parse_candidates, Candidate};
use super::explicit::{self, forget_requests, learned, recall_model, Addressee};

/// How many features each decision names.
pub const TOP_FEATURES: usize = 8;

#[derive(Debug, Clone, Serialize)]
pub struct Feature {
    pub feature: String,
    pub weight: f64,
}

fn features(contributions: Vec<Contribution>) -> Vec<Feature> {
    contributions
        .into_iter()
        .map(|c| Feature {
            feature: c.feature,
            weight: (c.weight * 1000.0).round() / 1000.0,
        })
        .collect()
}

#[derive(Debug, Clone, Serialize)]
pub struct MemoryFound {
    pub text: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub scope: &'static str,
}

/// One sentence: whether it asks for a memory, and its best proposal.
#[derive(Debug, Clone, Serialize)]
pub struct SentenceVerdict {
    pub sentence: String,
    pub asks: Decision,
    /// The request model's probability for the proposal it likes best.
    pub request: f64,
    pub memories: Vec<String>,
    pub span: Decision,
}

#[derive(Debug, Clone, Serialize)]
pub struct Decision {
    pub verdict: bool,
    pub probability: f64,
    pub features: Vec<Feature>,
}

/// What a user message means.
#[derive(Debug, Clone, Serialize)]
pub struct MessageReport {
    pub memories: Vec<MemoryFound>,
    /// Each sentence's best proposal, taken or not.
    pub sentences: Vec<SentenceVerdict>,
    pub recall: Decision,
    pub forget: Vec<String>,
    pub instructs_agent: bool,
    pub instruction: InstructionReport,
}

/// Whether a text would be refused as an instruction to the agent, and what said so.
#[derive(Debug, Clone, Serialize)]
pub struct InstructionReport {
    /// The kind of instruction, when it reads as one.
    pub kind: Option<String>,
    /// `rules` or `model`, when it reads as one.
    pub by: Option<&'static str>,
    /// The learned guard: the odds the text instructs the agent (one less the odds it is
    /// none), and the features that weighed most for it.
    pub model: Decision,
}

fn instruction_report(text: &str) -> InstructionReport {
    let by_rules = instructs_agent_by_rules(text);
    let (prediction, why) = guard_model::explain(text, TOP_FEATURES);
    let by_model = guard_model::kind_at(&prediction, guard_model::FLAG_ODDS);
    InstructionReport {
        kind: by_rules.or(by_model).map(|kind| kind.name().to_string()),
        by: match (by_rules, by_model) {
            (Some(_), _) => Some("rules"),
            (None, Some(_)) => Some("model"),
            (None, None) => None,
        },
        model: Decision {
            verdict: by_model.is_some(),
            probability: round(1.0 - prediction.probability(0)),
            // Weighed towards `none`: turned round, they weigh towards an instruction.
            features: features(
                why.into_iter()
                    .map(|c| Contribution {
                        weight: -c.weight,
                        ..c
                    })
                    .collect(),
            ),
        },
    }
}

fn round(p: f64) -> f64 {
    (p * 1000.0).round() / 1000.0
}

pub fn message(text: &str) -> MessageReport {
    let models = learned::models();
    let mut sentences = Vec::new();
    // Every sentence is proposed, so that the report shows what each one would have given.
    explicit::walk_refusals(text, &models.kind, |sentence, scored, refusal| {
        let (asks, asks_why) =
            explicit::model_of(&models, sentence).explain(sentence, 1, TOP_FEATURES);
        let best = explicit::best_span_at(
            explicit::table_span_of(explicit::ODDS, sentence),
            &models,
            scored,
        );
        let (memories, span) = match best {
            Some(index) => {
                let (p, why) = learned::explain(&models.span, &scored[index].input, TOP_FEATURES);
                (
                    scored[index]
                        .memories
                        .iter()
                        .map(|(_, t)| t.clone())
                        .collect(),
                    Decision {
                        verdict: true,
                        probability: round(p.probability(1)),
                        features: features(why),
                    },
                )
            }
            None => (
                Vec::new(),
                Decision {
                    verdict: false,
                    probability: 0.0,
                    features: Vec::new(),
                },
            ),
        };
        // A sentence the tables took from is read in parts: the trigger, the memory and
        // what follows, each the first text of its field.
        use crate::domain::base::classifier::Field;
        let first = |wanted: Field| {
            sentence
                .texts
                .iter()
                .find(|(field, _)| *field == wanted)
                .map(|(_, t)| *t)
        };
        let sentence_text = match first(Field::Whole) {
            Some(whole) => whole.to_string(),
            None => [Field::Head, Field::Body, Field::Tail]
                .into_iter()
                .filter_map(first)
                .collect(),
        };
        let verdict = explicit::asks_unless_refused(&models, sentence, scored, refusal);
        sentences.push(SentenceVerdict {
            sentence: sentence_text,
            asks: Decision {
                verdict,
                probability: round(asks.probability(1)),
                features: features(asks_why),
            },
            request: round(explicit::request_probability(&models, scored)),
            memories,
            span,
        });
        if verdict {
            best
        } else {
            None
        }
    });
    let (recall, why) = recall_model::explain(text, TOP_FEATURES);
    // What capture keeps: the models' choices above, and what the tables took that no
    // proposal can give.
    let captured = explicit::capture_counted(text);
    let instruction = instruction_report(text);
    MessageReport {
        memories: captured
            .memories
            .into_iter()
            .map(|m| MemoryFound {
                kind: m.kind.as_str(),
                scope: match m.scope {
                    Addressee::User => "user",
                    Addressee::Workspace => "project",
                },
                text: m.text,
            })
            .collect(),
        sentences,
        recall: Decision {
            verdict: recall.probability(1) > recall_model::ODDS,
            probability: round(recall.probability(1)),
            features: features(why),
        },
        forget: forget_requests(text)
            .into_iter()
            .map(|r| r.subject)
            .collect(),
        instructs_agent: instruction.kind.is_some(),
        instruction,
    }
}

/// What the compaction gate makes of a candidate line.
#[derive(Debug, Clone, Serialize)]
pub struct CandidateReport {
    pub line: String,
    pub kept: bool,
    /// The rejection's name and reason, when it is rejected.
    pub rejection: Option<(&'static str, &'static str)>,
    pub rules: Vec<&'static str>,
    pub junk: Decision,
    /// The kind of junk the model finds likeliest, whose features `junk` lists.
    pub junk_kind: &'static str,
    /// The memory type it would be stored with, and whether the line named it (else the type
    /// model chose it).
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub tagged: bool,
}

/// The candidate of `line` (`- [type] text`, or bare text read as a project fact).
pub fn candidate(line: &str) -> CandidateReport {
    let parsed = parse_candidates(&format!("Memory candidates:\n{line}")).0;
    let candidate = parsed.into_iter().next().unwrap_or_else(|| Candidate {
        kind: crate::domain::memory::kind::MemoryType::Project,
        text: line.trim().to_string(),
        rationale: None,
        line: line.trim().to_string(),
        tagged: true,
    });
    let hits = candidates::rule_hits(&candidate.text);
    let verdict = candidates::gate(&candidate);
    let (prediction, kind, why) = candidates::model::explain(&candidate, &hits, TOP_FEATURES);
    CandidateReport {
        line: candidate.line.clone(),
        kept: verdict.is_ok(),
        rejection: verdict.err().map(|r| (r.name(), r.reason())),
        rules: hits.iter().map(|r| r.name()).collect(),
        junk: Decision {
            verdict: candidates::model::junk_probability(&prediction)
                > candidates::JUNK_ODDS.after(&hits),
            probability: round(candidates::model::junk_probability(&prediction)),
            features: features(why),
        },
        junk_kind: candidates::model::CLASSES[kind],
        kind: candidate.kind.as_str(),
        tagged: candidate.tagged,
    }
}

fn feature_lines(out: &mut String, features: &[Feature]) {
    for f in features {
        out.push_str(&format!(
            "    {:+.3}  {}\n",
            f.weight,
            f.feature.replace(['\u{2}', '\u{3}'], "|")
        ));
    }
}

impl MessageReport {
    pub fn render(&self) -> String {
        let mut out = String::new();
        if self.memories.is_empty() {
            out.push_str("remember: nothing\n");
        }
        for m in &self.memories {
            out.push_str(&format!(
                "remember: [{}] {} ({})\n",
                m.kind, m.text, m.scope
            ));
        }
        for (i, s) in self.sentences.iter().enumerate() {
            out.push_str(&format!(
                "  sentence {}: {:?}\n    asks for a memory: {}, p = {:.3}, request p = {:.3}\n",
                i + 1,
                s.sentence,
                if s.asks.verdict { "yes" } else { "no" },
                s.asks.probability,
                s.request
            ));
            feature_lines(&mut out, &s.asks.features);
            if s.asks.verdict && !s.memories.is_empty() {
                out.push_str(&format!(
                    "    memory: {}, p(span) = {:.3}\n",
                    s.memories.join(" | "),
                    s.span.probability
                ));
                feature_lines(&mut out, &s.span.features);
            }
        }
        out.push_str(&format!(
            "recall request: {}, p = {:.3}\n",
            if self.recall.verdict { "yes" } else { "no" },
            self.recall.probability
        ));
        feature_lines(&mut out, &self.recall.features);
        if self.forget.is_empty() {
            out.push_str("forget request: no\n");
        }
        for subject in &self.forget {
            out.push_str(&format!("forget request: {subject}\n"));
        }
        let instruction = &self.instruction;
        match (&instruction.kind, instruction.by) {
            (Some(kind), Some(by)) => out.push_str(&format!(
                "instruction to the agent: yes ({kind}, by the {by}), model p = {:.3}\n",
                instruction.model.probability
            )),
            _ => out.push_str(&format!(
                "instruction to the agent: no, model p = {:.3}\n",
                instruction.model.probability
            )),
        }
        if instruction.by == Some("model") {
            feature_lines(&mut out, &instruction.model.features);
        }
        out
    }
}

impl CandidateReport {
    pub fn render(&self) -> String {
        let mut out = match self.rejection {
            None => format!("candidate: kept\n  {}\n", self.line),
            Some((name, reason)) => {
                format!("candidate: rejected ({name}: {reason})\n  {}\n", self.line)
            }
        };
        let rules = if self.rules.is_empty() {
            "none".to_string()
        } else {
            self.rules.join(", ")
        };
        let named = if self.tagged {
            "as the line names it"
        } else {
            "the line names none: the type model's"
        };
        out.push_str(&format!("type: {} ({named})\n", self.kind));
        out.push_str(&format!("rules that matched: {rules}\n"));
        out.push_str(&format!(
            "model: p(junk) = {:.3}, likeliest kind {}\n",
            self.junk.probability, self.junk_kind
        ));
        feature_lines(&mut out, &self.junk.features);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memories of the sentences the report says ask, as capture keeps them.
    fn asked(report: &MessageReport) -> Vec<String> {
        report
            .sentences
            .iter()
            .filter(|s| s.asks.verdict)
            .flat_map(|s| s.memories.clone())
            .collect()
    }

    #[test]
    fn a_sentence_asks_in_the_report_when_capture_takes_its_memory() {
        for text in [
            "remember: we deploy on fridays only after the smoke tests",
            "the tram depot log keeps times in UTC, ok?",
            "Fix the header typo. Also keep in mind that the API is versioned under /v2.",
            // Read by the sentence model as unsure: the request model decides, and takes the
            // first and leaves the second.
            "Ich bevorzuge kleine Commits mit aussagekräftigen Nachrichten",
            "Note that the API is versioned under /v2.",
        ] {
            let report = message(text);
            let captured: Vec<String> = report.memories.iter().map(|m| m.text.clone()).collect();
            assert_eq!(asked(&report), captured, "{text}");
        }
    }

    #[test]
    fn a_trigger_the_tables_refused_asks_nothing_in_the_report() {
        let report = message("please don't remember this: use npm cache");
        assert!(report.memories.is_empty());
        assert!(report.sentences.iter().all(|s| !s.asks.verdict));
        assert!(report.render().contains("asks for a memory: no"));
    }

    #[test]
    fn a_candidate_report_says_its_type_and_who_chose_it() {
        let tagged = candidate("- [reference] The runbook lives in docs/ops/runbook.md");
        assert_eq!((tagged.kind, tagged.tagged), ("reference", true));
        assert!(tagged
            .render()
            .contains("type: reference (as the line names it)"));
        let untagged = candidate("- We decided to keep SQLite over Postgres for the desktop app");
        assert_eq!((untagged.kind, untagged.tagged), ("decision", false));
        assert!(untagged
            .render()
            .contains("type: decision (the line names none: the type model's)"));
    }
}
