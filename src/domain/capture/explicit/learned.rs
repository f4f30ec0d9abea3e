//! Which text of a message is a memory the user asked for, learned. Extraction stays
//! structural: each readable sentence proposes where its memory could be (the whole sentence;
//! the sentence without a short opening, "pls remeber:"; without a short ending, ", keep that in
//! mind" or "…ことを覚えといて"; the sentence before it when it only points back, "remember that";
//! the items of a list under it) and the model scores each proposal from the n-grams of what the
//! proposal leaves out (the trigger, if it is one), of the memory itself (a one-off for this
//! task, "before you finish this", is not a memory), and from whether the phrase tables of
//! `triggers.rs` took the same text. A sentence yields its best proposal when the model gives
//! it more than even odds.

use crate::domain::base::classifier::{
    tokens, Blend, Contribution, ConvWeights, Field, Input, Prediction, Weights,
};

use crate::domain::base::text::{is_han_or_kana, is_hangul_syllable};
use crate::domain::memory::kind::MemoryType;

use super::recurrence::{self, RECURRING, TASK_BOUND};
use super::scan::{list_item, sentences};
use super::spelling;
use super::vocabulary;

/// Whether a sentence asks to keep a memory (the sentence model), and whether a proposal is
/// where that memory is (the span model).
pub const CLASSES: [&str; 2] = ["no", "yes"];
pub const BITS: u32 = 16;
pub const SENTENCE_WEIGHTS_FILE: &str = "src/domain/capture/explicit/sentence.weights";
pub const RULED_WEIGHTS_FILE: &str = "src/domain/capture/explicit/ruled.weights";
/// The ruled model reads few sentences (those the tables took from): fewer buckets.
pub const RULED_BITS: u32 = 14;
pub const SPAN_WEIGHTS_FILE: &str = "src/domain/capture/explicit/span.weights";
pub const REQUEST_WEIGHTS_FILE: &str = "src/domain/capture/explicit/request.weights";
pub const TYPE_WEIGHTS_FILE: &str = "src/domain/capture/explicit/type.weights";
/// The convolutions that read the sentence and request models' inputs in order.
pub const SENTENCE_ORDER_FILE: &str = "src/domain/capture/explicit/sentence-order.weights";
pub const REQUEST_ORDER_FILE: &str = "src/domain/capture/explicit/request-order.weights";
/// The convolutions' rows: fewer than the bags', each a vector.
pub const ORDER_BITS: u32 = 14;
/// The memory types, in the type model's order.
pub const TYPES: [MemoryType; 4] = [
    MemoryType::Feedback,
    MemoryType::Project,
    MemoryType::Decision,
    MemoryType::Reference,
];
pub const TYPE_BITS: u32 = 15;
static SENTENCE_WEIGHTS: &[u8] = include_bytes!("sentence.weights");
static RULED_WEIGHTS: &[u8] = include_bytes!("ruled.weights");
static SPAN_WEIGHTS: &[u8] = include_bytes!("span.weights");
static REQUEST_WEIGHTS: &[u8] = include_bytes!("request.weights");
static TYPE_WEIGHTS: &[u8] = include_bytes!("type.weights");
static SENTENCE_ORDER: &[u8] = include_bytes!("sentence-order.weights");
static REQUEST_ORDER: &[u8] = include_bytes!("request-order.weights");

/// The models of explicit capture.
#[derive(Debug, Clone, Copy)]
pub struct Models {
    /// Whether a sentence the phrase tables took nothing from asks to keep a memory: read as
    /// a bag of n-grams and in order.
    pub sentence: Blend,
    /// Whether a sentence the tables took a memory from (or that points at one) asks to keep
    /// it, rather than asking a one-off for the task at hand: learned from such sentences
    /// alone, so that it weighs what sets a one-off apart, not what makes a trigger.
    pub ruled: Weights,
    pub span: Weights,
    /// Whether a proposal is a memory the user asked to keep, read with what it leaves out
    /// (the trigger, the pointer after it) apart from the memory itself: learned from every
    /// sentence, those that ask nothing too, so that a request the sentence model misses for
    /// its words around the trigger ("X, behalt das mal im Hinterkopf") is still seen. Read
    /// as a bag of n-grams and in order.
    pub request: Blend,
    pub kind: Weights,
}

