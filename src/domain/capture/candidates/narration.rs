//! Session narration in every language the gate reads (English, Chinese, Japanese, Korean,
//! Spanish, German, French, Portuguese), as tables of phrases: what was done, tried, rolled
//! back, opened, looked at or run; what is left; why today's bug happened; the branch and the
//! working tree; services up or down; what the user asked for.
//!
//! A phrase is matched on the text lowercased, with every run of characters that are not
//! letters or digits read as one space (`j'ai corrigé` is `j ai corrigé`, `Dev-Server` is `dev
//! server`). A phrase in a Latin script matches whole words; one holding CJK or Hangul matches
//! anywhere, since those scripts do not separate words. In a phrase, `*` ends a word prefix
//! (`revert*`), `…` skips any text (`phase…finished`) and a trailing `$` anchors the end.
//!
//! A text that states a lasting rule (`LASTING`: must, always, 必须, 必ず, 반드시, debe, muss,
//! doit, deve, …) is not narration, whatever it mentions, and a lasting rule that merely opens
//! like narration ("Currently …", "Now that …", "WIP …", "TODO …", 目前, 現在, 현재, …) is
//! gated without its opener (`OPENERS`).

use std::sync::LazyLock;

use super::Rejection;
use crate::domain::capture::explicit::Lang::{
    self, Chinese, English, French, German, Japanese, Korean, Portuguese, Spanish,
};

/// Where a phrase must stand in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Opening the text: "Ran cargo test", "Corregí el cálculo".
    Start,
    /// Anywhere: "… and rolled it back", "…を修正しました".
    Anywhere,
}

/// Phrases of one kind of narration in one language, and where they stand.
type Phrases = (Rejection, Lang, At, &'static [&'static str]);

use At::{Anywhere, Start};
use Rejection::{BranchState, Diagnosis, Progress, ProjectSnapshot, ServiceState, UserRequest};

