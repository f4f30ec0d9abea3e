//! The type of a memory follows its content: a pointer to docs or a URL is a reference, a
//! choice (with its reason) a decision, a preference, an instruction to the agent or a code
//! style feedback, and a plain statement about the project (it opens with an article or a
//! pronoun, or states what something is) a project memory; anything else is feedback.
//!
//! Checked in that order. Words starting or ending with a Latin letter or digit match on that
//! side only at a word boundary ("report" is not "repo", "decidedly" not "decided"); CJK words
//! match anywhere. Each table lists its languages in the order English, Spanish, German,
//! French, Portuguese, Chinese, Japanese, Korean.

use crate::domain::memory::kind::MemoryType;

const URL_MARKERS: &[&str] = &["://", "www."];

/// A pointer to where something is documented or shown.
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
    "readme",
    "handbook",
    "notion",
    "confluence",
    "grafana",
    "playbook",
    "documentación",
    "documentacion",
    "enlace",
    "enlaces",
    "tablero",
    "manual",
    "doku",
    "dokumentation",
    "handbuch",
    "lien",
    "liens",
    "tableau de bord",
    "documentação",
    "documentacao",
    "painel",
    "链接",
    "鏈接",
    "連結",
    "网址",
    "網址",
    "文档",
    "文檔",
    "仪表盘",
    "儀表板",
    "手册",
    "手冊",
    "說明文件",
    "ダッシュボード",
    "ドキュメント",
    "リンク",
    "手順書",
    "대시보드",
    "문서",
    "링크",
    "위키",
];

/// A choice that was made.
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
    "settled on",
    "opted",
    "picked",
    "decidimos",
    "decidí",
    "decidido",
    "decisión",
    "elegimos",
    "optamos",
    "nos quedamos con",
    "entschieden",
    "entscheidung",
    "gewählt",
    "beschlossen",
    "décidé",
    "décision",
    "choisi",
    "opté",
    "decisão",
    "escolhemos",
    "optamos por",
    "决定",
    "決定",
    "选择",
    "選擇",
    "选用",
    "選用",
    "採用",
    "采用",
    "決めた",
    "選んだ",
    "결정",
    "선택했",
    "채택",
];

/// A choice, which with a reason is a decision: "use Vitest because it is faster".
const CHOICE_WORDS: &[&str] = &[
    "use",
    "using",
    "switched",
    "switch",
    "moved",
    "instead of",
    "rather than",
    "over",
    "usamos",
    "usar",
    "usa",
    "en vez de",
    "en lugar de",
    "verwenden",
    "nutzen",
    "benutzen",
    "statt",
    "anstatt",
    "stattdessen",
    "utilisons",
    "utiliser",
    "utilise",
    "au lieu de",
    "plutôt que",
    "usamos",
    "em vez de",
    "ao invés de",
    "usar",
    "用",
    "改用",
    "而不是",
    "使う",
    "使用",
    "代わりに",
    "사용",
    "대신",
];

const REASON_WORDS: &[&str] = &[
    "because",
    "since",
    "so that",
    "due to",
    "as it",
    "as they",
    "porque",
    "ya que",
    "debido a",
    "weil",
    "da es",
    "denn",
    "parce que",
    "car",
    "puisque",
    "pois",
    "já que",
    "ja que",
    "因为",
    "因為",
    "由于",
    "由於",
    "ので",
    "ため",
    "때문에",
    "라서",
    "이라서",
];

/// A decision when the second phrase follows the first: "we use X instead of Y". A bare "use
/// X instead of Y" is how the agent should work: feedback.
const DECISION_WORD_PAIRS: &[(&str, &str)] = &[
    ("we use", "instead of"),
    ("we're using", "instead of"),
    ("we are using", "instead of"),
];

/// What the user likes, anywhere in the text.
const PREFERENCE_WORDS: &[&str] = &[
    "i prefer",
    "i'd prefer",
    "i like",
    "i don't like",
    "i want",
    "i'd rather",
    "i hate",
    "my preference",
    "prefiero",
    "me gusta",
    "no me gusta",
    "quiero",
    "ich bevorzuge",
    "ich mag",
    "mir ist lieber",
    "ich möchte",
    "ich will",
    "je préfère",
    "je prefere",
    "j'aime",
    "je n'aime pas",
    "je veux",
    "prefiro",
    "eu gosto",
    "não gosto",
    "quero",
    "我喜欢",
    "我喜歡",
    "我更喜欢",
    "我更喜歡",
    "我偏好",
    "我的偏好",
    "我不喜欢",
    "我不喜歡",
    "好み",
    "好き",
    "嫌い",
    "선호",
    "좋아해",
    "싫어해",
];

