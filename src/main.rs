use std::process::ExitCode;

use clap::Parser;

use ocmem::cli::{hook_argv, Cli};
use ocmem::cmd::Run;
use ocmem::context::Context;
use ocmem::domain::base::text::one_line;

fn main() -> ExitCode {
    // Hooks run on every tool call: their plain command lines skip building clap's tree.
    let args: Vec<_> = std::env::args_os().collect();
    let (data_dir, command) = match hook_argv::parse(&args) {
        Some(hook) => hook,
        None => {
            let cli = Cli::parse_from(args);
            (cli.data_dir, cli.command)
        }
    };
    let result = Context::from_env(data_dir).and_then(|ctx| command.run(&ctx));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A usage problem found after parsing (an environment variable, a missing mode) is
        // reported the way clap reports its own: exit 2.
        Err(e) => match e.downcast::<clap::Error>() {
            Ok(usage) => usage.exit(),
            Err(e) => {
                eprintln!("ocmem: {}", one_line(&format!("{e:#}")));
                ExitCode::FAILURE
            }
        },
    }
}
