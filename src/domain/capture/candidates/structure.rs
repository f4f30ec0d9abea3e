//! Narration recognised by its shape rather than its words, so that it generalises past the
//! phrases of `narration`: a first-person or team subject with a past verb (by its ending), a
//! count with "left" or "still", a numbered step, a time word scoped to the session, a service
//! named beside a state, and Korean's past-tense final ㅆ ending the text.
//!
//! Texts are read as `narration` reads them: lowercased, every run of characters that are not
//! letters or digits one space. A text stating a lasting rule is not narration (the caller
//! checks `narration::states_lasting_rule` first).

use super::Rejection::{self, BranchState, Progress, ProjectSnapshot, ServiceState, UserRequest};
use crate::domain::capture::explicit::Lang::{
    self, Chinese, English, French, German, Japanese, Korean, Portuguese, Spanish,
};

/// A subject (or auxiliary) and the endings of the past verb that follows it within
/// `PAST_VERB_REACH` words: "we wired", "was renamed", "j'ai intégré", "hemos renombrado",
/// "habe … eingebaut", "se ejecutó".
#[rustfmt::skip]
const SUBJECT_PAST: &[(Lang, &[&str], &[&str])] = &[
    (English, &["we", "i", "was", "were", "has been", "have been", "had"],
        &["ed", "ran", "went", "found", "made", "wrote", "got", "saw", "took", "broke", "spent",
          "built", "undid", "reran", "rewrote", "began", "brought", "kept", "tried"]),
    (Spanish, &["he", "hemos", "ha", "han", "se", "lo"],
        &["ado", "ada", "ados", "adas", "ido", "ida", "idos", "ó", "ió", "imos", "amos"]),
    // not "ist" and "sind": with a participle they are mostly a state ("ist … gepinnt")
    (German, &["habe", "haben", "hat", "hatte", "hatten", "wurde", "wurden"],
        &["iert", "ge*t", "ge*en"]),
    (French, &["j ai", "on a", "nous avons", "il a", "elle a", "ils ont", "a été", "ont été",
        "l avons", "les avons", "avons"],
        &["é", "és", "ée", "ées", "i", "is", "u", "us", "ert", "erts", "it", "fait"]),
    (Portuguese, &["fizemos", "tinha", "tinham", "foi", "foram", "tenho", "temos"],
        &["ado", "ada", "ados", "adas", "ido", "ida", "idos", "ou", "ei"]),
];

/// How many words after a subject its past verb may stand ("we then wired"); further on it
/// belongs to another clause ("the dialect we emit is documented"). German puts the
/// participle at the end of its clause ("habe den Parser eingebaut"), so reaches further.
const PAST_VERB_REACH: usize = 2;
const GERMAN_PAST_VERB_REACH: usize = 5;

/// Endings of a past verb that tell narration wherever they stand, in the languages whose
/// simple past is marked on the verb alone: Spanish -ó/-ió, Portuguese -ou (its -ei would
/// take German's Datei). Each with the words that end so and are not past verbs.
#[rustfmt::skip]
const PAST_ENDINGS: &[(Lang, &str, &[&str])] = &[
    (Spanish, "ó", &[]),
    (Portuguese, "ou", &["ou", "sou", "vou", "estou", "dou"]),
];

/// Letters a word must have before a past ending.
const MIN_STEM: usize = 3;

/// A team's first-person plural opening the text, past in narration ("Renombramos …",
/// "Tentamos …") and present in a decision, which gives its reason (`REASONS`).
#[rustfmt::skip]
const TEAM_OPENING: &[(Lang, &[&str])] = &[
    (Spanish, &["amos", "imos"]),
    (Portuguese, &["amos", "emos", "imos"]),
];

/// Endings of a French past participle opening the text, a bare status line ("Parcouru …",
/// "Ouvert …"); not -é, which ends as many nouns (priorité, clé).
const PARTICIPLE_OPENING: [&str; 3] = ["ouru", "ert", "erts"];

/// Words giving a reason: a team's present-tense choice ("Usamos SQLite porque …").
#[rustfmt::skip]
const REASONS: &[&str] = &["porque", "pois", "ya que", "dado que", "por qué", "por quê", "para que",
    "because", "since", "why", "weil", "car", "parce que"];

/// Time words scoped to the session: a fact that holds only today is not durable.
#[rustfmt::skip]
const SESSION_TIME: &[(Lang, &[&str])] = &[
    (English, &["today", "tonight", "this morning", "this afternoon", "this evening", "yesterday",
        "just now", "earlier today", "this iteration", "this time"]),
    (Chinese, &["今天", "今日", "今早", "昨天", "刚才", "刚刚", "这次迭代", "本轮迭代"]),
    (Japanese, &["今日", "本日", "今朝", "昨日", "さっき", "先ほど", "今回のイテレーション"]),
    (Korean, &["오늘", "어제", "방금", "아까", "이번 이터레이션", "이번 반복"]),
    (Spanish, &["hoy", "esta mañana", "esta tarde", "ayer", "hace un rato", "esta iteración",
        "esta vez"]),
    (German, &["heute", "heute morgen", "gestern", "gerade eben", "vorhin", "diese iteration",
        "dieses mal", "diesmal"]),
    // not "hier" (yesterday), German's "here"
    (French, &["aujourd hui", "ce matin", "cet après midi", "tout à l heure", "cette itération",
        "cette fois"]),
    (Portuguese, &["hoje", "esta manhã", "esta tarde", "ontem", "há pouco", "esta iteração",
        "nesta iteração", "desta vez"]),
];

