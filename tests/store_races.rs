//! Interleavings of hooks and gc on one store, driven through the library so that each step
//! happens at a known point: a lock holder's change closure runs while the lock is held.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use ocmem::context::Context;
use ocmem::domain::memory::workspace::{render_block, WorkspaceMemory};
use ocmem::domain::session::state::SessionState;
use ocmem::store::{lock_path, Store, Updated};
use serde_json::json;

const ROOT: &str = "/nonexistent/ocmem-tests/races";
const SESSION: &str = "ses_races";
const NOW_MS: i64 = 1_795_276_800_000;

fn context(data: &Path) -> Context {
    Context {
        now_ms: NOW_MS,
        data_dir: data.to_path_buf(),
        data_dir_from_flag: true,
        ttl_days_env: None,
        host: None,
        disabled: false,
    }
}

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

/// The memory store as `remember` and `promote` leave it, with the given entries.
fn memory_with(store: &Store, texts: &[&str]) -> PathBuf {
    let workspace = store.workspace(ROOT);
    let path = workspace.memory_file();
    store
        .update(
            &path,
            || WorkspaceMemory::new(&workspace.root, &workspace.key),
            |memory| {
                for text in texts {
                    ocmem::domain::memory::workspace::merge(
                        memory,
                        ocmem::domain::memory::workspace::NewMemory {
                            kind: ocmem::domain::memory::kind::MemoryType::Project,
                            text: text.to_string(),
                            rationale: None,
                            source: ocmem::domain::memory::workspace::Source::Compaction,
                            confidence: ocmem::domain::memory::workspace::COMPACTION_CONFIDENCE,
                        },
                        NOW_MS,
                    );
                }
            },
        )
        .unwrap();
    path
}

#[test]
fn render_never_refreezes_a_block_a_concurrent_promote_cleared() {
    let tmp = tempfile::tempdir().unwrap();
    let ctx = context(tmp.path());
    let store = ctx.store();
    let memory_path = memory_with(&store, &["The API lives in services/api"]);
    let session_path = store.workspace(ROOT).session_file(SESSION);

    // The session's first render froze the block as memory stood then.
    let first = json!({"directory": ROOT, "sessionID": SESSION}).to_string();
    ocmem::cmd::render::execute(&ctx, first.as_bytes(), false).unwrap();
    let old_block: Option<SessionState> = store.read(&session_path).unwrap();
    let old_block = old_block.unwrap().frozen_workspace_block.unwrap();
    assert!(old_block.contains("services/api"), "{old_block}");

    // A promote files a new memory and clears the frozen block, under the session's lock;
    // it holds that lock while a render that captures a memory runs.
    let (held_tx, held_rx) = mpsc::channel();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let promote = {
        let store = store.clone();
        let session_path = session_path.clone();
        thread::spawn(move || {
            store
                .update(
                    &session_path,
                    || SessionState::new(SESSION),
                    |state| {
                        held_tx.send(()).unwrap();
                        go_rx.recv().unwrap();
                        memory_with(&store, &["Deploys go through the release branch"]);
                        state.pending_memories = None;
                        state.frozen_workspace_block = None;
                    },
                )
                .unwrap()
        })
    };
    held_rx.recv().unwrap();
    let render = {
        let ctx = ctx.clone();
        thread::spawn(move || {
            let event = json!({
                "directory": ROOT,
                "sessionID": SESSION,
                "prompt": "remember: we use pnpm, not npm",
                "messageID": "msg_2",
            });
            ocmem::cmd::render::execute(&ctx, event.to_string().as_bytes(), false).unwrap()
        })
    };
    // Let the render get as far as it can without the session's lock (its capture may reach
    // workspace memory first), then let the promote finish.
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(800)
        && !std::fs::read_to_string(&memory_path)
            .unwrap()
            .contains("pnpm")
    {
        thread::sleep(Duration::from_millis(2));
    }
    go_tx.send(()).unwrap();
    promote.join().unwrap();
    let printed = render.join().unwrap();

    let state: SessionState = store.read(&session_path).unwrap().unwrap();
    let block = state.frozen_workspace_block.clone().unwrap();
    assert_ne!(block, old_block, "the cleared block came back");
    assert!(block.contains("release branch"), "{block}");
    assert!(printed.contains("release branch"), "{printed}");
    // The captured memory is in workspace memory and listed as pending, not in the block.
    let memory: WorkspaceMemory = store.read(&memory_path).unwrap().unwrap();
    assert!(render_block(&memory, Some(NOW_MS)).contains("pnpm"));
    assert!(!block.contains("pnpm"), "{block}");
    let pending = serde_json::to_string(&state.pending_memories).unwrap();
    assert!(pending.contains("pnpm"), "{pending}");
}
