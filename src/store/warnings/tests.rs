use std::sync::Arc;

use super::*;

const NOW: i64 = 1_795_276_434_504;

fn texts(data_dir: &Path) -> Vec<String> {
    recent(data_dir, usize::MAX)
        .into_iter()
        .map(|w| w.text)
        .collect()
}

#[test]
fn warnings_are_appended_and_read_back_oldest_first() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    assert!(recent(&data, 10).is_empty(), "no log, no warnings");
    record(
        &data,
        NOW,
        Some(HostName::OpenCode),
        "session store a.json quarantined",
    );
    record(&data, NOW + 1500, None, "memory is newer");
    record(&data, NOW + 3000, Some(HostName::ClaudeCode), "lock busy");

    let all = recent(&data, 10);
    assert_eq!(
        all,
        vec![
            LoggedWarning {
                at: "2026-11-21T15:53:54.504Z".into(),
                host: Some(HostName::OpenCode),
                text: "session store a.json quarantined".into(),
            },
            LoggedWarning {
                at: "2026-11-21T15:53:56.004Z".into(),
                host: None,
                text: "memory is newer".into(),
            },
            LoggedWarning {
                at: "2026-11-21T15:53:57.504Z".into(),
                host: Some(HostName::ClaudeCode),
                text: "lock busy".into(),
            },
        ]
    );
    // The latest two, still oldest first.
    let last = recent(&data, 2);
    assert_eq!(last, all[1..].to_vec());
    assert!(recent(&data, 0).is_empty());
    // One JSON object a line, in a private file.
    let raw = fs::read_to_string(log_path(&data)).unwrap();
    assert_eq!(raw.lines().count(), 3);
    assert!(raw.lines().all(|l| l.starts_with("{\"at\":")), "{raw}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(log_path(&data)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn a_warning_is_one_bounded_line_without_secrets() {
    let tmp = tempfile::tempdir().unwrap();
    let token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";
    let text =
        format!("memory could not be read (line 3:\n\tGITHUB_TOKEN={token} \u{2028}then more)");
    record(tmp.path(), NOW, None, &text);
    let long = "é".repeat(MAX_TEXT_CHARS * 3);
    record(tmp.path(), NOW, None, &long);

    let logged = texts(tmp.path());
    assert!(!logged[0].contains(token), "{}", logged[0]);
    assert!(logged[0].contains("[REDACTED:"), "{}", logged[0]);
    assert!(
        logged[0].starts_with("memory could not be read (line 3: GITHUB_TOKEN="),
        "{}",
        logged[0]
    );
    assert!(!logged[0].contains(['\n', '\t', '\u{2028}']));
    assert_eq!(logged[1].chars().count(), MAX_TEXT_CHARS + 1);
    assert!(logged[1].ends_with("é…"));
    // Nothing of the secret reached the file either.
    let raw = fs::read_to_string(log_path(tmp.path())).unwrap();
    assert!(!raw.contains(&token[4..]), "{raw}");
}

#[test]
fn a_secret_cut_by_the_bound_is_still_scrubbed() {
    let tmp = tempfile::tempdir().unwrap();
    let token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";
    // The token straddles the cut: cutting first would leave a prefix no rule recognises.
    let text = format!("{}{token}", "x ".repeat((MAX_TEXT_CHARS - 10) / 2));
    record(tmp.path(), NOW, None, &text);
    let logged = &texts(tmp.path())[0];
    assert!(!logged.contains("ghp_aB3dE5"), "{logged}");
}

#[test]
fn the_log_is_rotated_past_its_cap_and_keeps_the_newest() {
    let tmp = tempfile::tempdir().unwrap();
    let line = "w".repeat(500);
    let n = 400; // about three times the cap
    for i in 0..n {
        record(tmp.path(), NOW + i, None, &format!("{i:04} {line}"));
    }
    let current = fs::metadata(log_path(tmp.path())).unwrap().len();
    let rotated = fs::metadata(tmp.path().join(ROTATED_LOG_FILE))
        .unwrap()
        .len();
    assert!(current <= LOG_CAP, "{current}");
    assert!(rotated > LOG_CAP && rotated < LOG_CAP + 600, "{rotated}");
    assert!(!tmp.path().join("ocmem.log.2").exists());

    let logged = texts(tmp.path());
    // What survives is the newest run, without a gap, ending with the last one.
    assert!(
        logged.len() > 100 && logged.len() < n as usize,
        "{}",
        logged.len()
    );
    let numbers: Vec<i64> = logged.iter().map(|t| t[..4].parse().unwrap()).collect();
    assert_eq!(*numbers.last().unwrap(), n - 1);
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{numbers:?}");
    // The latest few are read from the current file alone, or across both.
    let last = recent(tmp.path(), 3);
    assert_eq!(last.len(), 3);
    assert!(last[2].text.starts_with(&format!("{:04}", n - 1)));
}