pub fn models() -> Models {
    Models {
        sentence: Blend {
            bag: Weights::compiled(SENTENCE_WEIGHTS, 2),
            order: Some(ConvWeights::compiled(SENTENCE_ORDER, 2)),
        },
        ruled: Weights::compiled(RULED_WEIGHTS, 2),
        span: Weights::compiled(SPAN_WEIGHTS, 2),
        request: Blend {
            bag: Weights::compiled(REQUEST_WEIGHTS, 2),
            order: Some(ConvWeights::compiled(REQUEST_ORDER, 2)),
        },
        kind: type_weights(),
    }
}

/// The type model's weights alone, for what needs a type and nothing else (a candidate line
/// that names none).
pub fn type_weights() -> Weights {
    Weights::compiled(TYPE_WEIGHTS, TYPES.len())
}

/// What the sentence model reads of a sentence: its text, the short sentences around it (a
/// pointer such as "remember that" may stand after what it points at), and what the phrase
/// tables made of it.
#[derive(Debug, Clone, Copy)]
pub struct SentenceContext<'a> {
    pub sentence: &'a str,
    pub before: Option<&'a str>,
    pub next: &'a str,
    pub list_follows: bool,
    pub is_question: bool,
    pub rule_in_sentence: bool,
    pub rule_points_here: bool,
    /// Whether the sentence before gave a memory reading this one as the sentence after it:
    /// then this one is most often its pointer ("Remember that decision please").
    pub read_with_previous: bool,
    /// Where in `sentence` the memory the tables took from it stands, if they took one.
    pub taken: Option<(usize, usize)>,
}

pub fn sentence_input<'a>(context: &SentenceContext<'a>) -> Input<'a> {
    if let Some((from, to)) = context.taken {
        return ruled_input(context, from, to);
    }
    let mut input = Input::default()
        .masked(vocabulary::is_known)
        .text(Field::Whole, context.sentence)
        .named_if(context.rule_in_sentence, "rule:sentence")
        .named_if(context.rule_points_here, "rule:pointed-at")
        .named_if(context.is_question, "question")
        .named_if(context.list_follows, "list-follows")
        .named_if(context.read_with_previous, "read-with-previous")
        .named_if(is_short(context.sentence), "short")
        .named_if(
            recurrence::mentions(context.sentence, RECURRING),
            "recurring",
        )
        .named_if(
            recurrence::mentions(context.sentence, TASK_BOUND),
            "task-bound",
        );
    // Its opening and its ending on their own: that is where a trigger stands.
    let sentence = context.sentence.trim();
    let opening = sentence
        .char_indices()
        .nth(EDGE_CHARS)
        .map_or(sentence, |(at, _)| &sentence[..at]);
    let ending = sentence
        .char_indices()
        .rev()
        .nth(EDGE_CHARS)
        .map_or(sentence, |(at, _)| &sentence[at..]);
    input = input.text(Field::Head, opening).text(Field::Tail, ending);
    for word in spelling::corrections(opening) {
        input = input.text(Field::Head, word);
    }
    for word in spelling::corrections(ending) {
        input = input.text(Field::Tail, word);
    }
    with_neighbours(input, context)
}

/// What the ruled model reads of a sentence the tables took the memory at bytes `from..to`
/// from: the trigger before it, the memory, and what follows it, each apart. Whether a request
/// is a one-off for the task is said in the memory ("… before you merge this PR"), and how it
/// is asked in the trigger ("remember to …" against "remember this: …"): read together, the
/// "this" of a trigger is taken for the "this" of a task.
fn ruled_input<'a>(context: &SentenceContext<'a>, from: usize, to: usize) -> Input<'a> {
    let sentence = context.sentence;
    let (trigger, memory, after) = (&sentence[..from], &sentence[from..to], &sentence[to..]);
    let mut input = Input::default()
        .masked(vocabulary::is_known)
        .text(Field::Body, memory)
        .text(Field::Head, trigger)
        .named("rule:sentence")
        .named_if(is_colon_trigger(trigger), "trigger:colon")
        .named_if(context.rule_points_here, "rule:pointed-at")
        .named_if(context.is_question, "question")
        .named_if(context.list_follows, "list-follows")
        .named_if(context.read_with_previous, "read-with-previous")
        .named_if(trigger.trim().is_empty(), "trigger:none")
        .named_if(after.trim().is_empty(), "after:none")
        .named_if(recurrence::mentions(sentence, RECURRING), "recurring")
        .named_if(recurrence::mentions(sentence, TASK_BOUND), "task-bound");
    for word in spelling::corrections(trigger) {
        input = input.text(Field::Head, word);
    }
    if !after.trim().is_empty() {
        input = input.text(Field::Tail, after);
    }
    with_neighbours(input, context)
}

