//! `ocmem mcp`: the agent's memory tools as a Model Context Protocol server on stdin and
//! stdout, built on the official SDK (`rmcp`). The only subcommand that starts an async
//! runtime: a single-threaded one, made here and nowhere else, so the hooks never pay for it.
//!
//! The tools' work is in `tools` (plain functions, tested without a process), their names,
//! descriptions and schemas in `catalog`. Each call reads the environment and the clock anew
//! (`Context::from_env`): a server lives as long as the host's session.

pub mod catalog;
pub mod tools;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context as _, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use super::Run;
use crate::cli::Mcp;
use crate::context::Context;

impl Run for Mcp {
    fn run(&self, ctx: &Context) -> Result<()> {
        let directory = server_directory(self.workspace.as_ref())?;
        let server = MemoryServer {
            // The flag's data directory, or what the environment names at each call.
            data_dir: ctx.data_dir_from_flag.then(|| ctx.data_dir.clone()),
            directory,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the MCP server's runtime")?;
        runtime.block_on(async {
            let running = server
                .serve(rmcp::transport::stdio())
                .await
                .context("the MCP client did not initialize the session")?;
            running
                .waiting()
                .await
                .context("the MCP server stopped abnormally")?;
            Ok(())
        })
    }
}

/// The directory whose workspace the server serves: `--workspace`, else the current one.
fn server_directory(workspace: Option<&PathBuf>) -> Result<String> {
    let dir = match workspace {
        Some(dir) => {
            if !dir.is_dir() {
                bail!("--workspace {} is not a directory", dir.display());
            }
            std::path::absolute(dir).unwrap_or_else(|_| dir.clone())
        }
        None => std::env::current_dir()
            .context("cannot read the current directory; pass --workspace DIR")?,
    };
    Ok(dir.to_string_lossy().into_owned())
}

/// The server: which data directory and workspace its tools act on.
#[derive(Debug, Clone)]
pub struct MemoryServer {
    data_dir: Option<PathBuf>,
    directory: String,
}

const INSTRUCTIONS: &str =
    "ocmem keeps this workspace's long-term memory (conventions, decisions, \
commands, preferences) and the user's memory that applies to every project; the most relevant \
entries are already in the memory block at the start of the session. Search it before settling \
something the user may have decided before; remember durable facts and rules, never progress \
reports; forget what the user says is wrong or no longer wanted.";

impl MemoryServer {
    /// Runs tool `name` as a tool result: its answer, or its error as a tool error.
    pub fn call(&self, name: &str, arguments: &Map<String, Value>) -> CallToolResult {
        let answer = Context::from_env(self.data_dir.clone())
            .map_err(|e| format!("{e:#}"))
            .and_then(|ctx| tools::call(&ctx, &self.directory, name, arguments));
        match answer {
            Ok(value) => {
                let text = serde_json::to_string_pretty(&value).unwrap_or_default();
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                result.structured_content = Some(value);
                result
            }
            Err(why) => CallToolResult::error(vec![ContentBlock::text(why)]),
        }
    }

    /// The tools as `tools/list` answers them.
    pub fn tools() -> Vec<Tool> {
        catalog::TOOLS
            .iter()
            .map(|spec| {
                let schema = match (spec.schema)() {
                    Value::Object(schema) => schema,
                    _ => Map::new(),
                };
                let annotations = ToolAnnotations::with_title(spec.title)
                    .read_only(spec.read_only)
                    .destructive(false)
                    .idempotent(spec.read_only)
                    .open_world(false);
                Tool::new(spec.name, spec.description, Arc::new(schema))
                    .with_title(spec.title)
                    .with_annotations(annotations)
            })
            .collect()
    }
}

impl ServerHandler for MemoryServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("ocmem", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(MemoryServer::tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        Ok(self.call(&request.name, &arguments).into())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        MemoryServer::tools().into_iter().find(|t| t.name == name)
    }
}