/// Every phrase of narration, by kind and language.
#[rustfmt::skip]
const NARRATION: &[Phrases] = &[
    // ─── Progress: done, tried and rolled back, opened, looked at, run ──────────────────
    // A past participle opening an English text is an adjective when `ADJECTIVE_SIGNS` follow
    // ("Merged PRs are squash-only").
    (Progress, English, Start, &["*ed up", "cleaned", "tidied", "pruned", "dropped", "pinned", "*ed the", "*ed a", "*ed an", "*ed it", "*ed this", "*ed that", "*ed these", "*ed those", "*ed all", "*ed our", "*ed my", "looked at", "looked into", "checked", "inspected", "examined",
        "went through", "read through", "reviewed", "ran", "reran", "re ran", "executed", "tried",
        "attempted", "opened", "filed", "reverted", "rolled back", "undid", "spent", "migrated",
        "wired", "finished", "completed", "debugged", "investigated", "traced", "confirmed",
        "verified", "reproduced", "restarted", "rebuilt", "reinstalled", "installed", "upgraded",
        "downgraded", "bumped", "replaced", "introduced", "fixed", "added", "removed",
        "implemented", "updated", "refactored", "renamed", "created", "deleted", "rewrote",
        "changed", "moved", "started", "began", "discovered", "noticed", "got"]),
    (Progress, English, Anywhere, &["green again", "passes again", "works again", "renders again", "builds again", "rolled back", "rolled it back", "rolled them back",
        "opened issue", "opened an issue", "opened a pr", "opened a pull request", "filed a bug",
        "filed an issue", "filed issue", "the session", "this session", "spent most of",
        "spent the"]),
    (Progress, Chinese, Anywhere, &["了", "了$", "又全", "又可以", "还没", "尚未", "已修复", "修复了", "修好了", "已解决", "解决了", "已回滚",
        "回滚了", "已撤销", "撤销了", "已回退", "回退了", "尝试了", "尝试把", "尝试将", "试过",
        "试了", "已创建", "创建了", "新建了", "提交了", "已提交", "查看了", "看了", "看过", "查过", "翻过", "检查了",
        "阅读了", "浏览了", "运行了", "执行了", "跑了", "重跑", "已接入", "接入了", "已完成",
        "完成了", "已添加", "添加了", "加了", "补充了", "已删除", "删除了", "已修改", "修改了",
        "改了", "已更新", "更新了", "已迁移", "迁移了", "已实现", "实现了", "正在", "刚才", "刚刚",
        "本次会话", "这次会话", "本轮会话", "调试了", "在调试", "排查了", "下一步", "接下来"]),
    (Progress, Japanese, Anywhere, &["削除$", "追加$", "修正$", "対応$", "完了$", "変更$", "実装$", "確認$", "作成$", "更新$", "た$", "ていない$", "ようになった", "また全部", "ました", "ませんでした", "修正した", "追加した", "確認した",
        "実行した", "試した", "試みた", "作成した", "調べた", "見た", "戻した", "元に戻",
        "ロールバックした", "終えた", "完了した", "デバッグした", "を実行し", "を作成し", "報告を出し", "貼った", "登録した", "起票した", "調査した", "組み込んだ",
        "移行中", "作業中", "対応中", "調査中", "さっき", "先ほど", "このセッション",
        "今回のセッション", "次は"]),
    (Progress, Korean, Anywhere, &["않음$", "웠음$", "았음$", "였음$", "렸음$", "졌음$", "봤음$", "웠다$", "렸다$", "졌다$", "봤다$", "함$", "됨$", "했음$", "었음$", "했다$", "었다$", "았다$", "였다$", "다시 전부", "했습니다", "었습니다", "았습니다", "였습니다", "렸습니다",
        "웠습니다", "졌습니다", "수정했", "고쳤", "추가했", "시도했", "롤백했", "되돌렸", "등록했",
        "생성했", "만들었", "열었", "살펴봤", "살펴보았", "확인했", "실행했", "돌렸", "마쳤",
        "끝냈", "완료했", "디버깅했", "조사했", "방금", "이번 세션", "이 세션", "중입니다",
        "하는 중", "진행 중"]),
    (Progress, Spanish, Start, &["*é", "*í", "he", "hemos", "se corrigió", "se arregló", "se añadió"]),
    (Progress, Spanish, Anywhere, &["volvió a", "fijé", "corregí", "arreglé", "añadí", "agregué", "implementé", "intenté",
        "probé", "revisé", "miré", "ejecuté", "lancé", "corrí", "abrí", "creé", "terminé", "acabé",
        "completé", "deshice", "revertí", "actualicé", "cambié", "eliminé", "borré", "migré",
        "integré", "depuré", "depuramos", "investigué", "esta sesión", "la sesión",
        "ahora funciona", "ya funciona", "solo queda"]),
    (Progress, German, Start, &["habe", "haben", "wir haben"]),
    (Progress, German, Anywhere, &["verlagert", "aufgeräumt$", "gelöscht$", "entfernt$", "erledigt$", "repariert$", "korrigiert$", "aktualisiert$", "gelöst$", "umgebaut$", "getestet$", "verschoben$", "umbenannt$", "eingerichtet$", "installiert$", "hochgezogen", "wieder grün", "lief…durch", "läuft wieder", "behoben", "versucht", "zurückgerollt", "zurückgesetzt",
        "rückgängig gemacht", "angelegt", "eröffnet", "ausgeführt", "laufen lassen", "angesehen",
        "angeschaut", "durchgesehen", "eingebaut", "debuggt", "gefixt", "ergänzt", "hinzugefügt",
        "umgestellt", "überprüft", "dieser sitzung", "der sitzung", "fehlt noch", "als nächstes"]),
    (Progress, French, Start, &["nettoyé", "retiré", "réparé", "mis à jour", "renommé", "déplacé", "installé", "configuré", "activé", "désactivé", "figé", "épinglé", "fixé", "rétabli", "remis", "corrigé", "ajouté", "terminé", "lancé", "ouvert", "annulé",
        "essayé", "regardé", "vérifié", "exécuté", "migré", "intégré", "débogué", "redémarré",
        "supprimé", "modifié"]),
    (Progress, French, Anywhere, &["au vert", "repasse", "de nouveau", "j ai", "on a corrigé", "on a ajouté", "on a surtout",
        "nous avons", "débogué", "cette session", "la session", "il ne reste que",
        "ouvert le ticket", "ouvert une issue", "ouvert l issue"]),
    (Progress, Portuguese, Start, &["movi", "mexi", "escrevi", "resolvi", "subi", "*ei"]),
    (Progress, Portuguese, Anywhere, &["voltou a", "fixei","corrigi", "consertei", "adicionei", "implementei", "tentei",
        "testei", "revisei", "olhei", "verifiquei", "executei", "rodei", "abri", "criei",
        "terminei", "concluí", "desfiz", "reverti", "atualizei", "mudei", "removi", "apaguei",
        "migrei", "integrei", "depurei", "depuramos", "investiguei", "reiniciei", "nesta sessão",
        "a sessão", "agora funciona", "só falta"]),
    // ─── Snapshots: phases completed, what is left ─────────────────────────────────────
    (ProjectSnapshot, English, Anywhere, &["warnings left", "warning left", "failures left", "tests left", "still…errors", "still…warnings", "still…failing", "phase…finished", "phase…completed", "phase…done",
        "step…finished", "step…completed", "errors remain", "error remains", "failures remain",
        "tests remain", "tests still fail", "errors left", "down to"]),
    (ProjectSnapshot, Chinese, Anywhere, &["还有…个…警告", "还有…个…错误", "还有…个…失败", "还剩", "剩下", "剩余", "只剩", "个错误", "个失败",
        "失败用例", "阶段已完成", "阶段完成", "步骤已完成", "全部通过", "都通过"]),
    (ProjectSnapshot, Japanese, Anywhere, &["まだ…件", "残り", "すべて通過", "全て通過", "件の", "失敗はあと", "が完了し", "完了済み"]),
    (ProjectSnapshot, Korean, Anywhere, &["아직…개", "남아", "남았", "남음", "단계 완료", "모두 통과"]),
    (ProjectSnapshot, Spanish, Anywhere, &["siguen…errores", "siguen…avisos", "todavía hay", "aún quedan", "quedan", "faltan", "fase…completada", "fase…terminada",
        "fase…completa"]),
    (ProjectSnapshot, German, Anywhere, &["stehen noch", "noch…warnungen", "noch…fehler", "noch…offen", "nur noch", "es sind noch",
        "phase…abgeschlossen", "phase…fertig", "schritt…abgeschlossen", "alles grün"]),
    (ProjectSnapshot, French, Anywhere, &["encore…erreurs", "encore…avertissements", "il reste", "plus que", "phase…terminée", "étape…terminée",
        "tout passe"]),
    (ProjectSnapshot, Portuguese, Anywhere, &["ainda há", "ainda restam", "ainda faltam", "faltam", "restam", "fase…concluída", "fase…terminada",
        "passou tudo"]),
    // ─── Diagnosis: the cause of this session's bug ────────────────────────────────────
    (Diagnosis, English, Anywhere, &["happened because", "occurred because", "failed because", "broke because", "was because", "came from", "stemmed from", "was caused by", "were caused by", "root cause of",
        "root cause was", "the cause was", "turned out", "was due to", "were due to",
        "the culprit", "the problem was", "the issue was", "the bug was"]),
    (Diagnosis, Chinese, Anywhere, &["来自…没有", "来自…漏了","原因是", "的原因", "根本原因", "问题根源", "根源是", "是因为",
        "罪魁祸首", "原来是", "导致的"]),
    (Diagnosis, Japanese, Anywhere, &["ために起きた", "で起きた", "が原因で", "起きていた", "発生していた", "原因は", "が原因", "原因だった", "根本原因", "判明した",
        "ことがわかった", "せいだった", "の正体は"]),
    (Diagnosis, Korean, Anywhere, &["생긴 문제", "발생했", "문제였", "원인은", "원인이", "이유는", "때문이었", "밝혀졌", "드러났"]),
    (Diagnosis, Spanish, Anywhere, &["ocurrió porque", "pasó porque", "falló porque", "se rompió porque", "sucedió porque", "venía de", "provenía de", "se debía a", "se debió a", "la causa", "era causado",
        "fue causado", "resultó que", "el problema era", "el fallo era"]),
    (Diagnosis, German, Anywhere, &["passierte weil", "geschah weil", "schlug fehl weil", "kam daher", "kam von", "kam vom", "kam aus", "lag an", "lagen an", "ursache war", "die ursache", "ursache",
        "grund war", "stellte sich heraus", "wurde verursacht"]),
    (Diagnosis, French, Anywhere, &["est arrivé parce", "s est produit parce", "a échoué parce", "cassait parce", "venait de", "venait d", "la cause", "était dû", "était due",
        "était causé", "s est avéré", "provenait", "le problème était"]),
    (Diagnosis, Portuguese, Anywhere, &["aconteceu porque", "ocorreu porque", "falhou porque", "quebrou porque", "era causado", "foi causado", "a causa", "se devia", "devia se",
        "o problema era", "vinha de"]),
    // ─── Branch and working tree ───────────────────────────────────────────────────────
    (BranchState, English, Anywhere, &["merge conflicts", "conflicts with main", "unresolved conflicts", "detached", "not pushed", "local commits", "local commit", "on branch", "commits ahead", "commit ahead",
        "ahead of origin", "behind origin", "working tree", "uncommitted", "unstaged", "untracked",
        "staged changes", "switched to", "checked out…branch", "stashed", "up to date with",
        "in sync with origin", "not yet pushed", "unpushed", "detached head", "local changes"]),
    (BranchState, Chinese, Anywhere, &["合并冲突", "有冲突", "游离", "本地提交", "还没推送", "未推送", "当前分支", "在…分支上", "切换到", "切到", "工作区", "未提交",
        "没提交", "领先", "落后", "已推送", "推送到", "暂存", "stash", "已同步", "与 origin 同步"]),
    (BranchState, Japanese, Anywhere, &["コンフリクト", "detached", "ローカルコミット", "プッシュしていない", "ブランチにいて", "ブランチにいる", "ブランチ上", "に切り替え",
        "チェックアウトした", "未コミット", "コミット先行", "先行", "作業ツリー",
        "ワーキングツリー", "stash", "プッシュ済み", "プッシュした", "同期済み"]),
    (BranchState, Korean, Anywhere, &["충돌이 있", "머지 충돌", "detached", "로컬 커밋", "푸시하지 않은", "브랜치에 있", "브랜치로 전환", "전환했", "체크아웃했",
        "커밋되지 않은", "커밋하지 않은", "앞서 있", "뒤처", "작업 트리", "워킹 트리", "stash",
        "푸시했", "동기화되어"]),
    (BranchState, Spanish, Anywhere, &["conflictos con", "conflictos sin resolver", "desacoplado", "detached", "commits locales", "sin subir", "no se han subido", "estamos en la rama", "estoy en la rama", "sin commitear",
        "sin confirmar", "árbol de trabajo", "al día con origin", "por delante de origin",
        "cambié a la rama", "stash"]),
    (BranchState, German, Anywhere, &["konflikte mit", "merge konflikte", "losgelöst", "detached", "lokale commits", "nicht gepusht", "auf dem branch", "nicht committet", "nicht committeten",
        "uncommittete", "arbeitsverzeichnis", "arbeitskopie", "working tree",
        "auf dem stand von origin", "vor origin", "hinter origin", "gewechselt", "gestasht",
        "gepusht"]),
    (BranchState, French, Anywhere, &["conflits avec", "conflits non résolus", "détaché", "detached", "commits locaux", "pas encore poussé*", "sur la branche", "non commitées", "non commités",
        "non commitée", "arbre de travail", "répertoire de travail", "à jour avec origin",
        "en avance sur origin", "basculé sur", "stashé"]),
    (BranchState, Portuguese, Anywhere, &["conflitos com", "conflitos não resolvidos", "destacado", "detached", "commits locais", "não foram enviados", "não enviados", "na branch", "não commitadas", "não commitados", "sem commit",
        "árvore de trabalho", "sincronizada com a origin", "sincronizado com a origin",
        "à frente da origin", "mudei para a branch", "stash"]),
    // ─── Services up or down ───────────────────────────────────────────────────────────
    (ServiceState, English, Anywhere, &["restarting", "keeps crashing", "crash looping", "crashloop*", "is flapping", "failing to start", "won t start", "is running", "are running", "is up and", "is up again",
        "is up now", "is up$", "are up$", "is down", "are down", "went down", "is currently down",
        "crashed", "was restarted", "were restarted", "is stopped", "was stopped",
        "is unreachable", "is not responding"]),
    (ServiceState, Chinese, Anywhere, &["在重启", "一直重启", "反复重启", "起不来", "启动失败", "正在…运行", "运行中", "已启动", "启动了", "挂了", "宕机",
        "已停止", "停了", "重启了", "已重启", "起来了", "连不上", "无法访问"]),
    (ServiceState, Japanese, Anywhere, &["再起動を繰り返", "起動しない", "起動に失敗", "起動中", "稼働中", "稼働している", "停止中", "落ちた",
        "落ちている", "再起動した", "ダウンして", "動いている", "立ち上げた"]),
    (ServiceState, Korean, Anywhere, &["재시작되고 있", "재시작을 반복", "뜨지 않", "안 뜬", "실행 중", "실행중", "떠 있", "띄웠", "다시 띄", "죽어서",
        "죽었", "내려가 있", "재시작했", "켜져 있", "꺼져 있"]),
    (ServiceState, Spanish, Anywhere, &["se reinicia", "reiniciando", "no arranca", "no levanta", "está corriendo", "está levantado", "está levantada",
        "está caído", "está caída", "se cayó", "reinicié", "está parado", "está en marcha"]),
    (ServiceState, German, Anywhere, &["startet ständig", "startet nicht", "läuft gerade", "läuft aktuell", "ist oben", "ist unten",
        "ist down", "abgestürzt", "neu gestartet", "läuft nicht", "ist gestoppt",
        "nicht erreichbar"]),
    (ServiceState, French, Anywhere, &["redémarre en boucle", "ne démarre plus", "plante en boucle", "est démarré", "est démarrée", "est tombé", "est tombée",
        "redémarré", "redémarrée", "est arrêté", "est en panne", "ne répond plus",
        "tourne actuellement"]),
    (ServiceState, Portuguese, Anywhere, &["fica reiniciando", "reiniciando", "não sobe", "não inicia", "está rodando", "está no ar", "fora do ar", "caiu",
        "foi reiniciado", "reiniciei", "está parado"]),
    // ─── What the user asked or said about the work at hand ────────────────────────────
    (UserRequest, English, Anywhere, &["user would like", "user wants the", "user wants it", "user needs the", "user agreed", "user signed off", "user asked", "user requested", "user wants me to",
        "user wants us to", "user said", "user mentioned", "user confirmed", "user approved",
        "user reported", "asked me to", "asked us to"]),
    (UserRequest, Chinese, Anywhere, &["用户想在", "用户想要在", "让我", "叫我", "用户同意", "用户批准", "用户要求", "用户让", "用户说", "用户提到", "用户表示",
        "用户确认", "用户请求", "用户请我", "用户希望先"]),
    (UserRequest, Japanese, Anywhere, &["と言って", "ほしいそう", "と言っている", "たいと言", "求めた", "承認し", "頼まれ", "依頼された", "依頼があった", "頼まれた", "頼んだ", "と言った",
        "と言い", "とのこと", "してほしい", "見てほしい", "ユーザーの要望で"]),
    (UserRequest, Korean, Anywhere, &["원한다고 했", "고 했다", "부탁했", "부탁해", "승인했", "승인하고", "요청했", "달라고", "해 달라", "라고 했", "고 했습니다",
        "사용자가 말"]),
    (UserRequest, Spanish, Anywhere, &["usuario aprobó", "usuario aceptó", "usuario pidió", "usuario dijo", "usuario comentó",
        "usuario mencionó", "usuario confirmó", "usuario solicitó", "usuario quiere que",
        "me pidió", "nos pidió"]),
    (UserRequest, German, Anywhere, &["bat um", "hat freigegeben", "hat gebeten", "bat darum", "nutzer sagte", "nutzer meinte",
        "nutzer hat gesagt", "benutzer sagte", "hat angefragt"]),
    (UserRequest, French, Anywhere, &["a validé", "a approuvé", "a demandé", "utilisateur a dit", "utilisateur a précisé",
        "utilisateur a confirmé", "utilisateur a signalé", "utilisateur veut que"]),
    (UserRequest, Portuguese, Anywhere, &["usuário aprovou", "usuário aceitou", "usuário pediu", "usuária pediu", "usuário disse",
        "usuário comentou", "usuário mencionou", "usuário confirmou", "usuário quer que",
        "me pediu", "nos pediu"]),
];