/// Words saying that a count is what is left: with a number in the text, a snapshot.
#[rustfmt::skip]
const REMAINING: &[(Lang, &[&str])] = &[
    (English, &["left", "remaining", "remain", "remains", "still", "pending", "to go", "outstanding",
        "awaiting", "waiting"]),
    (Chinese, &["还有", "还剩", "剩", "仍有", "待"]),
    (Japanese, &["まだ", "残り", "残って", "あと", "未対応が", "未対応は", "が未対応", "待ち"]),
    (Korean, &["아직", "남", "대기"]),
    (Spanish, &["quedan", "queda", "pendientes", "pendiente", "todavía", "aún", "faltan", "siguen",
        "esperando"]),
    (German, &["noch", "übrig", "offen", "ausstehend", "warten", "wartet"]),
    (French, &["reste", "restent", "restant", "restants", "encore", "en attente"]),
    (Portuguese, &["faltam", "falta", "restam", "resta", "ainda", "pendentes", "pendente",
        "aguardando"]),
];

/// Words naming a step of a plan: with a number beside them, a phase of the session.
#[rustfmt::skip]
const STEPS: &[(Lang, &[&str])] = &[
    (English, &["step", "phase", "stage", "milestone"]),
    // not 第 alone, which opens 第三方 (third-party)
    (Chinese, &["阶段", "步骤"]),
    (Japanese, &["ステップ", "フェーズ", "段階"]),
    (Korean, &["단계"]),
    (Spanish, &["paso", "fase", "etapa"]),
    (German, &["schritt", "phase", "stufe", "etappe"]),
    (French, &["étape", "phase"]),
    (Portuguese, &["etapa", "fase", "passo"]),
];

/// Things that run, and the states that say whether they run right now.
#[rustfmt::skip]
const SERVICES: &[&str] = &["container", "server", "service", "daemon", "database", "redis",
    "postgres", "mysql", "docker", "容器", "服务", "数据库", "コンテナ", "サーバー", "サービス",
    "컨테이너", "서버", "서비스", "contenedor", "servidor", "servicio", "conteneur", "serveur",
    "dienst", "datenbank", "servidor", "serviço", "banco"];

#[rustfmt::skip]
const SERVICE_STATES: &[(Lang, &[&str])] = &[
    // not a bare "down", which a lasting "shuts down on SIGTERM" has
    (English, &["is down", "are down", "went down", "still down", "up again", "crashed",
        "came back"]),
    (Chinese, &["挂了", "宕机", "恢复了", "起来了", "停了"]),
    (Japanese, &["停止中", "復旧", "ダウン", "落ち", "再起動後"]),
    (Korean, &["복구됐", "복구되었", "재시작했", "내려가", "죽었"]),
    (Spanish, &["caído", "caída", "levantado", "levantarse", "reiniciado", "parado", "volvió"]),
    (German, &["ist down", "noch down", "läuft wieder", "gestoppt", "abgestürzt", "neu gestartet", "wieder da"]),
    (French, &["arrêté", "arrêtée", "reparti", "repartie", "tombé", "redémarré", "relancé"]),
    (Portuguese, &["fora do ar", "voltou", "caiu", "parado", "reiniciado", "no ar"]),
];

/// Someone else's wish with a deadline: what the user asked for this week, not a preference.
#[rustfmt::skip]
const WANTS: &[(Lang, &[&str])] = &[
    (English, &["they want", "they need", "they would like", "wants it", "wants the"]),
    (Chinese, &["希望", "想要", "要求"]),
    (Japanese, &["ほしい", "欲しい", "たい"]),
    (Korean, &["원함", "원한다", "원해", "바란다", "바람"]),
    (Spanish, &["quieren", "quiere", "necesitan", "piden"]),
    (German, &["wollen", "will", "möchten", "brauchen"]),
    (French, &["veulent", "veut", "voudraient", "souhaitent"]),
    (Portuguese, &["querem", "quer", "precisam", "pedem"]),
];

#[rustfmt::skip]
const DEADLINES: &[(Lang, &[&str])] = &[
    (English, &["before", "by friday", "by monday", "by tomorrow", "by the end of", "this week"]),
    (Chinese, &["之前", "前完成", "周一", "周五", "明天", "本周"]),
    (Japanese, &["までに", "明日", "今週"]),
    (Korean, &["전에", "까지", "내일", "이번 주"]),
    (Spanish, &["antes de", "para el", "mañana", "esta semana"]),
    (German, &["vor der", "vor dem", "bis", "morgen", "diese woche"]),
    (French, &["avant", "d ici", "demain", "cette semaine"]),
    (Portuguese, &["antes da", "antes do", "até", "amanhã", "esta semana"]),
];

/// A past copula: a state told in the past is a story of the session ("the loop was a stale
/// cookie", "era por", "war"), unless a reason is being given (`REASONS`).
#[rustfmt::skip]
const PAST_COPULAS: &[(Lang, &[&str])] = &[
    (English, &["was", "were"]),
    (Spanish, &["era", "eran", "fue", "fueron"]),
    (German, &["war", "waren"]),
    (French, &["était", "étaient"]),
    (Portuguese, &["era", "eram", "foi", "foram"]),
];

