use std::process::ExitCode;

use clap::Parser;

use ocmem::cli::Cli;
use ocmem::cmd::Run;
use ocmem::context::Context;
use ocmem::domain::render::one_line;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = Context::from_env(cli.data_dir.clone()).and_then(|ctx| cli.command.run(&ctx));
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
