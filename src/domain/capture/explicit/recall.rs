//! Whether the user's message asks what happened in an earlier session ("where were we?",
//! "what did we do last time?", "continue from yesterday"): then the next render recalls the
//! previous session's digest. One table per language, all applied at once.
//!
//! A phrase counts when it ends its clause (what follows is nothing, punctuation, or a word of
//! `TAILS` such as "please"): "what did we do last time we hit this error?" asks about that
//! error, not for a recap. A sentence that names a bug, an error or a review is about that, and
//! is answered from the code and its history: "the bug we fixed last time is back" and "where
//! did we leave off on the login bug?" recall nothing. Nothing is read from code (inline or
//! fenced) or quoted lines ("> where were we"). Case, accents, apostrophes and runs of spaces
//! do not matter.

use unicode_normalization::UnicodeNormalization;

use super::language::{each, Lang};

/// One language's recall phrases (folded: lower case, no accents, `'` for any apostrophe).
struct RecallLanguage {
    phrases: &'static [&'static str],
    /// Words that place a question in an earlier session ("last time", "yesterday", "the
    /// previous session"): not recall phrases, but what a recall question of any wording holds.
    past: &'static [&'static str],
}

const ENGLISH: RecallLanguage = RecallLanguage {
    phrases: &[
        "what did we do last time",
        "what did we do yesterday",
        "what did we do in the last session",
        "what were we doing last time",
        "what were we working on",
        "what was i working on",
        "where were we",
        "where did we leave off",
        "where did we stop",
        "pick up where we left off",
        "continue where we left off",
        "carry on where we left off",
        "continue from yesterday",
        "continue from last time",
        "continue from the last session",
        "remind me what we did",
        "recap the last session",
        "recap of the last session",
        "what happened last session",
        "what happened in the last session",
    ],
    past: &[
        "last time",
        "yesterday",
        "previous session",
        "last session",
        "earlier session",
        "last week",
        "the other day",
        "previous chat",
        "last conversation",
        "left off",
        "before the weekend",
    ],
};

const GERMAN: RecallLanguage = RecallLanguage {
    phrases: &[
        "was haben wir letztes mal gemacht",
        "was haben wir zuletzt gemacht",
        "was haben wir gestern gemacht",
        "woran haben wir zuletzt gearbeitet",
        "wo waren wir stehen geblieben",
        "wo sind wir stehen geblieben",
        "wo haben wir aufgehort",
        "wo waren wir",
        "mach da weiter, wo wir aufgehort haben",
        "weiter von gestern",
        "weiter wie gestern",
        "mach weiter von gestern",
    ],
    past: &[
        "letztes mal",
        "letzte mal",
        "letzten mal",
        "gestern",
        "vorherigen sitzung",
        "letzten sitzung",
        "vorigen sitzung",
        "letzte woche",
        "letzten woche",
        "vorige woche",
        "stehen geblieben",
        "aufgehort",
        "zuletzt",
    ],
};

const FRENCH: RecallLanguage = RecallLanguage {
    phrases: &[
        "qu'est-ce qu'on a fait la derniere fois",
        "qu'avons-nous fait la derniere fois",
        "on a fait quoi la derniere fois",
        "qu'est-ce qu'on a fait hier",
        "ou en etions-nous",
        "ou en etait-on",
        "on en etait ou",
        "on s'etait arrete ou",
        "reprenons la ou on s'etait arretes",
        "reprends la ou on s'etait arretes",
        "sur quoi on travaillait",
        "on reprend depuis hier",
        "reprenons depuis hier",
    ],
    past: &[
        "derniere fois",
        "d'hier",
        "hier sur",
        "hier soir",
        "session precedente",
        "derniere session",
        "semaine derniere",
        "on en etait",
        "on s'etait arrete",
        "la derniere seance",
    ],
};

const SPANISH: RecallLanguage = RecallLanguage {
    phrases: &[
        "que hicimos la ultima vez",
        "que hicimos ayer",
        "donde nos quedamos",
        "en que nos quedamos",
        "donde lo dejamos",
        "retomemos donde lo dejamos",
        "sigamos donde lo dejamos",
        "en que estabamos trabajando",
        "en que estabamos",
        "continuemos desde ayer",
        "sigamos desde ayer",
    ],
    past: &[
        "ultima vez",
        "ayer",
        "sesion anterior",
        "ultima sesion",
        "semana pasada",
        "lo dejamos",
        "nos quedamos",
        "la otra vez",
    ],
};

