use super::*;

const NOW: i64 = 1_795_276_434_504;

fn store_at(data_dir: &Path, now_ms: i64) -> Store {
    Store::new(data_dir.to_path_buf(), now_ms)
}

fn mtime_ms(path: &Path) -> i64 {
    modified_ms(&fs::symlink_metadata(path).unwrap()).unwrap()
}

#[test]
fn a_call_is_noted_per_host_and_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store_at(tmp.path(), NOW);
    let workspace = store.workspace("/nonexistent/ocmem/hosts");
    let other = store.workspace("/nonexistent/ocmem/other");
    assert!(store.host_calls(&workspace).is_empty());
    assert!(!workspace.dir.exists(), "listing makes nothing");

    store.note_host_call(&workspace, HostName::ClaudeCode);
    assert_eq!(
        store.host_calls(&workspace),
        vec![(HostName::ClaudeCode, NOW)]
    );
    store_at(tmp.path(), NOW + 5_000).note_host_call(&workspace, HostName::OpenCode);
    assert_eq!(
        store.host_calls(&workspace),
        vec![
            (HostName::OpenCode, NOW + 5_000),
            (HostName::ClaudeCode, NOW)
        ],
        "in the order of HostName::ALL"
    );
    assert!(store.host_calls(&other).is_empty(), "per workspace");

    let marker = host_marker(&workspace, HostName::OpenCode);
    assert_eq!(marker, workspace.dir.join("hosts/opencode"));
    assert_eq!(fs::metadata(&marker).unwrap().len(), 0);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&marker), 0o600);
        assert_eq!(mode(&workspace.dir.join("hosts")), 0o700);
        assert_eq!(mode(&workspace.dir), 0o700);
    }
}

#[test]
fn a_marker_is_refreshed_only_once_it_is_a_minute_old() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store_at(tmp.path(), NOW);
    let workspace = store.workspace("/nonexistent/ocmem/refresh");
    let marker = host_marker(&workspace, HostName::OpenCode);
    store.note_host_call(&workspace, HostName::OpenCode);
    assert_eq!(mtime_ms(&marker), NOW);

    // Within the minute: untouched.
    for later in [1, 30_000, HOST_CALL_REFRESH_MS - 1] {
        store_at(tmp.path(), NOW + later).note_host_call(&workspace, HostName::OpenCode);
        assert_eq!(mtime_ms(&marker), NOW, "{later} ms later");
    }
    // A minute on: refreshed to the call's time.
    let later = NOW + HOST_CALL_REFRESH_MS;
    store_at(tmp.path(), later).note_host_call(&workspace, HostName::OpenCode);
    assert_eq!(mtime_ms(&marker), later);
    // A clock that went back: refreshed, so the marker never stays in the future.
    store_at(tmp.path(), NOW).note_host_call(&workspace, HostName::OpenCode);
    assert_eq!(mtime_ms(&marker), NOW);
    // The other host's call leaves this marker alone.
    store_at(tmp.path(), NOW + 10 * HOST_CALL_REFRESH_MS)
        .note_host_call(&workspace, HostName::ClaudeCode);
    assert_eq!(mtime_ms(&marker), NOW);
}

#[cfg(unix)]
#[test]
fn markers_are_never_written_or_read_through_a_link() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let store = store_at(&data, NOW);
    let outside = tmp.path().join("outside");
    fs::create_dir_all(&outside).unwrap();
    let planted = outside.join("opencode");
    fs::write(&planted, "").unwrap();
    let old = fs::metadata(&planted).unwrap().modified().unwrap();

    // hosts/ linked elsewhere: not created through, not listed.
    let linked_hosts = store.workspace("/nonexistent/ocmem/linked-hosts");
    fs::create_dir_all(&linked_hosts.dir).unwrap();
    symlink(&outside, linked_hosts.dir.join("hosts")).unwrap();
    store_at(&data, NOW + 10 * HOST_CALL_REFRESH_MS)
        .note_host_call(&linked_hosts, HostName::ClaudeCode);
    store_at(&data, NOW + 10 * HOST_CALL_REFRESH_MS)
        .note_host_call(&linked_hosts, HostName::OpenCode);
    assert!(!outside.join("claude-code").exists());
    assert_eq!(fs::metadata(&planted).unwrap().modified().unwrap(), old);
    assert!(store.host_calls(&linked_hosts).is_empty());

    // A marker that is a link (dangling or not): left as it is.
    let linked_marker = store.workspace("/nonexistent/ocmem/linked-marker");
    fs::create_dir_all(linked_marker.dir.join("hosts")).unwrap();
    let marker = host_marker(&linked_marker, HostName::OpenCode);
    symlink(&planted, &marker).unwrap();
    let dangling = host_marker(&linked_marker, HostName::ClaudeCode);
    symlink(outside.join("made-through-link"), &dangling).unwrap();
    store.note_host_call(&linked_marker, HostName::OpenCode);
    store.note_host_call(&linked_marker, HostName::ClaudeCode);
    assert_eq!(fs::metadata(&planted).unwrap().modified().unwrap(), old);
    assert!(!outside.join("made-through-link").exists());
    assert!(fs::symlink_metadata(&marker).unwrap().is_symlink());
    assert!(store.host_calls(&linked_marker).is_empty());

    // The workspace directory itself linked elsewhere.
    let linked_workspace = store.workspace("/nonexistent/ocmem/linked-workspace");
    fs::create_dir_all(linked_workspace.dir.parent().unwrap()).unwrap();
    symlink(&outside, &linked_workspace.dir).unwrap();
    store.note_host_call(&linked_workspace, HostName::ClaudeCode);
    assert!(!outside.join("hosts").exists());
    assert!(store.host_calls(&linked_workspace).is_empty());
}

#[test]
fn a_marker_path_holding_a_directory_is_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store_at(tmp.path(), NOW);
    let workspace = store.workspace("/nonexistent/ocmem/dir-marker");
    let marker = host_marker(&workspace, HostName::OpenCode);
    fs::create_dir_all(marker.join("inside")).unwrap();
    store.note_host_call(&workspace, HostName::OpenCode);
    assert!(marker.join("inside").is_dir());
    assert!(store.host_calls(&workspace).is_empty());
    // A hosts/ that is a file: nothing noted, nothing broken.
    let flat = store.workspace("/nonexistent/ocmem/flat-hosts");
    fs::create_dir_all(&flat.dir).unwrap();
    fs::write(flat.dir.join("hosts"), "x").unwrap();
    store.note_host_call(&flat, HostName::OpenCode);
    assert_eq!(fs::read_to_string(flat.dir.join("hosts")).unwrap(), "x");
    assert!(store.host_calls(&flat).is_empty());
}