/// `input` with the sentences around its sentence, which both sentence models read.
fn with_neighbours<'a>(mut input: Input<'a>, context: &SentenceContext<'a>) -> Input<'a> {
    if let Some(before) = context.before {
        input = input.text(Field::Before, before);
    }
    if !context.next.is_empty() {
        input = input.text(Field::After, context.next);
    }
    input
}

/// Whether the words before a memory end with a colon ("remember this:", "覚えておいて：",
/// "for all my projects:"): the user has set the memory apart as one, and the one-offs of
/// the task are not asked this way.
pub fn is_colon_trigger(trigger: &str) -> bool {
    let trigger = trigger.trim_end();
    trigger.ends_with([':', '：']) && trigger.chars().any(char::is_alphanumeric)
}

/// Whether the ruled model read `sentence` as a memory set apart by a colon.
pub fn has_colon_trigger(sentence: &Input) -> bool {
    sentence.named.contains(&"trigger:colon")
}

/// The clause of `sentence` whose memory starts at byte `at`: from the last mark before it that
/// words follow before `at` (the trigger's own words: ", y recuerda que …"), or the whole
/// sentence. A request to remember stands in its own clause, and the task asked in the clause
/// before ("Fix the typo in the header, and remember …") does not make it a one-off.
pub fn clause_before(sentence: &str, at: usize) -> &str {
    let before = &sentence[..at];
    let mut cut = 0;
    for (mark_at, mark) in before.match_indices(CLAUSE_MARKS) {
        let between = &before[mark_at + mark.len()..];
        if between.chars().any(char::is_alphanumeric) {
            cut = mark_at + mark.len();
        }
    }
    sentence[cut..].trim_start()
}

/// What ends a clause.
const CLAUSE_MARKS: &[char] = &[',', '，', ';', '；', '、', '—', '–', ':', '：'];

/// How much of a sentence's opening and ending the sentence model reads apart.
const EDGE_CHARS: usize = 24;

/// What the type model reads: the memory (its words and its characters: a type is about what
/// the memory says), what its sentence says around it (the trigger: "record this decision"),
/// and the type the rules of `kind.rs` give it.
pub fn type_input<'a>(text: &'a str, sentence: &'a str, rule_type: MemoryType) -> Input<'a> {
    let rule = match rule_type {
        MemoryType::Feedback => "rule:feedback",
        MemoryType::Project => "rule:project",
        MemoryType::Decision => "rule:decision",
        MemoryType::Reference => "rule:reference",
    };
    // A memory of more than one sentence is most often a choice and its reason ("X。Y のた
    // め", "X. Y 때문입니다").
    let input = Input::default()
        .text(Field::Body, text)
        .text(Field::Whole, text)
        .named(rule)
        .named_if(line_sentences(text).len() > 1, "sentences:more");
    match sentence.find(text) {
        Some(at) => {
            let (before, after) = (&sentence[..at], &sentence[at + text.len()..]);
            input.text(Field::Head, before).text(Field::Tail, after)
        }
        None => input.text(Field::Head, sentence),
    }
}

/// The type of a memory of `text` from `sentence`, read with the sentence `next` after it.
pub fn type_of(weights: &Weights, text: &str, sentence: &str, next: &str) -> MemoryType {
    // A choice the user calls a decision is one, whatever else its words say: in the memory
    // ("we decided …") or in the request that asks to keep it ("Decision made: X", "X. Keep
    // this decision."): the words of `sentence` around the memory, or all of them when the
    // memory comes from elsewhere (a sentence pointed back at, a list's item), and `next`,
    // the short sentence after it that its proposal read.
    let request = match sentence.find(text) {
        Some(at) => [&sentence[..at], &sentence[at + text.len()..], next],
        None => [sentence, "", next],
    };
    if super::kind::named_type(text) == Some(MemoryType::Decision)
        || request
            .iter()
            .any(|words| super::kind::names_decision(words))
    {
        return MemoryType::Decision;
    }
    let rule_type = super::classify(text);
    TYPES[weights
        .predict(&type_input(text, sentence, rule_type))
        .best()]
}