/// Words that follow an English participle opening the text when it is an adjective:
/// "Merged PRs are squash-only", "Added files must be registered".
const ADJECTIVE_SIGNS: [&str; 13] = [
    "must", "should", "are", "is", "need", "needs", "can", "may", "will", "shall", "go", "live",
    "belong",
];

/// Marks of a lasting rule: a text holding one is not narration.
#[rustfmt::skip]
const LASTING: &[(Lang, &[&str])] = &[
    (English, &["must", "mustn t", "should", "shouldn t", "shall", "always", "never", "do not",
        "don t", "is required", "are required", "not allowed", "is forbidden", "are forbidden",
        "from now on", "in future", "in the future", "going forward", "every time", "prefer",
        "prefers"]),
    (Chinese, &["必须", "务必", "一律", "始终", "总是", "永远", "不要", "不得", "禁止", "不允许",
        "只能", "应该", "应当", "以后", "今后", "每次", "偏好", "喜欢"]),
    (Japanese, &["必ず", "常に", "絶対", "禁止", "べき", "ること$", "ないこと$", "なければならない",
        "必要がある", "今後", "毎回", "好む"]),
    (Korean, &["반드시", "항상", "절대", "않는다$", "해야 한다", "해야 합니다", "야 한다", "금지",
        "앞으로", "매번", "선호", "할 것$"]),
    (Spanish, &["debe", "deben", "debería", "hay que", "siempre", "nunca", "jamás", "no usar",
        "no se permite", "está prohibido", "obligatorio", "a partir de ahora", "en adelante",
        "cada vez", "prefiere"]),
    (German, &["werden", "wird", "muss", "müssen", "soll", "sollen", "sollte", "immer", "nie", "niemals", "stets",
        "nicht verwenden", "verboten", "nicht erlaubt", "ab jetzt", "künftig", "in zukunft",
        "jedes mal", "bevorzugt"]),
    (French, &["doit", "doivent", "devrait", "il faut", "toujours", "jamais", "ne pas", "interdit",
        "obligatoire", "désormais", "à l avenir", "dorénavant", "à chaque fois", "préfère"]),
    (Portuguese, &["deve", "devem", "deveria", "sempre", "nunca", "não usar", "não é aceito",
        "não é permitido", "proibido", "obrigatório", "a partir de agora", "daqui pra frente",
        "daqui para frente", "toda vez", "prefere"]),
];

