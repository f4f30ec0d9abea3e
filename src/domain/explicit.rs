//! Explicit memories: what the user's latest message asks the agent to remember, such as
//! "remember this: use pnpm", "請記住：使用 pnpm", "pnpmを使うことを覚えておいて" or
//! "…라는 것을 기억해줘".
//!
//! A trigger counts only where an instruction can begin: at the start of a line or of a
//! sentence, after optional decoration (quotes, brackets, bullets), filler words ("please",
//! "btw", "请") and negations ("don't", "不要"), which cancel it. Its body runs to the end of the
//! line, or to the start of the next sentence that holds a trigger. Japanese and Korean also
//! put the verb last ("…を覚えておいて"): then the body is the sentence before the verb, and the
//! verb must end the sentence. Lines inside a fenced code block are never instructions.
//!
//! Every rule is in the tables at the top of this file; the code below them only applies them.
//! It is plain string scanning, linear in the length of the message: this runs on every user
//! message.

use std::borrow::Cow;
use std::collections::HashSet;

use super::memory_type::MemoryType;
use super::render::strip_invisible;

// ─── How many ────────────────────────────────────────────────────────────────────────────────

/// At most this many memories are taken from one message: the first ones, in order. The
/// others are counted, not stored, and `render` says how many there were, so the user can be
/// told to ask again; a message repeating one memory counts it once.
pub const MAX_MEMORIES_PER_MESSAGE: usize = 10;

// ─── Private spans ───────────────────────────────────────────────────────────────────────────

/// Matched ASCII-case-insensitively. Spans nest; an unclosed span hides the rest of the message.
const PRIVATE_OPEN: &str = "<private>";
const PRIVATE_CLOSE: &str = "</private>";

// ─── Lines and sentences ─────────────────────────────────────────────────────────────────────

/// A body never crosses one of these.
const LINE_BREAKS: &[char] = &[
    '\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
];

/// A line starting (after indentation) with one of these opens or closes a code block. Nothing
/// in a code block is an instruction, nor are the fence lines themselves.
const CODE_FENCES: &[&str] = &["```", "~~~"];

/// A run of these ends a sentence. A run of ASCII ones directly followed by an ASCII letter or
/// digit does not, so that `v1.2`, `example.com` and `?page=2` stay whole.
const SENTENCE_TERMINATORS: &[char] = &['.', '!', '?', '。', '！', '？'];

/// A trigger in a sentence that ends with one of these is a question ("remember when we…?",
/// "…기억해?"), not an instruction.
const QUESTION_MARKS: &[char] = &['?', '？'];

// ─── Before a trigger ────────────────────────────────────────────────────────────────────────

/// Skipped at the start of a sentence: opening quotes and brackets, markdown bullets, quote
/// markers, emphasis and headings.
const OPENING_DECORATIONS: &[char] = &[
    '"', '\'', '`', '“', '‘', '「', '『', '(', '（', '[', '【', '《', '-', '*', '+', '>', '•', '#',
];

/// Skipped after a filler word or a negation: "ok, please remember…", "另外，请记住…".
const FILLER_SEPARATORS: &[char] = &[',', '，', '、'];

/// Polite or filler words allowed before a trigger, in any number and order. English words
/// must end on a word boundary ("so" is not the start of "some").
const ENGLISH_FILLERS: &[&str] = &[
    "please", "pls", "plz", "also", "and", "oh", "btw", "ok", "okay", "so", "hey", "actually",
    "but", "just", "no", "yes", "yeah",
];
const CHINESE_FILLERS: &[&str] = &[
    "请", "請", "帮我", "幫我", "麻烦", "麻煩", "另外", "还有", "還有", "顺便", "順便", "对了",
    "對了",
];
const JAPANESE_FILLERS: &[&str] = &["あと", "それと", "それから", "ちなみに"];
const KOREAN_FILLERS: &[&str] = &["그리고", "참고로", "또한"];

/// A negation among the words before a trigger cancels it: "please don't remember this: …",
/// "不要记住…". The longest match wins, so "no need to" is a negation and "no" a filler.
/// Japanese and Korean negate inside the verb (覚えないで, 기억하지 마), which is then simply
/// not a trigger.
const NEGATIONS: &[&str] = &[
    "don't",
    "don’t",
    "dont",
    "do not",
    "never",
    "not",
    "no need to",
    "don't need to",
    "don’t need to",
    "dont need to",
    "do not need to",
    "不要",
    "别",
    "別",
    "不用",
    "不需要",
    "不必",
    "勿",
    "无需",
    "無需",
];

// ─── Triggers followed by their body ─────────────────────────────────────────────────────────

/// Where the body of a trigger starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyStart {
    /// After the phrase and an optional separator: "remember this: use pnpm" → "use pnpm".
    AfterPhrase,
    /// At the phrase, which carries the meaning: "I prefer small commits" stays whole.
    AtPhrase,
}

struct Trigger {
    phrase: &'static str,
    body: BodyStart,
}

const fn after(phrase: &'static str) -> Trigger {
    Trigger {
        phrase,
        body: BodyStart::AfterPhrase,
    }
}

const fn including(phrase: &'static str) -> Trigger {
    Trigger {
        phrase,
        body: BodyStart::AtPhrase,
    }
}

/// Matched ASCII-case-insensitively, on a word boundary; the longest match wins. "remember to"
/// is kept as a trigger ("remember to run tests before pushing" is a fine memory) and its "to"
/// dropped; "remember that X" drops the "that".
const ENGLISH_TRIGGERS: &[Trigger] = &[
    after("remember this"),
    after("remember these"),
    after("remember that"),
    after("remember to"),
    after("remember"),
    after("save this to memory"),
    after("save to memory"),
    after("add this to memory"),
    after("add to memory"),
    after("commit this to memory"),
    after("commit to memory"),
    after("from now on"),
    after("from now onward"),
    after("from now onwards"),
    after("going forward"),
    including("my preference is"),
    including("i prefer"),
];

