//! Explicit memories: what the user's latest message asks the agent to remember, such as
//! "remember this: use pnpm", "請記住：使用 pnpm", "pnpmを使うことを覚えておいて",
//! "…라는 것을 기억해줘", "recuerda que usamos pnpm", "merk dir, dass wir pnpm nutzen",
//! "n'oublie pas de lancer les tests" or "lembre-se de rodar os testes".
//!
//! Which phrases mean "remember" is in `triggers.rs`, one table per language; which type a
//! memory gets is in `kind.rs`. A trigger counts where an instruction can begin: at the start
//! of a sentence or of a clause (", and remember …"), after optional decoration (quotes,
//! bullets, emoji), filler words ("please", "also:", "请") and negations ("don't", "不要"), which
//! cancel it. Its body is the rest of its sentence: what follows is often an unrelated
//! request. A trigger with nothing after it points elsewhere: "Remember this:" at the end of a
//! line takes the next line, or one memory per item of the list under it; "… Remember that for
//! next time." takes the sentence before. Japanese and Korean also put the verb last
//! ("…を覚えておいて"): then the body is the sentence before the verb.
//!
//! Nothing is taken from code (fenced blocks, inline code, comment lines pasted with their
//! code), quoted or forwarded text, documentation labels ("Note: …"), questions (with or
//! without a question mark: "remember when we …"), UI labels ("Remember me"), one-off choices
//! ("I prefer option B"), "going forward with" a plan, or deferrals ("remember: later 🙂").
//!
//! A memory addressed to every project of the person ("remember for all my projects: …",
//! "globally, …") has the scope `User`, and its text loses the words that addressed it; which
//! words do is in `addressee.rs`.
//!
//! The scan is linear in the length of the message: this runs on every user message.

mod addressee;
mod body;
mod forget;
pub mod kind;
mod language;
pub mod learned;
pub mod recall;
pub mod recall_model;
pub mod recurrence;
mod scan;
pub mod spelling;
mod text;
mod triggers;
pub mod vocabulary;

use std::collections::HashSet;

use crate::domain::base::text::strip_invisible;
use crate::domain::memory::kind::MemoryType;
use scan::{find, list_item, readable_lines, sentences, Found, Spans, LINE_BREAKS};

pub use addressee::Addressee;
pub use body::body_width;
pub use body::MIN_BODY_CHARS;
pub use forget::{forget_requests, ForgetRequest, MAX_FORGETS_PER_MESSAGE};
pub use kind::classify;
pub(crate) use language::Lang;
use text::strip_host_context;
pub use text::strip_private;

/// At most this many memories are taken from one message: the first ones, in order. The
/// others are counted, not stored, and `render` says how many there were, so the user can be
/// told to ask again; a message repeating one memory counts it once.
pub const MAX_MEMORIES_PER_MESSAGE: usize = 10;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplicitMemory {
    pub kind: MemoryType,
    pub text: String,
    /// This workspace, or every project of the person.
    pub scope: Addressee,
}

/// What one user message asks to remember.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    /// The first `MAX_MEMORIES_PER_MESSAGE` distinct memories, in order.
    pub memories: Vec<ExplicitMemory>,
    /// How many more distinct memories the message held.
    pub dropped: usize,
    /// How many memories the phrase tables took that the models read as requests for the task
    /// at hand, and left: the agent hears of them, and keeps them if the user meant them to
    /// last.
    pub set_aside: usize,
    /// Where in the text the tables found a trigger that asks nothing (negated, "don't
    /// remember this: …", a question, quoted, a deferral), as byte ranges of the text read.
    pub refused: Vec<std::ops::Range<usize>>,
    /// Of those, where the user negated the trigger ("don't remember this, …"): no model
    /// takes a memory there.
    pub negated: Vec<std::ops::Range<usize>>,
}

/// What the phrase tables said of a trigger in a sentence that gave no memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// They refused none.
    None,
    /// They refused one (a question, quoted, a deferral): the request model does not
    /// overrule them, the sentence model may.
    Trigger,
    /// The user negated it ("don't remember this, …"), or the sentence asks to forget:
    /// nothing overrules them.
    Negated,
}