/// Words that hold a phrase of the tables without meaning it, blanked before matching: 了 of
/// "in order to" (为了), "except" (除了) and "understand" (了解); "immer" of "immer wieder"
/// (again and again); 不要 ("don't") in Japanese 不要な, 不要に ("unneeded").
const MASKED: [&str; 7] = [
    "为了",
    "除了",
    "了解",
    "不了",
    "immer wieder",
    "不要な",
    "不要に",
];

/// How an opener that reads like narration may lead a lasting rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opener {
    /// "Currently …", "WIP …", "TODO …": a rule only when the rest states one (`LASTING`).
    State,
    /// "Now that X, Y": the rest is a consequence, gated on its own.
    Condition,
}

/// Openers that read like narration and may lead a lasting rule. Followed by a colon they are
/// labels of the session ("TODO: add tests") and lead nothing.
#[rustfmt::skip]
const OPENERS: &[(Opener, Lang, &[&str])] = &[
    (Opener::State, English, &["currently", "wip", "todo", "for now", "at present"]),
    (Opener::Condition, English, &["now that"]),
    (Opener::State, Chinese, &["目前", "现在", "当前", "现阶段", "wip", "todo"]),
    (Opener::Condition, Chinese, &["既然"]),
    (Opener::State, Japanese, &["現在", "現時点で", "今は", "wip", "todo"]),
    (Opener::State, Korean, &["현재", "지금은", "wip", "todo"]),
    (Opener::Condition, Korean, &["이제"]),
    (Opener::State, Spanish, &["actualmente", "por ahora", "de momento", "wip", "todo"]),
    (Opener::Condition, Spanish, &["ahora que"]),
    (Opener::State, German, &["aktuell", "derzeit", "zurzeit", "momentan", "wip", "todo"]),
    (Opener::Condition, German, &["jetzt wo", "jetzt da", "nun da"]),
    (Opener::State, French, &["actuellement", "pour l instant", "wip", "todo"]),
    (Opener::Condition, French, &["maintenant que"]),
    (Opener::State, Portuguese, &["atualmente", "por enquanto", "wip", "todo"]),
    (Opener::Condition, Portuguese, &["agora que"]),
];

