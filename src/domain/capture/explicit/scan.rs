//! Finding triggers in a message: which lines can hold instructions, where sentences and
//! clauses start, and what each trigger's body is. The phrases come from `triggers.rs`.
//!
//! All of it is forward scanning with lookups of bounded tables at each sentence or clause
//! start, so the work is linear in the length of the message.

use std::ops::Range;

use super::addressee::{of_pointing_sentence, Addressee};
use super::body::{pointer, Pointer};
use super::text::{is_symbol, longest_at, match_at, skip_chars, MAX_OPENING_WORDS};
use super::triggers::{all, triggers, BodyStart, Language, Trigger};

/// A body never crosses one of these.
pub(super) const LINE_BREAKS: &[char] = &[
    '\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
];

/// A line starting (after indentation) with one of these opens or closes a code block.
const CODE_FENCES: &[&str] = &["```", "~~~"];

/// A line starting with one of these is a code comment, pasted with its code: "// remember
/// to free the buffer" speaks to whoever reads the code, not to the agent.
const COMMENT_MARKERS: &[&str] = &["//", "/*", "#", "-- ", ";;", "<!--", "\"\"\"", "'''", "*/"];

/// A line starting with this is quoted (markdown or e-mail quoting).
const QUOTE_MARKER: char = '>';

/// A run of these ends a sentence (a semicolon too: what follows is another request). A run of ASCII ones directly followed by an ASCII letter or
/// digit does not, so that `v1.2`, `example.com` and `?page=2` stay whole.
const SENTENCE_TERMINATORS: &[char] = &['.', '!', '?', '。', '！', '？', '．', '…', ';', '；'];

/// Whether `c` ends a sentence: a terminator, or an emoji, which in chat stands where a full
/// stop would ("…keep that in mind pls 🙏 anyway the import is choking", "存一下😂 然后帮我").
fn is_terminator(c: char) -> bool {
    SENTENCE_TERMINATORS.contains(&c) || is_emoji(c)
}

/// The symbols of `text::is_symbol` but arrows and technical signs, which stand inside a
/// sentence ("staging → prod", "⌘K").
fn is_emoji(c: char) -> bool {
    super::text::is_symbol(c) && !matches!(c as u32, 0x2190..=0x23FF | 0x2B00..=0x2BFF)
}

/// A sentence whose terminators hold one of these is a question.
const QUESTION_MARKS: &[char] = &['?', '？'];

/// A sentence starting with this, or ending with one of the particles, is a question too.
const QUESTION_OPENER: char = '¿';
const QUESTION_PARTICLES: &[char] = &['吗', '嗎', '么', '麼'];

/// A full stop after one of these ends no sentence: "e.g. the API", "Dra. Helena", "St. Marien".
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "vs", "cf", "approx", "z.b", "bzw", "usw", "d.h", "ggf", "p.ej", "ej",
    "p.ex", "ex", "ps", "dr", "dra", "drs", "mr", "mrs", "ms", "prof", "profa", "sr", "sra",
    "srta", "mme", "mlle", "hr", "no", "st", "ste",
];

/// A full stop after one of these ends no sentence when a number follows ("p. 12", "Nr. 5"),
/// and does otherwise ("… on page p. Then …"). "No." stays an abbreviation everywhere: read as
/// the end of a sentence ("No. Use pnpm."), it cost the models more than it gave.
const NUMBER_ABBREVIATIONS: &[&str] = &["nr", "p", "pp", "art", "vol"];

/// Skipped at the start of a sentence or clause: quotes, brackets, bullets, and the separators
/// that follow a filler ("Also: …", "one more thing — …").
const OPENING_DECORATIONS: &[char] = &[
    '"', '\'', '“', '‘', '「', '『', '«', '(', '（', '[', '【', '《', '-', '*', '+', '•', '·', '▪',
    '►', '_', ',', '，', '、', ':', '：', '—', '–', '…', '¡', '!', '！',
];

/// Between a trigger and its body, at most one, with whitespace and emphasis around it.
const BODY_SEPARATORS: &[char] = &[':', '：', ',', '，', '、', '-', '—', '–'];
const COLONS: &[char] = &[':', '：'];

/// Marks that close a quotation.
const CLOSING_QUOTES: &[char] = &['"', '\'', '“', '”', '’', '»', '」', '』'];