/// A sentence proposes to leave out an opening of at most this many characters, or one that
/// ends with a mark, and an ending of at most `TAIL_REACH` characters, or one that starts with
/// a mark: a trigger is short, and each proposal costs a scoring.
const HEAD_REACH: usize = 40;
const TAIL_REACH: usize = 30;
/// Openings left out together with an ending are shorter, or end with a mark.
const PAIR_HEAD_REACH: usize = 16;
/// A request set apart by a mark in the middle of a sentence ("The one thing that keeps
/// biting us: please remember that X") is an opening of at most this many characters after the
/// mark, ending before a word that follows a space.
const STACKED_HEAD_REACH: usize = 24;
/// At most this many openings are left out of a sentence pointed back at.
const MAX_RUN_OPENINGS: usize = 3;
/// At most this many proposals per sentence.
const MAX_PROPOSALS: usize = 400;
/// What ends an opening or starts an ending.
const MARKS: &[char] = &[
    ':', '：', ',', '，', '、', ';', '；', '—', '–', '(', '（', '-',
];
/// Whether `head`, what a proposal leaves out before its memory, ends at a mark. A
/// hyphen is one only with a space on each side: "corvid-ranker", "set -euo" and
/// "back-and-forth" are words; a dash ("—", "–") always is.
pub(super) fn ends_at_mark(head: &str) -> bool {
    let edge = head.trim_end();
    match edge.strip_suffix('-') {
        Some(rest) => {
            let rest = rest.trim_end_matches('-');
            edge.len() < head.len() && (rest.is_empty() || rest.ends_with(char::is_whitespace))
        }
        None => edge.ends_with(MARKS),
    }
}

/// Whether `tail`, what a proposal leaves out after its memory, starts at a mark (a
/// hyphen with a space on each side, as in `ends_at_mark`).
pub(super) fn starts_at_mark(tail: &str) -> bool {
    let edge = tail.trim_start();
    match edge.strip_prefix('-') {
        Some(rest) => {
            let rest = rest.trim_start_matches('-');
            edge.len() < tail.len() && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        }
        None => edge.starts_with(MARKS),
    }
}

/// Whether byte `at` of `s` is beside a colon or comma between two digits ("3:30", "0,5"),
/// which is part of a number, not a mark that ends a trigger.
pub(super) fn inside_number(s: &str, at: usize) -> bool {
    let (before, after) = s.split_at(at);
    let mut back = before.chars().rev();
    let mut on = after.chars();
    let digit_colon_digit = |a: Option<char>, mark: Option<char>, b: Option<char>| {
        a.is_some_and(|c| c.is_ascii_digit())
            && mark.is_some_and(|c| c == ':' || c == ',')
            && b.is_some_and(|c| c.is_ascii_digit())
    };
    let (b1, b2) = (back.next(), back.next());
    let (a1, a2) = (on.next(), on.next());
    digit_colon_digit(b2, b1, a1) || digit_colon_digit(b1, a1, a2)
}

/// Sentences longer than this propose only themselves and their list.
const MAX_SENTENCE_BYTES: usize = 600;
/// A sentence of at most this many words may point back at the one before it: "Please
/// don't forget this again", "Note-le une fois pour toutes, merci".
const POINTER_WORDS: usize = 8;
/// How many sentences back a pointer may point: "X. You ran it against prod again. Don't
/// forget it." points past the complaint at X.
pub(super) const POINTER_REACH: usize = 3;
/// Characters of unspaced script to a word, for that count: "これは決定事項として覚えておいて
/// ください" is a pointer as short as "Remember it as a decision, please".
const UNSPACED_PER_WORD: usize = 3;

/// Whether `sentence` is short enough to point back at the one before it.
fn is_short(sentence: &str) -> bool {
    let mut words: usize = 0;
    let mut unspaced: usize = 0;
    let mut in_word = false;
    for c in sentence.chars() {
        if is_han_or_kana(c) {
            unspaced += 1;
            in_word = false;
        } else if c.is_alphanumeric() {
            words += usize::from(!in_word);
            in_word = true;
        } else {
            in_word = false;
        }
    }
    words + unspaced.div_ceil(UNSPACED_PER_WORD) <= POINTER_WORDS
}