/// Markers of a completed action in the scripts that do not inflect for it: 已 before a verb
/// (not 已知, "known"), 済み ("done"), a Korean note ending on a syllable closed by ㅁ (손봄,
/// 옮김; not 음 of 있음).
const DONE_MARKERS: [&str; 2] = ["已", "已经"];
const DONE_SUFFIXES: [&str; 1] = ["済み"];
const NOT_DONE: [&str; 3] = ["已知", "已有", "已弃用"];

/// A ticket and the participle that says it was just opened: "Ticket ouvert pour …".
#[rustfmt::skip]
const TRACKERS: &[&str] = &["ticket", "issue", "bug report", "工单", "チケット", "이슈",
    "incidencia", "tíquete"];

#[rustfmt::skip]
const OPENED: &[(Lang, &[&str])] = &[
    (English, &["filed", "opened", "raised"]),
    (Chinese, &["开了", "提了", "新建"]),
    (Japanese, &["起票", "作成した"]),
    (Korean, &["등록", "올림", "열었"]),
    (Spanish, &["abierto", "abierta", "creado", "creada"]),
    (German, &["angelegt", "eröffnet", "erstellt", "aufgemacht"]),
    (French, &["ouvert", "ouverte", "créé", "créée"]),
    (Portuguese, &["aberto", "aberta", "criado", "criada"]),
];

/// Words of rewriting a branch's history: its state this session, unless a lasting rule says
/// when to do it ("never force-push to main").
#[rustfmt::skip]
const BRANCH_HISTORY: &[(Lang, &[&str])] = &[
    (English, &["rebased", "force push", "force pushed", "cherry picked"]),
    (Chinese, &["变基", "强制推送"]),
    (Japanese, &["リベース", "強制プッシュ"]),
    (Korean, &["리베이스", "강제 푸시"]),
    (Spanish, &["rebasada", "rebasado"]),
    (German, &["rebased", "gerebased"]),
    (French, &["rebasée", "rebasé"]),
    (Portuguese, &["rebaseada", "rebaseado"]),
];

/// A Chinese verb with a result complement ending a clause (改掉, 修好, 做完): a done action.
const RESULT_COMPLEMENTS: [&str; 4] = ["掉", "好", "完", "定"];

/// A Japanese text ending on a verb's continuative stem (書き換え, 追加し): a note of what was
/// done, cut before its ending; not なし ("none").
const CONTINUATIVE_ENDINGS: [char; 2] = ['え', 'し'];

/// Tools that open a command line: a text opening with one and giving a number ("cargo bench
/// … shows a 12% speedup") reports a run, not a fact.
#[rustfmt::skip]
pub(super) const COMMANDS: &[&str] = &["cargo", "npm", "pnpm", "yarn", "bun", "deno", "go", "pytest",
    "python", "make", "git", "docker", "kubectl", "mvn", "gradle", "ruby", "rspec", "php",
    "composer", "cmake", "ctest", "node", "npx", "tsc", "eslint", "uv", "pip"];

/// Labels of a list of the files of the session: "Relevant files: …".
#[rustfmt::skip]
const FILE_LABELS: &[&str] = &["relevant files", "files touched", "相关文件",
    "涉及文件", "関連ファイル", "変更ファイル", "관련 파일", "변경 파일", "archivos relevantes",
    "archivos tocados", "relevante dateien", "geänderte dateien", "fichiers concernés",
    "fichiers modifiés", "arquivos relevantes", "arquivos alterados"];

/// A step done and a step next in one text: "parsing done, streaming next, then docs".
#[rustfmt::skip]
const DONE_WORDS: &[(Lang, &[&str])] = &[
    (English, &["done", "finished", "complete", "completed"]),
    (Chinese, &["搞定", "完成", "做完"]),
    (Japanese, &["終わり", "完了", "済"]),
    (Korean, &["끝", "완료"]),
    (Spanish, &["listo", "lista", "terminado", "hecho"]),
    (German, &["erledigt", "fertig", "abgeschlossen"]),
    (French, &["fini", "finie", "terminé", "terminée", "fait"]),
    (Portuguese, &["pronto", "pronta", "concluído", "feito"]),
];

#[rustfmt::skip]
const NEXT_WORDS: &[(Lang, &[&str])] = &[
    (English, &["next", "then"]),
    (Chinese, &["下一步", "然后", "接着", "最后"]),
    (Japanese, &["次は", "その後"]),
    (Korean, &["다음", "그다음"]),
    (Spanish, &["después", "luego", "siguiente"]),
    (German, &["danach", "dann", "als nächstes"]),
    (French, &["ensuite", "puis", "après"]),
    (Portuguese, &["depois", "em seguida", "por fim"]),
];

/// A service with a verb of restarting it: a chore of the session.
#[rustfmt::skip]
const RESTART_STEMS: &[&str] = &["restart", "重启", "再起動", "띄워", "재시작", "reinici",
    "neustart", "neu gestartet", "relanc", "redémarr"];

