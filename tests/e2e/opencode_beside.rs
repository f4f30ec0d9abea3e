//! OpenCode run in a repository another agent used, with the same ocmem data directory: what
//! the end-to-end tests of the other hosts use to show that one memory is shared.

use std::process::Command;
use std::time::Instant;

use super::demo::write;
use super::model;
use super::opencode;
use super::plugin_deps;
use super::process::run;
use super::scenario::{
    GOOD_CANDIDATES, INSTALL_TIMEOUT, REMEMBERED, RUN_TIMEOUT, SECOND_PROMPT, SHORT_TIMEOUT,
};
use super::workdir::Layout;

/// Fails unless OpenCode, run in the demo repository after the host's sessions, with the same
/// data directory and the plugin `init` installs, starts with what the user asked to remember
/// and the first good candidate.
pub fn assert_sees_memory(layout: &Layout, init: &mut Command, deadline: Instant) {
    let system = system_prompt(layout, init, SECOND_PROMPT, deadline);
    for remembered in [REMEMBERED, GOOD_CANDIDATES[0]] {
        assert!(
            system.contains(remembered),
            "OpenCode's system prompt lacks {remembered:?}:\n{system}"
        );
    }
}

/// One `opencode run prompt` in the demo repository, through the OpenCode harness
/// (`tests/e2e/install-opencode.sh`, the scripted OpenAI-compatible model, the seeded plugin API
/// and the registry tripwire) and the plugin that `init` (`ocmem init opencode --project`, run
/// here) installs. Returns the system prompt of its model request.
pub fn system_prompt(
    layout: &Layout,
    init: &mut Command,
    prompt: &str,
    deadline: Instant,
) -> String {
    let installed = opencode::install(layout, INSTALL_TIMEOUT, deadline);
    let server = model::Server::start(layout.demo.clone());
    write(
        &layout.demo,
        "opencode.json",
        &serde_json::to_string_pretty(&opencode::config(&server.base_url)).unwrap(),
    );
    // The plugin, as a user installs it for one project: it runs this binary by its path.
    run(
        init,
        "ocmem-init-opencode",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    )
    .assert_success("ocmem init opencode --project");
    let seeded: Vec<plugin_deps::Seeded> = opencode::config_dirs(layout)
        .iter()
        .map(|dir| plugin_deps::seed(dir, &installed.plugin_deps))
        .collect();
    let registry = plugin_deps::Tripwire::start();

    let mut cmd = Command::new(&installed.bin);
    cmd.args(["run", "--format", "json", prompt])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    opencode::isolate(&mut cmd, layout, &registry.url);
    run(
        &mut cmd,
        "opencode-run",
        &layout.logs,
        RUN_TIMEOUT,
        deadline,
    )
    .assert_success("opencode run");
    assert!(
        registry.requests().is_empty(),
        "OpenCode asked the npm registry for: {:#?}",
        registry.requests()
    );
    for dir in &seeded {
        dir.assert_untouched();
    }
    let exchanges = server.exchanges();
    let step = exchanges
        .iter()
        .find(|e| e.kind == Some(model::Kind::Agent) && e.has_user_text(prompt))
        .unwrap_or_else(|| {
            let seen: Vec<String> = exchanges
                .iter()
                .map(|e| format!("{} {} -> {}", e.method, e.path, e.reply))
                .collect();
            panic!(
                "OpenCode's model received no request with the prompt; it received:\n{}",
                seen.join("\n")
            )
        });
    step.system()
}
