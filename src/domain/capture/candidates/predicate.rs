//! Narration recognised by the tense of its predicate rather than by its words: a durable fact
//! speaks in the timeless present ("Prices are stored as cents", 金額は銭単位で保存する) or
//! as a rule, while a note of the session tells what happened (a past verb opening the main
//! clause, a Japanese or Korean sentence ending in the past, a cause told in the imperfect) or
//! what holds only for the moment ("right now", "for now", ahora mismo, 暂时, 지금).
//!
//! Each language's forms are tables here; the caller lets a text that states a lasting rule
//! pass whatever its tense.

use crate::domain::capture::explicit::Lang::{
    self, Chinese, English, French, German, Japanese, Korean, Portuguese, Spanish,
};

/// English verbs in the simple past that do not end in -ed. Forms that are also present or
/// base forms (read, put, set, cut, hit, let, quit, shut) are left out: "Read the docs first".
#[rustfmt::skip]
const ENGLISH_IRREGULAR_PAST: &[&str] = &["ran", "went", "got", "gave", "made", "took", "found",
    "saw", "wrote", "broke", "came", "did", "had", "was", "were", "said", "told", "sent",
    "built", "began", "brought", "bought", "caught", "chose", "drew", "drove", "fell", "felt",
    "fought", "flew", "forgot", "froze", "grew", "heard", "hid", "held", "hung", "knew", "laid",
    "led", "left", "lost", "meant", "met", "paid", "rode", "rang", "rose", "sold", "shook", "shot",
    "sank", "slept", "slid", "spent", "spoke", "stood", "stole", "stuck", "struck", "swept",
    "threw", "understood", "woke", "won", "wore", "became", "overrode", "rewrote", "undid",
    "redid", "rebuilt", "reran", "mistook", "withdrew", "split up", "wasn", "weren", "didn",
    "hadn"];

/// Words after which an English -ed word is a verb taking its object ("Raised a bug",
/// "backed it out") rather than an adjective before a noun ("Signed download URLs expire").
#[rustfmt::skip]
const ENGLISH_OBJECT_OPENERS: &[&str] = &["the", "a", "an", "it", "them", "its", "our", "their",
    "this", "that", "these", "those", "all", "both", "some", "every", "each", "my", "his", "her",
    "up", "out", "back", "off", "away", "down", "over", "into", "onto", "to", "with", "from",
    "through", "two", "three", "four", "five"];

/// English words linking a verb to what follows: "happened since", "broke during".
#[rustfmt::skip]
const ENGLISH_LINKS: &[&str] = &["since", "because", "when", "after", "before", "during",
    "while", "and", "but", "so", "in", "on", "at", "by", "for", "of", "as", "again", "once",
    "twice", "yesterday", "today", "earlier"];

/// English words that open a verb phrase in the present or a rule: met before any past verb,
/// the main clause is not told in the past ("Timestamps are stored", "Jobs must be retried").
#[rustfmt::skip]
const ENGLISH_PRESENT_MARKERS: &[&str] = &["is", "are", "isn", "aren", "am", "has", "have",
    "can", "cannot", "can't", "may", "must", "should", "shall", "will", "won", "does", "do",
    "doesn", "don", "need", "needs", "never", "always", "only", "stays", "remains", "lives",
    "goes", "comes", "runs", "uses", "means", "keeps", "holds"];

/// English words that make an -ed word after them part of a passive or perfect, not a past
/// verb of its own ("is stored", "get merged").
const ENGLISH_AUXILIARIES: &[&str] = &["is", "are", "be", "been", "being", "get", "gets"];

