//! The OpenCode plugin's own tests (`integrations/opencode/ocmem.test.mjs`), run with Node's
//! test runner against the binary built here, in a private data directory.

use std::time::Duration;

use assert_cmd::Command;

#[test]
fn the_opencode_plugin_passes_its_tests() {
    let data = tempfile::tempdir().unwrap();
    // The tests' workspaces and stand-in binaries, apart from the data directory.
    let scratch = tempfile::tempdir().unwrap();
    let plugin_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/opencode");
    let out = Command::new("node")
        // The whole run takes seconds; a hung plugin call fails the test instead of the suite.
        .timeout(Duration::from_secs(180))
        .arg("--test")
        .arg(&plugin_dir)
        .env("OCMEM_BIN", env!("CARGO_BIN_EXE_ocmem"))
        .env("OCMEM_DATA_DIR", data.path())
        .env("TMPDIR", scratch.path())
        .output()
        .expect("Node.js runs the plugin's tests (`node` on PATH, version 18 or newer)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The runner ran the tests, and none failed.
    assert!(report.contains("# fail 0"), "{report}");
    assert!(!report.contains("# pass 0"), "{report}");
}