const PORTUGUESE: RecallLanguage = RecallLanguage {
    phrases: &[
        "o que fizemos da ultima vez",
        "o que a gente fez da ultima vez",
        "o que fizemos ontem",
        "onde paramos",
        "onde nos paramos",
        "onde a gente parou",
        "continuar de onde paramos",
        "continua de onde paramos",
        "em que estavamos trabalhando",
        "no que estavamos trabalhando",
        "vamos continuar de ontem",
        "continua de ontem",
    ],
    past: &[
        "ultima vez",
        "ontem",
        "sessao anterior",
        "ultima sessao",
        "semana passada",
        "a gente parou",
        "paramos",
        "outro dia",
    ],
};

const JAPANESE: RecallLanguage = RecallLanguage {
    phrases: &[
        "前回何をした",
        "前回は何をした",
        "前回なにをした",
        "前回どこまで",
        "どこまでやった",
        "どこまで進んだ",
        "どこまでいった",
        "昨日の続き",
        "前回の続き",
        "前回の作業",
        "この前の続き",
    ],
    past: &[
        "前回",
        "昨日",
        "前のセッション",
        "先週",
        "この前",
        "どこまで",
        "っけ",
    ],
};

const KOREAN: RecallLanguage = RecallLanguage {
    phrases: &[
        "지난번에 뭐 했",
        "지난번에 뭘 했",
        "지난번에 무엇을 했",
        "어제 뭐 했",
        "어디까지 했",
        "어디까지 진행했",
        "지난 세션",
        "이전 세션",
        "어제 하던 거 이어서",
        "어제 이어서",
        "하던 거 이어서",
        "지난번 작업",
    ],
    past: &[
        "지난번",
        "어제",
        "이전 세션",
        "지난 세션",
        "지난주",
        "어디까지",
        "했었",
    ],
};

const CHINESE: RecallLanguage = RecallLanguage {
    phrases: &[
        // Simplified.
        "上次我们做了什么",
        "上次做了什么",
        "上次做到哪",
        "我们做到哪了",
        "做到哪儿了",
        "做到哪里了",
        "从昨天继续",
        "接着昨天",
        "继续昨天的",
        "上次的进度",
        // Traditional, where it differs.
        "上次我們做了什麼",
        "上次做了什麼",
        "我們做到哪了",
        "做到哪裡了",
        "從昨天繼續",
        "接著昨天",
        "繼續昨天的",
        "上次的進度",
    ],
    past: &[
        "上次",
        "昨天",
        "之前的会话",
        "之前的會話",
        "上一次",
        "前一次",
        "上周",
        "上週",
        "上回",
        "做到哪",
        "工作阶段",
        "工作階段",
        "来着",
        "來著",
    ],
};

/// The recall phrases of `lang`.
fn recall_language(lang: Lang) -> &'static RecallLanguage {
    match lang {
        Lang::English => &ENGLISH,
        Lang::Spanish => &SPANISH,
        Lang::German => &GERMAN,
        Lang::French => &FRENCH,
        Lang::Portuguese => &PORTUGUESE,
        Lang::Chinese => &CHINESE,
        Lang::Japanese => &JAPANESE,
        Lang::Korean => &KOREAN,
    }
}

/// Words that may follow a Latin-script phrase in the same clause.
const TAILS: &[&str] = &[
    "please",
    "again",
    "then",
    "exactly",
    "yesterday",
    "bitte",
    "nochmal",
    "denn",
    "gestern",
    "s'il",
    "stp",
    "svp",
    "hier",
    "por",
    "favor",
    "ayer",
    "ontem",
    "pls",
];

/// A sentence naming one of these asks about that, not for a recap.
const BLOCKERS: &[&str] = &[
    "bug",
    "error",
    "review",
    "regression",
    "fehler",
    "erreur",
    "revue",
    "erro",
    "revisao",
    "revision",
    "バグ",
    "エラー",
    "レビュー",
    "버그",
    "에러",
    "오류",
    "리뷰",
    "错误",
    "錯誤",
    "审查",
    "審查",
];