/// Words that hold only for the moment: a fact that holds "right now" is not durable. The
/// caller lets a text with a lasting rule through ("From now on, always …").
#[rustfmt::skip]
const PASSING_MOMENT: &[(Lang, &[&str])] = &[
    (English, &["currently", "at present", "still", "not yet", "right now", "for now", "at the moment", "temporarily", "for the time being",
        "again", "as of now"]),
    (Chinese, &["目前", "当前", "现阶段", "仍然", "依然", "暂时", "临时", "眼下", "这会儿", "现在还", "又"]),
    (Japanese, &["現在", "現時点", "まだ", "いまだ", "今つながら", "今動か", "いま止ま", "今止ま", "一時的", "当面", "再び", "また全部"]),
    (Korean, &["현재", "아직", "여전히", "지금 당장", "당분간", "일시적", "임시로"]),
    (Spanish, &["actualmente", "todavía", "aún", "sigue sin", "siguen sin", "ahora mismo", "por ahora", "de momento", "en este momento", "por el momento",
        "temporalmente", "de nuevo", "otra vez"]),
    (German, &["aktuell", "derzeit", "noch nicht", "immer noch", "gerade", "im moment", "momentan", "vorerst", "vorübergehend", "wieder",
        "zurzeit"]),
    (French, &["actuellement", "pas encore", "toujours pas", "pour le moment", "pour l instant", "en ce moment", "temporairement",
        "de nouveau", "à nouveau"]),
    (Portuguese, &["atualmente", "ainda", "neste momento", "no momento", "por enquanto", "temporariamente", "de novo",
        "novamente"]),
];

/// Phrases in which a word of `PASSING_MOMENT` leads a lasting rule or a condition, blanked
/// before matching: "from now on", "now that …", 今後, "wieder­verwendbar".
#[rustfmt::skip]
const NOT_PASSING: &[&str] = &["from now on", "now that", "as of now on", "a partir de ahora",
    "ahora que", "ab jetzt", "jetzt wo", "jetzt da", "immer wieder", "maintenant que",
    "à partir de maintenant", "a partir de agora", "agora que", "今後", "今まで", "지금부터"];

/// Japanese endings of a sentence told in the past, or in progress, or as a report cut before
/// its verb (…を上流に報告): the final predicate tells what happened.
#[rustfmt::skip]
const JAPANESE_PAST_ENDINGS: &[&str] = &["た", "たよ", "んだ", "ところ", "待ち", "着手", "ました", "でした", "だった", "ていた",
    "てた", "済み", "済", "中", "報告", "起票", "作成", "追加", "削除", "修正", "変更", "対応",
    "確認", "完了", "撤回", "取り下げ", "差し戻し", "置き換え", "反映", "導入", "移行", "実施",
    "調査", "判明", "解消", "復旧", "再起動", "退避", "とのこと", "そうだ", "もの"];

/// A Japanese past verb before a noun of cause: "…が走ったことによる", "…壊れたため".
#[rustfmt::skip]
const JAPANESE_PAST_CAUSES: &[&str] = &["たことによる", "たことが原因", "たせい", "たため",
    "たのが原因", "ったことで", "たことで"];

/// Korean nouns of a done action closing a note: "…를 업스트림에 제보", "…철회".
#[rustfmt::skip]
const KOREAN_REPORT_ENDINGS: &[&str] = &["제보", "보고", "등록", "철회", "완료", "확인", "교체",
    "수정", "추가", "삭제", "변경", "제거", "적용", "반영", "도입", "전환", "해결", "복구", "롤백",
    "요청", "중", "중임", "중이다", "중입니다"];

/// Korean nouns after a past adnominal (…생긴 것, 돌아서 생긴 탓): the cause told in the past.
const KOREAN_CAUSE_NOUNS: &[&str] = &["것", "탓", "것임", "탓임"];

/// Endings of the imperfect in the languages that mark it on the verb, the tense of a cause
/// told as a story ("salían porque", "disparava antes", "renvoyaient"). Endings that also end
/// many nouns (-ía, -ia, -ait) are left out.
#[rustfmt::skip]
const IMPERFECT_ENDINGS: &[(Lang, &[&str])] = &[
    (Spanish, &["aba", "aban", "ían"]),
    (Portuguese, &["ava", "avam", "iam", "íam"]),
    (French, &["aient"]),
];