/// Words of a test run: a service restarted before one is a chore of the session, even when
/// told as an obligation ("muss vor den Mail-Tests neu gestartet werden", "il faut relancer").
#[rustfmt::skip]
const TEST_RUNS: &[&str] = &["test", "tests", "测试", "テスト", "테스트", "pruebas", "teste",
    "testes"];

/// Whether `text` (normalized) restarts a service before a test run.
pub(super) fn restarts_before_tests(text: &str) -> bool {
    SERVICES.iter().any(|s| text.contains(s))
        && RESTART_STEMS.iter().any(|s| text.contains(s))
        && TEST_RUNS
            .iter()
            .any(|t| holds(text, t) || text.contains(&format!("{t} ")))
}

/// Sino-Korean nouns of a done action closing a clause of a note: "…로 교체, 출력은 …".
const KOREAN_ACTION_NOUNS: [&str; 6] = ["교체", "수정", "추가", "삭제", "변경", "제거"];

/// Nouns of an action opening the text before "of": "Remplacement de …", "Reescritura del
/// …", the nominal report of what was done.
#[rustfmt::skip]
const ACTION_NOUNS: &[(Lang, &[&str])] = &[
    (Spanish, &["cambio", "reescritura", "migración", "eliminación", "sustitución", "limpieza"]),
    (French, &["remplacement", "ajout", "suppression", "correction", "migration", "déplacement",
        "réécriture", "refonte", "nettoyage"]),
    (Portuguese, &["troca", "reescrita", "migração", "remoção", "substituição", "limpeza"]),
];

#[rustfmt::skip]
const OF: &[&str] = &["de", "del", "des", "du", "d", "do", "da", "dos", "das"];

/// Spanish and Portuguese participles opening the text before an article: "Cambiado el …",
/// "Trocado o …".
const PARTICIPLE_ENDINGS: [&str; 4] = ["ado", "ido", "ada", "ida"];
#[rustfmt::skip]
const ARTICLES: &[&str] = &["el", "la", "los", "las", "un", "una", "o", "a", "os", "as", "um",
    "uma"];

/// Endings of the imperfect, the tense of a diagnosis ("devolvía vacío porque", "renvoyait",
/// "voltava"); counted only before a reason word, since a decision's reason may use it too
/// ("porque los conteos quedaban obsoletos"). Not -ía (categoría, todavía) nor German -te.
#[rustfmt::skip]
const IMPERFECT_ENDINGS: &[(Lang, &[&str])] = &[
    (Spanish, &["aba", "aban"]),
    (French, &["ait", "aient"]),
    (Portuguese, &["ava", "avam"]),
];

/// Spanish imperfects in -ía, taken as whole words since -ía also ends nouns (categoría).
#[rustfmt::skip]
const IRREGULAR_IMPERFECTS: &[&str] = &["había", "tenía", "hacía", "devolvía", "podía", "salía",
    "decía", "venía", "existía", "fallaba"];

/// "Now" and "no longer" in one text: a change made this session ("now incremental, full
/// reindex no longer needed").
#[rustfmt::skip]
const NOW_WORDS: &[(Lang, &[&str])] = &[
    (English, &["now"]), (Chinese, &["现在"]), (Spanish, &["ya", "ahora"]), (German, &["jetzt"]),
    (French, &["maintenant"]), (Portuguese, &["agora"]),
];

#[rustfmt::skip]
const NO_LONGER: &[(Lang, &[&str])] = &[
    (English, &["no longer"]), (Chinese, &["不用再", "不再"]), (Spanish, &["ya no", "no hace falta"]),
    (German, &["nicht mehr", "mehr"]), (French, &["plus besoin", "ne plus"]),
    (Portuguese, &["não precisa mais", "mais"]),
];

/// What a change just replaced, and the words saying it is gone: "now … ; the old sender is
/// gone", "der alte Einzelversand ist raus", "l'ancien envoi a disparu".
#[rustfmt::skip]
const THE_OLD: &[(Lang, &[&str])] = &[
    (English, &["the old"]), (Chinese, &["旧的", "原来的"]), (Japanese, &["旧来の", "以前の"]),
    (Korean, &["기존", "예전"]), (Spanish, &["el antiguo", "la antigua", "el viejo"]),
    (German, &["der alte", "die alte", "das alte"]), (French, &["l ancien", "l ancienne"]),
    (Portuguese, &["o antigo", "a antiga"]),
];

#[rustfmt::skip]
const GONE: &[(Lang, &[&str])] = &[
    (English, &["is gone", "are gone"]), (Chinese, &["已删", "没了"]), (Japanese, &["削除済み", "なくなった"]),
    (Korean, &["삭제됨", "삭제했", "없어졌"]), (Spanish, &["ya no está", "desapareció"]),
    (German, &["ist raus", "sind raus", "ist weg"]), (French, &["a disparu", "ont disparu"]),
    (Portuguese, &["foi removido", "foi removida", "sumiu"]),
];

/// The user and a word of consent: agreeing to this session's plan, not a preference.
#[rustfmt::skip]
const USERS: &[&str] = &["user", "usuario", "nutzer", "benutzer", "utilisateur", "usuário",
    "utilizador", "用户", "使用者", "ユーザー", "사용자"];