/// Closing marks that may follow a verb that ends its sentence ("기억해줘~").
pub(super) const CLOSING_DECORATIONS: &[char] = &[
    '~', '～', '♪', '"', '”', '’', '」', '』', ')', '）', ']', '】', '*', '^',
];

/// List items under a trigger: "- …", "* …", "1. …", "2) …", "・…".
const LIST_BULLETS: &[char] = &['-', '*', '+', '•', '·', '・', '▪'];

/// Which lines can hold an instruction.
pub(super) fn readable_lines(lines: &[&str]) -> Vec<bool> {
    let mut readable = Vec::with_capacity(lines.len());
    let mut in_fence = false;
    let mut in_block_comment = false;
    let mut in_reported_paragraph = false;
    let mut forwarded = false;
    for line in lines {
        let trimmed = line.trim();
        let lower = trimmed.to_lowercase();
        if CODE_FENCES.iter().any(|fence| trimmed.starts_with(fence)) {
            in_fence = !in_fence;
            readable.push(false);
            continue;
        }
        if trimmed.is_empty() {
            in_reported_paragraph = false;
        }
        if all(|l: &'static Language| l.forward_markers).any(|marker| lower.contains(marker)) {
            forwarded = true;
        }
        let opens_block_comment = trimmed.starts_with("/*");
        let hidden = in_fence
            || forwarded
            || in_block_comment
            || in_reported_paragraph
            || trimmed.starts_with(QUOTE_MARKER)
            || COMMENT_MARKERS
                .iter()
                .any(|marker| trimmed.starts_with(marker));
        if opens_block_comment {
            in_block_comment = !trimmed.contains("*/");
        } else if in_block_comment && trimmed.contains("*/") {
            in_block_comment = false;
        }
        if all(|l| l.reporting_colons).any(|colon| lower.ends_with(colon)) {
            in_reported_paragraph = true;
        }
        readable.push(!hidden);
    }
    readable
}

/// A sentence of a line: `start..end` is its text, without the terminators that end it.
#[derive(Debug, Clone)]
pub(super) struct Sentence {
    pub start: usize,
    pub end: usize,
    pub is_question: bool,
}

pub(super) fn sentences(line: &str) -> impl Iterator<Item = Sentence> + '_ {
    let mut next_start = Some(0);
    std::iter::from_fn(move || {
        let start = next_start?;
        let (end, _, question_mark) = match sentence_end(line, start) {
            Some(found) => {
                next_start = Some(found.1);
                found
            }
            None => {
                next_start = None;
                (line.len(), line.len(), false)
            }
        };
        let text = line[start..end].trim();
        let is_question = question_mark
            || text.starts_with(QUESTION_OPENER)
            || text.ends_with(QUESTION_PARTICLES);
        Some(Sentence {
            start,
            end,
            is_question,
        })
    })
}

/// The first run of terminators from `from` that ends a sentence: its start, its end, and
/// whether it holds a question mark.
fn sentence_end(line: &str, from: usize) -> Option<(usize, usize, bool)> {
    // Inside inline code a mark is code, not the end of a sentence ("`go test ./... -race`").
    let mut in_code = line[..from].matches('`').count() % 2 == 1;
    let mut chars = line[from..].char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        super::text::count_work(1);
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if !is_terminator(c) || (in_code && line[from + offset..].contains('`')) {
            continue;
        }
        let run_start = from + offset;
        let mut run_end = run_start + c.len_utf8();
        let mut all_ascii = c.is_ascii();
        let mut is_question = QUESTION_MARKS.contains(&c);
        while let Some(&(offset, next)) = chars.peek() {
            if !is_terminator(next) {
                break;
            }
            run_end = from + offset + next.len_utf8();
            all_ascii &= next.is_ascii();
            is_question |= QUESTION_MARKS.contains(&next);
            chars.next();
        }
        let glued_to_word = line[run_end..].starts_with(|c: char| c.is_ascii_alphanumeric());
        // A mark inside a quotation that closes before the sentence goes on ("also „Add …“
        // statt", "he said 'done.' and left") or ends ("„Added …“.") ends the quotation, not
        // the sentence.
        let quoted = line[run_end..]
            .strip_prefix(CLOSING_QUOTES)
            .is_some_and(|rest| {
                rest.starts_with(is_terminator) || rest.trim_start().starts_with(char::is_lowercase)
            });
        let abbreviation = &line[run_start..run_end] == "."
            && ends_with_abbreviation(&line[..run_start], &line[run_end..]);
        if !(abbreviation || quoted || all_ascii && glued_to_word) {
            return Some((run_start, run_end, is_question));
        }
    }
    None
}

