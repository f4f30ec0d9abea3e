//! Interleavings of hooks and gc on one store, driven through the library so that each step
//! happens at a known point: a lock holder's change closure runs while the lock is held.

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use ocmem::domain::session::SessionState;
use ocmem::store::{lock_path, Store, Updated};

const ROOT: &str = "/nonexistent/ocmem-tests/races";
const SESSION: &str = "ses_races";
const NOW_MS: i64 = 1_795_276_800_000;

/// Who held the lock, in order: `(holder, entered)`.
type Log = Arc<Mutex<Vec<(&'static str, bool)>>>;

/// Runs an update of `path` whose change records entering and leaving, and stays inside for
/// `hold` so that another holder at the same time could not miss it.
fn logged_update(store: &Store, path: &Path, log: &Log, holder: &'static str, hold: Duration) {
    let updated = store
        .update(
            path,
            || SessionState::new(SESSION),
            |state| {
                log.lock().unwrap().push((holder, true));
                thread::sleep(hold);
                state.updated_at = holder.to_string();
                log.lock().unwrap().push((holder, false));
            },
        )
        .unwrap();
    assert!(matches!(updated, Updated::Done { .. }));
}

/// Waits until this process has `path` open (another thread opened it to wait on its lock).
fn wait_until_opened(path: &Path) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(5) {
        let open = std::fs::read_dir("/proc/self/fd")
            .unwrap()
            .flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == path));
        if open {
            return;
        }
        thread::sleep(Duration::from_millis(1));
    }
    panic!("{} was never opened", path.display());
}

#[test]
fn gc_removing_a_session_never_lets_two_processes_hold_its_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::new(tmp.path().to_path_buf(), NOW_MS);
    let path = store.workspace(ROOT).session_file(SESSION);
    let lock = lock_path(&path);
    let log: Log = Arc::default();
    logged_update(&store, &path, &log, "setup", Duration::ZERO);
    log.lock().unwrap().clear();

    // gc holds the session's lock and is about to remove the session.
    let (held_tx, held_rx) = mpsc::channel();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let gc = {
        let (store, path) = (store.clone(), path.clone());
        thread::spawn(move || {
            store
                .remove_store_if::<SessionState>(&path, |_| {
                    held_tx.send(()).unwrap();
                    go_rx.recv().unwrap();
                    true
                })
                .unwrap()
        })
    };
    held_rx.recv().unwrap();

    // A hook opens the lock file and waits for it.
    let waiter = {
        let (store, path, log) = (store.clone(), path.clone(), log.clone());
        thread::spawn(move || logged_update(&store, &path, &log, "waiter", HOLD))
    };
    wait_until_opened(&lock);
    go_tx.send(()).unwrap();
    assert!(gc.join().unwrap().is_some(), "gc removed the session");

    // A hook that starts after the removal.
    logged_update(&store, &path, &log, "newcomer", HOLD);
    waiter.join().unwrap();

    let log = log.lock().unwrap();
    assert_eq!(log.len(), 4, "both hooks ran: {log:?}");
    let mut holders = 0;
    for (holder, entered) in log.iter() {
        holders += if *entered { 1 } else { -1 };
        assert!(
            holders <= 1,
            "two holders at once ({holder} entered): {log:?}"
        );
    }
}

const HOLD: Duration = Duration::from_millis(300);