/// Whether the line is said of the user, its first word after an article ("User prefers …",
/// "Der Nutzer will …", "L'utilisateur préfère …", "ユーザーは…"): a preference or a request,
/// never a platitude, however few of the project's names it holds.
pub(super) fn said_of_the_user(text: &str) -> bool {
    const ARTICLES: [&str; 7] = ["the", "der", "el", "le", "l", "o", "a"];
    text.trim_start_matches(['-', '*', ' '])
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '’'))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .find(|word| !ARTICLES.contains(&word.as_str()))
        .is_some_and(|word| {
            // A spaced word is the user's alone ("users table" is the project's); an unspaced
            // one carries its particle ("ユーザーは", "사용자는").
            USERS
                .iter()
                .any(|user| word == *user || (user.chars().any(is_dense) && word.starts_with(user)))
        })
}

#[rustfmt::skip]
const CONSENT: &[(Lang, &[&str])] = &[
    (English, &["okay with", "ok with", "fine with", "agreed", "agrees"]),
    (Chinese, &["同意"]), (Japanese, &["了承", "同意"]), (Korean, &["동의"]),
    (Spanish, &["le parece bien", "de acuerdo"]), (German, &["einverstanden"]),
    (French, &["d accord"]), (Portuguese, &["topou", "concordou", "de acordo"]),
];

/// Numbers in words, for counts of what is left ("two of the five … still").
#[rustfmt::skip]
const NUMBER_WORDS: &[&str] = &["two", "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "zwei",
    "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "deux", "trois", "quatre",
    "cinq", "sept", "huit", "neuf", "dix", "duas", "três", "quatro", "sete", "oito", "nove", "dez",
    "两个", "三个", "四个", "五个", "두 개", "세 개", "네 개", "다섯", "2つ", "3つ", "4つ", "5つ"];

/// Words of a run's result: a command named beside one reports a run ("…, all green").
#[rustfmt::skip]
const RESULTS: &[&str] = &["green", "passed", "verde", "grün", "vert", "全绿", "通过"];

/// Korean endings after a syllable closed by ㅆ, the past-tense marker: 바꿨어요, 했다, 됐음.
const KOREAN_PAST_TAILS: [&str; 6] = ["다", "습니다", "어요", "어", "음", "네요"];

/// Whether `text` (normalized) has the shape of narration of the kind `rejection` names.
pub(super) fn narrates(rejection: Rejection, text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    match rejection {
        ProjectSnapshot => {
            has_remaining_count(text, &words)
                || has_numbered_step(text, &words)
                || (mentions(text, DONE_WORDS) && mentions(text, NEXT_WORDS))
        }
        ServiceState => {
            has_service_state(text)
                || (SERVICES.iter().any(|s| text.contains(s))
                    && RESTART_STEMS.iter().any(|s| text.contains(s)))
        }
        BranchState => mentions(text, BRANCH_HISTORY),
        UserRequest => {
            mentions(text, WANTS) && mentions(text, DEADLINES)
                || USERS.iter().any(|u| holds(text, u)) && mentions(text, CONSENT)
        }
        Progress => {
            subject_with_past(text, &words)
                || words.iter().any(|word| has_past_ending(word))
                || team_opening(text, &words)
                || words.first().is_some_and(|first| {
                    PARTICIPLE_OPENING
                        .iter()
                        .any(|ending| first.ends_with(ending))
                        && first.chars().count() > 4
                })
                || ends_in_korean_past(text)
                || ends_in_korean_note(text)
                || has_done_marker(text)
                || opens_with_a_run(&words)
                || (words.iter().any(|w| COMMANDS.contains(w) || *w == "curl")
                    && RESULTS.iter().any(|r| holds(text, r)))
                || changed_this_session(text)
                || imperfect_before_reason(&words)
                || ["したので", "ったのは", "たのは"]
                    .iter()
                    .any(|m| text.contains(m))
                || FILE_LABELS.iter().any(|label| holds(text, label))
                || opens_with_an_action(&words)
                || KOREAN_ACTION_NOUNS
                    .iter()
                    .any(|noun| text.contains(&format!("{noun} ")) && !text.contains("금지"))
                || ["たが", "たけど", "たところ"]
                    .iter()
                    .any(|m| text.contains(m))
                || ends_on_result_or_stem(text)
                || (TRACKERS.iter().any(|t| holds(text, t)) && mentions(text, OPENED))
                || copula_before_reason(&words)
                || mentions(text, SESSION_TIME)
        }
        _ => false,
    }
}

/// Whether `text` holds one of the table's entries: a Latin entry as whole words, a CJK or
/// Hangul one anywhere.
fn mentions(text: &str, table: &[(Lang, &[&str])]) -> bool {
    table
        .iter()
        .flat_map(|(_, entries)| entries.iter())
        .any(|entry| holds(text, entry))
}

fn holds(text: &str, entry: &str) -> bool {
    if entry.chars().any(is_dense) {
        text.contains(entry)
    } else {
        text.contains(&format!(" {entry} "))
    }
}

fn subject_with_past(text: &str, words: &[&str]) -> bool {
    SUBJECT_PAST.iter().any(|(language, subjects, endings)| {
        let reach = if *language == German {
            GERMAN_PAST_VERB_REACH
        } else {
            PAST_VERB_REACH
        };
        subjects.iter().any(|subject| {
            let needle = format!(" {subject} ");
            text.match_indices(&needle).any(|(at, _)| {
                let before = text[..at + 1].split_whitespace().count();
                let after = before + subject.split(' ').count();
                words
                    .iter()
                    .skip(after)
                    .take(reach)
                    .any(|word| endings.iter().any(|ending| is_past_word(word, ending)))
            })
        })
    })
}

