//! What the end-to-end tests of every host share, in one module each of them declares
//! (`mod e2e;`): the scripted model servers, running the real agents and ocmem, the demo
//! repository, reading ocmem's stores, the temporary directory kept on failure, and the scenario
//! the hosts play (`scenario.rs`).
// Each host's test uses its own part of these.
#![allow(dead_code)]

pub mod anthropic_model;
pub mod claude_code;
pub mod codex;
pub mod demo;
pub mod gemini;
pub mod gemini_model;
pub mod http;
pub mod model;
pub mod opencode;
pub mod opencode_beside;
pub mod plugin_deps;
pub mod process;
pub mod responses_model;
pub mod scenario;
pub mod stores;
pub mod workdir;