/// An instruction to the agent when it opens the text: "always …", "use …", "reply in …".
const INSTRUCTION_OPENERS: &[&str] = &[
    "always",
    "never",
    "don't",
    "dont",
    "do not",
    "please",
    "use",
    "avoid",
    "prefer",
    "keep",
    "make sure",
    "run",
    "reply",
    "answer",
    "respond",
    "write",
    "ask",
    "add",
    "put",
    "call",
    "name",
    "check",
    "test",
    "commit",
    "push",
    "prefix",
    "stop",
    "only",
    "be",
    "explain",
    "format",
    "start",
    "include",
    "mention",
    "show",
    "give",
    "split",
    "pin",
    "wrap",
    "no",
    "siempre",
    "nunca",
    "no",
    "usa",
    "utiliza",
    "evita",
    "responde",
    "contesta",
    "escribe",
    "ejecuta",
    "corre",
    "pon",
    "haz",
    "mantén",
    "manten",
    "revisa",
    "agrega",
    "añade",
    "immer",
    "nie",
    "niemals",
    "keine",
    "kein",
    "nicht",
    "verwende",
    "benutze",
    "nutze",
    "antworte",
    "schreibe",
    "schreib",
    "führe",
    "vermeide",
    "halte",
    "lass",
    "prüfe",
    "toujours",
    "jamais",
    "ne",
    "n'",
    "utilise",
    "évite",
    "réponds",
    "écris",
    "lance",
    "exécute",
    "garde",
    "mets",
    "fais",
    "vérifie",
    "ajoute",
    "sempre",
    "nunca",
    "não",
    "nao",
    "use",
    "usa",
    "utilize",
    "evite",
    "responda",
    "escreva",
    "rode",
    "execute",
    "mantenha",
    "faça",
    "faca",
    "verifique",
    "adicione",
    "coloque",
    "总是",
    "總是",
    "始终",
    "始終",
    "一律",
    "永远",
    "永遠",
    "不要",
    "别",
    "別",
    "用",
    "使用",
    "回复",
    "回覆",
    "回答",
    "请",
    "請",
    "务必",
    "務必",
    "必须",
    "必須",
    "每次",
    "先",
    "禁止",
    "提交前",
    "提交之前",
    "所有回复",
    "所有回覆",
    "常に",
    "必ず",
    "いつも",
    "毎回",
    "항상",
    "반드시",
    "절대",
    "늘",
    "매번",
];

/// An instruction wherever it stands: "…, so never run migrations against it".
const INSTRUCTION_MARKERS: &[&str] = &[
    "never",
    "don't",
    "dont",
    "do not",
    "must not",
    "mustn't",
    "nunca",
    "jamás",
    "no subas",
    "no uses",
    "nie",
    "niemals",
    "bitte",
    "jamais",
    "ne jamais",
    "nunca",
    "jamais",
    "不要",
    "别",
    "別",
    "禁止",
    "必须",
    "必須",
    "一律",
    "统一",
    "統一",
    "都用",
    "都要",
    "一定",
    "每次",
    "务必",
    "務必",
    "先",
    "把",
    "必ず",
    "しないこと",
    "しないで",
    "ください",
    "常に",
    "いつも",
    "毎回",
    "항상",
    "반드시",
    "꼭",
    "절대",
    "안 돼",
    "안 된",
    "하지 마",
    "금지",
    "먼저",
    "하지 않",
];

/// Code style is a preference: "indentation with tabs", "インデントはスペース2つ".
const STYLE_WORDS: &[&str] = &[
    "indentation",
    "indent",
    "tabs",
    "semicolons",
    "kebab-case",
    "camelcase",
    "console.log",
    "sangría",
    "tabulaciones",
    "einrückung",
    "tabulations",
    "indentação",
    "缩进",
    "縮排",
    "驼峰",
    "駝峰",
    "インデント",
    "セミコロン",
    "들여쓰기",
    "kebab",
];

/// A statement opens with one of these: "the staging DB is read-only", "wir nutzen pnpm".
const STATEMENT_OPENERS: &[&str] = &[
    "the", "a", "an", "our", "we", "we're", "all", "this", "these", "those", "its", "their",
    "every", "each", "there", "el", "la", "los", "las", "un", "una", "nuestro", "nuestra",
    "nuestros", "todos", "todas", "der", "die", "das", "den", "ein", "eine", "unser", "unsere",
    "wir", "alle", "es", "le", "les", "l'", "une", "notre", "nos", "on", "nous", "tous", "toutes",
    "o", "os", "as", "um", "uma", "nosso", "nossa", "nós", "a gente",
];