#[test]
fn corrupt_and_torn_lines_are_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    record(tmp.path(), NOW, None, "first");
    let mut raw = fs::read(log_path(tmp.path())).unwrap();
    raw.extend_from_slice(b"not json at all\n");
    raw.extend_from_slice(b"{\"at\":\"2026-11-21T15:53:55.000Z\",\"text\":3}\n");
    raw.extend_from_slice(b"\xff\xfe{\"at\": 1}\n");
    raw.extend_from_slice(
        b"{\"at\":\"2026-11-21T15:53:56.000Z\",\"host\":\"some-new-host\",\"text\":\"kept\"}\n",
    );
    raw.extend_from_slice(b"\n{\"at\":\"2026-11-21T15:53:5");
    fs::write(log_path(tmp.path()), raw).unwrap();
    assert_eq!(texts(tmp.path()), ["first", "kept"]);
    // A torn last line does not swallow the next whole one.
    record(tmp.path(), NOW + 5000, Some(HostName::OpenCode), "after");
    let logged = recent(tmp.path(), 10);
    let got: Vec<&str> = logged.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(got, ["first", "kept", "after"], "{logged:?}");
    assert_eq!(logged[1].host, None, "an unknown host is no host");
    assert_eq!(logged[2].host, Some(HostName::OpenCode));
    let raw = String::from_utf8_lossy(&fs::read(log_path(tmp.path())).unwrap()).into_owned();
    assert!(raw.ends_with("15:53:5\n{\"at\":\"2026-11-21T15:53:59.504Z\",\"host\":\"opencode\",\"text\":\"after\"}\n"), "{raw}");
}

#[cfg(unix)]
#[test]
fn a_log_that_is_a_symbolic_link_is_neither_written_nor_read() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    fs::create_dir(&data).unwrap();
    let elsewhere = tmp.path().join("elsewhere.txt");
    fs::write(&elsewhere, "{\"at\":\"x\",\"text\":\"planted\"}\n").unwrap();
    std::os::unix::fs::symlink(&elsewhere, log_path(&data)).unwrap();
    record(&data, NOW, None, "must not land elsewhere");
    assert_eq!(
        fs::read_to_string(&elsewhere).unwrap(),
        "{\"at\":\"x\",\"text\":\"planted\"}\n"
    );
    assert!(recent(&data, 10).is_empty());

    // A dangling link is not created through either.
    let target = tmp.path().join("created-through-link");
    fs::remove_file(log_path(&data)).unwrap();
    std::os::unix::fs::symlink(&target, log_path(&data)).unwrap();
    record(&data, NOW, None, "nor here");
    assert!(!target.exists());

    // A rotated log that is a link is not read, nor followed when replaced.
    fs::remove_file(log_path(&data)).unwrap();
    std::os::unix::fs::symlink(&elsewhere, data.join(ROTATED_LOG_FILE)).unwrap();
    record(&data, NOW, None, "own");
    assert_eq!(texts(&data), ["own"]);
}

#[cfg(unix)]
#[test]
fn a_fifo_at_the_log_path_neither_blocks_nor_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = log_path(tmp.path());
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    record(tmp.path(), NOW, None, "nobody reads a FIFO");
    assert!(recent(tmp.path(), 10).is_empty());
}

#[test]
fn concurrent_writers_keep_whole_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let data = Arc::new(tmp.path().to_path_buf());
    let threads = 8;
    let per_thread = 60;
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let data = Arc::clone(&data);
            std::thread::spawn(move || {
                for i in 0..per_thread {
                    let text = format!("t{t} n{i} {}", "x".repeat(150 + t * 7));
                    record(&data, NOW + i, None, &text);
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    // Rotation happened along the way: every line in both files is whole. (A writer may see
    // another's line half copied when it checks for a torn end, and start on a new line: an
    // empty line, which readers skip.)
    assert!(tmp.path().join(ROTATED_LOG_FILE).exists());
    let mut whole = 0;
    for name in [ROTATED_LOG_FILE, LOG_FILE] {
        let raw = fs::read_to_string(tmp.path().join(name)).unwrap();
        assert!(raw.ends_with('\n'));
        for line in raw.lines().filter(|l| !l.is_empty()) {
            let warning = parse_line(line).unwrap_or_else(|| panic!("torn: {line}"));
            let (tag, rest) = warning.text.split_once(' ').unwrap();
            let t: usize = tag[1..].parse().unwrap();
            assert_eq!(rest.split_once(' ').unwrap().1.len(), 150 + t * 7);
            whole += 1;
        }
    }
    assert!(whole > 0 && whole <= threads * per_thread as usize);
}

#[test]
fn store_warnings_are_logged_with_the_host_whose_hook_ran() {
    use crate::domain::session::state::SessionState;
    use crate::store::Store;
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::new(tmp.path().to_path_buf(), NOW).with_host(HostName::ClaudeCode);
    let path = store
        .workspace("/nonexistent/ocmem/warned")
        .session_file("ses_1");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, "{\"version\": 1, \"activeFi").unwrap();
    assert_eq!(store.read::<SessionState>(&path).unwrap(), None);
    fs::write(&path, "{\"version\": 7}").unwrap();
    assert_eq!(store.read::<SessionState>(&path).unwrap(), None);
    // Quiet: logged, not printed (a hook that must not speak says why here).
    Store::new(tmp.path().to_path_buf(), NOW + 1).log_warning("hook failed: cannot parse stdin");

    let logged = recent(tmp.path(), 10);
    assert_eq!(logged.len(), 3, "{logged:?}");
    assert!(logged[0].text.starts_with("session store "), "{logged:?}");
    assert!(logged[0].text.contains("could not be read (not valid JSON"));
    assert!(logged[0].text.contains("and started afresh"));
    assert!(logged[1]
        .text
        .contains("format version 7, newer than this ocmem"));
    assert_eq!(logged[0].host, Some(HostName::ClaudeCode));
    assert_eq!(logged[1].host, Some(HostName::ClaudeCode));
    assert_eq!(logged[2].host, None);
    assert_eq!(logged[2].text, "hook failed: cannot parse stdin");
    assert_eq!(logged[2].at, "2026-11-21T15:53:54.505Z");
}