/// The explicit memories of one user message, in order, at most `MAX_MEMORIES_PER_MESSAGE`.
/// Invisible characters and `<private>…</private>` spans are removed first. Each trigger
/// yields at most one memory (a list under it one per item); its text has no line break and
/// at least `MIN_BODY_CHARS` chars, with whitespace runs folded to one space.
pub fn capture(message: &str) -> Vec<ExplicitMemory> {
    capture_counted(message).memories
}

/// `capture`, also counting the memories beyond the limit.
pub fn capture_counted(message: &str) -> Captured {
    capture_with(ODDS, &learned::models(), message)
}

/// What ends a sentence inside a memory's text.
const SENTENCE_ENDS: &[char] = &['.', '。', '!', '！', '?', '？', ';', '；', '\n'];

/// `capture_counted` with the odds `odds` and the models `models`. Every readable sentence is
/// read by the models, and the phrase tables' hits are among what they read: a sentence the
/// tables took a memory from (or that points at one) yields a memory when the sentence model
/// gives it more than `odds.ruled`, low, so that the tables' forms stay taken and a one-off
/// for the task at hand ("remember to push this branch") is not; any other sentence when it
/// gives more than `odds.unruled`. The span model then chooses which text is the memory, and
/// may prefer another to the tables' ("Remember that decision please" points back, it does
/// not hold the memory). A memory the tables took that no proposal can give (the next
/// line's sentence under "Remember this:") is kept as they took it.
pub fn capture_with(odds: Odds, models: &learned::Models, message: &str) -> Captured {
    let text = readable_text(message);
    // Every memory the tables take, past the limit too: the models read them all, and the
    // limit applies once, to what they keep.
    let rules = rules_over(&text, usize::MAX);
    let mut decided: HashSet<String> = HashSet::new();
    let mut left: HashSet<String> = HashSet::new();
    let learned = walk_read(
        &text,
        &rules,
        &models.kind,
        (&mut decided, &mut left),
        |sentence, refusal| match refusal {
            Refusal::Negated => Reading::Nothing,
            _ => reading_with(odds, models, sentence),
        },
        |read, scored| requested_at(odds.request_for(read), models, scored),
        |sentence, scored, _| best_span_at(table_span_of(odds, sentence), models, scored),
    );
    let mut memories = Collector::default();
    let undecided = rules
        .memories
        .into_iter()
        .filter(|memory| !decided.contains(&memory.text));
    let kept: HashSet<&str> = learned.memories.iter().map(|m| m.text.as_str()).collect();
    let set_aside = left.iter().filter(|t| !kept.contains(t.as_str())).count();
    let found: Vec<ExplicitMemory> = undecided.chain(learned.memories).collect();
    // Of two memories one of which holds the other whole, one is kept. The longer is the
    // shorter with what followed it on the line when a new sentence starts there ("X。そのうえ
    // で、…をお願いします" beside "X"): the line's rest was read as more of it. Otherwise the
    // longer says more in the same sentence ("X over Y" beside "X") and is kept.
    let mut dropped = vec![false; found.len()];
    for (i, longer) in found.iter().enumerate() {
        for (j, shorter) in found.iter().enumerate() {
            if shorter.text.len() >= longer.text.len() || !longer.text.contains(&shorter.text) {
                continue;
            }
            let line_rest = longer
                .text
                .match_indices(&shorter.text)
                .any(|(at, _)| longer.text[at + shorter.text.len()..].starts_with(SENTENCE_ENDS));
            dropped[if line_rest { i } else { j }] = true;
        }
    }
    for (memory, _) in found.iter().zip(&dropped).filter(|(_, &gone)| !gone) {
        memories.keep(memory.scope, memory.kind, memory.text.clone());
    }
    Captured {
        memories: memories.kept,
        dropped: memories.dropped,
        set_aside,
        refused: Vec::new(),
        negated: Vec::new(),
    }
}