/// Where a proposal's memory text comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body<'a> {
    /// A span of the sentence.
    Span(&'a str),
    /// The sentence before, which this one points back at.
    Before(&'a str),
    /// The items of the list under the sentence.
    Items(Vec<&'a str>),
}

/// One place a sentence's memory could be.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proposal<'a> {
    /// What the sentence holds before the memory, and after it.
    pub head: &'a str,
    pub tail: &'a str,
    pub body: Body<'a>,
    /// The sentence after, when it is short: "X. Remember that." shows in X's proposal too.
    pub next: &'a str,
    /// For a memory pointed back at: how many sentences lie between it and the pointer ("X.
    /// You did it again. Remember that." skips one).
    pub back: usize,
    /// How many sentences the memory runs on past its first: a rule and its reason
    /// ("X。Y（理由）。覚えといて", "決定：X。Y のため").
    pub runs_on: usize,
    /// For a memory that runs on through the next sentence, that sentence: read apart, so
    /// that a reason ("…ので") weighs otherwise than a request for now ("…もらえますか").
    pub run: &'a str,
}

impl Default for Body<'_> {
    fn default() -> Self {
        Body::Span("")
    }
}

/// Whether `c` is written without spaces between words, or glues its particles to words
/// (Korean), so that any character boundary may start a memory.
fn is_unspaced(c: char) -> bool {
    is_han_or_kana(c) || is_hangul_syllable(c)
}

/// The byte offsets of `s` where a memory may start or end: word starts and ends, and every
/// character boundary beside unspaced script.
fn boundaries(s: &str) -> Vec<usize> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut out = Vec::new();
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let word = |c: char| c.is_alphanumeric();
        if is_unspaced(c)
            || is_unspaced(prev)
            || (word(c) && !word(prev))
            || (!word(c) && word(prev))
        {
            out.push(at);
        }
    }
    out
}