/// The body may follow a separator or come directly: "记住用 pnpm 管理依赖".
const CHINESE_TRIGGERS: &[Trigger] = &[
    after("记住"),
    after("記住"),
    after("记住这点"),
    after("記住這點"),
    after("记住这一点"),
    after("記住這一點"),
    after("记住这个"),
    after("記住這個"),
    after("记得"),
    after("記得"),
    after("记下来"),
    after("記下來"),
    after("从现在开始"),
    after("從現在開始"),
    after("从现在起"),
    after("從現在起"),
    after("以后请"),
    after("以後請"),
];

/// At most one of these between a trigger and its body, with optional whitespace (and markdown
/// emphasis, for "**Remember:** …") around it.
const BODY_SEPARATORS: &[char] = &[':', '：', ',', '，', '、'];

// ─── Verb triggers (Japanese, Korean) ────────────────────────────────────────────────────────
// Two shapes: at a sentence start and followed by a colon ("覚えておいて：…", "기억해줘: …"),
// or last in its sentence after the body ("…を覚えておいて", "…라는 것을 기억해 줘").

const JAPANESE_VERBS: &[&str] = &[
    "覚えて",
    "覚えておいて",
    "覚えといて",
    "忘れないで",
    "メモして",
    "メモしておいて",
];
const KOREAN_VERBS: &[&str] = &["기억해", "잊지 마", "잊지마", "잊지 말아", "메모해"];

/// Between a verb that opens its sentence and the body.
const VERB_COLONS: &[char] = &[':', '：'];

/// Politeness endings after a verb, in any number, each after optional whitespace:
/// "覚えておいてくださいね", "기억해 주세요", "잊지 마세요".
const JAPANESE_VERB_ENDINGS: &[&str] = &[
    "ください",
    "下さい",
    "ほしい",
    "欲しい",
    "です",
    "くれ",
    "ね",
    "よ",
    "な",
];
const KOREAN_VERB_ENDINGS: &[&str] = &["줘", "주세요", "둬", "두세요", "세요", "요", "라"];

/// Only these, besides whitespace, may follow a verb that ends its sentence ("기억해줘~").
const CLOSING_DECORATIONS: &[char] = &[
    '~', '～', '♪', '"', '”', '’', '」', '』', ')', '）', ']', '】', '*',
];

/// One of these is stripped from the end of a body that comes before its verb, the longest
/// first: "pnpmを使うことを" → "pnpmを使うこと", "…실행한다는 것을" → "…실행한다".
const BODY_PARTICLES: &[&str] = &[
    "ということを",
    "ってことを",
    "のを",
    "を",
    "って",
    "と",
    "이라는 것을",
    "이라는 걸",
    "는 것을",
    "는것을",
    "는 걸",
    "이라고",
    "을",
    "를",
];

// ─── Bodies ──────────────────────────────────────────────────────────────────────────────────

/// Counted in chars, not bytes: "use pnpm" is the shortest memory worth keeping.
const MIN_BODY_CHARS: usize = 8;

/// Stripped when they wrap the whole body, or when a lone one sits at its edge (the other half
/// was outside the body, as in `"please fix it. remember this: use pnpm"`).
const QUOTE_PAIRS: &[(char, char)] = &[
    ('"', '"'),
    ('\'', '\''),
    ('`', '`'),
    ('“', '”'),
    ('‘', '’'),
    ('「', '」'),
    ('『', '』'),
];

/// One of these is stripped from the end of a body.
const TRAILING_PUNCTUATION: &[char] = &['.', '!', '?', '。', '！', '？', ';', '；', '…'];

/// A body that is only one of these (after an optional lead word) is about later, not a memory:
/// "remember this for later", "remember: next time". Matched ASCII-case-insensitively.
const DEFERRALS: &[&str] = &[
    "later",
    "later on",
    "for later",
    "until later",
    "next time",
    "for next time",
    "in a bit",
    "another time",
    "再说",
    "再說",
    "以后再说",
    "以後再說",
    "回头再说",
    "回頭再說",
    "後で",
    "あとで",
    "나중에",
];
const DEFERRAL_LEADS: &[&str] = &["this", "that", "it", "这个", "這個", "これ", "이거"];

// ─── Types ───────────────────────────────────────────────────────────────────────────────────
// Checked in the order reference, decision, project; anything else is feedback. Words that
// start or end with an ASCII letter or digit match on that side only at a word boundary, so
// "report" is not "repo", "hyperlink" is not "link" and "decidedly" is not "decided" (only the
// listed inflections count). CJK words match anywhere. "package" is a project word, so "use
// pnpm for all packages" is a project memory: it is a fact about the project, not about how the
// agent works.

const URL_MARKERS: &[&str] = &["://", "www."];
const REFERENCE_WORDS: &[&str] = &[
    "url",
    "urls",
    "link",
    "links",
    "dashboard",
    "dashboards",
    "docs",
    "documentation",
    "runbook",
    "runbooks",
    "wiki",
    "wikis",
    "endpoint",
    "endpoints",
    "链接",
    "鏈接",
    "連結",
    "网址",
    "網址",
    "文档",
    "文檔",
    "仪表盘",
    "儀表板",
    "ダッシュボード",
    "ドキュメント",
    "リンク",
    "대시보드",
    "문서",
    "링크",
];
const DECISION_WORDS: &[&str] = &[
    "decide",
    "decided",
    "decides",
    "deciding",
    "decision",
    "decisions",
    "chose",
    "choose",
    "chosen",
    "we will use",
    "we'll use",
    "go with",
    "going with",
    "went with",
    "决定",
    "決定",
    "选择",
    "選擇",
    "採用",
    "采用",
    "결정",
];
/// A decision when the second phrase follows the first: "we use X instead of Y". A bare "use X
/// instead of Y" is how the agent should work: feedback.
const DECISION_WORD_PAIRS: &[(&str, &str)] = &[
    ("we use", "instead of"),
    ("we're using", "instead of"),
    ("we are using", "instead of"),
];
const PROJECT_WORDS: &[&str] = &[
    "project",
    "projects",
    "repo",
    "repos",
    "repository",
    "repositories",
    "codebase",
    "monorepo",
    "package",
    "packages",
    "module",
    "modules",
    "service",
    "services",
    "项目",
    "項目",
    "仓库",
    "倉庫",
    "プロジェクト",
    "リポジトリ",
    "프로젝트",
    "저장소",
];

