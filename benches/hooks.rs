//! What a hook costs, as the agent pays it: the wall time of one `ocmem` process, from spawn to
//! exit, stdin included. Every hook is set beside `/bin/true` and a static Rust hello-world
//! built here, the floor of starting any process; then the same hooks on large stores (many
//! sessions, big tool outputs, a long workspace memory) and the maintenance commands over a
//! large data directory, each against its target. The stores are written straight to disk in
//! the on-disk format. Run with `cargo bench --bench hooks`: it prints Markdown tables (median
//! and p90 of each case) and asserts nothing about time. `OCMEM_BENCH_RUNS` sets the runs of
//! each hook case (default 200); the large cases run fewer. `OCMEM_BENCH_BIN` measures another
//! build of ocmem instead (the static hello-world is still built beside this one).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use ocmem::domain::guard::secrets::scrub;
use ocmem::domain::memory::workspace::{mark_capped, render_block, WorkspaceMemory};
use ocmem::domain::prompt::hot_state::hot_state;
use ocmem::domain::session::event::{FileChange, SessionRef, ToolCall, ToolKind};
use ocmem::domain::session::open_errors::{apply_bash, BashRun};
use ocmem::domain::session::state::FileAction;
use ocmem::domain::session::state::SessionState;
use ocmem::domain::session::tool_event::apply;
use ocmem::store::Workspace;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_ocmem");
/// The binary measured: `OCMEM_BENCH_BIN` when set (another build to compare), else this one.
static MEASURED: std::sync::LazyLock<PathBuf> = std::sync::LazyLock::new(|| {
    std::env::var_os("OCMEM_BENCH_BIN").map_or_else(|| PathBuf::from(BIN), PathBuf::from)
});
const DIR: &str = "/nonexistent/ocmem-bench/repo";
const SESSION: &str = "bench";
const TSC: &str = "\n> demo@1.0.0 typecheck\n> tsc --noEmit\n\nsrc/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\nsrc/util.ts(4,1): error TS2322: Type 'number' is not assignable to type 'string'.\n\nFound 2 errors in 2 files.\n";
const DAY_MS: i64 = 86_400_000;

fn runs() -> usize {
    std::env::var("OCMEM_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n >= 10)
        .unwrap_or(200)
}

/// One process run: program, arguments, stdin and environment.
struct Run<'a> {
    program: &'a Path,
    data: Option<&'a Path>,
    args: &'a [&'a str],
    stdin: &'a [u8],
    now_ms: Option<i64>,
}