/// Whether `word` is a past verb by `ending`: a whole irregular form, a suffix after a stem of
/// `MIN_STEM` letters, or `ge*t` (a German Partizip II, its separable prefix allowed).
fn is_past_word(word: &str, ending: &str) -> bool {
    if let Some((head, tail)) = ending.split_once('*') {
        return word.ends_with(tail)
            && word.contains(head)
            && word.chars().count() >= head.len() + tail.len() + MIN_STEM;
    }
    if ending.chars().count() > 3 && word == ending {
        return true;
    }
    word.strip_suffix(ending)
        .is_some_and(|stem| stem.chars().count() >= MIN_STEM)
}

fn has_past_ending(word: &str) -> bool {
    PAST_ENDINGS.iter().any(|(_, ending, exceptions)| {
        !exceptions.contains(&word)
            && word
                .strip_suffix(ending)
                .is_some_and(|stem| stem.chars().count() >= MIN_STEM)
    })
}

fn team_opening(text: &str, words: &[&str]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    TEAM_OPENING.iter().any(|(_, endings)| {
        endings.iter().any(|ending| {
            first
                .strip_suffix(ending)
                .is_some_and(|stem| stem.chars().count() >= MIN_STEM)
        })
    }) && !REASONS.iter().any(|reason| holds(text, reason))
}

fn has_digit(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_ascii_digit() || "一二三四五六七八九十两".contains(c))
}

fn has_remaining_count(text: &str, words: &[&str]) -> bool {
    (words
        .iter()
        .any(|w| w.chars().any(|c| c.is_ascii_digit()) && !looks_like_version_or_port(w))
        || NUMBER_WORDS.iter().any(|n| holds(text, n)))
        && mentions(text, REMAINING)
}

/// "v1.2", "3000": numbers that are names, not counts.
fn looks_like_version_or_port(word: &str) -> bool {
    word.chars().filter(|c| c.is_ascii_digit()).count() >= 3
}

fn has_numbered_step(text: &str, words: &[&str]) -> bool {
    STEPS
        .iter()
        .flat_map(|(_, steps)| steps.iter())
        .any(|step| {
            if step.chars().any(is_dense) {
                // A numeral within two characters of the word: 第二阶段, 3단계, ステップ3.
                text.match_indices(step).any(|(at, _)| {
                    let before: String = text[..at].chars().rev().take(2).collect();
                    let after: String = text[at + step.len()..].chars().take(2).collect();
                    has_digit(&before) || has_digit(&after)
                })
            } else {
                words
                    .windows(2)
                    .any(|pair| pair[0] == *step && pair[1].chars().all(|c| c.is_ascii_digit()))
            }
        })
}

fn has_service_state(text: &str) -> bool {
    SERVICES.iter().any(|service| text.contains(service)) && mentions(text, SERVICE_STATES)
}

fn ends_on_result_or_stem(text: &str) -> bool {
    let mut tail = text.trim_end().chars().rev();
    let (Some(last), Some(before)) = (tail.next(), tail.next()) else {
        return false;
    };
    let chinese = RESULT_COMPLEMENTS.iter().any(|c| c.starts_with(last))
        && ('\u{4E00}'..='\u{9FFF}').contains(&before);
    let japanese = CONTINUATIVE_ENDINGS.contains(&last)
        && before != 'な'
        && (('\u{4E00}'..='\u{9FFF}').contains(&before)
            || ('\u{30A0}'..='\u{30FF}').contains(&before));
    chinese || japanese
}

/// "Now" and "no longer" together: told even beside "every time", which is the change's
/// scope ("每次导入后不用再全量重建"), so the caller does not ask for a lasting rule.
pub(super) fn changed_this_session(text: &str) -> bool {
    mentions(text, NOW_WORDS) && mentions(text, NO_LONGER)
        || mentions(text, THE_OLD) && mentions(text, GONE)
}

/// The words before the first reason word: the main clause, whose tense tells a story.
fn before_reason<'a>(words: &'a [&'a str]) -> impl Iterator<Item = &'a &'a str> {
    words
        .iter()
        .take_while(|w| !REASONS.contains(w) && !["parce", "car", "weil", "why"].contains(w))
}

fn copula_before_reason(words: &[&str]) -> bool {
    let copulas: Vec<&str> = PAST_COPULAS
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .collect();
    before_reason(words).any(|w| copulas.contains(w))
}

fn imperfect_before_reason(words: &[&str]) -> bool {
    before_reason(words).any(|word| {
        IRREGULAR_IMPERFECTS.contains(word) || {
            IMPERFECT_ENDINGS
                .iter()
                .flat_map(|(_, endings)| endings.iter())
                .any(|ending| {
                    word.strip_suffix(ending)
                        .is_some_and(|stem| stem.chars().count() >= 3)
                })
        }
    })
}