/// A Japanese or Korean instruction ends with one of these: "…使ってください", "…해 줘".
const INSTRUCTION_ENDINGS: &[&str] = &[
    "ください",
    "して",
    "しないで",
    "すること",
    "しないこと",
    "ように",
    "使って",
    "해",
    "해줘",
    "해 줘",
    "하세요",
    "하지 마",
    "해라",
    "할 것",
    "하기",
    "말 것",
    "て",
    "てね",
    "する",
    "ない",
    "줘",
];

/// The project and its parts.
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
    "proyecto",
    "repositorio",
    "paquete",
    "servicio",
    "projekt",
    "repository",
    "paket",
    "dienst",
    "projet",
    "dépôt",
    "depot",
    "paquet",
    "projeto",
    "repositório",
    "pacote",
    "serviço",
    "项目",
    "項目",
    "專案",
    "仓库",
    "倉庫",
    "服务",
    "服務",
    "プロジェクト",
    "リポジトリ",
    "프로젝트",
    "저장소",
];

/// A plain statement of fact: "the staging DB is read-only", "CI runs on Node 20".
const FACT_WORDS: &[&str] = &[
    "is",
    "are",
    "was",
    "runs",
    "lives",
    "live",
    "has",
    "have",
    "uses",
    "needs",
    "requires",
    "belongs",
    "takes",
    "listens",
    "points",
    "contains",
    "expects",
    "returns",
    "stores",
    "es",
    "son",
    "está",
    "están",
    "esta",
    "estan",
    "tiene",
    "corre",
    "vive",
    "necesita",
    "ist",
    "sind",
    "läuft",
    "hat",
    "liegt",
    "braucht",
    "nutzt",
    "verwendet",
    "est",
    "sont",
    "tourne",
    "a besoin",
    "contient",
    "se trouve",
    "é",
    "são",
    "roda",
    "fica",
    "tem",
    "precisa",
    "usa",
    "是",
    "為",
    "为",
    "在",
    "位于",
    "位於",
    "运行在",
    "跑在",
    "需要",
    "只读",
    "唯讀",
    "です",
    "である",
    "だ",
    "にある",
    "입니다",
    "이다",
    "이야",
    "있다",
    "있음",
    "会",
    "會",
    "不能",
    "は",
    "が",
    "는",
    "은",
    "다",
];

/// Type of a memory text; see the tables above.
pub fn classify(text: &str) -> MemoryType {
    let normalized = normalize(text);
    let has_any = |words: &[&str]| words.iter().any(|word| has_word(&normalized, word));
    let opens_with = |words: &[&str]| words.iter().any(|word| starts_with_word(&normalized, word));
    let ends_with = |words: &[&str]| {
        let end =
            normalized.trim_end_matches(|c: char| c.is_ascii_punctuation() || "。！!".contains(c));
        words.iter().any(|word| end.ends_with(word))
    };
    if has_any(URL_MARKERS) || has_any(REFERENCE_WORDS) {
        MemoryType::Reference
    } else if has_any(DECISION_WORDS)
        || (has_any(CHOICE_WORDS) && has_any(REASON_WORDS))
        || DECISION_WORD_PAIRS
            .iter()
            .any(|&(first, second)| has_word_pair(&normalized, first, second))
    {
        MemoryType::Decision
    } else if has_any(PREFERENCE_WORDS)
        || has_any(INSTRUCTION_MARKERS)
        || has_any(STYLE_WORDS)
        || opens_with(INSTRUCTION_OPENERS)
        || ends_with(INSTRUCTION_ENDINGS)
    {
        MemoryType::Feedback
    } else if has_any(PROJECT_WORDS) || opens_with(STATEMENT_OPENERS) || has_any(FACT_WORDS) {
        MemoryType::Project
    } else {
        MemoryType::Feedback
    }
}

/// The type a memory's own words name outright, if any: a URL or a pointer to docs is a
/// reference, a choice called one ("we decided", "decision") a decision. The type model
/// weighs more than these words, and may miss them where they are few in its training data.
pub fn named_type(text: &str) -> Option<MemoryType> {
    let normalized = normalize(text);
    let has_any = |words: &[&str]| words.iter().any(|word| has_word(&normalized, word));
    if has_any(URL_MARKERS) || has_any(REFERENCE_WORDS) {
        Some(MemoryType::Reference)
    } else if has_any(DECISION_WORDS) {
        Some(MemoryType::Decision)
    } else {
        None
    }
}

/// Whether `words` call something a decision or a choice made ("keep this decision", "这个决定你
///记一下", "決定として残して"): said of a memory by the request around it, they make it one.
pub fn names_decision(words: &str) -> bool {
    let normalized = normalize(words);
    DECISION_WORDS
        .iter()
        .any(|word| has_word(&normalized, word))
}

/// Lowercase, one space between words, typographic apostrophes made plain.
fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .replace('’', "'")
}

fn is_word_char(c: char) -> bool {
    super::text::is_word_char(c)
}