/// Whether the full stop between `before` and `after` ends an abbreviation rather than a
/// sentence.
fn ends_with_abbreviation(before: &str, after: &str) -> bool {
    let word_start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '.'))
        .map_or(0, |at| {
            at + before[at..].chars().next().map_or(1, char::len_utf8)
        });
    let word = &before[word_start..];
    let is = |list: &[&str]| list.iter().any(|a| word.eq_ignore_ascii_case(a));
    let after = after.trim_start();
    let mut following = after.chars();
    // A letter and a full stop, with another after it: "z. B.", "d. h.", "u. a.".
    let one_letter = |w: &str| w.chars().count() == 1 && w.chars().all(char::is_alphabetic);
    let opens_pair = one_letter(word)
        && following.next().is_some_and(char::is_alphabetic)
        && following.next() == Some('.');
    let closes_pair = one_letter(word)
        && before[..word_start]
            .trim_end()
            .strip_suffix('.')
            .is_some_and(|head| {
                let letter_at = head.char_indices().last().map_or(0, |(at, _)| at);
                one_letter(&head[letter_at..])
                    && !head[..letter_at].ends_with(char::is_alphanumeric)
            });
    is(ABBREVIATIONS)
        || opens_pair
        || closes_pair
        || (is(NUMBER_ABBREVIATIONS) && after.starts_with(|c: char| c.is_ascii_digit()))
        || is_ordinal_or_date(word, &before[..word_start], after)
}

/// Whether the full stop after `number` marks an ordinal or a date rather than a sentence's
/// end: after a word a day's ordinal follows, a day and month before a lowercase word ("am
/// 11.11. um 11:11 Uhr"), or a number of one or two digits before a capital ("ab dem 1.
/// Advent"). A sentence ends after a count or a version ("it failed 3 times. then …", "at 12.
/// Thanks", "release 1.2. then …").
fn is_ordinal_or_date(number: &str, before: &str, after: &str) -> bool {
    let groups: Vec<&str> = number.split('.').collect();
    let short_groups = groups
        .iter()
        .all(|g| (1..=2).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_digit()));
    if !short_groups {
        return false;
    }
    let word_before = before
        .trim_end()
        .rsplit(|c: char| !c.is_alphabetic())
        .next()
        .unwrap_or("");
    let date = groups.len() > 1;
    ORDINAL_OPENERS.contains(&word_before)
        && after.starts_with(if date {
            char::is_lowercase
        } else {
            char::is_uppercase
        })
}

/// The German words a day's ordinal follows ("am 1. Mai", "ab dem 3. Advent", "bis zum 15.
/// Januar"); German writes ordinals as a number and a full stop, other languages do not.
const ORDINAL_OPENERS: &[&str] = &[
    "am", "dem", "den", "der", "zum", "zur", "vom", "im", "bis", "ab", "seit", "jeden",
];

/// Spans of a line that are not the user speaking: inline code and quotations.
pub(super) struct Spans {
    code: Vec<Range<usize>>,
    quotes: Vec<Vec<Range<usize>>>,
    content: Range<usize>,
}

const QUOTATION_PAIRS: &[(char, char)] = &[('"', '"'), ('“', '”'), ('«', '»'), ('「', '」')];

impl Spans {
    pub(super) fn of(line: &str) -> Self {
        let start = line.len() - line.trim_start().len();
        let end = line
            .trim_end_matches(|c: char| c.is_whitespace() || SENTENCE_TERMINATORS.contains(&c))
            .len();
        Spans {
            code: pairs(line, '`', '`'),
            quotes: QUOTATION_PAIRS
                .iter()
                .map(|&(open, close)| pairs(line, open, close))
                .collect(),
            content: start..end.max(start),
        }
    }

    pub(super) fn in_code(&self, at: usize) -> bool {
        inside(&self.code, at)
    }

    /// Inside quotation marks, unless they wrap the whole line (a message pasted in quotes).
    pub(super) fn in_quotation(&self, at: usize) -> bool {
        self.quotes.iter().any(|spans| {
            let index = spans.partition_point(|span| span.start <= at);
            index > 0 && {
                let span = &spans[index - 1];
                at < span.end && !(span.start == self.content.start && span.end >= self.content.end)
            }
        })
    }
}