impl<'a> Run<'a> {
    fn ocmem(data: &'a Path, args: &'a [&'a str], stdin: &'a [u8]) -> Self {
        Run {
            program: &MEASURED,
            data: Some(data),
            args,
            stdin,
            now_ms: None,
        }
    }

    fn at(self, now_ms: i64) -> Self {
        Run {
            now_ms: Some(now_ms),
            ..self
        }
    }

    /// Spawn to exit, stdin written in full; panics unless the run succeeds.
    fn time(&self) -> Duration {
        let mut command = Command::new(self.program);
        command
            .env_remove("OCMEM_NOW")
            .env_remove("OCMEM_TTL_DAYS")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        if let Some(data) = self.data {
            command.arg("--data-dir").arg(data);
        }
        if let Some(now) = self.now_ms {
            command.env("OCMEM_NOW", now.to_string());
        }
        command.args(self.args);
        let started = Instant::now();
        let mut child = command.spawn().expect("spawn");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(self.stdin).unwrap();
        drop(stdin);
        let status = child.wait().unwrap();
        let elapsed = started.elapsed();
        assert!(
            status.success(),
            "{} {:?} failed",
            self.program.display(),
            self.args
        );
        elapsed
    }
}

#[derive(Clone, Copy)]
struct Figures {
    median: Duration,
    p90: Duration,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

fn bash_event(session: &str, call: &str, command: &str, output: &str, exit: i64) -> Vec<u8> {
    // OpenCode sends the output twice: as `output` and as `metadata.output`.
    json!({"directory": DIR, "input": {"tool": "bash", "sessionID": session, "callID": call, "args": {"command": command}},
           "output": {"title": command, "output": output, "metadata": {"output": output, "exit": exit}}})
    .to_string()
    .into_bytes()
}

/// A Claude Code hook payload of `name`, with `fields` added.
fn claude_event(name: &str, fields: Value) -> Vec<u8> {
    let mut event = json!({"session_id": "5f0c2d9e-bench", "cwd": DIR, "hook_event_name": name,
                           "transcript_path": "/home/dev/.claude/projects/-bench/5f0c2d9e-bench.jsonl"});
    event
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    event.to_string().into_bytes()
}

/// The user messages of the capture corpora, every language, in a fixed order: real messages,
/// most of which ask nothing, some of which ask to remember one thing or several.
fn corpus_messages() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/capture");
    let mut files: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .filter_map(|lang| fs::read_dir(lang.ok()?.path()).ok())
        .flatten()
        .filter_map(|file| Some(file.ok()?.path()))
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("messages-") && name.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|path| {
            fs::read_to_string(path)
                .unwrap()
                .lines()
                .filter_map(|line| {
                    let v: Value = serde_json::from_str(line).ok()?;
                    Some(v["message"].as_str()?.to_owned())
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

fn read_event(session: &str, call: &str, path: &str) -> Vec<u8> {
    json!({"directory": DIR, "input": {"tool": "read", "sessionID": session, "callID": call, "args": {"filePath": path}},
           "output": {"title": path, "output": "", "metadata": {}}})
    .to_string()
    .into_bytes()
}

fn session_event(session: &str) -> Vec<u8> {
    json!({"directory": DIR, "sessionID": session})
        .to_string()
        .into_bytes()
}

fn render_event(session: &str) -> Vec<u8> {
    json!({"directory": DIR, "sessionID": session, "prompt": "keep going, and run the tests again"})
        .to_string()
        .into_bytes()
}

fn promote_event(session: &str, i: usize) -> Vec<u8> {
    let lines: String = (0..5)
        .map(|k| {
            format!("- [project] Build artefacts of package {i}-{k} go to the dist folder only\n")
        })
        .collect();
    json!({"directory": DIR, "sessionID": session, "summary": format!("## Done\n- wired the build\n\nMemory candidates:\n{lines}")})
        .to_string()
        .into_bytes()
}

/// A test run's log of about `bytes`, passing tests and then one failure, as `npm test` prints.
fn test_log(bytes: usize) -> String {
    let mut log = String::from("\n> shop@1.0.0 test\n> jest\n\n");
    let mut i = 0;
    while log.len() < bytes {
        if i % 20 == 0 {
            log.push_str(&format!(
                "PASS src/module{}/cart{}.test.ts (1.{:03} s)\n",
                i / 400,
                i / 20,
                i % 1000
            ));
        }
        log.push_str(&format!(
            "  ✓ cart › adds item {i} to the basket and recomputes the totals ({} ms)\n",
            i % 37
        ));
        i += 1;
    }
    log.push_str("FAIL src/checkout.test.ts\n  ● checkout › applies the discount\n\n    expect(received).toBe(expected)\n\n    Expected: 90\n    Received: 100\n\n      at Object.<anonymous> (src/checkout.test.ts:14:25)\n\nTests:       1 failed, ");
    log.push_str(&format!("{i} passed, {} total\n", i + 1));
    log
}

/// The data directory of one scenario, with its hook session seeded the way a plugin would:
/// 20 files read, a failing typecheck and a failing test run.
fn seeded(root: &Path, name: &str) -> PathBuf {
    let data = root.join(name);
    for i in 0..20 {
        let path = format!("src/module{i}.ts");
        Run::ocmem(
            &data,
            &["tool-after"],
            &read_event(SESSION, &format!("seed{i}"), &path),
        )
        .time();
    }
    let tsc = bash_event(SESSION, "seed-t", "npx tsc --noEmit", TSC, 2);
    Run::ocmem(&data, &["tool-after"], &tsc).time();
    let jest = bash_event(
        SESSION,
        "seed-j",
        "npx jest",
        " FAIL  src/a.test.ts\n  ● a › b\n",
        1,
    );
    Run::ocmem(&data, &["tool-after"], &jest).time();
    data
}

/// A workspace memory of 40 decisions (28 of them rendered), filed by one promote.
fn promote_forty(data: &Path) {
    let candidates: String = (0..40)
        .map(|i| format!("- [decision] Use the shared retry helper for service call number {i} because timeouts differ per backend\n"))
        .collect();
    let summary = format!("## Work\n- done\n\nMemory candidates:\n{candidates}");
    let event = json!({"directory": DIR, "sessionID": "seed", "summary": summary}).to_string();
    Run::ocmem(data, &["promote"], event.as_bytes()).time();
}

/// Copies of the hook session's store as sessions `first..last` of its workspace.
fn add_sessions(data: &Path, first: usize, last: usize) {
    let workspace = Workspace::locate(data, DIR);
    let template: Value =
        serde_json::from_str(&fs::read_to_string(workspace.session_file(SESSION)).unwrap())
            .unwrap();
    for i in first..last {
        let id = format!("ses_other_{i}");
        let mut state = template.clone();
        state["sessionID"] = json!(id);
        fs::write(
            workspace.session_file(&id),
            serde_json::to_string_pretty(&state).unwrap(),
        )
        .unwrap();
    }
}

/// A workspace memory of `n` entries written straight to disk: varied types and texts, with
/// rationales, dated a minute apart, and capped the way ocmem caps them.
fn write_memory(data: &Path, directory: &str, n: usize, now_ms: i64) {
    const KINDS: [&str; 4] = ["project", "decision", "reference", "feedback"];
    const SUBJECTS: [&str; 5] = [
        "the billing service",
        "the search index",
        "the mobile app",
        "the admin console",
        "the ingest workers",
    ];
    const FACTS: [&str; 5] = [
        "builds with pnpm workspaces and one lockfile",
        "reads its settings from config/{}.toml, never from the environment",
        "keeps money as integer cents in table ledger_{}",
        "logs through the shared tracing layer with request ids",
        "is deployed by the release-{} pipeline after review",
    ];
    let workspace = Workspace::locate(data, directory);
    let entries: Vec<Value> = (0..n)
        .map(|i| {
            let kind = KINDS[i % KINDS.len()];
            let fact = FACTS[i / 4 % FACTS.len()].replace("{}", &i.to_string());
            let text = format!("Module {i} of {} {fact}", SUBJECTS[i % SUBJECTS.len()]);
            let at = ocmem::domain::base::time::format_rfc3339_ms(now_ms - (n - i) as i64 * 60_000);
            let mut entry = json!({"id": format!("mem_{now_ms}_{i:06x}"), "type": kind, "text": text,
                "source": "compaction", "confidence": 0.75, "status": "active", "createdAt": at, "updatedAt": at});
            if kind == "decision" {
                entry["rationale"] = json!(format!("agreed in review {i}"));
            }
            entry
        })
        .collect();
    let document = json!({"version": 1, "workspace": {"root": workspace.root, "key": workspace.key},
        "limits": {"maxRenderedChars": 5200, "maxEntries": 28}, "entries": entries,
        "updatedAt": ocmem::domain::base::time::format_rfc3339_ms(now_ms)});
    let mut memory: WorkspaceMemory = serde_json::from_value(document).unwrap();
    mark_capped(&mut memory);
    fs::create_dir_all(&workspace.dir).unwrap();
    fs::write(
        workspace.memory_file(),
        serde_json::to_string_pretty(&memory).unwrap(),
    )
    .unwrap();
}

/// What a case must meet.
#[derive(Clone, Copy)]
enum Target {
    /// At most this many times `/bin/true`.
    TimesTrue(f64),
    /// At most this many milliseconds.
    Ms(f64),
    /// At most this many milliseconds over the case at this row of the same table.
    OverRow(usize, f64),
    /// At most this many times the case at this row of the same table.
    TimesRow(usize, f64),
}

struct Row {
    case: String,
    figures: Figures,
    target: Option<Target>,
}

struct Table {
    rows: Vec<Row>,
}

impl Table {
    fn new() -> Self {
        Table { rows: Vec::new() }
    }

    /// Adds a row and returns its index, for targets relative to it.
    fn add(&mut self, case: impl Into<String>, figures: Figures, target: Option<Target>) -> usize {
        let case = case.into();
        eprintln!("  {case}: {:.3} ms", ms(figures.median));
        self.rows.push(Row {
            case,
            figures,
            target,
        });
        self.rows.len() - 1
    }

    fn verdict(&self, row: &Row, floor: Figures) -> (String, &'static str) {
        let median = ms(row.figures.median);
        let (text, met) = match row.target {
            None => return (String::new(), ""),
            Some(Target::TimesTrue(x)) => {
                (format!("≤ {x}× /bin/true"), median <= x * ms(floor.median))
            }
            Some(Target::Ms(limit)) => (format!("≤ {limit} ms"), median <= limit),
            Some(Target::OverRow(base, extra)) => {
                let base = &self.rows[base];
                (
                    format!("≤ +{extra} ms over {}", base.case),
                    median - ms(base.figures.median) <= extra,
                )
            }
            Some(Target::TimesRow(base, x)) => {
                let base = &self.rows[base];
                (
                    format!("≤ {x}× {}", base.case),
                    median <= x * ms(base.figures.median),
                )
            }
        };
        (text, if met { "yes" } else { "**no**" })
    }

    fn print(&self, floors: Option<(Figures, Option<Figures>)>, floor: Figures) {
        match floors {
            Some(_) => {
                println!(
                    "| case | median ms | p90 ms | × /bin/true | × static hello | target | met |"
                );
                println!("|---|---:|---:|---:|---:|---|---|");
            }
            None => {
                println!("| case | median ms | p90 ms | target | met |");
                println!("|---|---:|---:|---|---|");
            }
        }
        for row in &self.rows {
            let (target, met) = self.verdict(row, floor);
            let times = |base: Figures| {
                format!(
                    "{:.2}",
                    row.figures.median.as_secs_f64() / base.median.as_secs_f64()
                )
            };
            match floors {
                Some((true_floor, hello)) => println!(
                    "| {} | {:.2} | {:.2} | {} | {} | {target} | {met} |",
                    row.case,
                    ms(row.figures.median),
                    ms(row.figures.p90),
                    times(true_floor),
                    hello.map(times).unwrap_or_else(|| "-".into()),
                ),
                None => println!(
                    "| {} | {:.2} | {:.2} | {target} | {met} |",
                    row.case,
                    ms(row.figures.median),
                    ms(row.figures.p90),
                ),
            }
        }
    }
}

/// A statically linked hello-world built from source next to the benchmarked binary, the
/// start-up floor of a Rust program; `None` (and a note) when rustc cannot build it.
fn static_hello() -> Option<PathBuf> {
    let dir = Path::new(BIN).parent()?;
    let source = dir.join("static-hello.rs");
    let binary = dir.join("static-hello");
    fs::write(&source, "fn main() {\n    println!(\"hello\");\n}\n").ok()?;
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let built = Command::new(rustc)
        .args(["-C", "target-feature=+crt-static", "-O", "-o"])
        .arg(&binary)
        .arg(&source)
        .status();
    match built {
        Ok(status) if status.success() => Some(binary),
        other => {
            eprintln!("no static hello-world ({other:?}); its column stays empty");
            None
        }
    }
}

fn floor_run(program: &Path) -> Run<'_> {
    Run {
        program,
        data: None,
        args: &[],
        stdin: b"",
        now_ms: None,
    }
}

/// A case to measure: its name, one run (given the run's index), and its target.
struct Case<'a> {
    name: String,
    run: Box<dyn FnMut(usize) -> Duration + 'a>,
    target: Option<Target>,
}

fn case<'a>(
    name: impl Into<String>,
    target: Option<Target>,
    run: impl FnMut(usize) -> Duration + 'a,
) -> Case<'a> {
    Case {
        name: name.into(),
        run: Box::new(run),
        target,
    }
}

/// Runs the cases in rounds, each case once a round, so that the machine's other load falls
/// on all of them alike; a few rounds first to warm the page cache. Adds them to `table`.
fn measure_together(table: &mut Table, rounds: usize, warm_up: bool, mut cases: Vec<Case>) {
    let mut samples: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); cases.len()];
    let warm_up_rounds = if warm_up { rounds / 10 + 1 } else { 0 };
    for round in 0..warm_up_rounds + rounds {
        for (case, samples) in cases.iter_mut().zip(&mut samples) {
            if round < warm_up_rounds {
                (case.run)(usize::MAX - round);
            } else {
                samples.push((case.run)(round - warm_up_rounds));
            }
        }
    }
    for (case, samples) in cases.into_iter().zip(samples) {
        table.add(case.name, figures(samples), case.target);
    }
}

