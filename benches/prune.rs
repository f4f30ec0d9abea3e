//! What pruning keeps and costs on real long tool outputs (`tests/fixtures/prune/`, made by the
//! `capture.sh` there): per output, its size, the share of characters kept at the normal and at
//! the halved limits, whether every error line survived, and the time pruning takes per MB of
//! output, in process (the hook's own start-up is measured by `benches/hooks.rs`). Run with
//! `cargo bench --bench prune`: it prints a Markdown table and asserts nothing about time.
//! `OCMEM_BENCH_RUNS` sets the timed runs of each output (default 200).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ocmem::domain::shell::extract::is_error_line;
use ocmem::domain::shell::prune::{prune, Limits, LIMITS};

/// The average share of characters kept that the outputs must not exceed.
const KEPT_TARGET: f64 = 0.40;
/// Pruning cost per MB of output, over the whole corpus.
const MS_PER_MB_TARGET: f64 = 5.0;
/// The outputs of another tool than `bash`, as `tests/prune_corpus.rs` reads them. What a
/// listing or a search returns are results, not errors: only `bash` outputs are checked for
/// every error line.
const TOOLS: &[(&str, &str)] = &[
    ("find-listing.txt", "glob"),
    ("ls-recursive.txt", "list"),
    ("rg-raise-matches.txt", "grep"),
];

struct Measured {
    name: String,
    lines: usize,
    bytes: usize,
    kept: f64,
    kept_halved: f64,
    errors: usize,
    errors_kept: usize,
    ms_per_mb: f64,
}

fn main() {
    let runs: usize = std::env::var("OCMEM_BENCH_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let measured: Vec<Measured> = outputs().iter().map(|path| measure(path, runs)).collect();

    println!("\nPruning real tool outputs, each as the output of the tool that made it ({runs} runs each, median)\n");
    println!("| output | lines | KB | kept | kept, halved limits | error lines kept | ms per MB |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for m in &measured {
        println!(
            "| {} | {} | {:.0} | {:.0} % | {:.0} % | {}/{} | {:.2} |",
            m.name,
            m.lines,
            m.bytes as f64 / 1024.0,
            m.kept * 100.0,
            m.kept_halved * 100.0,
            m.errors_kept,
            m.errors,
            m.ms_per_mb
        );
    }
    let long: Vec<&Measured> = measured.iter().filter(|m| m.kept < 1.0).collect();
    let average = long.iter().map(|m| m.kept).sum::<f64>() / long.len().max(1) as f64;
    let worst = measured.iter().map(|m| m.ms_per_mb).fold(0.0, f64::max);
    // The corpus as one stream: all the time over all the megabytes.
    let total_mb: f64 = measured.iter().map(|m| m.bytes as f64 / 1e6).sum();
    let overall = measured
        .iter()
        .map(|m| m.ms_per_mb * m.bytes as f64 / 1e6)
        .sum::<f64>()
        / total_mb;
    let all_errors = measured.iter().all(|m| m.errors_kept == m.errors);
    println!(
        "\nAverage kept over the {} outputs that were pruned: {:.0} % (target ≤ {:.0} %: {}); \
         pruning the whole corpus {overall:.2} ms per MB (target ≤ {MS_PER_MB_TARGET} ms: {}), \
         the slowest output {worst:.2} ms per MB; every error line kept: {}",
        long.len(),
        average * 100.0,
        KEPT_TARGET * 100.0,
        met(average <= KEPT_TARGET),
        met(overall <= MS_PER_MB_TARGET),
        met(all_errors),
    );
}

fn met(yes: bool) -> &'static str {
    if yes {
        "yes"
    } else {
        "**no**"
    }
}

/// The corpus's outputs, by name.
fn outputs() -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/prune");
    let mut paths: Vec<PathBuf> = fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    paths.sort();
    paths
}

fn measure(path: &Path, runs: usize) -> Measured {
    let output = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let tool = TOOLS
        .iter()
        .find(|(file, _)| *file == name)
        .map_or("bash", |(_, tool)| *tool);
    let kept_share = |limits: Limits| {
        prune(tool, &output, limits).map_or(1.0, |p| p.text.len() as f64 / output.len() as f64)
    };
    let text = prune(tool, &output, LIMITS).map_or_else(|| output.clone(), |p| p.text);
    let kept_lines: std::collections::HashSet<&str> = text.lines().collect();
    let error_lines: Vec<&str> = match tool {
        "bash" => output.lines().filter(|l| is_error_line(l)).collect(),
        _ => Vec::new(),
    };
    let mut samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(prune(tool, std::hint::black_box(&output), LIMITS));
            started.elapsed()
        })
        .collect();
    samples.sort();
    let median = samples[samples.len() / 2];
    Measured {
        name: format!("{name} ({tool})"),
        lines: output.lines().count(),
        bytes: output.len(),
        kept: kept_share(LIMITS),
        kept_halved: kept_share(LIMITS.halved()),
        errors: error_lines.len(),
        errors_kept: error_lines
            .iter()
            .filter(|l| kept_lines.contains(*l))
            .count(),
        ms_per_mb: median.as_secs_f64() * 1e3 / (output.len() as f64 / 1e6),
    }
}