// ─── API ─────────────────────────────────────────────────────────────────────────────────────

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplicitMemory {
    pub kind: MemoryType,
    pub text: String,
}

/// What one user message asks to remember.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    /// The first `MAX_MEMORIES_PER_MESSAGE` distinct memories, in order.
    pub memories: Vec<ExplicitMemory>,
    /// How many more distinct memories the message held.
    pub dropped: usize,
}

/// The explicit memories of one user message, in order, at most `MAX_MEMORIES_PER_MESSAGE`.
/// Invisible characters and `<private>…</private>` spans are removed first. Each trigger
/// occurrence yields at most one memory; its text has no line break and at least 8 chars,
/// with whitespace runs folded to one space.
pub fn capture(message: &str) -> Vec<ExplicitMemory> {
    capture_counted(message).memories
}

/// `capture`, also counting the memories beyond the limit.
pub fn capture_counted(message: &str) -> Captured {
    let visible = strip_invisible(message);
    let text = strip_private(&visible);
    // Every verb trigger is CJK: an ASCII message never needs the verb-last search.
    let may_have_verbs = !text.is_ascii() && verbs().any(|verb| text.contains(verb));
    let mut memories = Collector::default();
    let mut in_code_block = false;
    for line in text.split(LINE_BREAKS) {
        let indented = line.trim_start();
        if CODE_FENCES.iter().any(|fence| indented.starts_with(fence)) {
            in_code_block = !in_code_block;
        } else if !in_code_block {
            capture_line(line, may_have_verbs, &mut memories);
        }
    }
    Captured {
        memories: memories.kept,
        dropped: memories.dropped,
    }
}

/// The memories of a message as they are found: distinct texts, the first ones kept.
#[derive(Default)]
struct Collector {
    kept: Vec<ExplicitMemory>,
    dropped: usize,
    seen: HashSet<String>,
}

impl Collector {
    fn push(&mut self, body: Option<String>) {
        let Some(text) = body else {
            return;
        };
        if self.seen.contains(&text) {
            return;
        }
        if self.kept.len() < MAX_MEMORIES_PER_MESSAGE {
            self.seen.insert(text.clone());
            self.kept.push(ExplicitMemory {
                kind: classify(&text),
                text,
            });
        } else {
            self.seen.insert(text);
            self.dropped += 1;
        }
    }
}

/// `message` without `<private>…</private>` spans (case-insensitive tags); an unclosed
/// `<private>` hides the rest of the message. Nested spans end at the matching close tag; a
/// stray close tag stays as it is.
pub fn strip_private(message: &str) -> Cow<'_, str> {
    let Some(first_open) = find_tag(message, 0, PRIVATE_OPEN) else {
        return Cow::Borrowed(message);
    };
    let mut visible = String::with_capacity(message.len());
    let mut visible_from = 0;
    let mut next_open = Some(first_open);
    while let Some(open) = next_open {
        visible.push_str(&message[visible_from..open]);
        let Some(end) = private_span_end(message, open) else {
            return Cow::Owned(visible);
        };
        visible_from = end;
        next_open = find_tag(message, end, PRIVATE_OPEN);
    }
    visible.push_str(&message[visible_from..]);
    Cow::Owned(visible)
}

/// Type of a memory text: reference (a URL or a pointer word such as dashboard, docs, wiki),
/// decision (decided, chose, we will use, go with, 决定…), project (repo, package, service,
/// 项目…), else feedback. See the tables at the top of this file.
pub fn classify(text: &str) -> MemoryType {
    let normalized = normalize_for_keywords(text);
    let has_any = |words: &[&str]| words.iter().any(|word| has_word(&normalized, word));
    if has_any(URL_MARKERS) || has_any(REFERENCE_WORDS) {
        MemoryType::Reference
    } else if has_any(DECISION_WORDS)
        || DECISION_WORD_PAIRS
            .iter()
            .any(|&(first, second)| has_word_pair(&normalized, first, second))
    {
        MemoryType::Decision
    } else if has_any(PROJECT_WORDS) {
        MemoryType::Project
    } else {
        MemoryType::Feedback
    }
}

// ─── Capture ─────────────────────────────────────────────────────────────────────────────────

/// What one sentence holds.
enum Found {
    /// A trigger whose body starts here and runs to the next trigger sentence or the line end.
    BodyAfter(usize),
    /// A verb-last trigger; its body is this range, before the verb.
    BodyBefore(std::ops::Range<usize>),
    /// A trigger that yields nothing (negated, a question, or nothing after it in its
    /// sentence), but still ends the body of the trigger before it.
    Nothing,
}

fn capture_line(line: &str, may_have_verbs: bool, memories: &mut Collector) {
    let mut open_body: Option<usize> = None;
    for sentence in sentences(line) {
        let Some(found) = find_trigger(line, &sentence, may_have_verbs) else {
            continue;
        };
        if let Some(start) = open_body.take() {
            memories.push(clean_body(&line[start..sentence.start]));
        }
        match found {
            Found::BodyAfter(start) => open_body = Some(start),
            Found::BodyBefore(range) => {
                memories.push(clean_body(strip_body_particle(&line[range])));
            }
            Found::Nothing => {}
        }
    }
    if let Some(start) = open_body {
        memories.push(clean_body(&line[start..]));
    }
}

/// A sentence of a line: `start..end` is its text, without the terminators that end it.
struct Sentence {
    start: usize,
    end: usize,
    is_question: bool,
}

fn sentences(line: &str) -> impl Iterator<Item = Sentence> + '_ {
    let mut next_start = Some(0);
    std::iter::from_fn(move || {
        let start = next_start?;
        match sentence_end(line, start) {
            Some((end, after_terminators, is_question)) => {
                next_start = Some(after_terminators);
                Some(Sentence {
                    start,
                    end,
                    is_question,
                })
            }
            None => {
                next_start = None;
                Some(Sentence {
                    start,
                    end: line.len(),
                    is_question: false,
                })
            }
        }
    })
}