fn figures(mut samples: Vec<Duration>) -> Figures {
    samples.sort();
    let n = samples.len();
    Figures {
        median: samples[n / 2],
        p90: samples[(n * 9 / 10).min(n - 1)],
    }
}

fn main() {
    let n = runs();
    let few = (n / 4).max(10);
    let tmp = tempfile::tempdir().unwrap();
    let started = Instant::now();

    eprintln!("hooks on a typical store ({n} runs each)");
    let data = seeded(tmp.path(), "typical");
    promote_forty(&data);
    // The hook session's block is frozen by its first render.
    Run::ocmem(&data, &["render"], &render_event(SESSION)).time();
    let memory: WorkspaceMemory = serde_json::from_str(
        &fs::read_to_string(Workspace::locate(&data, DIR).memory_file()).unwrap(),
    )
    .unwrap();
    assert_eq!(memory.entries.len(), 40);
    let workspace = Workspace::locate(&data, DIR);
    let template = fs::read(workspace.session_file(SESSION)).unwrap();

    let hello = static_hello();
    let glob = json!({"directory": DIR, "input": {"tool": "glob", "sessionID": SESSION, "callID": "x", "args": {"pattern": "**/*.ts"}}, "output": {}}).to_string();
    let repeat = read_event(SESSION, "seed3", "src/module3.ts");
    let frozen = render_event(SESSION);
    let compact = session_event(SESSION);
    let claude_prompt = claude_event(
        "UserPromptSubmit",
        json!({"prompt_id": "p-bench", "prompt": "keep going, and run the tests again"}),
    );
    let floor = Some(Target::TimesTrue(1.5));
    let messages = corpus_messages();
    // Capturing adds memories: its own copy of the store, so the other cases read the same one.
    let capture_data = tmp.path().join("capture");
    copy_dir(&data, &capture_data);
    let mut hooks = Table::new();
    let mut cases = vec![case("/bin/true", None, |_| {
        floor_run(Path::new("/bin/true")).time()
    })];
    if let Some(hello) = &hello {
        cases.push(case("static hello-world", None, move |_| {
            floor_run(hello).time()
        }));
    }
    cases.extend([
        case("tool-after, untracked tool (glob)", floor, |_| {
            Run::ocmem(&data, &["tool-after"], glob.as_bytes()).time()
        }),
        case("tool-after, call already applied", floor, |_| {
            Run::ocmem(&data, &["tool-after"], &repeat).time()
        }),
        case("tool-after, read (writes the session)", None, |i| {
            let event = read_event(
                SESSION,
                &format!("r{i}"),
                &format!("src/module{}.ts", i % 25),
            );
            Run::ocmem(&data, &["tool-after"], &event).time()
        }),
        case("tool-after, failing tsc (writes the session)", None, |i| {
            let event = bash_event(SESSION, &format!("t{i}"), "npm run typecheck", TSC, 2);
            Run::ocmem(&data, &["tool-after"], &event).time()
        }),
        case(
            "tool-after, passing tsc, counted before in the session",
            None,
            |i| {
                // Its own session: the hook session's failing tsc would have it clear an error.
                let event = bash_event("bench-pass", &format!("ok{i}"), "npm run typecheck", "", 0);
                Run::ocmem(&data, &["tool-after"], &event).time()
            },
        ),
        case(
            "tool-after, passing tsc, first in its session (writes memory)",
            None,
            |i| {
                let event = bash_event(&format!("v{i}"), "ok", "npm run typecheck", "", 0);
                Run::ocmem(&data, &["tool-after"], &event).time()
            },
        ),
        case("render, block frozen", floor, |_| {
            Run::ocmem(&data, &["render"], &frozen).time()
        }),
        case("render, new session (freezes the block)", None, |i| {
            Run::ocmem(&data, &["render"], &render_event(&format!("s{i}"))).time()
        }),
        case("compact", None, |_| {
            Run::ocmem(&data, &["compact"], &compact).time()
        }),
        case("hook claude-code, Read (writes the session)", None, |i| {
            let path = format!("{DIR}/src/module{}.ts", i % 25);
            let event = claude_event(
                "PostToolUse",
                json!({"tool_name": "Read", "tool_use_id": format!("toolu_r{i}"),
                       "tool_input": {"file_path": path}, "tool_response": {"type": "text"}}),
            );
            Run::ocmem(&data, &["hook", "claude-code"], &event).time()
        }),
        case(
            "hook claude-code, failing tsc (writes the session)",
            None,
            |i| {
                let event = claude_event(
                    "PostToolUseFailure",
                    json!({"tool_name": "Bash", "tool_use_id": format!("toolu_t{i}"),
                       "tool_input": {"command": "npm run typecheck"},
                       "error": format!("Exit code 2\n{TSC}"), "is_interrupt": false}),
                );
                Run::ocmem(&data, &["hook", "claude-code"], &event).time()
            },
        ),
        case(
            "hook claude-code, prompt, hot state unchanged",
            None,
            |_| Run::ocmem(&data, &["hook", "claude-code"], &claude_prompt).time(),
        ),
        case(
            "hook claude-code, prompt from the capture corpora (captures)",
            Some(Target::TimesTrue(2.0)),
            |i| {
                // Spread over the corpora: each language's files sit together.
                let message = &messages[i.wrapping_mul(7919) % messages.len()];
                let event = claude_event(
                    "UserPromptSubmit",
                    json!({"prompt_id": format!("p{i}"), "prompt": message}),
                );
                Run::ocmem(&capture_data, &["hook", "claude-code"], &event).time()
            },
        ),
        case("promote, 5 candidates", Some(Target::Ms(10.0)), |i| {
            Run::ocmem(&data, &["promote"], &promote_event("bench-p", i)).time()
        }),
        case("gc, session deleted", None, |i| {
            let id = format!("gone{i}");
            fs::write(workspace.session_file(&id), &template).unwrap();
            Run::ocmem(&data, &["gc"], &session_event(&id)).time()
        }),
    ]);
    measure_together(&mut hooks, n, true, cases);

    eprintln!("large stores");
    let mut scale = Table::new();
    // One data directory per session count, each a copy of the typical one plus copies of
    // its hook session.
    let counts = [1, 100, 1_000, 10_000];
    let dirs: Vec<PathBuf> = counts
        .iter()
        .map(|count| {
            let dir = tmp.path().join(format!("sessions-{count}"));
            copy_dir(&data, &dir);
            let sessions = dir.join("workspaces").join(&workspace.key).join("sessions");
            for file in fs::read_dir(&sessions).unwrap() {
                let path = file.unwrap().path();
                if path != Workspace::locate(&dir, DIR).session_file(SESSION)
                    && !path.to_string_lossy().ends_with(".lock")
                {
                    fs::remove_file(path).unwrap();
                }
            }
            add_sessions(&dir, 1, *count);
            dir
        })
        .collect();
    let mut cases = Vec::new();
    for (count, dir) in counts.iter().zip(&dirs) {
        let sessions = match count {
            1 => "1 session".to_string(),
            // Thousands apart by a space, as in the other rows.
            _ if *count >= 1_000 => format!("{} {:03} sessions", count / 1_000, count % 1_000),
            _ => format!("{count} sessions"),
        };
        let relative = |row: usize| (*count > 1).then_some(Target::TimesRow(row, 1.25));
        let frozen = &frozen;
        cases.push(case(
            format!("tool-after read, {sessions}"),
            relative(0),
            move |i| {
                let event = read_event(
                    SESSION,
                    &format!("n{i}"),
                    &format!("src/module{}.ts", i % 25),
                );
                Run::ocmem(dir, &["tool-after"], &event).time()
            },
        ));
        cases.push(case(
            format!("render frozen, {sessions}"),
            relative(1),
            move |_| Run::ocmem(dir, &["render"], frozen).time(),
        ));
    }
    measure_together(&mut scale, few, true, cases);

    let small_log = test_log(0);
    let log = test_log(1 << 20);
    let small = scale.rows.len();
    measure_together(
        &mut scale,
        few,
        true,
        vec![
            case("tool-after, failing npm test, short output", None, |i| {
                let event = bash_event(SESSION, &format!("small{i}"), "npm test", &small_log, 1);
                Run::ocmem(&dirs[0], &["tool-after"], &event).time()
            }),
            case(
                "tool-after, failing npm test, 1 MB output",
                Some(Target::OverRow(small, 5.0)),
                |i| {
                    let event = bash_event(SESSION, &format!("mb{i}"), "npm test", &log, 1);
                    Run::ocmem(&dirs[0], &["tool-after"], &event).time()
                },
            ),
            // Cutting the output down and saving it whole, on top of recording it.
            case(
                "tool-after --prune, failing npm test, 1 MB output",
                Some(Target::OverRow(small + 1, 5.0)),
                |i| {
                    let event = bash_event(SESSION, &format!("cut{i}"), "npm test", &log, 1);
                    Run::ocmem(&dirs[0], &["tool-after", "--prune"], &event).time()
                },
            ),
        ],
    );
    let log = test_log(20 << 20);
    measure_together(
        &mut scale,
        5,
        true,
        vec![case(
            "tool-after, failing npm test, 20 MB output",
            None,
            |i| {
                let event = bash_event(SESSION, &format!("big{i}"), "npm test", &log, 1);
                Run::ocmem(&dirs[0], &["tool-after"], &event).time()
            },
        )],
    );

    let swept = &dirs[3];
    let idle = tmp.path().join("idle");
    copy_dir(swept, &idle);
    let later = now_ms() + 60 * DAY_MS;
    // Every session was used within the hour, so this sweep reads them all and removes none.
    measure_together(
        &mut scale,
        5,
        true,
        vec![case(
            "gc --sweep, 10 000 sessions, none idle",
            Some(Target::Ms(500.0)),
            |_| Run::ocmem(swept, &["gc", "--sweep"], b"").time(),
        )],
    );
    measure_together(
        &mut scale,
        1,
        false,
        vec![case(
            "gc --sweep, 10 000 idle sessions removed (1 run)",
            Some(Target::Ms(500.0)),
            |_| Run::ocmem(&idle, &["gc", "--sweep"], b"").at(later).time(),
        )],
    );

    let many = tmp.path().join("workspaces");
    let now = now_ms();
    for w in 0..1_000 {
        let directory = format!("/nonexistent/ocmem-bench/project{w}");
        write_memory(&many, &directory, 40, now);
        let workspace = Workspace::locate(&many, &directory);
        fs::create_dir_all(workspace.session_file("a").parent().unwrap()).unwrap();
        for s in ["a", "b"] {
            let mut state: Value = serde_json::from_slice(&template).unwrap();
            state["sessionID"] = json!(s);
            fs::write(
                workspace.session_file(s),
                serde_json::to_string_pretty(&state).unwrap(),
            )
            .unwrap();
        }
    }
    measure_together(
        &mut scale,
        5,
        true,
        vec![case(
            "baseline, 1 000 workspaces",
            Some(Target::Ms(1000.0)),
            |_| Run::ocmem(&many, &["baseline"], b"").time(),
        )],
    );

    let big = tmp.path().join("memory");
    write_memory(&big, DIR, 10_000, now_ms());
    Run::ocmem(&big, &["render"], &frozen).time();
    measure_together(
        &mut scale,
        few,
        true,
        vec![
            case(
                "render, new session, 10 000 memory entries",
                Some(Target::Ms(10.0)),
                |i| Run::ocmem(&big, &["render"], &render_event(&format!("m{i}"))).time(),
            ),
            case("render frozen, 10 000 memory entries", None, |_| {
                Run::ocmem(&big, &["render"], &frozen).time()
            }),
            case(
                "promote, 5 candidates, 10 000 memory entries",
                Some(Target::Ms(50.0)),
                |i| Run::ocmem(&big, &["promote"], &promote_event("big-p", i)).time(),
            ),
        ],
    );

    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("\nHooks on a typical store: wall time of one process, spawn to exit ({n} rounds; {cores} cores)\n");
    let true_floor = hooks.rows[0].figures;
    let hello_floor = hello.is_some().then(|| hooks.rows[1].figures);
    hooks.print(Some((true_floor, hello_floor)), true_floor);
    println!("\nLarge stores ({few} rounds; 5 for 20 MB, the quiet sweep and baseline)\n");
    scale.print(None, true_floor);
    println!("\nIn-process domain work per call: {}", in_process(&memory));
    eprintln!("({:.0} s in all)", started.elapsed().as_secs_f64());
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The domain's share of a hook, without the process around it.
fn in_process(memory: &WorkspaceMemory) -> String {
    let iterations = 20_000;
    let mut state = SessionState::new(SESSION);
    let apply_read = per_call(
        &mut |i| {
            let id = format!("c{i}");
            let call = ToolCall {
                session: SessionRef {
                    host: ocmem::domain::base::host_name::HostName::OpenCode,
                    directory: DIR,
                    session_id: SESSION,
                },
                tool: "read",
                kind: ToolKind::Read,
                call_id: &id,
                files: vec![FileChange::Touched {
                    path: "src/a.ts",
                    action: FileAction::Read,
                }],
                shell: None,
            };
            std::hint::black_box(apply(&mut state, &call, i as i64));
        },
        iterations,
    );
    let apply_failure = per_call(
        &mut |i| {
            let mut errors = Vec::new();
            let run = BashRun {
                command: "npm run typecheck",
                output: TSC,
                exit: Some(2),
            };
            std::hint::black_box(apply_bash(&mut errors, run, i as i64));
        },
        iterations,
    );
    let render = per_call(
        &mut |_| {
            std::hint::black_box(hot_state(&state, DIR));
        },
        iterations,
    );
    let block = per_call(
        &mut |i| {
            std::hint::black_box(render_block(memory, Some(i as i64)));
        },
        iterations / 10,
    );
    let scrubbed = per_call(
        &mut |_| {
            std::hint::black_box(scrub(TSC));
        },
        iterations,
    );
    format!(
        "apply a read {apply_read:.2} µs, record a tsc failure {apply_failure:.2} µs, \
         render the hot state {render:.2} µs, render a block of 40 entries {block:.2} µs, \
         scrub a typecheck output {scrubbed:.2} µs"
    )
}

/// Microseconds per call of `one` over `count` calls.
fn per_call(one: &mut dyn FnMut(usize), count: usize) -> f64 {
    let started = Instant::now();
    for i in 0..count {
        one(i);
    }
    started.elapsed().as_secs_f64() * 1e6 / count as f64
}