/// The probabilities the sentence model must give a sentence for it to yield a memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Odds {
    /// A sentence the phrase tables took nothing from: well above even odds, since a user
    /// states facts all the time without asking to keep them.
    pub unruled: f64,
    /// A sentence the tables took a memory from, or that points at one: low, so that only what
    /// the model is sure is not a memory (a one-off for the task) is left out.
    pub ruled: f64,
    /// The span model's probability at which the text the tables took stays the memory,
    /// though the model likes another better: the tables cut their own triggers well ("from
    /// now on", "for all my projects"), and the model is for what they cut wrong ("No. X",
    /// "X. Remember that, Y").
    pub table_span: f64,
    /// The request model's probability, for the proposal it likes best, at which a sentence
    /// the sentence model left yields a memory all the same.
    pub request: f64,
    /// The sentence model's probability under which a sentence is not proposed at all, so
    /// that the request model reads only the sentences that might ask: proposing is the
    /// costly part.
    pub floor: f64,
    /// The request model's probability at which a sentence the tables took from yields a
    /// memory though the ruled model read it as a one-off: the ruled model also reads the
    /// sentences around, and a long message around a plain request ("Please remember that
    /// the controller talks … at 9600 baud" between two sentences about a bug) read to it as
    /// a task's. Above 1, never.
    pub overrule: f64,
}

/// The odds of `capture`, chosen on the training data's development split by
/// `train_models --tune`, never on the test split.
pub const ODDS: Odds = Odds {
    unruled: 0.95,
    ruled: 0.2,
    table_span: 1.1,
    request: 0.2,
    floor: 0.15,
    overrule: 0.9,
};

impl Odds {
    /// The request model's odds for a sentence read as `reading`.
    pub fn request_for(&self, reading: Reading) -> f64 {
        if reading == Reading::Doubted {
            self.overrule
        } else {
            self.request
        }
    }
}

/// What the sentence model makes of a sentence before any proposal is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// It asks to keep a memory.
    Asks,
    /// It does not, by the sentence model; the request model reads its proposals.
    Unsure,
    /// The tables took from it and the ruled model read a one-off: the request model reads
    /// its proposals, and only its near certainty (`Odds::overrule`) keeps one.
    Doubted,
    /// It asks nothing: no proposal is read.
    Nothing,
}

/// Whether the phrase tables took a memory from the sentence, or from the text it points at.
pub fn is_ruled(sentence: &crate::domain::base::classifier::Input) -> bool {
    sentence
        .named
        .iter()
        .any(|name| matches!(*name, "rule:sentence" | "rule:pointed-at"))
}

/// One proposal of a sentence, as the model reads it, with the memories it would give.
pub struct Scored<'a> {
    pub input: crate::domain::base::classifier::Input<'a>,
    pub memories: Vec<(Addressee, String)>,
    /// Whether each of its memories is one the tables took.
    pub rule_took: bool,
}

/// Whether `sentence`, whose proposals are `scored`, yields a memory in `capture`: the
/// sentence model says it asks, or the request model takes one of its proposals.
pub fn asks(
    models: &learned::Models,
    sentence: &crate::domain::base::classifier::Input,
    scored: &[Scored],
) -> bool {
    asks_unless_refused(models, sentence, scored, Refusal::None)
}

/// `asks`, for a sentence in which the tables refused what `refusal` says: the request model
/// does not overrule a refusal, nothing overrules a negation.
pub fn asks_unless_refused(
    models: &learned::Models,
    sentence: &crate::domain::base::classifier::Input,
    scored: &[Scored],
    refusal: Refusal,
) -> bool {
    if refusal == Refusal::Negated {
        return false;
    }
    let reading = reading_with(ODDS, models, sentence);
    match reading {
        Reading::Asks => true,
        Reading::Unsure | Reading::Doubted => {
            refusal == Refusal::None && requested_at(ODDS.request_for(reading), models, scored)
        }
        Reading::Nothing => false,
    }
}

/// What the sentence model makes of `sentence` at the odds `odds`: a memory the tables took
/// and set apart with a colon always asks; any other sentence asks when its model (the ruled
/// model for a sentence the tables took from, the sentence model for any other) gives it more
/// than its odds.
pub fn reading_with(
    odds: Odds,
    models: &learned::Models,
    sentence: &crate::domain::base::classifier::Input,
) -> Reading {
    if learned::has_colon_trigger(sentence) {
        return Reading::Asks;
    }
    let ruled = is_ruled(sentence);
    let p = model_of(models, sentence).predict(sentence).probability(1);
    if p > if ruled { odds.ruled } else { odds.unruled } {
        Reading::Asks
    } else if ruled && odds.overrule <= 1.0 {
        Reading::Doubted
    } else if ruled || p < odds.floor {
        // A sentence the tables took from and the ruled model left is a one-off for the task,
        // when the request model is not let overrule that.
        Reading::Nothing
    } else {
        Reading::Unsure
    }
}