/// The first run of terminators from `from` that ends a sentence: its start, its end, and
/// whether it holds a question mark.
fn sentence_end(line: &str, from: usize) -> Option<(usize, usize, bool)> {
    let mut chars = line[from..].char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        if !SENTENCE_TERMINATORS.contains(&c) {
            continue;
        }
        let run_start = from + offset;
        let mut run_end = run_start + c.len_utf8();
        let mut all_ascii = c.is_ascii();
        let mut is_question = QUESTION_MARKS.contains(&c);
        while let Some(&(offset, next)) = chars.peek() {
            if !SENTENCE_TERMINATORS.contains(&next) {
                break;
            }
            run_end = from + offset + next.len_utf8();
            all_ascii &= next.is_ascii();
            is_question |= QUESTION_MARKS.contains(&next);
            chars.next();
        }
        let glued_to_word = line[run_end..].starts_with(|c: char| c.is_ascii_alphanumeric());
        if !(all_ascii && glued_to_word) {
            return Some((run_start, run_end, is_question));
        }
    }
    None
}

fn find_trigger(line: &str, sentence: &Sentence, may_have_verbs: bool) -> Option<Found> {
    let text = &line[..sentence.end];
    let opening = read_opening(text, sentence.start);
    let cancelled = opening.negated || sentence.is_question;
    if let Some(body_start) = opening.body_start {
        let empty = body_start >= sentence.end;
        return Some(if cancelled || empty {
            Found::Nothing
        } else {
            Found::BodyAfter(body_start)
        });
    }
    if !may_have_verbs {
        return None;
    }
    let verb_start = find_verb_last(text, opening.content_start)?;
    Some(if cancelled {
        Found::Nothing
    } else {
        Found::BodyBefore(opening.content_start..verb_start)
    })
}

/// The start of a sentence, read up to its first real word.
struct Opening {
    /// Where the sentence's own words start, after decorations, fillers and negations.
    content_start: usize,
    negated: bool,
    /// Where the body starts, when the sentence opens with a trigger.
    body_start: Option<usize>,
}

fn read_opening(text: &str, from: usize) -> Opening {
    let mut at = from;
    let mut negated = false;
    loop {
        at = skip_chars(text, at, |c| {
            c.is_whitespace() || OPENING_DECORATIONS.contains(&c) || FILLER_SEPARATORS.contains(&c)
        });
        if let Some(body_start) = match_trigger(text, at) {
            return Opening {
                content_start: at,
                negated,
                body_start: Some(body_start),
            };
        }
        let negation = longest_phrase_at(text, at, NEGATIONS.iter().copied());
        let filler = longest_phrase_at(text, at, fillers());
        match (negation, filler) {
            (Some(negation), Some(filler)) if filler > negation => at += filler,
            (Some(negation), _) => {
                negated = true;
                at += negation;
            }
            (None, Some(filler)) => at += filler,
            (None, None) => {
                return Opening {
                    content_start: at,
                    negated,
                    body_start: None,
                }
            }
        }
    }
}

/// The body start of a trigger at `at`, if one is there.
fn match_trigger(text: &str, at: usize) -> Option<usize> {
    let trigger = ENGLISH_TRIGGERS
        .iter()
        .chain(CHINESE_TRIGGERS)
        .filter(|trigger| phrase_at(text, at, trigger.phrase))
        .max_by_key(|trigger| trigger.phrase.len());
    if let Some(trigger) = trigger {
        return Some(match trigger.body {
            BodyStart::AtPhrase => at,
            BodyStart::AfterPhrase => skip_body_separator(text, at + trigger.phrase.len()),
        });
    }
    // A verb opening a sentence needs a colon: "覚えておいて：…".
    let verb = longest_phrase_at(text, at, verbs())?;
    let colon_at = skip_chars(
        text,
        skip_verb_endings(text, at + verb),
        char::is_whitespace,
    );
    let colon = text[colon_at..]
        .chars()
        .next()
        .filter(|c| VERB_COLONS.contains(c))?;
    Some(skip_chars(
        text,
        colon_at + colon.len_utf8(),
        is_space_or_emphasis,
    ))
}

fn skip_body_separator(text: &str, at: usize) -> usize {
    let at = skip_chars(text, at, is_space_or_emphasis);
    let at = match text[at..].chars().next() {
        Some(c) if BODY_SEPARATORS.contains(&c) => at + c.len_utf8(),
        _ => at,
    };
    skip_chars(text, at, is_space_or_emphasis)
}

fn is_space_or_emphasis(c: char) -> bool {
    c.is_whitespace() || c == '*'
}

/// The start of the earliest verb at or after `from` that ends `sentence` (after its endings
/// and closing decorations).
fn find_verb_last(sentence: &str, from: usize) -> Option<usize> {
    verbs()
        .flat_map(|verb| {
            sentence[from..]
                .match_indices(verb)
                .map(move |(offset, _)| (from + offset, verb.len()))
        })
        .filter(|&(start, len)| {
            let after = skip_verb_endings(sentence, start + len);
            sentence[after..]
                .chars()
                .all(|c| c.is_whitespace() || CLOSING_DECORATIONS.contains(&c))
        })
        .map(|(start, _)| start)
        .min()
}

fn skip_verb_endings(text: &str, mut at: usize) -> usize {
    loop {
        let ending_at = skip_chars(text, at, char::is_whitespace);
        let endings = JAPANESE_VERB_ENDINGS.iter().chain(KOREAN_VERB_ENDINGS);
        match longest_phrase_at(text, ending_at, endings.copied()) {
            Some(len) => at = ending_at + len,
            None => return at,
        }
    }
}

fn verbs() -> impl Iterator<Item = &'static str> {
    JAPANESE_VERBS.iter().chain(KOREAN_VERBS).copied()
}

fn fillers() -> impl Iterator<Item = &'static str> {
    [
        ENGLISH_FILLERS,
        CHINESE_FILLERS,
        JAPANESE_FILLERS,
        KOREAN_FILLERS,
    ]
    .into_iter()
    .flatten()
    .copied()
}

// ─── Bodies ──────────────────────────────────────────────────────────────────────────────────

fn strip_body_particle(body: &str) -> &str {
    let body = body.trim_end();
    BODY_PARTICLES
        .iter()
        .filter(|particle| body.ends_with(*particle))
        .max_by_key(|particle| particle.len())
        .map_or(body, |particle| &body[..body.len() - particle.len()])
}