/// Every proposal of the sentence `s`, given the sentence before it (`before`, not a question)
/// and the one after, and the list items under it when it ends its line.
///
/// `through_line` is the sentence and the rest of its line: a memory of several sentences
/// follows an opening that ends with a mark ("決定メモ：X。Y", "Note for later: X; Y") or a
/// sentence that only announces it ("Record this decision. X. Y").
///
/// `runs` are the sentences before pointed back at together, nearest first: the one before
/// with the one before it, then with the two before it (see `runs_before`).
pub fn proposals<'a>(
    s: &'a str,
    through_line: &'a str,
    (before, runs): (&[&'a str], &[&'a str]),
    next: &'a str,
    items: &[&'a str],
) -> Vec<Proposal<'a>> {
    let trimmed = s.trim();
    let through_line = through_line.trim();
    let mut out = vec![Proposal {
        head: "",
        tail: "",
        body: Body::Span(trimmed),
        next,
        ..Proposal::default()
    }];
    if !items.is_empty() {
        out.push(Proposal {
            head: trimmed,
            tail: "",
            body: Body::Items(items.to_vec()),
            next: "",
            ..Proposal::default()
        });
    }
    if trimmed.len() > MAX_SENTENCE_BYTES {
        return out;
    }
    // A memory starts after a short opening, or after a mark wherever it is ("Remember this,
    // because I've said it three times now: …"); it ends before a short ending, or before a
    // mark.
    // Nothing starts or ends inside a number ("매일 06:30에", "1,5 kg").
    let cuts: Vec<usize> = boundaries(trimmed)
        .into_iter()
        .filter(|&at| !inside_number(trimmed, at))
        .collect();
    let chars_to = |at: usize| trimmed[..at].chars().count();
    let total = chars_to(trimmed.len());
    let after_mark = |at: usize| ends_at_mark(&trimmed[..at]) && !inside_number(trimmed, at);
    let before_mark = |at: usize| starts_at_mark(&trimmed[at..]) && !inside_number(trimmed, at);
    let mut heads: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&at| chars_to(at) <= HEAD_REACH || after_mark(at))
        .collect();
    // Past an opening that ends with a mark, a short request may open the memory as one opens
    // a sentence; a trigger is spaced from its memory in the languages that cut words by spaces.
    let marked: Vec<usize> = heads.iter().copied().filter(|&at| after_mark(at)).collect();
    let stacked: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&at| {
            trimmed[..at].ends_with(char::is_whitespace)
                && marked.iter().any(|&mark| {
                    mark < at
                        && trimmed[mark..at].trim_start().chars().count() <= STACKED_HEAD_REACH
                })
        })
        .collect();
    heads.extend(&stacked);
    heads.sort_unstable();
    heads.dedup();
    let tails: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&at| total - chars_to(at) <= TAIL_REACH || before_mark(at))
        .collect();
    for &at in &heads {
        out.push(Proposal {
            head: &trimmed[..at],
            tail: "",
            body: Body::Span(&trimmed[at..]),
            next,
            ..Proposal::default()
        });
    }
    let more_on_line = through_line.len() > trimmed.len() && through_line.starts_with(trimmed);
    if more_on_line {
        for &at in heads.iter().filter(|&&at| after_mark(at)) {
            out.push(Proposal {
                head: &trimmed[..at],
                tail: "",
                body: Body::Span(&through_line[at..]),
                next: "",
                ..Proposal::default()
            });
        }
        let rest = through_line[trimmed.len()..]
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .trim();
        out.push(Proposal {
            head: trimmed,
            tail: "",
            body: Body::Span(rest),
            next: "",
            ..Proposal::default()
        });
    }
    // The memory runs on through the next sentence, from the start or after an opening: "覚え
    // て: X。Y", "今後は、X。Y ので。よろしく".
    if let Some(run_end) = end_within(through_line, next) {
        for head in std::iter::once(0).chain(
            heads
                .iter()
                .copied()
                .filter(|&at| after_mark(at) || chars_to(at) <= PAIR_HEAD_REACH),
        ) {
            out.push(Proposal {
                head: &trimmed[..head],
                body: Body::Span(&through_line[head..run_end]),
                runs_on: 1,
                run: next,
                ..Proposal::default()
            });
        }
    }
    for &at in &tails {
        out.push(Proposal {
            head: "",
            tail: &trimmed[at..],
            body: Body::Span(&trimmed[..at]),
            next,
            ..Proposal::default()
        });
    }
    // An opening and an ending both left out: "please remember: X, ok?", "あ、そうそう、X
    // ってこと覚えといてね". The opening ends at a mark or is short.
    'pairs: for &head in heads
        .iter()
        .filter(|&&at| after_mark(at) || chars_to(at) <= PAIR_HEAD_REACH || stacked.contains(&at))
    {
        for &end in tails.iter().filter(|&&end| end > head) {
            if out.len() >= MAX_PROPOSALS {
                break 'pairs;
            }
            out.push(Proposal {
                head: &trimmed[..head],
                tail: &trimmed[end..],
                body: Body::Span(&trimmed[head..end]),
                next,
                ..Proposal::default()
            });
        }
    }
    if is_short(trimmed) {
        // From the start of the sentence pointed at, or past an opening set apart by a mark,
        // as a sentence's memory may start: "No, X. Don't forget it again.", "팀 논의 결과, X.
        // Y 때문입니다. 메모해 두세요."
        for (back, &before) in before.iter().take(POINTER_REACH).enumerate() {
            for at in std::iter::once(0).chain(openings(before, before.len())) {
                out.push(Proposal {
                    head: &before[..at],
                    tail: trimmed,
                    body: Body::Before(&before[at..]),
                    back,
                    ..Proposal::default()
                });
            }
        }
        for (more, &run) in runs.iter().enumerate() {
            let first = before.get(more + 1).map_or(0, |s| s.len()).min(run.len());
            for at in std::iter::once(0).chain(openings(run, first)) {
                out.push(Proposal {
                    head: &run[..at],
                    tail: trimmed,
                    body: Body::Before(&run[at..]),
                    runs_on: more + 1,
                    ..Proposal::default()
                });
            }
        }
    }
    out
}

/// Where, within the first `within` bytes of `s`, an opening set apart by a mark ends: at
/// most `MAX_RUN_OPENINGS` of them, none longer than `HEAD_REACH` characters.
fn openings(s: &str, within: usize) -> impl Iterator<Item = usize> + '_ {
    boundaries(&s[..within])
        .into_iter()
        .filter(move |&at| {
            ends_at_mark(&s[..at]) && !inside_number(s, at) && s[..at].chars().count() <= HEAD_REACH
        })
        .take(MAX_RUN_OPENINGS)
}

/// Where `part`, a slice of `whole`, ends in it: `None` when it is empty or lies elsewhere.
fn end_within(whole: &str, part: &str) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    let end = start + part.len();
    (!part.is_empty() && end <= whole.len()).then_some(end)
}

