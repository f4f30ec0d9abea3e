//! Running the processes of an end-to-end test: each in a process group of its own, its output
//! in log files, killed at its timeout or at the test's deadline; and the install scripts.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A process that ran to its end, and what it printed.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Finished {
    pub fn assert_success(&self, what: &str) {
        assert!(
            self.status.success(),
            "{what} failed ({}).\nstdout:\n{}\nstderr:\n{}",
            self.status,
            tail(&self.stdout, 4000),
            tail(&self.stderr, 4000)
        );
    }
}

/// The last `max` bytes of `text`, or a little less to start on a character.
pub fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Runs `cmd` in a process group of its own, with stdin closed and stdout and stderr in
/// `<logs>/<name>.stdout|stderr`; after `timeout` (or at the test's deadline, whichever comes
/// first) the whole group is killed and the test fails.
pub fn run(
    cmd: &mut Command,
    name: &str,
    logs: &Path,
    timeout: Duration,
    deadline: Instant,
) -> Finished {
    use std::os::unix::process::CommandExt;

    let stdout_path = logs.join(format!("{name}.stdout"));
    let stderr_path = logs.join(format!("{name}.stderr"));
    cmd.stdin(Stdio::null())
        .stdout(fs::File::create(&stdout_path).unwrap())
        .stderr(fs::File::create(&stderr_path).unwrap())
        .process_group(0);
    let started = Instant::now();
    let limit = (started + timeout).min(deadline);
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {name} ({:?}): {e}", cmd.get_program()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() >= limit {
            // The child leads its own group: kill it and whatever it started (bash, npm, node).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{name} did not finish within {:.0?}; killed. Its output: {} and {}",
                limit - started,
                stdout_path.display(),
                stderr_path.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    eprintln!(
        "ocmem e2e: {name} finished in {:.1?} ({status})",
        started.elapsed()
    );
    Finished {
        status,
        stdout: fs::read_to_string(&stdout_path).unwrap_or_default(),
        stderr: fs::read_to_string(&stderr_path).unwrap_or_default(),
    }
}

/// Runs the install script `tests/e2e/<script>.sh` and returns the paths it names on stdout,
/// one `<key>=<path>` line for each of `keys`; each must exist.
pub fn install<const N: usize>(
    script: &str,
    keys: [&str; N],
    logs: &Path,
    timeout: Duration,
    deadline: Instant,
) -> [PathBuf; N] {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/e2e/{script}.sh"));
    let out = run(
        Command::new("bash").arg(&path),
        script,
        logs,
        timeout,
        deadline,
    );
    out.assert_success(&format!("tests/e2e/{script}.sh"));
    keys.map(|key| {
        let path = out
            .stdout
            .lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
            .map(PathBuf::from)
            .unwrap_or_else(|| panic!("{script}.sh did not print {key}=:\n{}", out.stdout));
        assert!(
            path.exists(),
            "{script}.sh printed {key}={}, which does not exist",
            path.display()
        );
        path
    })
}