/// The memory text of a raw body, or `None` when it is too short or only about later.
fn clean_body(raw: &str) -> Option<String> {
    let folded = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let unquoted = strip_quotes(&folded);
    let unpunctuated = unquoted
        .strip_suffix(TRAILING_PUNCTUATION)
        .unwrap_or(unquoted)
        .trim_end();
    let body = strip_quotes(unpunctuated);
    let long_enough = body.chars().count() >= MIN_BODY_CHARS;
    (long_enough && !is_deferral(body)).then(|| body.to_owned())
}

fn strip_quotes(mut text: &str) -> &str {
    loop {
        let before = text.len();
        for &(open, close) in QUOTE_PAIRS {
            text = strip_quote_pair(text, open, close).trim();
        }
        if text.len() == before {
            return text;
        }
    }
}

/// Strips `open…close` around the whole text, or a lone `open` or `close` at its edge. A quote
/// char that also occurs elsewhere (an apostrophe in "don't") is left alone.
fn strip_quote_pair(text: &str, open: char, close: char) -> &str {
    let opens = text.matches(open).count();
    let closes = text.matches(close).count();
    let wrapped = text.len() > open.len_utf8() && text.starts_with(open) && text.ends_with(close);
    let is_pair = if open == close {
        opens == 2
    } else {
        opens == 1 && closes == 1
    };
    if wrapped && is_pair {
        &text[open.len_utf8()..text.len() - close.len_utf8()]
    } else if text.ends_with(close) && closes == 1 && (open == close || opens == 0) {
        &text[..text.len() - close.len_utf8()]
    } else if text.starts_with(open) && opens == 1 && (open == close || closes == 0) {
        &text[open.len_utf8()..]
    } else {
        text
    }
}

fn is_deferral(body: &str) -> bool {
    let mut rest =
        body.trim_end_matches(|c: char| c.is_whitespace() || TRAILING_PUNCTUATION.contains(&c));
    if let Some(lead) = longest_phrase_at(rest, 0, DEFERRAL_LEADS.iter().copied()) {
        rest = rest[lead..]
            .trim_start_matches(|c: char| c.is_whitespace() || FILLER_SEPARATORS.contains(&c));
    }
    DEFERRALS
        .iter()
        .any(|deferral| deferral.eq_ignore_ascii_case(rest))
}

// ─── Matching ────────────────────────────────────────────────────────────────────────────────

/// Whether `phrase` occurs at byte `at` of `text`, ASCII-case-insensitively, and does not run
/// on into a longer word ("remember" in "remembered", "that" in "that's"). `at` must be a char
/// boundary; the match then ends on one too, as the phrase is whole UTF-8.
fn phrase_at(text: &str, at: usize, phrase: &str) -> bool {
    let Some(candidate) = text.as_bytes().get(at..at + phrase.len()) else {
        return false;
    };
    if !candidate.eq_ignore_ascii_case(phrase.as_bytes()) {
        return false;
    }
    let ends_in_word = phrase.ends_with(|c: char| c.is_ascii_alphanumeric());
    let runs_on = text[at + phrase.len()..]
        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '\'' || c == '’');
    !(ends_in_word && runs_on)
}

/// The byte length of the longest of `phrases` at `at`.
fn longest_phrase_at<'a>(
    text: &str,
    at: usize,
    phrases: impl IntoIterator<Item = &'a str>,
) -> Option<usize> {
    phrases
        .into_iter()
        .filter(|phrase| phrase_at(text, at, phrase))
        .map(str::len)
        .max()
}

fn skip_chars(text: &str, at: usize, skip: impl Fn(char) -> bool) -> usize {
    let rest = &text[at..];
    at + rest.len() - rest.trim_start_matches(skip).len()
}

fn find_tag(message: &str, from: usize, tag: &str) -> Option<usize> {
    message[from..]
        .match_indices('<')
        .map(|(offset, _)| from + offset)
        .find(|&at| phrase_at(message, at, tag))
}

/// The end of the private span opened at `open`: just after its matching close tag.
fn private_span_end(message: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = open;
    while let Some(offset) = message[at..].find('<') {
        let tag_at = at + offset;
        if phrase_at(message, tag_at, PRIVATE_OPEN) {
            depth += 1;
            at = tag_at + PRIVATE_OPEN.len();
        } else if phrase_at(message, tag_at, PRIVATE_CLOSE) {
            depth -= 1;
            at = tag_at + PRIVATE_CLOSE.len();
            if depth == 0 {
                return Some(at);
            }
        } else {
            at = tag_at + 1;
        }
    }
    None
}

// ─── Classify ────────────────────────────────────────────────────────────────────────────────

/// Lowercase ASCII, one space between words, typographic apostrophes made plain.
fn normalize_for_keywords(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
        .replace('’', "'")
}

/// The end offsets of the occurrences of `word` in `text` that sit on word boundaries.
fn word_ends<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let starts_in_word = word.starts_with(|c: char| c.is_ascii_alphanumeric());
    let ends_in_word = word.ends_with(|c: char| c.is_ascii_alphanumeric());
    text.match_indices(word).filter_map(move |(start, _)| {
        let end = start + word.len();
        let joined_before =
            starts_in_word && text[..start].ends_with(|c: char| c.is_ascii_alphanumeric());
        let joined_after =
            ends_in_word && text[end..].starts_with(|c: char| c.is_ascii_alphanumeric());
        (!joined_before && !joined_after).then_some(end)
    })
}

fn has_word(text: &str, word: &str) -> bool {
    word_ends(text, word).next().is_some()
}