/// The request model's probability for the proposal of `scored` it likes best, of those that
/// give a memory.
pub fn request_probability(models: &learned::Models, scored: &[Scored]) -> f64 {
    let proposals = scored
        .iter()
        .filter(|proposal| !proposal.memories.is_empty())
        .map(|proposal| &proposal.input);
    models
        .request
        .predict_all(proposals)
        .iter()
        .map(|p| p.probability(1))
        .fold(0.0, f64::max)
}

/// Whether the request model gives some proposal of `scored` more than `odds`.
pub fn requested_at(odds: f64, models: &learned::Models, scored: &[Scored]) -> bool {
    request_probability(models, scored) > odds
}

/// The span odds of `sentence`: a memory the tables took and the user set apart with a colon
/// is the text after it, as the tables cut it.
pub fn table_span_of(odds: Odds, sentence: &crate::domain::base::classifier::Input) -> f64 {
    if learned::has_colon_trigger(sentence) {
        0.0
    } else {
        odds.table_span
    }
}

/// The model that reads `sentence`.
pub fn model_of(
    models: &learned::Models,
    sentence: &crate::domain::base::classifier::Input,
) -> crate::domain::base::classifier::Blend {
    if is_ruled(sentence) {
        crate::domain::base::classifier::Blend::bag(models.ruled)
    } else {
        models.sentence
    }
}

/// The proposal the span model likes best, of those that give a memory; but the tables' own,
/// if the model gives it at least `table_span`.
pub fn best_span_at(table_span: f64, models: &learned::Models, scored: &[Scored]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    let mut table: Option<(usize, f64)> = None;
    for (index, proposal) in scored.iter().enumerate() {
        if proposal.memories.is_empty() {
            continue;
        }
        let p = models.span.predict(&proposal.input).probability(1);
        if best.is_none_or(|(_, top)| p > top) {
            best = Some((index, p));
        }
        if proposal.rule_took && table.is_none_or(|(_, top)| p > top) {
            table = Some((index, p));
        }
    }
    match table {
        Some((index, p)) if p >= table_span => Some(index),
        _ => best.map(|(index, _)| index),
    }
}

/// The memories of `message` that `choose` picks, sentence by sentence, from the proposals of
/// `learned` (code, quotes and forwarded text propose nothing), typed by `kinds`. A sentence
/// `asks` refuses is not proposed at all: most sentences ask nothing, and proposing is the
/// costly part.
pub fn walk(
    message: &str,
    kinds: &crate::domain::base::classifier::Weights,
    mut choose: impl FnMut(&crate::domain::base::classifier::Input, &[Scored]) -> Option<usize>,
) -> Captured {
    walk_refusals(message, kinds, |sentence, scored, _| {
        choose(sentence, scored)
    })
}

/// `walk`, also telling `choose` what the tables refused in the sentence (see `Refusal`).
pub fn walk_refusals(
    message: &str,
    kinds: &crate::domain::base::classifier::Weights,
    choose: impl FnMut(&crate::domain::base::classifier::Input, &[Scored], Refusal) -> Option<usize>,
) -> Captured {
    let text = readable_text(message);
    let rules = rules_over(&text, usize::MAX);
    let mut ignored = (HashSet::new(), HashSet::new());
    walk_read(
        &text,
        &rules,
        kinds,
        (&mut ignored.0, &mut ignored.1),
        |_, _| Reading::Asks,
        |_, _| true,
        choose,
    )
}

