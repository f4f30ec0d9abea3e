//! The demo repository the agents work in: a TypeScript project whose `npm run typecheck` fails
//! with TS2345 until a file named `fixed` exists and whose `npm test` always fails.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use super::process::run;
use super::workdir::Layout;

/// The compiler error `npm run typecheck` prints until the file `fixed` exists.
pub const TS_ERROR: &str = "src/index.ts(10,3): error TS2345: Argument of type 'string' is not \
                            assignable to parameter of type 'number'.";
/// The failing test's line, which stays open.
pub const TEST_FAILURE: &str = "not ok 1 - adds numbers";

/// Writes `content` to `dir/relative`, creating the parent directories.
pub fn write(dir: &Path, relative: &str, content: &str) {
    let path = dir.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

/// Writes the TypeScript project into `dir`; `npm run typecheck` is `check.js` (standing in for
/// `tsc --noEmit`), `npm test` is `test.js`.
pub fn write_typescript_project(dir: &Path) {
    write(
        dir,
        "package.json",
        r#"{
  "name": "demo",
  "version": "1.0.0",
  "private": true,
  "scripts": {
    "typecheck": "node check.js",
    "test": "node test.js"
  }
}
"#,
    );
    write(
        dir,
        "check.js",
        &format!(
            "// Stands in for `tsc --noEmit`: fails with one error until a file named `fixed` exists.\n\
             const fs = require(\"fs\");\n\
             if (fs.existsSync(\"fixed\")) {{\n  console.log(\"no errors\");\n  process.exit(0);\n}}\n\
             console.log({});\nprocess.exit(2);\n",
            serde_json::to_string(TS_ERROR).unwrap()
        ),
    );
    write(
        dir,
        "test.js",
        &format!(
            "// A failing test, reported the way `node --test` does.\n\
             console.log(\"TAP version 13\");\n\
             console.log(\"{TEST_FAILURE}\");\n\
             console.log(\"  AssertionError [ERR_ASSERTION]: 3 == 4\");\n\
             console.log(\"# tests 1\");\n\
             console.log(\"# fail 1\");\n\
             process.exit(1);\n"
        ),
    );
    write(
        dir,
        "src/util.ts",
        "export function add(a: number, b: number): number {\n  return a + b + 1;\n}\n",
    );
    write(
        dir,
        "src/index.ts",
        r#"import { add } from "./util";

// Prints the sum of two numbers.
//
// The first argument is a string by mistake: the typecheck
// reports it below.

export function main(): void {
  const total =
    add("1", 2);
  console.log(total);
}
"#,
    );
}

/// The demo repository: the TypeScript project, a `.gitignore` of `ignored`, and one commit per
/// subject.
pub fn typescript_repo(
    layout: &Layout,
    ignored: &str,
    subjects: &[&str],
    timeout: Duration,
    deadline: Instant,
) {
    write_typescript_project(&layout.demo);
    write(&layout.demo, ".gitignore", ignored);
    git_repo(layout, subjects, timeout, deadline);
}

/// `git init` and one commit per subject in the demo repository, with a fixed identity and no
/// user config.
pub fn git_repo(layout: &Layout, subjects: &[&str], timeout: Duration, deadline: Instant) {
    let git = |args: &[&str], name: &str| {
        run(
            Command::new("git")
                .args(args)
                .current_dir(&layout.demo)
                .env("HOME", &layout.home)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_AUTHOR_NAME", "Demo")
                .env("GIT_AUTHOR_EMAIL", "demo@example.com")
                .env("GIT_COMMITTER_NAME", "Demo")
                .env("GIT_COMMITTER_EMAIL", "demo@example.com"),
            name,
            &layout.logs,
            timeout,
            deadline,
        )
        .assert_success(name);
    };
    git(&["init", "-q", "-b", "main"], "git-init");
    git(&["add", "-A"], "git-add");
    for (i, subject) in subjects.iter().enumerate() {
        git(
            &["commit", "-q", "--allow-empty", "-m", subject],
            &format!("git-commit-{i}"),
        );
    }
}