/// Whether `text` is narration of the kind `rejection` names, in any language.
pub(super) fn says(rejection: Rejection, text: &str) -> bool {
    let text = Normalized::new(text).masked();
    let narrates = compiled().narration.iter().any(|(kind, at, pattern)| {
        *kind == rejection
            && match at {
                Start => text.starts_with(pattern) && !adjective_follows(&text, pattern),
                Anywhere => text.contains(pattern),
            }
    });
    // The cause of a bug is told in the past, and its "never" is part of the story.
    narrates && (rejection == Rejection::Diagnosis || !states_lasting_rule(&text))
}

/// Whether `text` has the shape of narration of the kind `rejection` names (see `structure`)
/// and states no lasting rule.
pub(super) fn has_shape_of(rejection: Rejection, raw: &str) -> bool {
    let text = Normalized::new(raw).masked();
    // French "toujours" is "still" beside a service's state ("redis est toujours arrêté").
    let lasting = if rejection == Rejection::ServiceState {
        states_lasting_rule(&Normalized(text.0.replace(" toujours ", " "), text.1))
    } else {
        states_lasting_rule(&text)
    };
    super::structure::narrates(rejection, &text.0) && !lasting
        || (rejection == Rejection::ServiceState
            && super::structure::restarts_before_tests(&text.0))
        || (rejection == Rejection::Progress
            && (super::structure::changed_this_session(&text.0)
                || super::structure::german_past_before_reason(raw)))
        || (rejection == Rejection::Progress
            && super::structure::clause_ends_in_participle(raw)
            && !states_lasting_rule(&text))
}