fn has_word_pair(text: &str, first: &str, second: &str) -> bool {
    word_ends(text, first).any(|end| has_word(&text[end..], second))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(message: &str) -> Vec<String> {
        capture(message).into_iter().map(|m| m.text).collect()
    }

    // ─── Acceptance examples ───

    #[test]
    fn remember_this_captures_the_body_as_a_project_memory() {
        let memories = capture("remember this: use pnpm for all packages");
        assert_eq!(
            memories,
            vec![ExplicitMemory {
                kind: MemoryType::Project,
                text: "use pnpm for all packages".into(),
            }]
        );
    }

    #[test]
    fn at_most_ten_distinct_memories_are_taken_and_the_rest_counted() {
        let message: String = (0..3000)
            .map(|i| format!("remember this: release step {i} needs a signed tag\n"))
            .collect();
        let captured = capture_counted(&message);
        let kept: Vec<&str> = captured.memories.iter().map(|m| m.text.as_str()).collect();
        let first: Vec<String> = (0..MAX_MEMORIES_PER_MESSAGE)
            .map(|i| format!("release step {i} needs a signed tag"))
            .collect();
        assert_eq!(kept, first);
        assert_eq!(captured.dropped, 3000 - MAX_MEMORIES_PER_MESSAGE);
        // Repeats count once, whether kept or beyond the limit; decoys count for nothing.
        let repeats = format!(
            "{}remember this: release step 0 needs a signed tag\nrelease step 99 is not a trigger\n{}",
            message, "remember this: release step 2999 needs a signed tag\n".repeat(5)
        );
        assert_eq!(
            capture_counted(&repeats).dropped,
            3000 - MAX_MEMORIES_PER_MESSAGE
        );
        assert_eq!(
            capture_counted(&"remember this: use pnpm everywhere\n".repeat(40)),
            Captured {
                memories: capture("remember this: use pnpm everywhere"),
                dropped: 0
            }
        );
    }

    #[test]
    fn invisible_characters_are_removed_before_capture() {
        assert_eq!(
            texts("remem\u{200B}ber this: use\u{E0020}\u{E0041} pnpm\u{202E} everywhere"),
            ["use pnpm everywhere"]
        );
        // Seven visible chars do not make a memory, however many invisible ones pad them.
        assert!(capture("remember this: use\u{200B}\u{200B} pnp").is_empty());
    }

    #[test]
    fn text_without_a_trigger_yields_nothing() {
        assert!(capture("tests always fail on CI when cache is stale").is_empty());
    }

    #[test]
    fn a_negation_before_the_trigger_cancels_it() {
        assert!(capture("please don't remember this: use npm cache").is_empty());
        assert!(capture("Do not remember: the old staging password").is_empty());
        assert!(capture("No need to remember this: the temp branch name").is_empty());
        assert!(capture("不要记住这个：临时的测试数据库密码").is_empty());
        assert!(capture("别记住：这个分支只是临时的实验").is_empty());
        // The same sentences without the negation do capture.
        assert_eq!(capture("please remember this: use npm cache").len(), 1);
        assert_eq!(capture("记住这个：临时的测试数据库密码").len(), 1);
    }

    #[test]
    fn a_trigger_inside_a_sentence_does_not_count() {
        assert!(capture("I will not forget to remember this: use pnpm").is_empty());
        assert!(capture("we should remember this: use pnpm everywhere").is_empty());
    }

    #[test]
    fn chinese_triggers_one_per_line() {
        assert_eq!(
            texts("請記住：使用 pnpm 管理套件\n記住這點：用 TypeScript 撰寫程式碼"),
            ["使用 pnpm 管理套件", "用 TypeScript 撰寫程式碼"]
        );
    }

    #[test]
    fn from_now_on_and_remember_colon() {
        assert_eq!(
            texts("from now on: reply in Traditional Chinese"),
            ["reply in Traditional Chinese"]
        );
        assert_eq!(
            texts("remember: the staging DB is read-only"),
            ["the staging DB is read-only"]
        );
    }

    #[test]
    fn a_trigger_after_a_sentence_inside_recorded_quotes() {
        let message = "\"please fix the typecheck. remember this: always run npm run typecheck before committing\"";
        assert_eq!(
            texts(message),
            ["always run npm run typecheck before committing"]
        );
    }

    #[test]
    fn short_bodies_are_ignored_counting_chars() {
        assert!(capture("remember this: ok").is_empty());
        // 7 chars but 13 bytes.
        assert!(capture("记住：用pnpm装包").is_empty());
        assert_eq!(texts("记住：用pnpm装依赖包"), ["用pnpm装依赖包"]);
    }

    #[test]
    fn private_spans_are_removed_before_capture() {
        let message = "<private>remember this: my home address is 12 Elm St</private> remember this: use pnpm everywhere";
        assert_eq!(texts(message), ["use pnpm everywhere"]);
    }

    #[test]
    fn an_unclosed_private_tag_hides_the_rest() {
        assert_eq!(
            texts("remember this: use pnpm <private>and the secret"),
            ["use pnpm"]
        );
    }

    #[test]
    fn classify_acceptance_examples() {
        let cases = [
            (
                "the dashboard is at https://grafana.example.com/d/abc",
                MemoryType::Reference,
            ),
            (
                "we decided to use Postgres over MySQL",
                MemoryType::Decision,
            ),
            ("the repo uses a monorepo layout", MemoryType::Project),
            ("the report is generated weekly", MemoryType::Feedback),
            ("reply in Chinese", MemoryType::Feedback),
        ];
        for (text, kind) in cases {
            assert_eq!(classify(text), kind, "{text}");
        }
    }

    #[test]
    fn japanese_verb_first_with_a_colon() {
        assert_eq!(
            texts("覚えておいて：コミット前に必ずテストを実行する"),
            ["コミット前に必ずテストを実行する"]
        );
    }

    #[test]
    fn japanese_verb_last_takes_the_sentence_before_it() {
        assert_eq!(texts("pnpmを使うことを覚えておいて"), ["pnpmを使うこと"]);
        assert_eq!(
            texts("ビルドを直して。デプロイは金曜日に行わないことを覚えておいてくださいね。"),
            ["デプロイは金曜日に行わないこと"]
        );
        assert_eq!(
            texts("あと、ポート番号は8080だと忘れないで"),
            ["ポート番号は8080だ"]
        );
    }

    #[test]
    fn japanese_negated_or_non_final_verbs_are_not_triggers() {
        assert!(capture("pnpmを使うことを覚えないで").is_empty());
        assert!(capture("覚えないで：これは一時的な設定です").is_empty());
        assert!(capture("昨日話したことを覚えていますか").is_empty());
    }

    #[test]
    fn korean_verb_first_with_a_colon() {
        assert_eq!(
            texts("기억해줘: 커밋 전에 항상 테스트를 실행해"),
            ["커밋 전에 항상 테스트를 실행해"]
        );
    }

    #[test]
    fn korean_verb_last_takes_the_sentence_before_it() {
        assert_eq!(
            texts("배포 전에 항상 테스트를 실행한다는 것을 기억해 줘"),
            ["배포 전에 항상 테스트를 실행한다"]
        );
        assert_eq!(
            texts("기본 브랜치는 main이라는 것을 기억해줘~"),
            ["기본 브랜치는 main"]
        );
        assert_eq!(
            texts("그리고 배포 전에 린트 규칙을 잊지 마세요."),
            ["배포 전에 린트 규칙"]
        );
    }

    #[test]
    fn korean_negated_verbs_and_questions_are_not_triggers() {
        assert!(capture("이 설정을 기억하지 마: 임시 값이니까 곧 바뀜").is_empty());
        assert!(capture("우리가 어제 정한 배포 규칙을 기억해?").is_empty());
        assert_eq!(capture("우리가 어제 정한 배포 규칙을 기억해.").len(), 1);
    }

    #[test]
    fn three_memories_across_english_and_chinese() {
        let message = "remember this: use pnpm everywhere. 记住：提交前先运行全部测试\n\
                       From now on, reply in Simplified Chinese";
        assert_eq!(
            texts(message),
            [
                "use pnpm everywhere",
                "提交前先运行全部测试",
                "reply in Simplified Chinese"
            ]
        );
    }

    // ─── Where triggers count ───

    #[test]
    fn fillers_bullets_and_quote_markers_may_precede_a_trigger() {
        assert_eq!(
            texts("Btw, please remember that the staging DB is read-only"),
            ["the staging DB is read-only"]
        );
        assert_eq!(
            texts("- remember: the API key lives in vault\n> from now on, answer in English"),
            ["the API key lives in vault", "answer in English"]
        );
        assert_eq!(
            texts("**Remember:** CI runs on Node 20 only"),
            ["CI runs on Node 20 only"]
        );
        assert_eq!(
            texts("另外，请记住：接口统一返回 JSON 格式"),
            ["接口统一返回 JSON 格式"]
        );
    }

    #[test]
    fn a_trigger_must_be_a_whole_word() {
        assert!(capture("Remembering the old API, we wrapped every call in a retry").is_empty());
        assert!(capture("remembered: the cache was stale yesterday").is_empty());
        // Fillers too: "please" must end before "remember".
        assert!(capture("pleaseremember: the staging DB is read-only").is_empty());
    }

    #[test]
    fn a_body_runs_to_the_end_of_its_line() {
        assert_eq!(
            texts("remember: use pnpm everywhere. It is faster.\nand fix the tests"),
            ["use pnpm everywhere. It is faster"]
        );
    }

    #[test]
    fn a_body_stops_before_the_next_trigger_sentence() {
        assert_eq!(
            texts("remember: use pnpm everywhere. from now on, reply in Chinese"),
            ["use pnpm everywhere", "reply in Chinese"]
        );
        // A cancelled trigger ends the body before it too.
        assert_eq!(
            texts("remember: use pnpm everywhere! Don't remember this: the temp token"),
            ["use pnpm everywhere"]
        );
        assert_eq!(
            texts("remember: use pnpm everywhere. テストを先に実行することを覚えて"),
            ["use pnpm everywhere", "テストを先に実行すること"]
        );
    }

    #[test]
    fn dots_inside_words_do_not_end_a_sentence() {
        assert_eq!(
            texts("remember: the docs are at example.com/setup.html for v1.2"),
            ["the docs are at example.com/setup.html for v1.2"]
        );
        // Glued to a CJK character, an ASCII full stop still ends the sentence.
        assert_eq!(
            texts("修好了.记住：提交前先运行全部测试"),
            ["提交前先运行全部测试"]
        );
    }

    #[test]
    fn lines_in_a_code_block_are_not_instructions() {
        let message = "look at this:\n```\nremember: this line is only code\n```\nremember: the fence is closed now";
        assert_eq!(texts(message), ["the fence is closed now"]);
    }

    #[test]
    fn windows_line_endings_split_lines() {
        assert_eq!(
            texts("remember: use pnpm everywhere\r\nremember: reply in English"),
            ["use pnpm everywhere", "reply in English"]
        );
    }

    #[test]
    fn a_question_is_not_an_instruction() {
        assert!(capture("Remember when we moved the CI to GitHub Actions?").is_empty());
        assert!(capture("记得我们上周讨论的那个方案吗？").is_empty());
        assert_eq!(
            texts("remember: use pnpm everywhere. Can you fix the build?"),
            ["use pnpm everywhere. Can you fix the build"]
        );
    }

    #[test]
    fn an_empty_trigger_sentence_takes_no_body_from_the_next() {
        assert!(capture("Remember. The build takes ten minutes").is_empty());
    }

    // ─── Trigger forms ───

    #[test]
    fn remember_to_keeps_the_instruction() {
        assert_eq!(
            texts("remember to run tests before pushing"),
            ["run tests before pushing"]
        );
        assert_eq!(
            texts("remember that's how the deploy works"),
            ["that's how the deploy works"]
        );
    }

    #[test]
    fn memory_phrases_and_going_forward() {
        assert_eq!(
            texts("Save this to memory: prod deploys need two approvals"),
            ["prod deploys need two approvals"]
        );
        assert_eq!(
            texts("commit to memory, the linter runs in strict mode"),
            ["the linter runs in strict mode"]
        );
        assert_eq!(
            texts("Going forward keep functions under 50 lines"),
            ["keep functions under 50 lines"]
        );
    }

    #[test]
    fn preference_triggers_stay_in_the_text() {
        assert_eq!(
            texts("Also, I prefer small focused commits."),
            ["I prefer small focused commits"]
        );
        assert_eq!(
            texts("my preference is tabs over spaces"),
            ["my preference is tabs over spaces"]
        );
        assert!(capture("I preferred the old layout honestly").is_empty());
    }

    #[test]
    fn chinese_from_now_on_forms() {
        assert_eq!(
            texts("從現在開始，所有回覆都用繁體中文"),
            ["所有回覆都用繁體中文"]
        );
        assert_eq!(texts("以后请用 pnpm 安装依赖"), ["用 pnpm 安装依赖"]);
        assert_eq!(texts("记得提交前跑一遍 lint"), ["提交前跑一遍 lint"]);
    }

    #[test]
    fn deferrals_are_ignored() {
        assert!(capture("remember: next time").is_empty());
        assert!(capture("remember this for later").is_empty());
        assert!(capture("Remember it next time.").is_empty());
        assert_eq!(capture("remember: next time use pnpm").len(), 1);
    }

    #[test]
    fn deferral_words_in_every_language() {
        for body in [
            "later",
            "This, later.",
            "以后再说",
            "這個再說",
            "後で",
            "나중에",
        ] {
            assert!(is_deferral(body), "{body}");
        }
        assert!(!is_deferral("later we migrate to pnpm"));
        assert!(!is_deferral("itlater"));
    }

    // ─── Body cleanup ───

    #[test]
    fn surrounding_quotes_and_one_trailing_punctuation_are_trimmed() {
        let cases = [
            ("remember: \"use pnpm everywhere\"", "use pnpm everywhere"),
            ("remember: “use pnpm everywhere”.", "use pnpm everywhere"),
            ("記住：「使用 pnpm 管理套件」", "使用 pnpm 管理套件"),
            (
                "remember: `pnpm install --frozen-lockfile`",
                "pnpm install --frozen-lockfile",
            ),
            ("remember: use pnpm everywhere!!", "use pnpm everywhere!"),
            ("remember: don't use 'npm' here", "don't use 'npm' here"),
            (
                "remember: \"pnpm\" is the package manager",
                "\"pnpm\" is the package manager",
            ),
            (
                "remember:   use \t pnpm   everywhere  ",
                "use pnpm everywhere",
            ),
        ];
        for (message, text) in cases {
            assert_eq!(texts(message), [text], "{message}");
        }
    }

    // ─── strip_private ───

    #[test]
    fn strip_private_borrows_when_there_is_no_tag() {
        assert!(matches!(strip_private("a < b"), Cow::Borrowed("a < b")));
    }

    #[test]
    fn strip_private_removes_every_span_case_insensitively() {
        assert_eq!(
            strip_private("a<private>x</private>b<PRIVATE>y</Private>c"),
            "abc"
        );
        assert_eq!(strip_private("keep <private>hide everything"), "keep ");
        assert_eq!(
            strip_private("a<private>x<private>y</private>z</private>b"),
            "ab"
        );
        assert_eq!(strip_private("a</private>b"), "a</private>b");
        assert_eq!(strip_private("秘密<private>密码</private>结束"), "秘密结束");
    }

    // ─── classify ───

    #[test]
    fn classify_matches_latin_words_on_boundaries() {
        assert_eq!(classify("the linker needs -lssl"), MemoryType::Feedback);
        assert_eq!(
            classify("hyperlinks open in a new tab"),
            MemoryType::Feedback
        );
        assert_eq!(
            classify("the API docs live in /docs"),
            MemoryType::Reference
        );
        assert_eq!(
            classify("we decidedly like short names"),
            MemoryType::Feedback
        );
        assert_eq!(classify("the repo's CI is slow"), MemoryType::Project);
        assert_eq!(
            classify("db url: postgres://localhost/dev"),
            MemoryType::Reference
        );
    }

    #[test]
    fn classify_checks_reference_then_decision_then_project() {
        assert_eq!(
            classify("we decided the runbook lives in the wiki"),
            MemoryType::Reference
        );
        assert_eq!(classify("we chose to split the repo"), MemoryType::Decision);
    }

    #[test]
    fn classify_decision_phrases() {
        assert_eq!(
            classify("we use   Vitest instead of Jest"),
            MemoryType::Decision
        );
        assert_eq!(classify("use Vitest instead of Jest"), MemoryType::Feedback);
        assert_eq!(classify("We’ll use Redis for queues"), MemoryType::Decision);
        assert_eq!(classify("let's go with option B"), MemoryType::Decision);
    }

    #[test]
    fn classify_cjk_words() {
        assert_eq!(classify("接口文档在内部站点"), MemoryType::Reference);
        assert_eq!(classify("我们决定使用 Postgres"), MemoryType::Decision);
        assert_eq!(classify("本リポジトリはモノレポ構成"), MemoryType::Project);
        assert_eq!(classify("배포는 금요일에 하지 않음"), MemoryType::Feedback);
        assert_eq!(classify("설계 문서는 노션에 있음"), MemoryType::Reference);
    }

    // ─── Properties ───

    /// Pieces that often form triggers, so that random messages reach the interesting paths.
    fn message_piece() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                "remember this: ",
                "Remember ",
                "please don't ",
                "from now on, ",
                "I prefer ",
                "记住：",
                "請記住",
                "不要",
                "覚えておいて",
                "を覚えて",
                "기억해줘",
                "라는 것을 ",
                "잊지 마세요",
                "<private>",
                "</PRIVATE>",
                "```",
                ". ",
                "。",
                "？",
                "!",
                "\n",
                "\r\n",
                "\"",
                "「",
                "」",
                "  ",
                "\u{2028}",
                "use pnpm",
                "测试",
                "ü",
                "🙂",
            ])
            .prop_map(String::from),
            any::<String>(),
        ]
    }

    fn assert_well_formed(memories: &[ExplicitMemory]) {
        for memory in memories {
            assert!(memory.text.chars().count() >= MIN_BODY_CHARS, "{memory:?}");
            assert!(!memory.text.contains(LINE_BREAKS), "{memory:?}");
            assert_eq!(memory.kind, classify(&memory.text));
        }
    }

    proptest! {
        #[test]
        fn capture_never_panics_on_arbitrary_text(message in any::<String>()) {
            assert_well_formed(&capture(&message));
        }

        #[test]
        fn capture_bodies_are_long_single_lines(
            pieces in prop::collection::vec(message_piece(), 0..24)
        ) {
            let message = pieces.concat();
            assert_well_formed(&capture(&message));
            let _ = classify(&message);
        }

        #[test]
        fn strip_private_drops_exactly_the_span(
            before in "[^<]{0,20}",
            secret in "[^<]{0,20}",
            after in "[^<]{0,20}",
        ) {
            let message = format!("{before}<private>{secret}</private>{after}");
            prop_assert_eq!(strip_private(&message), format!("{before}{after}"));
        }
    }
}