/// German weak verbs in the simple past before "weil": "lieferte nichts, weil … endete".
/// Only lower-case words (German nouns are capitalised) with endings few adjectives have.
pub(super) fn german_past_before_reason(raw: &str) -> bool {
    let main = raw.split(" weil ").next().unwrap_or(raw);
    let has_reason = main.len() < raw.len();
    has_reason
        && main.split_whitespace().skip(1).any(|word| {
            let word = word.trim_matches(|c: char| !c.is_alphanumeric());
            word.starts_with(|c: char| c.is_lowercase())
                && word.chars().count() >= 7
                && GERMAN_WEAK_PAST.iter().any(|e| word.ends_with(e))
        })
}

const GERMAN_WEAK_PAST: [&str; 5] = ["ierte", "erte", "dete", "tete", "elte"];

fn opens_with_a_run(words: &[&str]) -> bool {
    words.first().is_some_and(|first| COMMANDS.contains(first))
        && words
            .iter()
            .skip(1)
            .any(|w| w.chars().any(|c| c.is_ascii_digit()))
}

fn opens_with_an_action(words: &[&str]) -> bool {
    let (Some(first), Some(second)) = (words.first(), words.get(1)) else {
        return false;
    };
    let noun = ACTION_NOUNS.iter().any(|(_, nouns)| nouns.contains(first)) && OF.contains(second);
    let participle = PARTICIPLE_ENDINGS.iter().any(|ending| {
        first
            .strip_suffix(ending)
            .is_some_and(|stem| stem.chars().count() >= 3)
    }) && ARTICLES.contains(second);
    noun || participle
}

fn has_done_marker(text: &str) -> bool {
    let mut text = text.to_string();
    for word in NOT_DONE {
        text = text.replace(word, " ");
    }
    // 済み closing a clause ("同期済み"), not before a particle ("整形済みは", the formatted ones)
    DONE_SUFFIXES.iter().any(|suffix| {
        text.match_indices(suffix)
            .any(|(at, _)| text[at + suffix.len()..].starts_with(' '))
    }) || DONE_MARKERS.iter().any(|marker| {
        text.match_indices(marker).any(|(at, _)| {
            text[at + marker.len()..]
                .chars()
                .next()
                .is_some_and(is_dense)
        })
    })
}

/// A Korean text ending on a syllable closed by ㅁ (index 16 of the finals): the terse note
/// form of a verb, 손봄, 옮김, 완료함; not 음, the note form of 있다 and 없다.
fn ends_in_korean_note(text: &str) -> bool {
    text.trim_end().chars().last().is_some_and(|c| {
        let code = c as u32;
        (0xAC00..=0xD7A3).contains(&code) && (code - 0xAC00) % 28 == 16 && c != '음'
    })
}

fn ends_in_korean_past(text: &str) -> bool {
    let text = text.trim_end();
    KOREAN_PAST_TAILS.iter().any(|tail| {
        text.strip_suffix(tail)
            .and_then(|head| head.chars().last())
            .is_some_and(closes_with_ss)
    })
}

/// A Hangul syllable whose final consonant is ㅆ (index 20 of the 28 finals), other than the
/// present 있 ("is", "lies in") and the future 겠.
pub(super) fn closes_with_ss(c: char) -> bool {
    let code = c as u32;
    (0xAC00..=0xD7A3).contains(&code) && (code - 0xAC00) % 28 == 20 && !"있겠".contains(c)
}

pub(super) fn is_dense_char(c: char) -> bool {
    is_dense(c)
}

fn is_dense(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}' | '\u{1100}'..='\u{11FF}' | '\u{F900}'..='\u{FAFF}')
}

/// German prefixes before the `ge` of a Partizip II: eingebaut, nachgezogen, zurückgesetzt.
const SEPARABLE_PREFIXES: [&str; 18] = [
    "", "ab", "an", "auf", "aus", "ein", "nach", "um", "vor", "zu", "zurück", "mit", "weg", "hoch",
    "durch", "fest", "her", "hin",
];

/// German prefixes of a Partizip II without `ge` (ersetzt, verschoben); only its -t form is
/// taken, since an infinitive in -en ends a German rule ("SQLite verwenden").
const INSEPARABLE_PREFIXES: [&str; 5] = ["er", "ver", "be", "ent", "zer"];

/// German verbs that make a participle a lasting state ("ist … beschrieben").
const GERMAN_STATE_VERBS: [&str; 6] = ["ist", "sind", "wird", "werden", "bleibt", "bleiben"];

/// French words that make a participle a lasting state ("est protégée"), not a done action.
const FRENCH_STATE_VERBS: [&str; 5] = ["est", "sont", "être", "reste", "restent"];