/// Words that share an imperfect ending without being verbs: nouns, and the present of
/// Spanish verbs in -iar (envían, varían).
#[rustfmt::skip]
const NOT_IMPERFECT: &[&str] = &["también", "cubana", "traba", "iam", "miam", "envían", "varían",
    "confían", "guían", "amplían", "desvían", "vacían", "enfrían", "espían", "crían", "fían"];

/// Imperfects with endings that also end many nouns (-ía, -ia, -ait), taken as whole words.
#[rustfmt::skip]
const IRREGULAR_IMPERFECTS: &[&str] = &["había", "tenía", "hacía", "devolvía", "podía", "salía",
    "ocurría", "venía", "parecía", "fallaba", "sucedía", "acontecia", "ocorria", "vinha", "vinham", "tinha", "tinham", "eram",
    "havia", "estava", "saía", "saíam", "dizia", "fazia", "podia", "parecia", "devolvia", "caía", "batia",
    "était", "avait", "venait", "renvoyait", "faisait", "pouvait", "semblait", "manquait",
    "plantait", "échouait", "arrivait", "provenait", "tombait", "retournait", "valait"];

/// Spanish past endings of the third person plural: "se rompieron". Portuguese -aram is left
/// out: it also ends the present of verbs in -arar (comparam, preparam).
const PLURAL_PAST_ENDINGS: &[&str] = &["aron", "ieron"];

/// Words that end a main clause and open a reason or a condition: a decision's reason may
/// tell its story in the imperfect ("porque los conteos quedaban obsoletos").
#[rustfmt::skip]
const REASON_WORDS: &[&str] = &["porque", "pois", "car", "parce", "puisque", "weil", "da",
    "since", "because", "ya", "dado", "como", "quando", "cuando", "lorsque", "quand", "when"];

/// Words only French uses among the languages read here: the perfect with `avoir` is looked
/// for in French text only (Portuguese "as variáveis" is not "tu as …").
#[rustfmt::skip]
const FRENCH_WORDS: &[&str] = &["les", "des", "du", "est", "et", "dans", "avec", "qui", "pas",
    "j", "l", "d", "qu", "n", "au", "aux", "sur", "une"];

/// A first person in progress: "I'm wiring …", "Estoy adaptando …", "Je suis en train de …",
/// "Ich bin dabei …". A first person with an -ing, -ando, -endo or -indo word after it.
#[rustfmt::skip]
const FIRST_PERSON_PROGRESSIVE: &[&str] = &["i am", "i m", "we are", "we re", "estoy",
    "estamos", "estou", "je suis en train", "nous sommes en train", "on est en train",
    "ich bin dabei", "wir sind dabei", "ich bin gerade", "wir sind gerade"];

/// Words before a year that make a past verb the project's history rather than the
/// session's: "dropped in the 2024 rewrite", "se retiró en 2023", "wurde 2024 umgestellt".
#[rustfmt::skip]
const BEFORE_A_YEAR: &[&str] = &["in", "the", "since", "en", "em", "im", "seit", "depuis",
    "desde", "dans", "au", "de", "wurde", "wurden", "ist", "was", "were", "foi", "fue"];

/// Words a Spanish, Portuguese or French past participle opening the text is followed by when
/// it reports an action: an article or a preposition ("Reportado al SDK", "Testado o envio",
/// "Signalé en amont").
#[rustfmt::skip]
const AFTER_OPENING_PARTICIPLE: &[&str] = &["el", "la", "los", "las", "un", "una", "al", "del",
    "o", "a", "os", "as", "um", "uma", "no", "na", "nos", "nas", "ao", "aos", "en", "em", "con",
    "com", "para", "por", "pelo", "pela", "le", "les", "au", "aux", "dans", "sur", "puis", "y",
    "e", "et", "upstream", "en amont"];

