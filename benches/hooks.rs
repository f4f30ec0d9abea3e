//! Hook cost: how long `tool-after`, `render` and `promote` take per call on typical stores
//! (a session with 20 active files and open errors, a workspace memory at its 28 rendered
//! entries and more on disk), next to the
//! bare cost of starting the binary (`ocmem --version`), plus the in-process cost of the
//! domain work alone. Run with `cargo bench --bench hooks` (release profile); it prints
//! figures and ratios and asserts nothing about time.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ocmem::domain::memory::{render_block, WorkspaceMemory};
use ocmem::domain::open_errors::{apply_bash, BashRun};
use ocmem::domain::render::hot_state;
use ocmem::domain::secrets::scrub;
use ocmem::domain::session::SessionState;
use ocmem::domain::tool_event::{apply, ToolCall};
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_ocmem");
const DIR: &str = "/nonexistent/ocmem-bench/repo";
const TSC: &str = "\n> demo@1.0.0 typecheck\n> tsc --noEmit\n\nsrc/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\nsrc/util.ts(4,1): error TS2322: Type 'number' is not assignable to type 'string'.\n\nFound 2 errors in 2 files.\n";

fn runs() -> usize {
    std::env::var("OCMEM_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

fn spawn(data: &Path, args: &[&str], stdin: &str) -> Duration {
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn ocmem");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let status = child.wait().unwrap();
    let elapsed = started.elapsed();
    assert!(status.success(), "ocmem {args:?} failed");
    elapsed
}

struct Figures {
    median: Duration,
    p90: Duration,
}

fn measure(mut one: impl FnMut(usize) -> Duration) -> Figures {
    let n = runs();
    for i in 0..n / 10 + 1 {
        one(i); // warm-up: page cache, dynamic loader
    }
    let mut samples: Vec<Duration> = (0..n).map(|i| one(i + n)).collect();
    samples.sort();
    Figures {
        median: samples[n / 2],
        p90: samples[n * 9 / 10],
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn bash_event(call: &str, command: &str, output: &str, exit: i64) -> Value {
    json!({"directory": DIR, "input": {"tool": "bash", "sessionID": "bench", "callID": call, "args": {"command": command}},
           "output": {"output": output, "metadata": {"exit": exit}}})
}

fn read_event(call: &str, path: &str) -> Value {
    json!({"directory": DIR, "input": {"tool": "read", "sessionID": "bench", "callID": call, "args": {"filePath": path}},
           "output": {"output": "", "metadata": {}}})
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    // A typical store: 20 active files, open errors.
    for i in 0..20 {
        spawn(
            &data,
            &["tool-after"],
            &read_event(&format!("seed{i}"), &format!("src/module{i}.ts")).to_string(),
        );
    }
    spawn(
        &data,
        &["tool-after"],
        &bash_event("seed-t", "npx tsc --noEmit", TSC, 2).to_string(),
    );
    spawn(
        &data,
        &["tool-after"],
        &bash_event("seed-j", "npx jest", " FAIL  src/a.test.ts\n  ● a › b\n", 1).to_string(),
    );

    // A full workspace memory: 40 decisions, 28 of them rendered.
    let candidates: String = (0..40)
        .map(|i| format!("- [decision] Use the shared retry helper for service call number {i} because timeouts differ per backend\n"))
        .collect();
    let summary = format!("## Work\n- done\n\nMemory candidates:\n{candidates}");
    spawn(
        &data,
        &["promote"],
        &json!({"directory": DIR, "sessionID": "seed", "summary": summary}).to_string(),
    );
    let memory_file = std::fs::read_dir(data.join("workspaces"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join("workspace-memory.json");
    let memory: WorkspaceMemory =
        serde_json::from_str(&std::fs::read_to_string(memory_file).unwrap()).unwrap();
    assert_eq!(memory.entries.len(), 40);

    let render_event =
        json!({"directory": DIR, "sessionID": "bench", "prompt": "keep going"}).to_string();
    let baseline = measure(|_| spawn(&data, &["--version"], ""));
    let cases: Vec<(&str, Figures)> = vec![
        (
            "tool-after read",
            measure(|i| {
                spawn(
                    &data,
                    &["tool-after"],
                    &read_event(&format!("r{i}"), &format!("src/module{}.ts", i % 25)).to_string(),
                )
            }),
        ),
        (
            "tool-after bash failing tsc",
            measure(|i| {
                spawn(
                    &data,
                    &["tool-after"],
                    &bash_event(&format!("t{i}"), "npm run typecheck", TSC, 2).to_string(),
                )
            }),
        ),
        (
            "tool-after bash git log",
            measure(|i| {
                spawn(
                    &data,
                    &["tool-after"],
                    &bash_event(
                        &format!("g{i}"),
                        "git log --oneline -5",
                        "abc fix: errors\n",
                        0,
                    )
                    .to_string(),
                )
            }),
        ),
        (
            "tool-after glob (untracked)",
            measure(|i| {
                let e = json!({"directory": DIR, "input": {"tool": "glob", "sessionID": "bench", "callID": format!("x{i}"), "args": {}}, "output": {}});
                spawn(&data, &["tool-after"], &e.to_string())
            }),
        ),
        (
            "render (block frozen)",
            measure(|_| spawn(&data, &["render"], &render_event)),
        ),
        (
            "render (new session: freezes)",
            measure(|i| {
                let e =
                    json!({"directory": DIR, "sessionID": format!("s{i}"), "prompt": "keep going"});
                spawn(&data, &["render"], &e.to_string())
            }),
        ),
        (
            "promote (5 candidates)",
            measure(|i| {
                let lines: String = (0..5)
                    .map(|k| format!("- [project] Build artefacts of package {i}-{k} go to the dist folder only\n"))
                    .collect();
                let e = json!({"directory": DIR, "sessionID": "bench-p", "summary": format!("Memory candidates:\n{lines}")});
                spawn(&data, &["promote"], &e.to_string())
            }),
        ),
    ];

    println!(
        "process cost per call over {} runs (median / p90, ms)",
        runs()
    );
    println!(
        "{:<30} {:>8} {:>8} {:>10} {:>12}",
        "case", "median", "p90", "x start", "+ over start"
    );
    println!(
        "{:<30} {:>8.3} {:>8.3} {:>10} {:>12}",
        "ocmem --version (start)",
        ms(baseline.median),
        ms(baseline.p90),
        "1.00",
        "-"
    );
    for (name, f) in &cases {
        println!(
            "{:<30} {:>8.3} {:>8.3} {:>10.2} {:>12.3}",
            name,
            ms(f.median),
            ms(f.p90),
            f.median.as_secs_f64() / baseline.median.as_secs_f64(),
            ms(f.median.saturating_sub(baseline.median))
        );
    }

    // The domain work alone, in process.
    let mut state = SessionState::new("bench");
    let args = json!({"filePath": "src/a.ts"});
    let none = json!({});
    let iterations = 20_000;
    let started = Instant::now();
    for i in 0..iterations {
        let id = format!("c{i}");
        let call = ToolCall {
            tool: "read",
            call_id: &id,
            args: &args,
            output: &none,
            directory: DIR,
        };
        std::hint::black_box(apply(&mut state, &call, i as i64));
    }
    let apply_read = started.elapsed() / iterations;
    let started = Instant::now();
    for i in 0..iterations {
        let mut errors = Vec::new();
        std::hint::black_box(apply_bash(
            &mut errors,
            BashRun {
                command: "npm run typecheck",
                output: TSC,
                exit: Some(2),
            },
            i as i64,
        ));
    }
    let apply_failure = started.elapsed() / iterations;
    let started = Instant::now();
    for _ in 0..iterations {
        std::hint::black_box(hot_state(&state, DIR));
    }
    let render = started.elapsed() / iterations;
    let started = Instant::now();
    for i in 0..iterations / 10 {
        std::hint::black_box(render_block(&memory, Some(i as i64)));
    }
    let render_memory = started.elapsed() / (iterations / 10);
    let started = Instant::now();
    for _ in 0..iterations {
        std::hint::black_box(scrub(TSC));
    }
    let scrub_output = started.elapsed() / iterations;
    println!("(tool-after calls that change the store pay for two fsyncs, of the file and of its directory:");
    println!(" that is the disk's price for a store that survives a crash, not ocmem's work; see the in-process figures)");
    println!("\nin-process domain cost per call (µs): apply read {:.2}, record a tsc failure {:.2}, render hot state {:.2},",
        apply_read.as_secs_f64() * 1e6, apply_failure.as_secs_f64() * 1e6, render.as_secs_f64() * 1e6);
    println!("render a workspace block of 40 entries {:.2}, scrub a typecheck output with no secret {:.2}",
        render_memory.as_secs_f64() * 1e6, scrub_output.as_secs_f64() * 1e6);
}