fn pairs(line: &str, open: char, close: char) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut opened: Option<usize> = None;
    for (at, c) in line.char_indices() {
        match opened {
            Some(start) if c == close => {
                spans.push(start..at + c.len_utf8());
                opened = None;
            }
            None if c == open => opened = Some(at),
            _ => {}
        }
    }
    if let Some(start) = opened {
        // An unclosed quotation runs to the end of the line.
        spans.push(start..line.len());
    }
    spans
}

fn inside(spans: &[Range<usize>], at: usize) -> bool {
    let index = spans.partition_point(|span| span.start < at);
    index > 0 && at < spans[index - 1].end
}

/// What a sentence holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// A body in this range of the line.
    Body(Range<usize>),
    /// A trigger whose body is the sentence before it.
    Back,
    /// A trigger whose body is on the lines after it.
    Forward,
    /// A trigger that yields nothing: a question, quoted, a deferral, a label.
    Nothing,
    /// A trigger the user negated ("don't remember this, …", "不要记住这个"): nothing of the
    /// sentence is to be kept.
    Negated,
}

/// The trigger a sentence holds, if any.
pub(super) fn find(
    line: &str,
    spans: &Spans,
    sentence: &Sentence,
    at_line_end: bool,
) -> Option<Found> {
    let line_start = line[..sentence.start].trim().is_empty();
    let first = read_opening(line, sentence.start, sentence.end, line_start);
    if first.doc_label {
        return Some(Found::Nothing);
    }
    let (content_start, negated) = (first.content_start, first.negated);
    let clause_starts = std::iter::once(first).chain(
        clause_openers(line, sentence).map(|start| read_opening(line, start, sentence.end, false)),
    );
    for opening in clause_starts {
        let Some(matched) = &opening.trigger else {
            continue;
        };
        if spans.in_code(matched.at) {
            continue;
        }
        if spans.in_quotation(matched.at) || opening.not_instruction {
            return Some(Found::Nothing);
        }
        return Some(body_after(line, sentence, &opening, matched, at_line_end));
    }
    let verb_start = find_final_verb(&line[..sentence.end], content_start)?;
    if spans.in_code(verb_start) || spans.in_quotation(verb_start) {
        return Some(Found::Nothing);
    }
    if negated {
        return Some(Found::Negated);
    }
    if sentence.is_question {
        return Some(Found::Nothing);
    }
    let start = last_clause_start(line, content_start, verb_start);
    let body = strip_body_particle(&line[start..verb_start]);
    let body_range = start..start + body.len();
    Some(match pointer(body) {
        Pointer::Content => Found::Body(body_range),
        Pointer::Back => Found::Back,
        Pointer::Forward if at_line_end => Found::Forward,
        Pointer::Forward | Pointer::Deferral => Found::Nothing,
    })
}