/// French verbs of state before a participle ("est protégée"): not an action done.
const FRENCH_AVOIR: &[&str] = &["ai", "as", "a", "avons", "avez", "ont", "avait", "avaient"];

/// German verbs in the simple past that are not weak (-te): "entstanden", "kam", "lief".
/// Subjunctives that give advice (sollte, könnte, würde, dürfte) are not among them.
#[rustfmt::skip]
const GERMAN_STRONG_PAST: &[&str] = &["war", "waren", "hatte", "hatten", "kam", "kamen", "ging",
    "gingen", "lief", "liefen", "gab", "gaben", "fand", "fanden", "brach", "brachen", "entstand",
    "entstanden", "fiel", "fielen", "blieb", "blieben", "schien", "sah", "wurde", "wurden", "zog",
    "schlug", "trat", "warf", "begann", "sprang", "stieg", "fuhr", "rief", "wusste", "musste",
    "mussten", "konnte", "konnten", "ließ", "hing", "stand", "standen", "scheiterte"];

/// Words that open a status line of work in progress: "En cours : ajout de …".
#[rustfmt::skip]
const IN_PROGRESS_OPENINGS: &[&str] = &["in progress", "en cours", "en curso", "em andamento",
    "in arbeit", "进行中", "進行中", "진행 중"];

/// Words of a run's result: with a command line beside them, the text reports a run ("…, all
/// green", "前 500 步正常", "全モデル成功").
#[rustfmt::skip]
const RUN_RESULTS: &[&str] = &["passed", "passes", "green", "succeeded", "all good", "正常",
    "通过", "全绿", "成功", "通過", "성공", "통과", "정상", "éxito", "en verde", "erfolgreich",
    "grün", "durchgelaufen", "réussi", "vert", "sucesso", "passou", "verde"];

/// Verbs of reading a file, told in the past ("Lu train.py, …", "Revisados src/…", "…を読んだ"):
/// with two file paths, the files this session looked at. Not English "read", which is also
/// the imperative of advice ("Read docs/A.md and docs/B.md first").
#[rustfmt::skip]
const LOOKED_AT: &[&str] = &["looked at", "went through", "checked", "看了", "看过", "读了",
    "查看了", "読んだ", "見た", "確認した", "봤", "읽었", "살펴", "revisé", "revisados", "revisado",
    "leí", "leídos", "miré", "gelesen", "angesehen", "durchgesehen", "lu", "relu", "vu",
    "regardé", "consulté", "parcouru", "li", "lido", "lidos", "olhei", "dei uma olhada"];

/// Whether `raw` tells a story of the session by the tense of its predicate or holds only for
/// the moment. `normalized` is the text as `narration` reads it (lowercased, separators one
/// space, a space at each end).
pub(super) fn tells_what_happened(raw: &str, normalized: &str) -> bool {
    holds_for_the_moment(normalized)
        || opens_in_progress(normalized)
        || still_in_a_state(normalized)
        || reports_a_run(raw, normalized)
        || looked_at_files(raw, normalized)
        || in_progress_in_the_first_person(normalized)
        || korean_cause_in_the_past(raw)
        || english_main_clause_is_past(raw)
        || japanese_ends_in_the_past(raw)
        || korean_ends_in_a_report(raw)
        || romance_tells_the_past(normalized)
        || german_tells_the_past(raw)
}

fn holds_for_the_moment(normalized: &str) -> bool {
    let mut text = normalized.to_string();
    for phrase in NOT_PASSING {
        text = text.replace(phrase, " ");
    }
    PASSING_MOMENT
        .iter()
        .flat_map(|(_, phrases)| phrases.iter())
        .any(|phrase| {
            if phrase.chars().any(super::structure::is_dense_char) {
                text.contains(phrase)
            } else {
                text.contains(&format!(" {phrase} "))
            }
        })
}