/// Whether `raw` tells what happened or what holds for the moment by the tense of its
/// predicate (see `predicate`) and states no lasting rule.
pub(super) fn tells_what_happened(raw: &str) -> bool {
    let text = Normalized::new(raw).masked();
    super::predicate::tells_what_happened(raw, &text.0)
        && !states_lasting_rule(&text.without_passive())
}

/// `text` as the tables read it, for the tests of the modules that take it so.
#[cfg(test)]
pub(super) fn normalize(text: &str) -> String {
    Normalized::new(text).0
}

/// When `text` opens like narration ("Currently …", "Now that …", 目前…) and is a lasting rule
/// nevertheless, the text after the opener, to be gated on its own; else None.
pub(super) fn rule_after_opener(text: &str) -> Option<&str> {
    let lead = text.trim_start();
    let normalized = Normalized::new(lead);
    let (opener, pattern) = compiled()
        .openers
        .iter()
        .find(|(_, pattern)| normalized.starts_with(pattern))?;
    let rest = after_words(lead, pattern)?;
    if rest.starts_with(':') || rest.starts_with('：') {
        return None;
    }
    let rest = rest.trim_start_matches(|c: char| c.is_whitespace() || ",，、".contains(c));
    let leads_rule = match opener {
        Opener::Condition => true,
        Opener::State => states_lasting_rule(&Normalized::new(rest).masked()),
    };
    (leads_rule && !rest.is_empty()).then_some(rest)
}

fn states_lasting_rule(text: &Normalized) -> bool {
    compiled()
        .lasting
        .iter()
        .any(|pattern| text.contains(pattern))
        || text.1
}