/// The proposals of `sentence` (see `learned::proposals`), with what the tables took from it
/// among them, each scored as the models read it; `rule_texts` are the tables' memories of the
/// message, `rule_in_sentence` whether one of them is in this sentence.
fn propose<'a>(
    sentence: &'a str,
    through_line: &'a str,
    (pointed_at, runs): (&[&'a str], &[&'a str]),
    next: &'a str,
    items: &[&'a str],
    (rule_texts, rule_in_sentence): (&HashSet<&str>, bool),
) -> (Vec<learned::Proposal<'a>>, Vec<Scored<'a>>) {
    let mut proposals = learned::proposals(sentence, through_line, (pointed_at, runs), next, items);
    // What the tables took from the sentence is always a proposal, however long the
    // trigger before it ("Arregla el typo del header, y recuerda que …").
    for &taken in rule_texts {
        if let Some(at) = sentence.find(taken) {
            let (head, tail) = (&sentence[..at], &sentence[at + taken.len()..]);
            let body = learned::Body::Span(&sentence[at..at + taken.len()]);
            if !proposals.iter().any(|p| p.body == body && p.head == head) {
                proposals.push(learned::Proposal {
                    head,
                    tail,
                    body,
                    next,
                    ..learned::Proposal::default()
                });
            }
        }
    }
    // Whether any text the proposals read may say whom the memory is for.
    let addressed = addressee::mentions_any(through_line)
        || pointed_at.iter().any(|s| addressee::mentions_any(s))
        || items.iter().any(|item| addressee::mentions_any(item));
    // Whether the sentence says its memory recurs or holds for the task at hand, read once
    // for all its proposals.
    let recurring = recurrence::mentions(sentence, recurrence::RECURRING);
    let task_bound = recurrence::mentions(sentence, recurrence::TASK_BOUND);
    let scored: Vec<Scored> = proposals
        .iter()
        .map(|proposal| {
            let found = proposal_memories(proposal, addressed);
            let rule_took = !found.is_empty()
                && found
                    .iter()
                    .all(|(_, text)| rule_texts.contains(text.as_str()));
            let input = learned::input(proposal, rule_took, rule_in_sentence)
                .named_if(recurring, "recurring")
                .named_if(task_bound, "task-bound");
            Scored {
                input,
                memories: found,
                rule_took,
            }
        })
        .collect();
    (proposals, scored)
}

/// `message` as capture reads it: without invisible characters, a host's repeated context
/// and private spans.
fn readable_text(message: &str) -> String {
    let visible = strip_invisible(message);
    let unwrapped = strip_host_context(&visible);
    strip_private(&unwrapped).into_owned()
}