/// Verbs of going on ("sigue apagado", "continua fora", "bleibt aus") before a participle or a
/// gerund: a state that still holds, not "Los datos siguen la arquitectura medallion".
const STILL_VERBS: &[&str] = &["sigue", "siguen", "continúa", "continua", "continuam"];

fn still_in_a_state(normalized: &str) -> bool {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    words.windows(2).any(|pair| {
        STILL_VERBS.contains(&pair[0])
            && ["ado", "ido", "ada", "ida", "ando", "endo", "indo"]
                .iter()
                .any(|e| {
                    pair[1]
                        .strip_suffix(e)
                        .is_some_and(|stem| stem.chars().count() >= 2)
                })
    })
}

fn opens_in_progress(normalized: &str) -> bool {
    IN_PROGRESS_OPENINGS
        .iter()
        .any(|opening| normalized.starts_with(&format!(" {opening} ")))
}

/// A command line (a known tool, or an option `--x`) beside a word of its result.
fn reports_a_run(raw: &str, normalized: &str) -> bool {
    let names_a_command = raw
        .split_whitespace()
        .any(|w| w.starts_with("--") && w.len() > 3 || super::structure::COMMANDS.contains(&w));
    names_a_command
        && RUN_RESULTS.iter().any(|result| {
            if result.chars().any(super::structure::is_dense_char) {
                normalized.contains(result)
            } else {
                normalized.contains(&format!(" {result} "))
            }
        })
}

fn looked_at_files(raw: &str, normalized: &str) -> bool {
    let paths = raw
        .split(|c: char| c.is_whitespace() || ",、，".contains(c))
        .filter(|w| {
            let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
            let dotted = w
                .rsplit_once('.')
                .is_some_and(|(stem, ext)| !stem.is_empty() && (2..=5).contains(&ext.len()));
            w.is_ascii() && (w.contains('/') || dotted) && w.chars().any(char::is_alphabetic)
        })
        .count();
    paths >= 2
        && LOOKED_AT.iter().any(|verb| {
            if verb.chars().any(super::structure::is_dense_char) {
                normalized.contains(verb)
            } else {
                normalized.contains(&format!(" {verb} "))
            }
        })
}

fn in_progress_in_the_first_person(normalized: &str) -> bool {
    FIRST_PERSON_PROGRESSIVE.iter().any(|subject| {
        normalized
            .match_indices(&format!(" {subject} "))
            .any(|(at, found)| {
                let rest = &normalized[at + found.len()..];
                subject.ends_with("train")
                    || subject.ends_with("dabei")
                    || subject.ends_with("gerade")
                    || rest.split_whitespace().take(2).any(|w| {
                        ["ing", "ando", "endo", "indo"]
                            .iter()
                            .any(|e| w.strip_suffix(e).is_some_and(|stem| stem.len() >= 3))
                    })
            })
    })
}

/// A past verb (a syllable closed by ㅆ) before "기 때문": the cause of this session's bug.
fn korean_cause_in_the_past(raw: &str) -> bool {
    raw.match_indices("기 때문").any(|(at, _)| {
        raw[..at]
            .chars()
            .last()
            .is_some_and(super::structure::closes_with_ss)
    })
}