/// The sentences before a pointer, nearest first, read together: the nearest with the one
/// before it, then with the two before it, while they follow each other on one line with
/// nothing between them but marks and spaces. All are slices of `text`.
pub fn runs_before<'a>(text: &'a str, before: &[&'a str]) -> Vec<&'a str> {
    let base = text.as_ptr() as usize;
    let offset = |s: &str| (s.as_ptr() as usize).checked_sub(base);
    let Some((&nearest, earlier)) = before.split_first() else {
        return Vec::new();
    };
    let Some(end) = offset(nearest).map(|at| at + nearest.len()) else {
        return Vec::new();
    };
    let mut runs = Vec::new();
    let mut later = nearest;
    for &sentence in earlier.iter().take(POINTER_REACH - 1) {
        let (Some(from), Some(later_from)) = (offset(sentence), offset(later)) else {
            break;
        };
        let Some(gap) = text.get(from + sentence.len()..later_from) else {
            break;
        };
        if end > text.len() || gap.contains('\n') || gap.chars().any(char::is_alphanumeric) {
            break;
        }
        runs.push(&text[from..end]);
        later = sentence;
    }
    runs
}

/// The model's input for a proposal; `rule_took` says whether the phrase tables took the same
/// text, `rule_in_sentence` whether they took anything from the sentence.
pub fn input<'a>(proposal: &Proposal<'a>, rule_took: bool, rule_in_sentence: bool) -> Input<'a> {
    let mut input = Input::default()
        .masked(vocabulary::is_known)
        .named_if(rule_took, "rule:took")
        .named_if(rule_in_sentence, "rule:sentence")
        .named_if(proposal.head.is_empty(), "head:none")
        .named_if(proposal.tail.is_empty(), "tail:none")
        .named_if(
            proposal.head.trim_end().ends_with([':', '：'])
                || (ends_at_mark(proposal.head) && proposal.head.trim_end().ends_with(['-', '—'])),
            "head:colon",
        )
        // A topic set apart by a comma ("猫カフェのやつ、X", "민박 건 말인데요, X") is often
        // left out of a memory, a clause of the rule itself often not.
        .named_if(
            proposal.head.trim_end().ends_with([',', '，', '、']),
            "head:comma",
        )
        .named_if(
            proposal
                .tail
                .trim_start()
                .starts_with([',', '，', '、', '('])
                || (starts_at_mark(proposal.tail)
                    && proposal.tail.trim_start().starts_with(['-', '—'])),
            "tail:comma",
        );
    input = input
        .named(edge_shape(proposal.head, true))
        .named(edge_shape(proposal.tail, false))
        .named_if(
            match &proposal.body {
                Body::Span(text) | Body::Before(text) => text.trim_end().ends_with([':', '：']),
                Body::Items(_) => false,
            },
            "body:announces",
        );
    if !proposal.head.is_empty() {
        input = input.text(Field::Head, proposal.head);
        for word in spelling::corrections(proposal.head) {
            input = input.text(Field::Head, word);
        }
    }
    if !proposal.tail.is_empty() {
        input = input.text(Field::Tail, proposal.tail);
        for word in spelling::corrections(proposal.tail) {
            input = input.text(Field::Tail, word);
        }
    }
    if !proposal.next.is_empty() {
        input = input.named("next").text(Field::Whole, proposal.next);
    }
    // What a proposal keeps and leaves out, read for whether it names anything: a chatty
    // opening or ending ("Errado de novo, …", "…, ¿vale", "…, beleza") names nothing the
    // memory is about, a clause of the memory most often does.
    input = input
        .named_if(
            !proposal.head.is_empty() && names_something(proposal.head),
            "head:names",
        )
        .named_if(
            !proposal.tail.is_empty() && names_something(proposal.tail),
            "tail:names",
        );
    if let Body::Span(text) | Body::Before(text) = &proposal.body {
        let clauses: Vec<&str> = text
            .split(CLAUSE_MARKS)
            .filter(|clause| !clause.trim().is_empty())
            .collect();
        // Words never run across a clause mark, so the body names something when one of its
        // clauses does: each clause is read once.
        let names: Vec<bool> = clauses
            .iter()
            .map(|clause| names_something(clause))
            .collect();
        input = input
            .named_if(!names.contains(&true), "body:names-nothing")
            .named_if(names.len() > 1 && !names[0], "body:opens-naming-nothing")
            .named_if(
                names.len() > 1 && !names[names.len() - 1],
                "body:ends-naming-nothing",
            );
    }
    match &proposal.body {
        // A misspelt trigger left inside the memory ("…, dont touch it. rmemeber") reads as
        // the trigger it is.
        Body::Span(text) => {
            let mut input = input
                .named_if(proposal.runs_on > 0, "runs-on")
                .text(Field::Body, text);
            if !proposal.run.is_empty() {
                input = input.text(Field::After, proposal.run);
            }
            for word in spelling::corrections(text) {
                input = input.text(Field::Body, word);
            }
            input
        }
        Body::Before(text) => input
            .named("points-back")
            .named_if(proposal.back > 0, "points-back:past")
            .named_if(proposal.back > 1, "points-back:far")
            .named_if(proposal.runs_on > 0, "runs-on")
            .named_if(proposal.runs_on > 1, "runs-on:far")
            .text(Field::Body, text),
        Body::Items(items) => {
            let mut input = input.named("list");
            for item in items.iter().take(3) {
                input = input.text(Field::Body, item);
            }
            input
        }
    }
}