/// The end offsets of the occurrences of `word` in `text` that sit on word boundaries.
fn word_ends<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let starts_in_word = word.starts_with(is_word_char);
    let ends_in_word = word.ends_with(is_word_char);
    text.match_indices(word).filter_map(move |(start, _)| {
        let end = start + word.len();
        let joined_before = starts_in_word && text[..start].ends_with(is_word_char);
        let joined_after = ends_in_word && text[end..].starts_with(is_word_char);
        (!joined_before && !joined_after).then_some(end)
    })
}

fn has_word(text: &str, word: &str) -> bool {
    word_ends(text, word).next().is_some()
}

fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word)
        && !(word.ends_with(is_word_char) && text[word.len()..].starts_with(is_word_char))
}

fn has_word_pair(text: &str, first: &str, second: &str) -> bool {
    word_ends(text, first).any(|end| has_word(&text[end..], second))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acceptance_examples() {
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
            ("the staging DB is read-only", MemoryType::Project),
            ("reply in Chinese", MemoryType::Feedback),
            ("use pnpm for all packages", MemoryType::Feedback),
            (
                "bump the version when the CLI changes",
                MemoryType::Feedback,
            ),
            ("timestamps are in milliseconds", MemoryType::Project),
            (
                "the DB is shared, so never run migrations on it",
                MemoryType::Feedback,
            ),
            ("I prefer small focused commits", MemoryType::Feedback),
            (
                "use Vitest because Jest is too slow here",
                MemoryType::Decision,
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(classify(text), kind, "{text}");
        }
    }

    #[test]
    fn latin_words_match_on_boundaries() {
        assert_eq!(
            classify("hyperlinks open in a new tab"),
            MemoryType::Feedback
        );
        assert_eq!(
            classify("the API docs live in /docs"),
            MemoryType::Reference
        );
        assert_ne!(
            classify("we decidedly like short names"),
            MemoryType::Decision
        );
        assert_eq!(
            classify("send the weekly report at noon"),
            MemoryType::Feedback
        );
        assert_eq!(
            classify("db url: postgres://localhost/dev"),
            MemoryType::Reference
        );
    }

    #[test]
    fn reference_then_decision_then_feedback_then_project() {
        assert_eq!(
            classify("we decided the runbook lives in the wiki"),
            MemoryType::Reference
        );
        assert_eq!(classify("we chose to split the repo"), MemoryType::Decision);
        assert_eq!(
            classify("never push to the main repo directly"),
            MemoryType::Feedback
        );
        assert_eq!(
            classify("we use   Vitest instead of Jest"),
            MemoryType::Decision
        );
        assert_eq!(classify("use Vitest instead of Jest"), MemoryType::Feedback);
        assert_eq!(classify("We’ll use Redis for queues"), MemoryType::Decision);
    }

    #[test]
    fn every_language_has_each_type() {
        let cases = [
            (
                "la documentación está en https://docs.example.com",
                MemoryType::Reference,
            ),
            (
                "usamos Postgres porque necesitamos JSONB",
                MemoryType::Decision,
            ),
            ("siempre responde en español", MemoryType::Feedback),
            (
                "el servidor de staging es de solo lectura",
                MemoryType::Project,
            ),
            (
                "die Doku liegt im Wiki unter Betrieb",
                MemoryType::Reference,
            ),
            (
                "wir verwenden pnpm, weil es schneller ist",
                MemoryType::Decision,
            ),
            ("antworte immer auf Deutsch", MemoryType::Feedback),
            ("der Build läuft auf Node 20", MemoryType::Project),
            ("la doc est sur le wiki interne", MemoryType::Reference),
            ("on a choisi Postgres pour le JSONB", MemoryType::Decision),
            ("réponds toujours en français", MemoryType::Feedback),
            (
                "la base de staging est en lecture seule",
                MemoryType::Project,
            ),
            ("a documentação fica no Notion", MemoryType::Reference),
            ("escolhemos Vitest em vez de Jest", MemoryType::Decision),
            ("sempre responda em português", MemoryType::Feedback),
            ("o banco de staging é somente leitura", MemoryType::Project),
            ("接口文档在内部站点", MemoryType::Reference),
            ("我们决定使用 Postgres", MemoryType::Decision),
            ("提交前先运行全部测试", MemoryType::Feedback),
            ("默认分支是 main", MemoryType::Project),
            ("本リポジトリはモノレポ構成", MemoryType::Project),
            ("コミット前に必ずテストを実行すること", MemoryType::Feedback),
            ("배포는 금요일에 하지 않음", MemoryType::Feedback),
            ("설계 문서는 노션에 있음", MemoryType::Reference),
        ];
        for (text, kind) in cases {
            assert_eq!(classify(text), kind, "{text}");
        }
    }
}