/// Whether a clause of `raw` (the text split at commas and semicolons) ends on a past
/// participle written in lower case (German nouns are capitalised): a German Partizip II or a
/// French one in -é without a verb of state: the bare status line "Loader nachgezogen",
/// "chargeur retouché".
pub(super) fn clause_ends_in_participle(raw: &str) -> bool {
    raw.split([',', ';', '，', '、']).any(|clause| {
        let words: Vec<&str> = clause.split_whitespace().collect();
        let Some(word) = words
            .last()
            .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()))
        else {
            return false;
        };
        if word.chars().count() < 7 || !word.starts_with(|c: char| c.is_lowercase()) {
            return false;
        }
        let inseparable = INSEPARABLE_PREFIXES.iter().any(|prefix| {
            word.strip_prefix(prefix)
                .is_some_and(|stem| stem.chars().count() >= 3 && stem.ends_with('t'))
        }) && !words.iter().any(|w| GERMAN_STATE_VERBS.contains(w));
        let german = inseparable
            || !words.iter().any(|w| GERMAN_STATE_VERBS.contains(w))
                && (word.ends_with("iert")
                    || SEPARABLE_PREFIXES.iter().any(|prefix| {
                        // a stem of four letters or more after `ge`: ausgeben is an infinitive
                        word.strip_prefix(prefix)
                            .and_then(|rest| rest.strip_prefix("ge"))
                            .is_some_and(|stem| {
                                stem.chars().count() >= 4
                                    && (stem.ends_with('t') || stem.ends_with("en"))
                            })
                    }));
        let french = ["é", "ée", "és", "ées"].iter().any(|e| word.ends_with(e))
            && !words.iter().any(|w| FRENCH_STATE_VERBS.contains(w));
        german || french
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Option<Rejection> {
        let kinds = [
            ProjectSnapshot,
            ServiceState,
            BranchState,
            UserRequest,
            Progress,
        ];
        let normalized = super::super::narration::normalize(text);
        kinds.into_iter().find(|&kind| narrates(kind, &normalized))
    }

    #[test]
    fn past_verbs_after_a_subject_or_by_their_ending_are_progress() {
        for text in [
            "We wired the retry budget into the worker",
            "The flag was renamed in both crates",
            "J'ai intégré la limite",
            "Hemos renombrado las claves",
            "Se ejecutó la suite dos veces",
            "Ich habe den Parser eingebaut",
            "O teste passou depois da correção",
            "Renomeamos as chaves",
            "설정 키 이름을 바꿨어요",
            "The crash this afternoon came back",
        ] {
            assert_eq!(shape(text), Some(Progress), "{text}");
        }
    }

    #[test]
    fn counts_left_and_numbered_steps_are_snapshots() {
        for text in [
            "Still 7 warnings in src/net",
            "Quedan 5 errores",
            "迁移第二阶段完成",
            "마이그레이션 3단계 완료",
            "Step 3 is done",
        ] {
            assert_eq!(shape(text), Some(ProjectSnapshot), "{text}");
        }
    }

    #[test]
    fn requests_with_deadlines_branch_history_and_done_markers_are_told_apart() {
        assert_eq!(
            shape("They want the export done before the demo"),
            Some(UserRequest)
        );
        assert_eq!(shape("release/2.4 auf main rebased"), Some(BranchState));
        for text in [
            "release/2.4 已变基到 main",
            "main にリベース済み",
            "加载器也一起改掉",
            "ローダーも書き換え",
            "로더도 손봄",
        ] {
            assert!(
                narrates(Progress, &format!(" {text} ")) || shape(text).is_some(),
                "{text}"
            );
        }
        assert!(clause_ends_in_participle(
            "Feature-Flags verschoben, Loader nachgezogen"
        ));
        assert!(clause_ends_in_participle(
            "Déplacement des flags, chargeur retouché"
        ));
        for text in [
            "Feature-Flags liegen in der Datenbank statt in Umgebungsvariablen",
            "Die Release-Schritte stehen in docs/RELEASE.md, inklusive Changelog-Format",
            "La branche main est protégée, on ne fusionne que par merge request",
            "Das CSV-Format, das wir ausgeben, ist in docs/export-format.md beschrieben",
        ] {
            assert!(!clause_ends_in_participle(text), "{text}");
        }
    }

    #[test]
    fn a_line_said_of_the_user_is_told_from_one_about_users() {
        for said in [
            "User prefers terse answers",
            "- The user wants a changelog entry per PR",
            "Der Nutzer bevorzugt kurze Antworten",
            "L'utilisateur préfère le tutoiement",
            "O utilizador quer testes antes do merge",
            "ユーザーは短い回答を好む",
            "사용자는 한국어 답변을 선호함",
            "用户希望先给结论",
            "使用者偏好小步提交",
        ] {
            assert!(said_of_the_user(said), "{said}");
        }
        for not in [
            "The users table has a soft-delete column",
            "User-facing errors are written in English",
            "Every user request goes through the gateway",
            "Prefer small commits",
        ] {
            assert!(!said_of_the_user(not), "{not}");
        }
    }

    #[test]
    fn durable_shapes_are_not_narration() {
        for text in [
            "Usamos SQLite para cachés locales porque no hay servidor",
            "The dev server runs on port 3000",
            "Background jobs are retried at most five times",
            "커밋은 작게 나누고 제목은 명령형으로 쓴다",
            "Timestamps are stored as UTC milliseconds",
            "Le serveur lit sa configuration au démarrage",
            "O importador ignora linhas vazias",
            "第三方库统一放在 vendor 目录",
            "開発機でサーバーを管理しなくて済むため",
            "末尾の句点なし",
            "Rebase onto main before opening a pull request",
            "The CSV dialect we emit is documented in docs/export-format.md",
        ] {
            assert_eq!(shape(text), None, "{text}");
        }
        assert!(closes_with_ss('했'));
        assert!(!closes_with_ss('한'));
        assert!(!closes_with_ss('있'));
        assert_eq!(shape("릴리스 절차는 docs/RELEASING.md에 있다"), None);
    }
}