/// Whether `message` asks what happened in an earlier session.
pub fn asks_to_recall(message: &str) -> bool {
    let text = fold(&readable(message));
    text.split(['.', '?', '!', '\n', '。', '？', '！', ';'])
        .any(sentence_asks)
}

/// Whether a sentence of `message` that is a question places it in an earlier session (a word
/// of a `past` table): the shape of a recall question in any wording. A question ends with a
/// question mark or a spoken question ending ("…っけ", "…까").
pub fn asks_about_the_past(message: &str) -> bool {
    let text = fold(&readable(message));
    let mut start = 0;
    let mut sentences = Vec::new();
    for (at, mark) in text.match_indices(['.', '?', '!', '\n', '。', '？', '！', ';']) {
        sentences.push((&text[start..at], matches!(mark, "?" | "？")));
        start = at + mark.len();
    }
    sentences.push((&text[start..], false));
    sentences.into_iter().any(|(sentence, marked)| {
        let sentence = sentence.trim_end();
        let spoken = sentence.ends_with("っけ") || sentence.ends_with(['까', '죠']);
        (marked || spoken) && each(recall_language, |l| l.past).any(|w| sentence.contains(w))
    })
}

fn sentence_asks(sentence: &str) -> bool {
    if BLOCKERS.iter().any(|b| sentence.contains(b)) {
        return false;
    }
    each(recall_language, |l| l.phrases).any(|phrase| phrase_ends_clause(sentence, phrase))
}

/// Whether `phrase` occurs in `sentence` as a whole, ending its clause (Latin script only:
/// Chinese, Japanese and Korean phrases are specific enough wherever they are).
fn phrase_ends_clause(sentence: &str, phrase: &str) -> bool {
    let latin = phrase.is_ascii();
    sentence.match_indices(phrase).any(|(at, _)| {
        if !latin {
            return true;
        }
        let before = sentence[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '\'') {
            return false;
        }
        let rest = &sentence[at + phrase.len()..];
        if rest.starts_with(|c: char| c.is_alphanumeric() || c == '\'') {
            return false;
        }
        let rest = rest.trim_start_matches([' ', ',', ':', '-']);
        let next = rest.split([' ', ',']).next().unwrap_or("");
        next.is_empty() || TAILS.contains(&next)
    })
}

/// The message without code and quoted lines.
fn readable(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut fenced = false;
    for line in message.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced || trimmed.starts_with('>') {
            continue;
        }
        // Inline code goes, its place kept as a word break.
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Lower case, accents off Latin letters, one apostrophe, single spaces. Only Latin letters
/// are decomposed: a Japanese voiced mark or a Korean syllable must stay whole.
fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut push = |c: char| {
        let c = match c {
            '\u{2019}' | '\u{2018}' | '\u{02bc}' | '`' => '\'',
            '\u{00a0}' | '\t' | '\u{3000}' => ' ',
            c => c,
        };
        for lower in c.to_lowercase() {
            if lower == ' ' && out.ends_with(' ') {
                continue;
            }
            out.push(lower);
        }
    };
    for c in text.chars() {
        if ('\u{00c0}'..'\u{0250}').contains(&c) {
            c.to_string()
                .nfd()
                .filter(|&d| !unicode_normalization::char::is_combining_mark(d))
                .for_each(&mut push);
        } else {
            push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_placed_in_an_earlier_session_has_the_shape_of_recall() {
        for message in [
            "what did we end up doing with the kerning overflow last time?",
            "¿Qué hicimos la última vez con el importador?",
            "Wo waren wir gestern bei der Zeitsteuerung stehen geblieben?",
            "前回、盆栽ショップで何やったっけ",
            "昨天翻译记忆库做到哪了？",
            "지난번 세션에서 지진파 툴킷 뭐 고쳤었지? 기억이 안 나",
            "어제 트램 환승 계산 로직 어디까지 했었죠",
        ] {
            assert!(asks_about_the_past(message), "{message}");
        }
    }

    #[test]
    fn a_statement_about_the_past_or_a_question_about_now_has_not() {
        for message in [
            "The build failed yesterday. Fix the parser.",
            "Can you fix the parser?",
            "last time I checked it worked",
            "> what did we do last time?",
            "`what did we do yesterday?`",
        ] {
            assert!(!asks_about_the_past(message), "{message}");
        }
    }
}