/// Whether `text` names something: a word the models do not read as themselves (what a memory
/// is about: "weasyprint", "hectolitre"), a number or a mark of code.
fn names_something(text: &str) -> bool {
    text.contains(|c: char| c.is_ascii_digit() || matches!(c, '`' | '/' | '_' | '='))
        || tokens(text)
            .iter()
            .any(|token| !vocabulary::is_known(token))
}

/// The shape of what a proposal leaves out before its memory (`head`) or after it: its length
/// and whether it is cut at a mark. A trigger is cut from its memory by a mark or a space; a
/// short opening cut at neither ("天" of "天文馆…") splits a word of unspaced script.
fn edge_shape(edge: &str, head: bool) -> &'static str {
    let marked = if head {
        ends_at_mark(edge) || edge.trim_end().ends_with(['.', '!', '！', '。', '…'])
    } else {
        starts_at_mark(edge) || edge.trim_start().starts_with(['.', '!', '！', '。', '…'])
    };
    let edge = edge.trim();
    let chars = edge.chars().count();
    let unspaced = if head {
        edge.chars().next_back().is_some_and(is_unspaced)
    } else {
        edge.chars().next().is_some_and(is_unspaced)
    };
    match (head, chars, marked, unspaced) {
        (true, 0, _, _) => "head:shape:none",
        (false, 0, _, _) => "tail:shape:none",
        (true, _, true, _) => "head:shape:marked",
        (false, _, true, _) => "tail:shape:marked",
        (true, 1..=3, false, true) => "head:shape:short-unspaced",
        (false, 1..=3, false, true) => "tail:shape:short-unspaced",
        (true, 1..=3, false, false) => "head:shape:short",
        (false, 1..=3, false, false) => "tail:shape:short",
        (true, 4..=12, false, _) => "head:shape:mid",
        (false, 4..=12, false, _) => "tail:shape:mid",
        (true, _, false, _) => "head:shape:long",
        (false, _, false, _) => "tail:shape:long",
    }
}

pub fn explain(weights: &Weights, input: &Input, top: usize) -> (Prediction, Vec<Contribution>) {
    weights.explain(input, 1, top)
}

/// The sentences of a readable line, with the span of each (trimmed) and whether it is a
/// question, and whether it ends the line.
pub fn line_sentences(line: &str) -> Vec<(&str, bool)> {
    sentences(line)
        .map(|s| (line[s.start..s.end].trim(), s.is_question))
        .filter(|(text, _)| !text.is_empty())
        .collect()
}

/// The list items on the lines from `from`, past blank lines, and the first line after them.
/// Under a sentence that announces them (`announces`: it ends with a colon) the lines up to
/// the next blank line are items too, marked or not ("Notes for later sessions:\nThe staging
/// API is at …").
pub fn items_from<'a>(
    lines: &[&'a str],
    readable: &[bool],
    from: usize,
    announces: bool,
) -> (Vec<&'a str>, usize) {
    let mut index = from;
    while index < lines.len() && readable[index] && lines[index].trim().is_empty() {
        index += 1;
    }
    let mut items = Vec::new();
    let mut end = from;
    while index < lines.len() && readable[index] {
        if lines[index].trim().is_empty() {
            index += 1;
            continue;
        }
        let Some(item) = list_item(lines[index]) else {
            break;
        };
        items.push(item.trim());
        index += 1;
        end = index;
    }
    if items.is_empty() && announces {
        while index < lines.len()
            && readable[index]
            && !lines[index].trim().is_empty()
            && items.len() < MAX_PLAIN_ITEMS
        {
            items.push(lines[index].trim());
            index += 1;
            end = index;
        }
    }
    (items, end)
}

/// At most this many unmarked lines under a sentence that announces them are its items.
const MAX_PLAIN_ITEMS: usize = 10;