/// Whether `raw` names a year as the time of a change ("dropped in the 2024 rewrite",
/// 2023 年下线, 2024년에 폐지): project history, which stays true, not the session's story.
pub(super) fn names_a_year(raw: &str) -> bool {
    let is_year = |w: &str| {
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        digits.len() == 4
            && (digits.starts_with("19") || digits.starts_with("20"))
            && matches!(&w[4..], "" | "年" | "년" | "년에" | "年に" | "年の")
    };
    let dense_year = raw.char_indices().any(|(at, c)| {
        (c == '年' || c == '년') && {
            let digits: String = raw[..at].chars().rev().take(5).collect();
            let digits: String = digits.trim_start().chars().rev().collect();
            // The last four characters, which may not be ASCII digits (or one byte each).
            let year = digits
                .char_indices()
                .rev()
                .nth(3)
                .map_or("", |(at, _)| &digits[at..]);
            year.len() == 4
                && year.chars().all(|d| d.is_ascii_digit())
                && (year.starts_with("19") || year.starts_with("20"))
        }
    });
    let words: Vec<&str> = raw
        .split(|c: char| c.is_whitespace() || ",;:()".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    dense_year
        || words.iter().enumerate().any(|(at, word)| {
            is_year(word)
                && (!word[4..].is_empty()
                    || words
                        .get(at + 1)
                        .is_some_and(|n| n.starts_with(['年', '년']))
                    || at
                        .checked_sub(1)
                        .is_some_and(|i| BEFORE_A_YEAR.contains(&words[i].to_lowercase().as_str())))
        })
}

/// Lowercased words of `clause`, apostrophes kept inside them.
fn latin_words(clause: &str) -> Vec<String> {
    clause
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The first verb of the main clause (before `;`, `:` or a dash) is a past one: "Gave the
/// queue a go", "Duplicate emails happened since …", "The leak came from …". A present verb,
/// a modal or a rule word met first ends the search: "Prices are stored as cents".
fn english_main_clause_is_past(raw: &str) -> bool {
    // The colon of a scrubbed secret's placeholder does not end the clause.
    let raw = raw.replace(crate::domain::guard::secrets::REDACTED_PREFIX, "[REDACTED ");
    let main = raw.split([';', ':', '—', '–']).next().unwrap_or(&raw);
    let words = latin_words(main);
    for (at, word) in words.iter().enumerate() {
        let word = word.as_str();
        if ENGLISH_PRESENT_MARKERS.contains(&word) {
            return false;
        }
        if ENGLISH_IRREGULAR_PAST.contains(&word) {
            return true;
        }
        let next = words.get(at + 1).map(String::as_str);
        // "unreleased", "unused": adjectives whatever follows them
        if is_ed_verb(word) && !word.starts_with("un") {
            let previous = at.checked_sub(1).map(|i| words[i].as_str());
            if previous.is_some_and(|p| ENGLISH_AUXILIARIES.contains(&p)) {
                return false;
            }
            // An -ed word is a verb before its object, a linking word or the clause's end
            // ("emails happened since …"); before a noun it is an adjective ("Retry failed
            // webhooks", "Signed download URLs expire").
            let acts = next.is_none_or(|n| {
                ENGLISH_OBJECT_OPENERS.contains(&n)
                    || ENGLISH_LINKS.contains(&n)
                    || n.chars().any(|c| c.is_ascii_digit())
            });
            if acts {
                return true;
            }
        }
    }
    false
}

fn is_ed_verb(word: &str) -> bool {
    word.is_ascii()
        && word.len() >= 5
        && word.ends_with("ed")
        && ![
            "need", "indeed", "embed", "speed", "seed", "feed", "proceed", "exceed",
        ]
        .iter()
        .any(|w| word.ends_with(w))
}

/// The text's last sentence with its closing punctuation and brackets trimmed.
fn final_predicate(raw: &str) -> &str {
    raw.trim_end_matches(|c: char| {
        c.is_whitespace() || c.is_ascii_punctuation() || "。．、，！？」』）".contains(c)
    })
}

fn japanese_ends_in_the_past(raw: &str) -> bool {
    let has_kana = raw.chars().any(|c| ('\u{3040}'..='\u{30FF}').contains(&c));
    if !has_kana {
        return false;
    }
    let end = final_predicate(raw);
    JAPANESE_PAST_ENDINGS.iter().any(|e| end.ends_with(e))
        || JAPANESE_PAST_CAUSES.iter().any(|c| raw.contains(c))
}

fn korean_ends_in_a_report(raw: &str) -> bool {
    let end = final_predicate(raw);
    let hangul = |c: char| ('\u{AC00}'..='\u{D7A3}').contains(&c);
    if !end.chars().last().is_some_and(hangul) {
        return false;
    }
    if KOREAN_REPORT_ENDINGS.iter().any(|e| {
        end.strip_suffix(e)
            .is_some_and(|head| head.is_empty() || head.ends_with(' ') || !head.ends_with(hangul))
    }) {
        return true;
    }
    // A past adnominal (final ㄴ on a verb's syllable, not 는 or 은 of a topic) before 것 or 탓.
    KOREAN_CAUSE_NOUNS.iter().any(|noun| {
        end.strip_suffix(noun)
            .map(str::trim_end)
            .and_then(|head| head.chars().last())
            .is_some_and(|c| hangul(c) && (c as u32 - 0xAC00) % 28 == 4 && !"는은인".contains(c))
    })
}

/// Spanish, Portuguese and French past forms: an imperfect or a plural simple past anywhere,
/// a participle opening the text before an article or preposition, French `avoir` before a
/// participle ("a disparu").
fn romance_tells_the_past(normalized: &str) -> bool {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    let long_stem = |word: &str, ending: &str| {
        word.strip_suffix(ending)
            .is_some_and(|stem| stem.chars().count() >= 3)
    };
    let main_clause = words
        .iter()
        .take_while(|w| !REASON_WORDS.contains(w))
        .collect::<Vec<_>>();
    let imperfect = main_clause.iter().any(|word| {
        IRREGULAR_IMPERFECTS.contains(word)
            || !NOT_IMPERFECT.contains(word)
                && IMPERFECT_ENDINGS
                    .iter()
                    .flat_map(|(_, endings)| endings.iter())
                    .any(|ending| long_stem(word, ending))
    });
    let plural_past = words
        .iter()
        .any(|word| PLURAL_PAST_ENDINGS.iter().any(|e| long_stem(word, e)));
    let opening_participle = match (words.first(), words.get(1)) {
        (Some(first), Some(second)) => {
            let spanish_portuguese = ["ado", "ido", "ada", "ida", "ados", "idos"]
                .iter()
                .any(|e| long_stem(first, e));
            let french = ["é", "ée", "és", "ées"].iter().any(|e| long_stem(first, e))
                && !first.ends_with("ité");
            let names_a_file = words.len() > 2 && {
                let original = normalized.split_whitespace().nth(1).unwrap_or_default();
                ["src", "lib", "app", "docs", "config", "tests", "test"].contains(&original)
            };
            (spanish_portuguese || french)
                && (AFTER_OPENING_PARTICIPLE.contains(second) || names_a_file)
        }
        _ => false,
    };
    let is_french = words.iter().any(|w| FRENCH_WORDS.contains(w));
    let french_perfect = is_french
        && words.windows(2).any(|pair| {
            FRENCH_AVOIR.contains(&pair[0])
                && ["é", "i", "u", "is", "it", "ert"]
                    .iter()
                    .any(|e| long_stem(pair[1], e))
                && !["besoin", "lieu", "droit"].contains(&pair[1])
        });
    imperfect || plural_past || opening_participle || french_perfect
}

/// German: a strong simple past anywhere ("entstanden", "kam"), or a weak one (-te, -ten)
/// closing a clause written in lower case ("…, weil der Retry … feuerte").
fn german_tells_the_past(raw: &str) -> bool {
    let is_german = raw.split_whitespace().any(|w| {
        [
            "der", "die", "das", "den", "dem", "des", "ist", "sind", "und", "nicht", "wird",
        ]
        .contains(&w)
    });
    if !is_german {
        return false;
    }
    let strong = latin_words(raw)
        .iter()
        .any(|w| GERMAN_STRONG_PAST.contains(&w.as_str()));
    let weak_closing = raw.split([',', ';', '.']).any(|clause| {
        clause
            .split_whitespace()
            .last()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .is_some_and(|w| {
                w.starts_with(|c: char| c.is_lowercase())
                    && w.chars().count() >= 6
                    && (w.ends_with("te") || w.ends_with("ten"))
                    && !w.ends_with("ste")
                    && !w.ends_with("sten")
            })
    });
    strong || weak_closing
}

#[cfg(test)]
mod tests {
    use super::*;

    fn happened(text: &str) -> bool {
        tells_what_happened(text, &super::super::narration::normalize(text))
    }

    #[test]
    fn past_predicates_in_each_language_tell_what_happened() {
        for text in [
            "Gave the queue-based sender a go, backed it out when ordering broke",
            "Duplicate emails happened since the retry fired before the ack was written",
            "Raised a bug upstream about the SDK dropping the reply-to header",
            "重複メールは ack の書き込み前にリトライが走ったことによるもの",
            "SDK が reply-to ヘッダーを落とす件を上流に報告",
            "SDK가 reply-to 헤더를 빠뜨리는 문제를 업스트림에 제보",
            "중복 메일은 ack가 기록되기 전에 재시도가 돌아서 생긴 것",
            "Los correos duplicados salían porque el reintento saltaba antes de guardar el ack",
            "Reportado al SDK upstream que pierde la cabecera reply-to",
            "Reportado no SDK upstream que o cabeçalho reply-to se perde",
            "Doppelte Mails entstanden, weil der Retry vor dem Schreiben des Acks feuerte",
            "Les notifications sont groupées par utilisateur, l'ancien envoi a disparu",
        ] {
            assert!(happened(text), "{text}");
        }
    }

    #[test]
    fn what_holds_for_the_moment_is_not_durable() {
        for text in [
            "Notifications batch per user for now",
            "Mailhog isn't reachable from the test container right now",
            "测试容器里暂时访问不到 Mailhog",
            "당분간 테스트 컨테이너에서 Mailhog에 접속이 안 됨",
            "Mailhog no responde desde el contenedor de tests ahora mismo",
            "Mailhog injoignable depuis le conteneur de test pour le moment",
            "Mailhog não responde de dentro do container de teste neste momento",
            "Mailhog ist aus dem Testcontainer gerade nicht erreichbar",
        ] {
            assert!(happened(text), "{text}");
        }
    }

    #[test]
    fn timeless_facts_and_rules_are_not_narration() {
        for text in [
            "Prices are stored as integer cents",
            "Signed download URLs expire after 15 minutes",
            "The CSV dialect we emit is documented in docs/export-format.md",
            "Removed features are listed in CHANGELOG.md",
            "From now on, run the linter before every commit",
            "Now that the API is versioned, new endpoints go under /v2",
            "Read the docs before changing the store",
            "Vault answers to [REDACTED:vault] in staging",
            "金額は整数の銭単位で保存し、浮動小数点は絶対に使わない",
            "リリース手順は docs/RELEASING.md にある",
            "릴리스 절차는 docs/RELEASING.md에 있다",
            "커밋은 작게 나누고 제목은 명령형으로 쓴다",
            "Los importes se guardan en céntimos como enteros",
            "Die Mail-Vorlagen liegen in templates/mail/ und nutzen MJML",
            "Les tests d'intégration ont besoin de la stack docker compose",
            "As faturas são geradas toda noite pelo cron de cobrança",
            "Sécurité par défaut dans toutes les routes",
        ] {
            assert!(!happened(text), "{text}");
        }
    }

    #[test]
    fn a_year_mark_after_kana_is_no_year_and_no_panic() {
        // "…ではなく年…": the characters before 年 are kana, several bytes each.
        assert!(!names_a_year("Redis ではなく年次バッチで集計する"));
        assert!(names_a_year("2024年に Realm を廃止した"));
    }
}