/// `walk` over `text`, already readable, whose phrase tables' capture is `rules`; the texts of
/// the tables' memories that some sentence walked holds or points at go into `decided`.
fn walk_read(
    text: &str,
    rules: &Captured,
    kinds: &crate::domain::base::classifier::Weights,
    (decided, left): (&mut HashSet<String>, &mut HashSet<String>),
    mut reading: impl FnMut(&crate::domain::base::classifier::Input, Refusal) -> Reading,
    mut requested: impl FnMut(Reading, &[Scored]) -> bool,
    mut choose: impl FnMut(&crate::domain::base::classifier::Input, &[Scored], Refusal) -> Option<usize>,
) -> Captured {
    let rule_texts: HashSet<&str> = rules.memories.iter().map(|m| m.text.as_str()).collect();
    // A sentence that asks to forget asks nothing to be kept, whatever else it says ("Also:
    // forget about the read-only staging DB, it's writable since Monday").
    let forgetting: Vec<std::ops::Range<usize>> = forget::forget_requests(text)
        .iter()
        .filter_map(|request| {
            let at = text.find(request.sentence.as_str())?;
            Some(at..at + request.sentence.len())
        })
        .collect();
    let refusal_in = |sentence: &str| {
        let at = sentence.as_ptr() as usize - text.as_ptr() as usize;
        let here = at..at + sentence.len();
        let meets = |ranges: &[std::ops::Range<usize>]| {
            ranges
                .iter()
                .any(|range| range.start < here.end && here.start < range.end)
        };
        if meets(&rules.negated) || meets(&forgetting) {
            Refusal::Negated
        } else if meets(&rules.refused) {
            Refusal::Trigger
        } else {
            Refusal::None
        }
    };
    let lines: Vec<&str> = text.split(LINE_BREAKS).collect();
    let readable = readable_lines(&lines);
    // Every memory: the caller keeps the first ones.
    let mut memories = Collector::with_limit(usize::MAX);
    let mut previous: Option<&str> = None;
    // The sentences since the last one that gave a memory, nearest first: what a pointer may
    // point back at.
    let mut untaken: Vec<&str> = Vec::new();
    // Whether the previous sentence's memory was chosen reading this one as its next
    // ("X. Remember that decision please."): this one was read with it already.
    let mut read_next = false;
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        index += 1;
        if !readable[index - 1] {
            continue;
        }
        let line_sentences = learned::line_sentences(line);
        // Whether the memory just taken ran on through this sentence ("X。Y のため。"): it
        // was read already.
        let mut taken_already = false;
        for (at, &(sentence, is_question)) in line_sentences.iter().enumerate() {
            if std::mem::take(&mut taken_already) {
                read_next = false;
                previous = Some(sentence);
                continue;
            }
            let next = line_sentences
                .get(at + 1)
                .map_or("", |&(next, _)| next)
                .trim();
            let (items, after_items) = if at + 1 == line_sentences.len() {
                learned::items_from(
                    &lines,
                    &readable,
                    index,
                    sentence.trim_end().ends_with([':', '：']),
                )
            } else {
                (Vec::new(), index)
            };
            let from = sentence.as_ptr() as usize - line.as_ptr() as usize;
            let rule_in_sentence = rule_texts.iter().any(|t| sentence.contains(t));
            // The sentences around hold a memory this one points at only when this one holds
            // none of its own: "remember this: X" after "remember this: Y" does not point back
            // at Y, and "Remember: X. Remember that Y." does not point on at Y. Then this one
            // is not read with the next either: that one stands alone. Nor is a sentence read
            // with a next that asks to keep a memory of its own ("We use Postgres. Remember
            // this: we use Postgres over MySQL.").
            let next = if rule_texts
                .iter()
                .any(|t| next.contains(t) && (rule_in_sentence || !is_whole(t, next)))
            {
                ""
            } else {
                next
            };
            let mut rule_points_here = false;
            let mut deciding: Vec<&str> = Vec::new();
            for &t in &rule_texts {
                let here = sentence.contains(t);
                // The next sentence is what this one points at only when it is the memory,
                // with no request of its own: "Remember this. Use pnpm." and not "We use
                // pnpm. Remember this: use pnpm over npm."
                let pointed = (!rule_in_sentence && next.contains(t) && is_whole(t, next))
                    || items.iter().any(|i| i.contains(t))
                    || (!rule_in_sentence && previous.is_some_and(|p| p.contains(t)));
                if here || pointed {
                    decided.insert(t.to_string());
                    deciding.push(t);
                }
                rule_points_here |= pointed;
            }
            let taken = rule_texts
                .iter()
                .filter_map(|t| sentence.find(t).map(|at| (at, at + t.len())))
                .min();
            let asked_in = taken.map_or(sentence, |(at, _)| learned::clause_before(sentence, at));
            let offset = asked_in.as_ptr() as usize - sentence.as_ptr() as usize;
            let context = learned::SentenceContext {
                sentence: asked_in,
                taken: taken.map(|(from, to)| (from - offset, to - offset)),
                before: previous,
                next,
                list_follows: !items.is_empty(),
                is_question,
                rule_in_sentence,
                rule_points_here,
                read_with_previous: read_next,
            };
            let sentence_input = learned::sentence_input(&context);
            let refusal = refusal_in(sentence);
            let read = reading(&sentence_input, refusal);
            let proposed = (read != Reading::Nothing)
                .then(|| {
                    let through_line = &line[from..];
                    // A question is not what the sentence after it asks to keep ("how are
                    // releases made here? look it up in memory"), as it is not what a pointer
                    // after it points back at.
                    let next = if is_question { "" } else { next };
                    let runs = learned::runs_before(text, &untaken);
                    propose(
                        sentence,
                        through_line,
                        (&untaken, &runs),
                        next,
                        &items,
                        (&rule_texts, rule_in_sentence),
                    )
                })
                // A sentence whose trigger the tables refused ("please don't remember this:
                // …") is not overruled by the request model.
                .filter(|(_, scored)| {
                    read == Reading::Asks || (refusal == Refusal::None && requested(read, scored))
                });
            let Some((proposals, scored)) = proposed else {
                left.extend(deciding.iter().map(|t| t.to_string()));
                read_next = false;
                if !is_question {
                    previous = Some(sentence);
                    untaken.insert(0, sentence);
                    untaken.truncate(learned::POINTER_REACH);
                }
                continue;
            };
            let chosen = choose(&sentence_input, &scored, refusal);
            // A sentence that gave a memory was read with a pointer after it ("X. Remember
            // that."): one after it points at nothing before it.
            if chosen.is_some() {
                untaken.clear();
            } else if !is_question {
                untaken.insert(0, sentence);
                untaken.truncate(learned::POINTER_REACH);
            }
            read_next = chosen.is_some_and(|at| !proposals[at].next.is_empty());
            if let Some(chosen) = chosen {
                for (scope, text) in &scored[chosen].memories {
                    let kind = learned::type_of(kinds, text, sentence, proposals[chosen].next);
                    // The tables read whom a memory is for across the whole request ("for
                    // all my projects, remember …"); a proposal reads its own words only.
                    let scope = rules
                        .memories
                        .iter()
                        .find(|m| m.text == *text)
                        .map_or(*scope, |m| m.scope);
                    memories.keep(scope, kind, text.clone());
                }
                match proposals[chosen].body {
                    learned::Body::Items(_) => index = after_items,
                    learned::Body::Span(_) => taken_already = proposals[chosen].runs_on > 0,
                    learned::Body::Before(_) => {}
                }
            }
            if !is_question {
                previous = Some(sentence);
            }
        }
    }
    Captured {
        memories: memories.kept,
        dropped: memories.dropped,
        set_aside: 0,
        refused: Vec::new(),
        negated: Vec::new(),
    }
}