/// A negation before an infinitive, the way Spanish and Portuguese word a prohibition:
/// "no añadir código", "não adicionar código", "nunca subir secretos".
/// Opening a clause: "El usuario pidió no tocar …" is a request, and "no worker" is Portuguese
/// "in the worker".
fn forbids_in_the_infinitive(raw: &str) -> bool {
    raw.split([';', ',', '.', ':']).any(|clause| {
        let mut words = clause.split_whitespace().map(str::to_lowercase);
        let (Some(first), Some(second)) = (words.next(), words.next()) else {
            return false;
        };
        ["no", "não", "nunca", "jamás", "jamais"].contains(&first.as_str())
            && ["ar", "er", "ir"].iter().any(|ending| {
                second
                    .strip_suffix(ending)
                    .is_some_and(|stem| stem.chars().count() >= 3)
            })
    })
}

/// Whether one of `ADJECTIVE_SIGNS` follows the opening `pattern` within three words.
fn adjective_follows(text: &Normalized, pattern: &Pattern) -> bool {
    let opening_words = pattern.parts[0].needle.split_whitespace().count();
    text.0
        .split(' ')
        .filter(|w| !w.is_empty())
        .skip(opening_words)
        .take(3)
        .any(|word| ADJECTIVE_SIGNS.contains(&word))
}

/// `original` after the words of the opening `pattern` (a phrase without `…` and `*`): as many
/// runs of letters and digits as the phrase has words, or characters for CJK.
fn after_words<'a>(original: &'a str, pattern: &Pattern) -> Option<&'a str> {
    let phrase = pattern.parts[0].needle.trim();
    let mut remaining: Vec<&str> = phrase.split(' ').collect();
    let mut chars = original.char_indices().peekable();
    while let Some(word) = remaining.first().copied() {
        // Skip what separates words, then take the word's characters one by one.
        while chars.next_if(|&(_, c)| !c.is_alphanumeric()).is_some() {}
        for expected in word.chars() {
            let (_, c) = chars.next()?;
            if !c.to_lowercase().eq(std::iter::once(expected)) {
                return None;
            }
        }
        remaining.remove(0);
    }
    let at = chars.peek().map_or(original.len(), |&(at, _)| at);
    Some(&original[at..])
}

// ─── Matching ────────────────────────────────────────────────────────────────────────────────

/// A text lowercased, every run of characters that are not letters or digits one space, with a
/// space before and after; and whether the original forbids something in the infinitive, which
/// needs the punctuation that normalizing drops.
struct Normalized(String, bool);

impl Normalized {
    fn new(text: &str) -> Self {
        let mut out = String::with_capacity(text.len() + 2);
        out.push(' ');
        for c in text.chars() {
            if c.is_alphanumeric() {
                out.extend(c.to_lowercase());
            } else if !out.ends_with(' ') {
                out.push(' ');
            }
        }
        if !out.ends_with(' ') {
            out.push(' ');
        }
        Normalized(out, forbids_in_the_infinitive(text))
    }

    /// The text without German's passive auxiliaries, which `LASTING` counts as the timeless
    /// present: "werden jetzt gebündelt" tells a change, not a rule.
    fn without_passive(&self) -> Self {
        Normalized(
            self.0.replace(" werden ", " ").replace(" wird ", " "),
            self.1,
        )
    }

    /// The text with the words of `MASKED` blanked.
    fn masked(mut self) -> Self {
        for word in MASKED {
            if self.0.contains(word) {
                self.0 = self.0.replace(word, " ");
            }
        }
        self
    }

    fn starts_with(&self, pattern: &Pattern) -> bool {
        pattern.find_from(&self.0, true).is_some()
    }

    fn contains(&self, pattern: &Pattern) -> bool {
        pattern.find_from(&self.0, false).is_some()
    }
}

/// One piece of a phrase between `…` gaps.
struct Part {
    /// What is searched for in the normalized text: the piece with a space before and after
    /// its words, the space after left out for a prefix and the one before for a suffix; a
    /// dense piece bare.
    needle: String,
    /// A piece in a Latin script, matched as words.
    spaced: bool,
    /// Starts with `*`: its first word is a suffix, of a word at least `MIN_STEM` longer.
    suffix: bool,
    /// Ends with `$`: it ends the text.
    at_end: bool,
}

/// Letters a word must have before a suffix (`*ed` is no match in "red").
const MIN_STEM: usize = 3;

struct Pattern {
    parts: Vec<Part>,
}

impl Pattern {
    fn new(phrase: &str) -> Self {
        let parts = phrase
            .split('…')
            .map(|piece| {
                let at_end = piece.ends_with('$');
                let piece = piece.trim_end_matches('$');
                let prefix = piece.ends_with('*');
                let suffix = piece.starts_with('*');
                let text = Normalized::new(piece.trim_matches('*'))
                    .0
                    .trim()
                    .to_string();
                let spaced = !text.chars().any(is_dense);
                let needle = match (spaced, suffix, prefix) {
                    (false, _, _) => text,
                    (true, true, _) => format!("{text} "),
                    (true, false, true) => format!(" {text}"),
                    (true, false, false) => format!(" {text} "),
                };
                Part {
                    needle,
                    spaced,
                    suffix,
                    at_end,
                }
            })
            .collect();
        Pattern { parts }
    }