fn body_after(
    line: &str,
    sentence: &Sentence,
    opening: &Opening,
    matched: &Matched,
    at_line_end: bool,
) -> Found {
    if opening.negated {
        return Found::Negated;
    }
    if sentence.is_question {
        return Found::Nothing;
    }
    let end = sentence.end;
    if matched.trigger.body == BodyStart::AtPhrase {
        let body = &line[matched.at..end];
        let one_off =
            all(|l: &'static Language| l.one_off_choices).any(|word| has_word(body, word));
        return if one_off {
            Found::Nothing
        } else {
            Found::Body(matched.at..end)
        };
    }
    let (body_start, separator) = skip_body_separator(line, matched.end, end);
    if matched.trigger.body == BodyStart::AfterVerb
        && !separator.is_some_and(|c| COLONS.contains(&c))
        && longest_at(line, body_start, all(|l| l.recall_words)).is_some()
    {
        return Found::Nothing;
    }
    let body_start = match longest_at(line, body_start, all(|l| l.body_leads)) {
        Some((lead_end, _)) => skip_chars(line, lead_end, char::is_whitespace),
        None => body_start,
    }
    .min(end);
    // "Remember this:" at a line's end points at the lines after, and so does "Remember the
    // following for all my projects:", whose scope is no body.
    let rest = line[body_start..end].trim_end();
    let colon = separator.is_some_and(|c| COLONS.contains(&c))
        || rest.ends_with(COLONS) && of_pointing_sentence(rest) == Addressee::User;
    match pointer(&line[body_start..end]) {
        Pointer::Content => Found::Body(body_start..end),
        Pointer::Deferral => Found::Nothing,
        Pointer::Forward if at_line_end => Found::Forward,
        Pointer::Back if at_line_end && colon => Found::Forward,
        Pointer::Back => Found::Back,
        Pointer::Forward => Found::Nothing,
    }
}

/// The start of a sentence or clause, read up to its first real word.
pub(super) struct Opening {
    /// Where the clause's own words start, after decorations, fillers and negations.
    pub content_start: usize,
    pub negated: bool,
    pub trigger: Option<Matched>,
    /// The trigger is a UI label or "going forward with": no instruction.
    pub not_instruction: bool,
    /// The line opens with a documentation label ("Note:"): what follows is copy.
    pub doc_label: bool,
}

pub(super) struct Matched {
    pub at: usize,
    pub end: usize,
    pub trigger: &'static Trigger,
}

pub(super) fn is_opening_decoration(c: char) -> bool {
    c.is_whitespace() || OPENING_DECORATIONS.contains(&c) || is_symbol(c)
}

fn read_opening(text: &str, from: usize, limit: usize, sentence_start: bool) -> Opening {
    let text = &text[..limit];
    let mut at = skip_list_number(text, skip_chars(text, from, is_opening_decoration));
    let mut negated = false;
    let mut doc_label = false;
    if sentence_start {
        if let Some((end, _)) = longest_at(text, at, all(|l: &'static Language| l.doc_labels)) {
            let colon_at = skip_chars(text, end, char::is_whitespace);
            doc_label = text[colon_at..].starts_with(COLONS);
        }
    }
    for _ in 0..MAX_OPENING_WORDS {
        if doc_label {
            break;
        }
        at = skip_list_number(text, skip_chars(text, at, is_opening_decoration));
        if let Some(matched) = match_trigger(text, at) {
            let not_instruction = longest_at(text, at, all(|l| l.not_instructions)).is_some();
            return Opening {
                content_start: at,
                negated,
                trigger: Some(matched),
                not_instruction,
                doc_label,
            };
        }
        let negation = longest_at(text, at, all(|l| l.negations)).map(|(end, _)| end);
        // A scope phrase frames the instruction like a filler: "For all my projects, remember …".
        let filler = longest_at(
            text,
            at,
            all(|l| l.fillers).chain(super::addressee::phrases()),
        )
        .map(|(end, _)| end);
        match (negation, filler) {
            (Some(negation), Some(filler)) if filler > negation => at = filler,
            (Some(negation), _) => {
                negated = true;
                at = negation;
            }
            (None, Some(filler)) => at = filler,
            (None, None) => break,
        }
    }
    Opening {
        content_start: at,
        negated,
        trigger: None,
        not_instruction: false,
        doc_label,
    }
}

/// "1." and "2)" before a list item's words.
pub(super) fn skip_list_number(text: &str, at: usize) -> usize {
    let digits = skip_chars(text, at, |c| c.is_ascii_digit());
    if digits > at && text[digits..].starts_with([')', '.', '、']) {
        skip_chars(text, digits + 1, char::is_whitespace)
    } else {
        at
    }
}

/// The trigger at `at`, if one is there: the longest over every language, or a final verb
/// opening its sentence with a colon ("覚えておいて：…").
fn match_trigger(text: &str, at: usize) -> Option<Matched> {
    let best = triggers()
        .filter_map(|trigger| {
            let end = match_at(text, at, trigger.phrase)?;
            let separated =
                skip_chars(text, end, |c| c.is_whitespace() || c == '*').min(text.len());
            let has_separator = text[separated..].starts_with(BODY_SEPARATORS);
            (trigger.body != BodyStart::AfterSeparator || has_separator).then_some((end, trigger))
        })
        .max_by_key(|&(end, _)| end);
    if let Some((end, trigger)) = best {
        return Some(Matched { at, end, trigger });
    }
    let (verb_end, _) = longest_at(text, at, final_verbs())?;
    let colon_at = skip_chars(text, skip_verb_endings(text, verb_end), char::is_whitespace);
    text[colon_at..].starts_with(COLONS).then_some(Matched {
        at,
        end: colon_at,
        trigger: &VERB_WITH_COLON,
    })
}

/// What a final verb opening its sentence acts as.
static VERB_WITH_COLON: Trigger = Trigger {
    phrase: "",
    body: BodyStart::AfterPhrase,
};

fn skip_body_separator(text: &str, at: usize, limit: usize) -> (usize, Option<char>) {
    let is_space = |c: char| c.is_whitespace() || c == '*' || c == '_';
    let at = skip_chars(text, at.min(limit), is_space).min(limit);
    let separator = text[at..limit]
        .chars()
        .next()
        .filter(|c| BODY_SEPARATORS.contains(c));
    let at = at + separator.map_or(0, char::len_utf8);
    (skip_chars(text, at, is_space).min(limit), separator)
}

/// Clause starts after the first one: after ", and", ";", " — ".
fn clause_openers<'a>(line: &'a str, sentence: &'a Sentence) -> impl Iterator<Item = usize> + 'a {
    openers_in(&line[..sentence.end], sentence.start)
}

/// The ends of the clause openers in `text` from `from`.
fn openers_in(text: &str, from: usize) -> impl Iterator<Item = usize> + '_ {
    text[from..]
        .char_indices()
        .filter(|&(_, c)| matches!(c, ',' | ';' | ' ' | '，' | '；' | '、'))
        .filter_map(move |(offset, _)| {
            longest_at(
                text,
                from + offset,
                all(|l: &'static Language| l.clause_openers),
            )
            .map(|(end, _)| end)
        })
}

/// Where the body of a final verb starts: after the last clause opener before it.
fn last_clause_start(line: &str, from: usize, verb_start: usize) -> usize {
    match openers_in(&line[..verb_start], from).last() {
        Some(end) => read_opening(line, end, verb_start, false).content_start,
        None => from,
    }
}

/// The start of the earliest final verb at or after `from` that ends `sentence` (after its
/// endings and closing decorations).
fn find_final_verb(sentence: &str, from: usize) -> Option<usize> {
    if sentence.is_ascii() {
        return None;
    }
    final_verbs()
        .flat_map(|verb| {
            sentence[from..]
                .match_indices(verb)
                .map(move |(offset, _)| (from + offset, verb.len()))
        })
        .filter(|&(start, len)| {
            let after = skip_verb_endings(sentence, start + len);
            sentence[after..].chars().all(|c| {
                c.is_whitespace()
                    || CLOSING_DECORATIONS.contains(&c)
                    || COLONS.contains(&c)
                    || is_symbol(c)
            })
        })
        .map(|(start, _)| start)
        .min()
}

fn skip_verb_endings(text: &str, mut at: usize) -> usize {
    loop {
        let ending_at = skip_chars(text, at, char::is_whitespace);
        match longest_at(text, ending_at, all(|l: &'static Language| l.verb_endings)) {
            Some((end, _)) => at = end,
            None => return at,
        }
    }
}

fn final_verbs() -> impl Iterator<Item = &'static str> + Clone {
    all(|l: &'static Language| l.final_verbs)
}

fn strip_body_particle(body: &str) -> &str {
    let body = body.trim_end();
    all(|l: &'static Language| l.body_particles)
        .filter(|particle| body.ends_with(particle))
        .max_by_key(|particle| particle.len())
        .map_or(body, |particle| &body[..body.len() - particle.len()])
}

fn has_word(text: &str, word: &str) -> bool {
    text.char_indices()
        .filter(|&(at, _)| {
            at == 0
                || !text[..at]
                    .chars()
                    .next_back()
                    .is_some_and(super::text::is_word_char)
        })
        .any(|(at, _)| match_at(text, at, word).is_some())
}

/// A list item: its text after the bullet or number, or `None`.
pub(super) fn list_item(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    let after_bullet = trimmed
        .strip_prefix(LIST_BULLETS)
        .filter(|rest| rest.starts_with(char::is_whitespace));
    let after_number = {
        let digits = trimmed.len()
            - trimmed
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        (digits > 0)
            .then(|| trimmed[digits..].strip_prefix(['.', ')', '、']))
            .flatten()
    };
    after_bullet.or(after_number).map(str::trim_start)
}

#[cfg(test)]
mod tests {
    use super::sentences;

    fn split(line: &str) -> Vec<&str> {
        sentences(line)
            .map(|s| line[s.start..s.end].trim())
            .filter(|s| !s.is_empty())
            .collect()
    }

    #[test]
    fn a_title_or_a_two_letter_abbreviation_ends_no_sentence() {
        assert_eq!(
            split("Reviewed by Dra. Helena before the deploy. Thanks."),
            ["Reviewed by Dra. Helena before the deploy", "Thanks"]
        );
        assert_eq!(
            split("Die Stimmdaten der Orgel in St. Marien sind in Cent. Merk dir das."),
            [
                "Die Stimmdaten der Orgel in St. Marien sind in Cent",
                "Merk dir das"
            ]
        );
        assert_eq!(
            split(
                "Grabnummern als Feld-Reihe-Nummer, z. B. B-12-4, nicht fortlaufend. Bitte merken!"
            ),
            [
                "Grabnummern als Feld-Reihe-Nummer, z. B. B-12-4, nicht fortlaufend",
                "Bitte merken"
            ]
        );
    }

    #[test]
    fn a_page_number_is_no_sentence_end_and_a_lone_p_is() {
        assert_eq!(split("see p. 5 of the manual"), ["see p. 5 of the manual"]);
        assert_eq!(
            split("the flag is named p. Then it is read once."),
            ["the flag is named p", "Then it is read once"]
        );
    }

    #[test]
    fn a_word_before_a_stop_ends_its_sentence_though_an_initial_follows() {
        assert_eq!(
            split("Deploy on Fridays. A. Jones signs off.")[0],
            "Deploy on Fridays"
        );
        // A letter after a word's full stop closes no "z. B.": its own stop ends a sentence.
        assert_eq!(
            split("Deploy on Fridays. B. Then we rest.").last(),
            Some(&"Then we rest")
        );
    }

    #[test]
    fn an_emoji_ends_a_sentence_and_an_arrow_does_not() {
        assert_eq!(
            split("keep that in mind pls 🙏 anyway the import is choking"),
            ["keep that in mind pls", "anyway the import is choking"]
        );
        assert_eq!(
            split("往脑子里存一下😂 然后帮我 squash 一下"),
            ["往脑子里存一下", "然后帮我 squash 一下"]
        );
        // Joined and varied emoji are one end, not two sentences.
        assert_eq!(split("done ❤️ next 👍🏽 ok"), ["done", "next", "ok"]);
        assert_eq!(
            split("promote staging → prod with ⌘K"),
            ["promote staging → prod with ⌘K"]
        );
    }

    #[test]
    fn a_mark_inside_inline_code_ends_no_sentence() {
        assert_eq!(
            split("run `go test ./... -race` before pushing. Remember that"),
            ["run `go test ./... -race` before pushing", "Remember that"]
        );
        assert_eq!(
            split("the flag is `--dry-run!` here. ok"),
            ["the flag is `--dry-run!` here", "ok"]
        );
        // An unclosed backtick opens no code: the sentence still ends.
        assert_eq!(
            split("it's a ` mark. Then more"),
            ["it's a ` mark", "Then more"]
        );
    }

    #[test]
    fn a_mark_that_closes_a_quotation_the_sentence_goes_on_after_ends_no_sentence() {
        assert_eq!(
            split("Commit-Messages im Imperativ, also „Add …“ statt „Added …“. Danke dir!"),
            [
                "Commit-Messages im Imperativ, also „Add …“ statt „Added …“",
                "Danke dir"
            ]
        );
        assert_eq!(
            split("the bot replies \"done.\" and closes the ticket. Remember that"),
            [
                "the bot replies \"done.\" and closes the ticket",
                "Remember that"
            ]
        );
        // A quotation that ends its sentence ends it.
        assert_eq!(
            split("he wrote \"ship it.\" Then we shipped"),
            ["he wrote \"ship it", "\" Then we shipped"]
        );
    }

    #[test]
    fn an_ordinal_or_a_date_ends_no_sentence_and_a_count_does() {
        assert_eq!(
            split("Die Frist endet am 11.11. um 11:11 Uhr, ab dem 1. Advent gilt der Winterplan. Merk dir das."),
            [
                "Die Frist endet am 11.11. um 11:11 Uhr, ab dem 1. Advent gilt der Winterplan",
                "Merk dir das"
            ]
        );
        assert_eq!(
            split("the import failed 3 times. then it passed. Keep the retry at 12. Thanks"),
            [
                "the import failed 3 times",
                "then it passed",
                "Keep the retry at 12",
                "Thanks"
            ]
        );
        assert_eq!(
            split("release 1.2. then tag it"),
            ["release 1.2", "then tag it"]
        );
    }

    #[test]
    fn a_lone_letter_before_a_stop_still_ends_a_sentence() {
        assert_eq!(
            split("We went with plan B. Then we shipped it."),
            ["We went with plan B", "Then we shipped it"]
        );
    }
}