/// Whether `memory` is the whole of `sentence` but for a few characters (its final mark, a
/// filler): then `sentence` asks nothing of its own.
fn is_whole(memory: &str, sentence: &str) -> bool {
    sentence.chars().count() <= memory.chars().count() + WHOLE_SLACK
}

/// How many characters a sentence may hold besides its memory and still be only that memory.
const WHOLE_SLACK: usize = 8;

/// The memories a proposal would give, as the phrase tables' captures are cleaned and
/// addressed; `addressed` says whether its sentence and what it points at hold any scope
/// phrase at all.
fn proposal_memories(proposal: &learned::Proposal, addressed: bool) -> Vec<(Addressee, String)> {
    if !addressed {
        let plain = |raw: &str| body::clean_body(raw).map(|text| (Addressee::Workspace, text));
        return match &proposal.body {
            learned::Body::Span(body) | learned::Body::Before(body) => {
                plain(body).into_iter().collect()
            }
            learned::Body::Items(items) => items.iter().filter_map(|item| plain(item)).collect(),
        };
    }
    match &proposal.body {
        learned::Body::Span(body) => memory_of(proposal.head, body, Addressee::Workspace)
            .into_iter()
            .collect(),
        learned::Body::Before(body) => {
            memory_of("", body, addressee::of_pointing_sentence(proposal.tail))
                .into_iter()
                .collect()
        }
        learned::Body::Items(items) => {
            let scope = addressee::of_pointing_sentence(proposal.head);
            items
                .iter()
                .filter_map(|item| memory_of("", item, scope))
                .collect()
        }
    }
}

/// What the phrase tables alone capture: the rule hits the model weighs.
pub fn rule_capture(message: &str) -> Captured {
    let visible = strip_invisible(message);
    rules_over(&strip_private(&visible), MAX_MEMORIES_PER_MESSAGE)
}

/// `rule_capture` over `text`, already without invisible characters and private spans,
/// keeping the first `limit` memories.
fn rules_over(text: &str, limit: usize) -> Captured {
    let lines: Vec<&str> = text.split(LINE_BREAKS).collect();
    let readable = readable_lines(&lines);
    let mut memories = Collector::with_limit(limit);
    let (mut refused, mut negated) = (Vec::new(), Vec::new());
    // The last sentence without a trigger: what "remember that" points at.
    let mut previous: Option<&str> = None;
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        index += 1;
        if !readable[index - 1] {
            continue;
        }
        let spans = Spans::of(line);
        let content_end = line.trim_end().len();
        for sentence in sentences(line) {
            let at_line_end = line[sentence.end..].trim().is_empty() && sentence.end <= content_end;
            match find(line, &spans, &sentence, at_line_end) {
                None => {
                    let plain = line[sentence.start..sentence.end].trim();
                    if !sentence.is_question && !plain.is_empty() {
                        previous = Some(plain);
                    }
                }
                Some(Found::Body(range)) => memories.push(
                    &line[sentence.start..range.start],
                    &line[range],
                    Addressee::Workspace,
                ),
                Some(Found::Back) => {
                    if let Some(before) = previous.take() {
                        let scope =
                            addressee::of_pointing_sentence(&line[sentence.start..sentence.end]);
                        memories.push("", before, scope);
                    }
                }
                Some(Found::Forward) => {
                    let scope =
                        addressee::of_pointing_sentence(&line[sentence.start..sentence.end]);
                    index = take_following(&lines, &readable, index, scope, &mut memories);
                }
                Some(found @ (Found::Nothing | Found::Negated)) => {
                    let at = line.as_ptr() as usize - text.as_ptr() as usize;
                    let range = at + sentence.start..at + sentence.end;
                    if matches!(found, Found::Negated) {
                        negated.push(range.clone());
                    }
                    refused.push(range);
                }
            }
        }
    }
    Captured {
        memories: memories.kept,
        dropped: memories.dropped,
        set_aside: 0,
        refused,
        negated,
    }
}