    /// Where the pattern ends in `text` (normalized), its first part at the start when
    /// `anchored`.
    fn find_from(&self, text: &str, anchored: bool) -> Option<usize> {
        let mut from = 0;
        for (index, part) in self.parts.iter().enumerate() {
            let word_start = |at: usize| text[..at].rfind(' ').map_or(0, |space| space + 1);
            let fits = |&(at, _): &(usize, &str)| {
                let start = if part.suffix { word_start(at) } else { at };
                let opens = !(anchored && index == 0) || start <= 1;
                let end = at + part.needle.len();
                let closes = !part.at_end || text[end..].trim_end().is_empty();
                let stem = !part.suffix || text[start..at].chars().count() >= MIN_STEM;
                opens && closes && stem
            };
            let (at, _) = text[from..]
                .match_indices(part.needle.as_str())
                .map(|(at, m)| (from + at, m))
                .find(fits)?;
            // Leave a closing space so that the next part can start a word there.
            from = at + part.needle.len() - usize::from(part.spaced && part.needle.ends_with(' '));
        }
        Some(from)
    }
}

/// CJK ideographs, kana and Hangul: scripts written without spaces between words.
fn is_dense(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}' | '\u{1100}'..='\u{11FF}' | '\u{F900}'..='\u{FAFF}'
        | '\u{FF66}'..='\u{FF9F}' | '\u{20000}'..='\u{3134F}')
}

/// The tables, with every phrase normalized once.
struct Compiled {
    narration: Vec<(Rejection, At, Pattern)>,
    lasting: Vec<Pattern>,
    openers: Vec<(Opener, Pattern)>,
}

fn compiled() -> &'static Compiled {
    static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled {
        narration: NARRATION
            .iter()
            .flat_map(|&(rejection, _, at, phrases)| {
                phrases
                    .iter()
                    .map(move |phrase| (rejection, at, Pattern::new(phrase)))
            })
            .collect(),
        lasting: LASTING
            .iter()
            .flat_map(|(_, phrases)| phrases.iter().map(|phrase| Pattern::new(phrase)))
            .collect(),
        openers: OPENERS
            .iter()
            .flat_map(|&(opener, _, phrases)| {
                phrases
                    .iter()
                    .map(move |phrase| (opener, Pattern::new(phrase)))
            })
            .collect(),
    });
    &COMPILED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_case_punctuation_and_apostrophes() {
        assert_eq!(
            Normalized::new("J'ai corrigé le Dev-Server.").0,
            " j ai corrigé le dev server "
        );
        assert_eq!(
            Normalized::new("已修复，并补充了测试").0,
            " 已修复 并补充了测试 "
        );
    }

    #[test]
    fn phrases_match_whole_words_in_latin_scripts_and_anywhere_in_cjk() {
        let text = Normalized::new("Ran the reranking job; 已修复登录问题");
        assert!(text.starts_with(&Pattern::new("ran")));
        assert!(!text.contains(&Pattern::new("rerank")));
        assert!(text.contains(&Pattern::new("rerank*")));
        assert!(text.contains(&Pattern::new("已修复")));
        assert!(text.contains(&Pattern::new("job…修复")));
        assert!(!text.contains(&Pattern::new("修复…job")));
        assert!(text.contains(&Pattern::new("问题$")));
        assert!(!text.contains(&Pattern::new("登录$")));
    }

    #[test]
    fn every_language_has_phrases_for_every_kind_of_narration_and_lasting_marks() {
        for language in Lang::ALL {
            for kind in [
                Progress,
                ProjectSnapshot,
                Diagnosis,
                BranchState,
                ServiceState,
                UserRequest,
            ] {
                assert!(
                    NARRATION
                        .iter()
                        .any(|&(rejection, l, _, _)| l == language && rejection == kind),
                    "{language:?} {kind:?}"
                );
            }
            assert!(LASTING.iter().any(|(l, _)| *l == language), "{language:?}");
            assert!(
                OPENERS.iter().any(|(_, l, _)| *l == language),
                "{language:?}"
            );
        }
    }

    #[test]
    fn the_rest_after_an_opener_is_returned_only_for_a_lasting_rule() {
        for (text, rest) in [
            (
                "Currently every response must carry a request id",
                Some("every response must carry a request id"),
            ),
            (
                "Now that builds are cached, skip the warm-up",
                Some("builds are cached, skip the warm-up"),
            ),
            (
                "目前所有接口都必须返回 request_id",
                Some("所有接口都必须返回 request_id"),
            ),
            (
                "WIP commits must be squashed",
                Some("commits must be squashed"),
            ),
            ("Currently migrating the auth module", None),
            ("TODO: must fix the login test", None),
            ("目前正在迁移认证模块", None),
            ("Currentlyness is not a word", None),
        ] {
            assert_eq!(rule_after_opener(text), rest, "{text}");
        }
    }
}