/// The memories on the lines after a trigger that points forward, from line `from`: one per
/// item of a list, else the first sentence of the next line, each addressed to `scope` at
/// least. Returns the first line not taken.
fn take_following(
    lines: &[&str],
    readable: &[bool],
    from: usize,
    scope: Addressee,
    memories: &mut Collector,
) -> usize {
    let mut index = from;
    while index < lines.len() && readable[index] && lines[index].trim().is_empty() {
        index += 1;
    }
    if index >= lines.len() || !readable[index] {
        return index;
    }
    if list_item(lines[index]).is_none() {
        memories.push("", first_sentence(lines[index]), scope);
        return index + 1;
    }
    let mut taken = index;
    while index < lines.len() && readable[index] {
        if lines[index].trim().is_empty() {
            index += 1;
            continue;
        }
        let Some(item) = list_item(lines[index]) else {
            break;
        };
        let spans = Spans::of(item);
        let (before, body) = sentences(item)
            .find_map(|sentence| match find(item, &spans, &sentence, false) {
                Some(Found::Body(range)) => {
                    Some((&item[sentence.start..range.start], &item[range]))
                }
                _ => None,
            })
            .unwrap_or_else(|| ("", first_sentence(item)));
        memories.push(before, body, scope);
        index += 1;
        taken = index;
    }
    taken
}

fn first_sentence(line: &str) -> &str {
    sentences(line)
        .map(|sentence| &line[sentence.start..sentence.end])
        .find(|text| !text.trim().is_empty())
        .unwrap_or("")
}

/// The memories of a message as they are found: distinct texts, the first ones kept.
struct Collector {
    kept: Vec<ExplicitMemory>,
    dropped: usize,
    seen: HashSet<String>,
    limit: usize,
}

impl Default for Collector {
    fn default() -> Self {
        Collector::with_limit(MAX_MEMORIES_PER_MESSAGE)
    }
}

/// The memory of `raw`, which its sentence follows `before`, and whom it is for; `hint` is
/// the scope of the sentence that pointed at it, if another.
fn memory_of(before: &str, raw: &str, hint: Addressee) -> Option<(Addressee, String)> {
    let text = body::clean_body(raw)?;
    let (scope, text) = match addressee::split(before, &text) {
        (Addressee::User, rest) => (Addressee::User, body::clean_body(&rest)),
        // Naming this repository makes it ambiguous, whatever pointed at it.
        (Addressee::Workspace, text) if addressee::names_this_repository(&text) => {
            (Addressee::Workspace, Some(text))
        }
        (Addressee::Workspace, text) => (hint, Some(text)),
    };
    Some((scope, text?))
}

impl Collector {
    fn with_limit(limit: usize) -> Self {
        Collector {
            kept: Vec::new(),
            dropped: 0,
            seen: HashSet::new(),
            limit,
        }
    }

    /// Files the memory of `raw`, which its sentence follows `before`; `hint` is the scope of
    /// the sentence that pointed at it, if another.
    fn push(&mut self, before: &str, raw: &str, hint: Addressee) {
        if let Some((scope, text)) = memory_of(before, raw, hint) {
            let kind = classify(&text);
            self.keep(scope, kind, text);
        }
    }

    fn keep(&mut self, scope: Addressee, kind: MemoryType, text: String) {
        if self.seen.contains(&text) {
            return;
        }
        if self.kept.len() < self.limit {
            self.seen.insert(text.clone());
            self.kept.push(ExplicitMemory { kind, text, scope });
        } else {
            self.seen.insert(text);
            self.dropped += 1;
        }
    }
}

#[cfg(test)]
mod learned_tests;
#[cfg(test)]
mod tests;
