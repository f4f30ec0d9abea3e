//! What a shell command is: which of its segments do real work (the *effective* ones), what
//! kind of work that is, and whether the exit status can be trusted.
//!
//! This is a light tokenizer, not a shell: it understands quotes, escapes, `&&` `||` `;` `|`,
//! redirections and heredocs, and keeps `$(…)`, `${…}` and backticks as plain text inside a word.
//!
//! Every rule ("which commands count as tests") is in the tables at the top of this file; the
//! code below them only applies them. The tables, in the order they come:
//! - neutral commands, which never decide a category: `SETUP_PROGRAMS`, `INSPECTION_PROGRAMS`,
//!   `QUERY_SUBCOMMANDS`, `SELF_QUERY_OPTIONS` and the shell keywords;
//! - wrappers (`TRANSPARENT_WRAPPERS`) and the options of runners and tools that take a value;
//! - the verbs of the package managers (`PACKAGE_MANAGER_*`);
//! - the words that classify a script, a make or task target, a tox environment
//!   (`SCRIPT_WORDS`, `WEAK_SCRIPT_WORDS`);
//! - the programs with a rule of their own (`PROGRAM_RULES`: package managers, runners, shells,
//!   make and the task runners, Maven, Gradle, tox/nox, python, ruby, java) and the tables their
//!   rules read (`MAVEN_*`, `GRADLE_*`, `TOX_*`, `PYTHON_*`, `RUBY_*`, `JAVA_*`, `JUNIT_*`);
//! - every other program: `FLAG_RULES`, `SUBCOMMAND_RULES`, then `PROGRAMS`;
//! - failure evidence, which tells which command of a chain failed (`*_MARKERS`, `LINT_LINE`).

use std::sync::LazyLock;

use regex::Regex;

use Category::{Build, Lint, Runtime, Test, Typecheck};

/// The kind of work a command does, which is also the kind of error its failure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Typecheck,
    Test,
    Lint,
    Build,
    Runtime,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Typecheck => "typecheck",
            Test => "test",
            Lint => "lint",
            Build => "build",
            Runtime => "runtime",
        }
    }

    pub fn parse(s: &str) -> Option<Category> {
        [Typecheck, Test, Lint, Build, Runtime]
            .into_iter()
            .find(|category| category.as_str() == s)
    }

    /// Validation commands check the code; a plain program run (`Runtime`) does not.
    pub fn is_validation(self) -> bool {
        self != Runtime
    }
}

// ─── Neutral commands ────────────────────────────────────────────────────────────────────────
// A neutral segment is not effective: it never decides a category and never records or clears
// an error. Neutral names are matched on the literal word, never on a path: `./test` or
// `bin/cat` is the project's own program.

/// Setup: changes the shell or the file tree. Its failure is never a code error.
const SETUP_PROGRAMS: &[&str] = &[
    "cd", "pushd", "popd", "export", "set", "unset", "source", ".", "touch", "mkdir", "rmdir",
    "rm", "cp", "mv", "ln", "chmod", "chown", "true", "false", ":", "sleep", "clear", "reset",
    "alias", "unalias", "nvm", "corepack", "exit", "return", "shift", "trap", "umask", "ulimit",
    "wait", "read", "local", "declare", "typeset", "readonly", "shopt", "hash",
];

/// Inspection: reads and prints. A failing `cat missing.json` or `grep -q x` says nothing about
/// the code. All of git and gh is here: a commit, push or diff is never a code error. `command`
/// is only reached as `command -v`/`-V` (otherwise it is a wrapper, see below); `env` alone ends
/// up here as an empty command once the wrapper is looked through.
const INSPECTION_PROGRAMS: &[&str] = &[
    "cat", "bat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack",
    "ls", "ll", "la", "tree", "find", "fd", "wc", "file", "stat", "du", "df", "echo", "printf",
    "pwd", "which", "type", "whereis", "whoami", "id", "uname", "hostname", "date", "printenv",
    "history", "man", "diff", "cmp", "sed", "awk", "gawk", "cut", "sort", "uniq", "tee", "tr",
    "column", "nl", "rev", "tac", "jq", "yq", "xxd", "hexdump", "od", "strings", "ps", "pgrep",
    "lsof", "top", "free", "test", "[", "[[", "basename", "dirname", "realpath", "readlink", "git",
    "gh", "command",
];

/// `(program, subcommand)` that only inspect: neutral, like `npm outdated`. `cargo tree -i x`
/// and `cargo pkgid x` fail when x is not in the graph; `pip show x` when x is not installed.
const QUERY_SUBCOMMANDS: &[(&str, &str)] = &[
    ("cargo", "tree"),
    ("cargo", "metadata"),
    ("cargo", "pkgid"),
    ("cargo", "search"),
    ("cargo", "info"),
    ("cargo", "locate-project"),
    ("cargo", "verify-project"),
    ("go", "list"),
    ("go", "env"),
    ("go", "doc"),
    ("go", "version"),
    ("go", "mod why"),
    ("go", "mod graph"),
    ("pip", "show"),
    ("pip", "list"),
    ("pip", "freeze"),
    ("pip", "index"),
    ("uv", "tree"),
    ("uv", "pip show"),
    ("uv", "pip list"),
    ("uv", "pip tree"),
    ("poetry", "show"),
];

/// A first argument with which a program only tells about itself: neutral (`cargo --version`).
const SELF_QUERY_OPTIONS: &[&str] = &["--version", "--help"];

/// Shell keywords that open a compound command: the command after them is what runs
/// (`if npm test; then …`).
const LEADING_KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "while", "until", "do", "!", "{",
];

/// Shell keywords that make a segment run nothing by itself (`fi`, `done`, `for f in *.ts`).
const STRUCTURAL_KEYWORDS: &[&str] = &[
    "fi", "done", "esac", "}", "for", "case", "select", "function", "in",
];

// ─── Wrappers ────────────────────────────────────────────────────────────────────────────────
// Transparent wrappers (`TRANSPARENT_WRAPPERS`) change how a program runs, never what it is:
// they are looked through and left out of `normalized` (`timeout 60 npm test` is `npm test`).
//
// Runners (npx, bunx, pnpx, uvx, `pnpm exec`, `pnpm dlx`, `yarn dlx`, `npm exec`, `uv run`,
// `poetry run`, `pipenv run`, `hatch run`, `pdm run`, `rye run`, `bundle exec`, `python -m`, c8,
// nyc, `bash -c`; see `PROGRAM_RULES`) locate another program: they are looked through for the
// category but kept in `normalized`, which stays a command one could run again. `xargs` is not
// looked through: it runs whatever its input says, so it is plain Runtime.

/// How the words between a transparent wrapper and the command it runs are read.
#[derive(Clone, Copy)]
enum WrapperWords {
    /// Options, the listed ones with a value (`env -u HOME npm test`).
    Options(&'static [&'static str]),
    /// Options, then one operand (`timeout -s KILL 60 npm test`).
    OptionsThenOperand(&'static [&'static str]),
    /// Everything through `--` when there is one (`dotenv -e .env -- npm test`), else options.
    ThroughSeparatorElseOptions(&'static [&'static str]),
    /// None: the command comes right after the wrapper.
    Nothing,
}

/// The transparent wrappers, with how their own words are read.
const TRANSPARENT_WRAPPERS: &[(&str, WrapperWords)] = &[
    (
        "env",
        WrapperWords::Options(&["-u", "--unset", "-C", "--chdir"]),
    ),
    (
        "time",
        WrapperWords::Options(&["-f", "--format", "-o", "--output"]),
    ),
    ("nice", WrapperWords::Options(&["-n", "--adjustment"])),
    (
        "timeout",
        WrapperWords::OptionsThenOperand(&["-s", "--signal", "-k", "--kill-after"]),
    ),
    (
        "sudo",
        WrapperWords::Options(&[
            "-u", "--user", "-g", "--group", "-C", "-D", "--chdir", "-h", "-p", "-U", "-r", "-t",
            "-T",
        ]),
    ),
    ("command", WrapperWords::Options(&[])),
    ("exec", WrapperWords::Options(&["-a"])),
    ("stdbuf", WrapperWords::Options(&["-i", "-o", "-e"])),
    ("nohup", WrapperWords::Nothing),
    ("cross-env", WrapperWords::Nothing),
    (
        "dotenv",
        WrapperWords::ThroughSeparatorElseOptions(&["-e", "-v", "-c", "-p"]),
    ),
];

/// `(wrapper, options)`: with one of these options first, the wrapper only looks a name up
/// and wraps nothing (`command -v tsc`, which is inspection).
const WRAPPER_LOOKUP_OPTIONS: &[(&str, &[&str])] = &[("command", &["-v", "-V"])];

/// Options of runners that take a value (`npx -p typescript tsc`, `uvx --from ruff ruff`).
pub(crate) const RUNNER_OPTIONS_WITH_VALUE: &[&str] = &[
    "-p",
    "--package",
    "--from",
    "--with",
    "--python",
    "-c",
    "--call",
    "-r",
    "--reporter",
];

/// Options of `uv run` that run a module (`uv run -m pytest`).
const UV_RUN_MODULE_OPTIONS: &[&str] = &["-m", "--module"];

/// Options of `uv run` that take a value.
pub(crate) const UV_RUN_OPTIONS_WITH_VALUE: &[&str] = &[
    "--with",
    "--with-requirements",
    "--with-editable",
    "--python",
    "-p",
    "--project",
    "--directory",
    "--package",
    "--extra",
    "--group",
    "--only-group",
    "--no-group",
    "--env-file",
    "--index",
    "--default-index",
];

/// Options that take a value, skipped when looking for a subcommand or script name
/// (`pnpm --filter web test`, `npm --prefix web run build`, `cargo --manifest-path x test`).
const OPTIONS_WITH_VALUE: &[&str] = &[
    "-C",
    "--dir",
    "--prefix",
    "--cwd",
    "--filter",
    "-F",
    "-w",
    "--workspace",
    "--manifest-path",
    "--config",
    "-Z",
    "-f",
    "--file",
    "--project",
];

/// Options of make/ninja that take a value (so `make -C web test` finds the target `test`).
const MAKE_OPTIONS_WITH_VALUE: &[&str] = &[
    "-C",
    "--directory",
    "-f",
    "--file",
    "--makefile",
    "-o",
    "-W",
    "-I",
    "--include-dir",
];

// ─── Package managers ────────────────────────────────────────────────────────────────────────
// `npm test`, `npm t`, `pnpm test`, `yarn test`, `bun test` are tests; `npm start` is Runtime;
// `npm run X`, `pnpm run X`, `yarn run X`, `bun run X` run the script X, and so do the shorthands
// `pnpm X`, `yarn X`, `bun X` when X is not one of their own verbs below.

/// Verbs of npm/pnpm/yarn/bun that run the tests.
const PACKAGE_MANAGER_TEST_VERBS: &[&str] = &["test", "t", "tst"];

/// Verbs that run the script named next (`npm run lint`), npm's aliases included.
const PACKAGE_MANAGER_RUN_VERBS: &[&str] = &["run", "run-script", "rum", "urn"];

/// Verbs that run a package's program, looked through like a runner (`pnpm exec tsc`).
const PACKAGE_MANAGER_EXEC_VERBS: &[&str] = &["exec", "x", "dlx"];

/// The verb that runs the rest of the command in one package (`yarn workspace web test`).
const PACKAGE_MANAGER_WORKSPACE_VERB: &str = "workspace";

/// `(manager, verb, category)`: a verb of one manager only (`bun build` is bun's bundler).
const PACKAGE_MANAGER_OWN_VERBS: &[(&str, &str, Category)] = &[("bun", "build", Build)];

/// Managers that install when run with no verb (bare `yarn`); the others print their help.
const PACKAGE_MANAGERS_INSTALLING_BARE: &[&str] = &["yarn"];

/// Managers without the shorthand: `npm X` with a verb that is none of npm's is Runtime, and
/// `npm run X` always runs the script X, even when X names a program.
const PACKAGE_MANAGERS_WITHOUT_SHORTHAND: &[&str] = &["npm"];

/// Verbs of npm/pnpm/yarn/bun that are the tool's own, not a script: plain Runtime.
pub(crate) const PACKAGE_MANAGER_VERBS: &[&str] = &[
    "install",
    "i",
    "add",
    "remove",
    "rm",
    "uninstall",
    "un",
    "update",
    "up",
    "upgrade",
    "ci",
    "create",
    "init",
    "publish",
    "pack",
    "link",
    "unlink",
    "rebuild",
    "prune",
    "dedupe",
    "import",
    "patch",
    "patch-commit",
    "config",
    "cache",
    "store",
    "setup",
    "env",
    "login",
    "logout",
    "fetch",
    "deploy",
    "approve-builds",
    "self-update",
    "set",
    "plugin",
    "pm",
    "repl",
    "version",
    "start",
    "restart",
    "stop",
];

/// Verbs of npm/pnpm/yarn/bun that only inspect: neutral. (`npm audit` and `npm outdated` exit
/// non-zero on findings that are not code errors.)
const PACKAGE_MANAGER_QUERIES: &[&str] = &[
    "ls", "list", "ll", "la", "why", "explain", "outdated", "audit", "view", "info", "show",
    "search", "help", "root", "bin", "prefix", "doctor", "licenses", "whoami",
];

// ─── Script and target names ─────────────────────────────────────────────────────────────────
// Package scripts, make/just/task/rake/turbo/nx targets and tox/nox environments are classified
// by the words of their name (split on `:`, `-`, `_`). The first word found in one of these
// tables wins, so `build:types` is Build and `test:types` is Test. Formatter scripts
// (`format`, `format:check`, `fmt`) count as lint.

const TYPECHECK_SCRIPT_WORDS: &[&str] = &[
    "typecheck",
    "type",
    "types",
    "typings",
    "tsc",
    "mypy",
    "pyright",
];
const TEST_SCRIPT_WORDS: &[&str] = &[
    "test",
    "tests",
    "spec",
    "specs",
    "e2e",
    "unit",
    "integration",
    "vitest",
    "jest",
    "mocha",
    "coverage",
    "cov",
    "playwright",
    "cypress",
    "pytest",
];
const LINT_SCRIPT_WORDS: &[&str] = &[
    "lint",
    "linter",
    "eslint",
    "stylelint",
    "oxlint",
    "biome",
    "format",
    "fmt",
    "prettier",
    "ruff",
    "clippy",
];
const BUILD_SCRIPT_WORDS: &[&str] = &["build", "compile", "bundle", "dist", "package"];

const SCRIPT_WORDS: &[(Category, &[&str])] = &[
    (Typecheck, TYPECHECK_SCRIPT_WORDS),
    (Test, TEST_SCRIPT_WORDS),
    (Lint, LINT_SCRIPT_WORDS),
    (Build, BUILD_SCRIPT_WORDS),
];

/// Words that decide only when no word above does: `check` is most often svelte-check/tsc
/// (`check-format` stays lint, `check-types` typecheck); `verify`/`validate`/`ci` run the suite.
/// For make, any of these is Test (GNU `make check` runs the test suite).
const WEAK_SCRIPT_WORDS: &[(&str, Category)] = &[
    ("check", Typecheck),
    ("verify", Test),
    ("validate", Test),
    ("ci", Test),
];

// ─── Programs with a rule of their own ───────────────────────────────────────────────────────
// A program named in `PROGRAM_RULES` is classified by its rule, which reads the program's
// arguments with the tables that follow; any other program goes by the tables of the next
// section. (Neutral commands are recognised before either.)

/// How a program of `PROGRAM_RULES` is classified.
#[derive(Clone, Copy)]
enum ProgramRule {
    /// The package-manager tables above.
    PackageManager,
    /// The program after the runner's options (`RUNNER_OPTIONS_WITH_VALUE`): `npx tsc`.
    Runner,
    /// This subcommand runs the program after its options (`UV_RUN_*`): `uv run pytest`; the
    /// others are Runtime.
    UvRun(&'static str),
    /// One of these subcommands runs the rest as a command (`poetry run pytest`, `bundle exec
    /// rspec`); the others are Runtime.
    CommandAfter(&'static [&'static str]),
    /// This subcommand runs a program or a script of the project (`hatch run test`, scripts
    /// from pyproject.toml); the others are Runtime.
    ScriptAfter(&'static str),
    /// This subcommand runs tasks, like a task runner (`deno task check`); the others go by
    /// the tables of the next section.
    TasksAfter(&'static str),
    /// `bash -c '…'`: the script's segments decide; `bash script.sh` is Runtime.
    Shell,
    /// make and ninja: targets named like scripts, `check`-like targets test, others build.
    Make,
    /// Task runners: any word that is not an option may name the task.
    TaskRunner,
    /// `MAVEN_*`: goals and phases.
    Maven,
    /// `GRADLE_*`: task names.
    Gradle,
    /// `TOX_*`: the environments named, else the tests.
    ToxOrNox,
    /// `PYTHON_*`: `-m module`, Django's `manage.py test`, else Runtime.
    Python,
    /// `RUBY_*`: a test file, else the flag rules.
    Ruby,
    /// `JAVA_*`, `JUNIT_*`: the JUnit console launcher, else Runtime.
    Java,
}

/// Subcommands through which poetry, pipenv and bundle run a command.
const RUN_SUBCOMMANDS: &[&str] = &["run", "exec"];

/// Programs classified by a rule of their own.
const PROGRAM_RULES: &[(&[&str], ProgramRule)] = &[
    (&["npm", "pnpm", "yarn", "bun"], ProgramRule::PackageManager),
    (
        &["npx", "pnpx", "bunx", "uvx", "c8", "nyc"],
        ProgramRule::Runner,
    ),
    (&["uv"], ProgramRule::UvRun("run")),
    (
        &["poetry", "pipenv", "bundle"],
        ProgramRule::CommandAfter(RUN_SUBCOMMANDS),
    ),
    (&["hatch", "pdm", "rye"], ProgramRule::ScriptAfter("run")),
    (&["python"], ProgramRule::Python),
    (&["bash", "sh", "zsh", "dash"], ProgramRule::Shell),
    (&["make", "gmake", "ninja"], ProgramRule::Make),
    (&["deno"], ProgramRule::TasksAfter("task")),
    (
        &[
            "just", "task", "rake", "turbo", "nx", "lerna", "mise", "composer",
        ],
        ProgramRule::TaskRunner,
    ),
    (&["mvn", "mvnw"], ProgramRule::Maven),
    (&["gradle", "gradlew"], ProgramRule::Gradle),
    (&["tox", "nox"], ProgramRule::ToxOrNox),
    (&["ruby"], ProgramRule::Ruby),
    (&["java"], ProgramRule::Java),
];

/// Options of Maven that take a value (`mvn -pl core test`).
const MAVEN_OPTIONS_WITH_VALUE: &[&str] = &["-pl", "--projects", "-P", "-f", "--file", "-T", "-s"];

/// Maven plugins that lint, named as a goal's prefix (`mvn checkstyle:check`).
const MAVEN_LINT_PLUGINS: &[&str] = &["checkstyle", "spotless", "pmd", "spotbugs"];

/// Maven phases that decide: `test`/`verify` run the tests, other lifecycle phases build. The
/// first goal that decides wins; a run in which none does (`mvn clean`, `mvn site`) builds.
const MAVEN_PHASES: &[(&str, Category)] = &[
    ("test", Test),
    ("verify", Test),
    ("integration-test", Test),
    ("compile", Build),
    ("test-compile", Build),
    ("package", Build),
    ("install", Build),
    ("deploy", Build),
];

/// Options of Gradle that take a value (`gradle -x test build` does not test).
const GRADLE_OPTIONS_WITH_VALUE: &[&str] = &["-p", "--project-dir", "-x", "--exclude-task"];

/// How a row of `GRADLE_TASKS` matches a task's name.
#[derive(Clone, Copy)]
enum NameMatch {
    /// The name holds the word (`integrationTest`, `ktlintCheck`).
    Contains,
    /// The name is the word.
    Whole,
}

/// Gradle tasks by name (after the last `:`, lowercased): the first row that matches decides,
/// and the first task that decides wins. A run in which none does (`build`, `assemble`, bare
/// `gradle`) builds.
const GRADLE_TASKS: &[(NameMatch, &str, Category)] = &[
    (NameMatch::Contains, "test", Test),
    (NameMatch::Whole, "check", Test),
    (NameMatch::Contains, "lint", Lint),
    (NameMatch::Contains, "detekt", Lint),
    (NameMatch::Contains, "ktlint", Lint),
    (NameMatch::Contains, "spotless", Lint),
    (NameMatch::Contains, "checkstyle", Lint),
    (NameMatch::Whole, "run", Runtime),
    (NameMatch::Whole, "bootrun", Runtime),
];

/// Options of tox and nox that name the environments (sessions) to run, comma-separated:
/// classified by the script words (`tox -e lint`, `nox -s typecheck`). With none that
/// decides, tox and nox run the tests.
const TOX_ENVIRONMENT_OPTIONS: &[&str] = &["-e", "--env", "-s", "--session", "--sessions"];

/// `python -m module`: the module is the program (`python -m pytest` is pytest).
const PYTHON_MODULE_OPTION: &str = "-m";
/// `python -c code`: code run inline, Runtime.
const PYTHON_CODE_OPTION: &str = "-c";
/// Options of python that take a value in the next word.
const PYTHON_OPTIONS_WITH_VALUE: &[&str] = &["-X", "-W"];
/// `(script, subcommand)` that run the tests: Django's `python manage.py test`. Any other
/// script is Runtime.
const PYTHON_TEST_SCRIPTS: &[(&str, &str)] = &[("manage.py", "test")];

/// Test files by name: `ruby test/calc_test.rb` runs minitest, `ruby spec/x_spec.rb` RSpec.
const RUBY_TEST_FILE_SUFFIXES: &[&str] = &["_test.rb", "_spec.rb"];
const RUBY_TEST_DIRECTORIES: &[&str] = &["test/", "spec/", "./test/", "./spec/"];
/// `ruby -e code`: no script file follows.
const RUBY_CODE_OPTION: &str = "-e";
/// Options of `ruby` that take a value in the next word.
const RUBY_OPTIONS_WITH_VALUE: &[&str] = &["-I", "-r", "-C", "-E", "--encoding"];

/// `java -jar file.jar`: the jar is the program.
const JAVA_JAR_OPTION: &str = "-jar";
/// The JUnit console launcher, by its jar's name (`java -jar junit-platform-console-standalone.jar`)
/// or its main class: it runs tests. Any other class or jar is Runtime.
const JUNIT_CONSOLE_JAR: &str = "junit-platform-console";
const JUNIT_CONSOLE_CLASS: &str = "org.junit.platform.console.ConsoleLauncher";

// ─── Programs ────────────────────────────────────────────────────────────────────────────────
// Every program without a rule of its own is looked up in this order: FLAG_RULES,
// SUBCOMMAND_RULES, then PROGRAMS; anything else is Runtime (`node x.js`, `./script.sh`,
// `curl …`).

/// Programs known by a name with a version glued on: `python3.12` is `python`, `pip3` `pip`.
const VERSIONED_PROGRAMS: &[&str] = &["python", "pip"];

/// `(program, subcommand or "", flag, category)`: a flag decides (formatters check only with
/// it; without it they rewrite files and are Runtime). `--flag=value` matches too.
const FLAG_RULES: &[(&str, &str, &str, Category)] = &[
    ("prettier", "", "--check", Lint),
    ("prettier", "", "-c", Lint),
    ("prettier", "", "--list-different", Lint),
    ("prettier", "", "-l", Lint),
    ("black", "", "--check", Lint),
    ("black", "", "--diff", Lint),
    ("isort", "", "--check", Lint),
    ("isort", "", "--check-only", Lint),
    ("isort", "", "-c", Lint),
    ("isort", "", "--diff", Lint),
    ("ruff", "format", "--check", Lint),
    ("ruff", "format", "--diff", Lint),
    ("cargo", "fmt", "--check", Lint),
    ("deno", "fmt", "--check", Lint),
    ("dotnet", "format", "--verify-no-changes", Lint),
    ("mix", "format", "--check-formatted", Lint),
    ("node", "", "--test", Test),
    ("ruby", "", "-c", Lint),
    ("php", "", "-l", Lint),
    ("php", "", "--syntax-check", Lint),
    ("valgrind", "", "--error-exitcode", Test),
    ("gofmt", "", "-l", Lint),
    ("gofmt", "", "-d", Lint),
];

/// `(program, subcommand, category)`: the first one or two non-option words decide. A program
/// listed here with no matching row is Runtime (`cargo run`, `go run`, `docker ps`).
const SUBCOMMAND_RULES: &[(&str, &str, Category)] = &[
    ("cargo", "check", Typecheck),
    ("cargo", "test", Test),
    ("cargo", "t", Test),
    ("cargo", "nextest", Test),
    ("cargo", "bench", Test),
    ("cargo", "clippy", Lint),
    ("cargo", "deny", Lint),
    ("cargo", "build", Build),
    ("cargo", "b", Build),
    ("cargo", "rustc", Build),
    ("cargo", "doc", Build),
    ("cargo", "install", Build),
    ("go", "test", Test),
    ("go", "vet", Lint),
    ("go", "build", Build),
    ("go", "install", Build),
    ("go", "mod tidy", Build),
    ("go", "mod download", Build),
    ("dotnet", "test", Test),
    ("dotnet", "build", Build),
    ("dotnet", "publish", Build),
    ("dotnet", "pack", Build),
    ("swift", "test", Test),
    ("swift", "build", Build),
    ("mix", "test", Test),
    ("mix", "credo", Lint),
    ("mix", "dialyzer", Typecheck),
    ("mix", "compile", Build),
    ("deno", "check", Typecheck),
    ("deno", "test", Test),
    ("deno", "lint", Lint),
    ("deno", "compile", Build),
    ("playwright", "test", Test),
    ("cypress", "run", Test),
    ("bazel", "test", Test),
    ("bazel", "coverage", Test),
    ("bazel", "build", Build),
    ("bazelisk", "test", Test),
    ("bazelisk", "build", Build),
    ("meson", "test", Test),
    ("meson", "compile", Build),
    ("meson", "setup", Build),
    ("zig", "test", Test),
    ("zig", "build test", Test),
    ("zig", "build", Build),
    ("xcodebuild", "test", Test),
    ("rails", "test", Test),
    ("php", "artisan test", Test),
    ("php", "vendor/bin/phpunit", Test),
    ("php", "bin/phpunit", Test),
    ("php", "vendor/bin/pest", Test),
    ("srb", "tc", Typecheck),
    ("biome", "check", Lint),
    ("biome", "lint", Lint),
    ("biome", "ci", Lint),
    ("biome", "format", Lint),
    ("ruff", "check", Lint),
    ("pre-commit", "run", Lint),
    ("astro", "check", Typecheck),
    ("astro", "build", Build),
    ("nuxt", "typecheck", Typecheck),
    ("nuxt", "build", Build),
    ("nuxi", "typecheck", Typecheck),
    ("nuxi", "build", Build),
    ("next", "lint", Lint),
    ("next", "build", Build),
    ("ng", "test", Test),
    ("ng", "e2e", Test),
    ("ng", "lint", Lint),
    ("ng", "build", Build),
    ("vite", "build", Build),
    ("parcel", "build", Build),
    ("gatsby", "build", Build),
    ("docker", "build", Build),
    ("docker", "buildx build", Build),
    ("docker", "compose build", Build),
];

/// Programs whose category does not depend on their arguments. `tsc` is always Typecheck, even
/// `tsc -b`: its errors are type errors. `unittest` is only reached through `python -m`.
const TYPECHECK_PROGRAMS: &[&str] = &[
    "tsc",
    "tsgo",
    "vue-tsc",
    "svelte-check",
    "mypy",
    "dmypy",
    "pyright",
    "basedpyright",
    "pytype",
    "pyre",
    "flow",
    "phpstan",
    "psalm",
];
const TEST_PROGRAMS: &[&str] = &[
    "jest", "vitest", "mocha", "ava", "tap", "tape", "jasmine", "karma", "pytest", "py.test",
    "unittest", "nose2", "rspec", "phpunit", "pest", "ctest", "bats",
];
const LINT_PROGRAMS: &[&str] = &[
    "eslint",
    "oxlint",
    "tslint",
    "standard",
    "xo",
    "stylelint",
    "flake8",
    "pylint",
    "pycodestyle",
    "pydocstyle",
    "bandit",
    "shellcheck",
    "hadolint",
    "markdownlint",
    "markdownlint-cli2",
    "yamllint",
    "actionlint",
    "golangci-lint",
    "staticcheck",
    "revive",
    "ktlint",
    "detekt",
    "swiftlint",
    "rubocop",
    "standardrb",
    "phpcs",
];
const BUILD_PROGRAMS: &[&str] = &[
    "cmake",
    "webpack",
    "rollup",
    "esbuild",
    "tsup",
    "unbuild",
    "babel",
    "gcc",
    "g++",
    "clang",
    "clang++",
    "cc",
    "c++",
    "rustc",
    "javac",
    "kotlinc",
    "scalac",
    "swiftc",
    "ghc",
    "nvcc",
    "scons",
    "msbuild",
    "xcodebuild",
];

const PROGRAMS: &[(Category, &[&str])] = &[
    (Typecheck, TYPECHECK_PROGRAMS),
    (Test, TEST_PROGRAMS),
    (Lint, LINT_PROGRAMS),
    (Build, BUILD_PROGRAMS),
];

// ─── Failure evidence ────────────────────────────────────────────────────────────────────────
// When a chain mixes categories (`npm run build && npm test`), the error lines tell which one
// failed. A TypeScript code (`TS2345`) points to Typecheck; then these markers are tried in
// order: test, lint, build.

/// Markers of a failing test, at the start of a line.
const TEST_LINE_STARTS: &[&str] = &[
    "not ok ", "FAIL ", "FAIL:", "FAILED ", "--- FAIL", "● ", "(fail) ",
];
/// Markers of a failing test, anywhere in a line.
const TEST_MARKERS: &[&str] = &[
    "test result: FAILED",
    "AssertionError",
    "AssertionFailedError",
    "failures:",
    "FAILED tests/",
    "... FAILED",
    "***Failed",
    "***Exception",
    "tests failed out of",
    "The following tests FAILED",
    "Errors while running CTest",
    "Failure/Error:",
    "Failed asserting that",
    "<<< FAILURE!",
    "JUnit Jupiter:",
    " --- FAILED",
    "error: test failed",
];
/// Markers of a lint finding, anywhere in a line; see also `LINT_LINE`.
const LINT_MARKERS: &[&str] = &["clippy::", "eslint", ": C: ", ": W: ", "Errors parsing "];
/// Markers of a failed build, anywhere in a line.
const BUILD_MARKERS: &[&str] = &[
    "error[E0",
    "make: ***",
    "]: ***",
    "Build failed",
    "BUILD FAILED",
    "BUILD FAILURE",
    "error: could not compile",
    "undefined reference to",
    "linker command failed",
    "collect2: error",
    "ERROR in ",
    "ninja: build stopped",
    "CMake Error",
    "COMPILATION ERROR",
    "Compilation failed",
    "compilation terminated",
    "ld: cannot find",
];

/// Markers of a program that crashed or was stopped by a check of its own (sanitizers,
/// `assert`, an uncaught exception), anywhere in a line.
const RUNTIME_MARKERS: &[&str] = &[
    "Segmentation fault",
    "Aborted",
    "core dumped",
    "terminate called after throwing",
    "Sanitizer:",
    ": runtime error: ",
    ": Assertion `",
    "Exception in thread",
    "PHP Fatal error:",
];

/// Markers of an install that could not resolve a requirement (pip, uv), anywhere in a line:
/// the installer's step failed, which is Runtime (`pip install -r req.txt && pytest`).
const INSTALL_MARKERS: &[&str] = &[
    "No matching distribution found",
    "Could not find a version that satisfies",
    "No solution found when resolving",
    "requirements are unsatisfiable",
];

/// ESLint/stylelint rows (`3:7 error message rule-name`) and Python linter codes, after a
/// location (`a.py:1:8: F401 …`) or leading the line (ruff's `F401 [*] …`).
static LINT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9]+:[0-9]+\s+error\s|(?:^|:[0-9]+:[0-9]+:\s+)[A-Z]{1,3}[0-9]{3,4}(?:\s|:|$)")
        .expect("valid lint-line pattern")
});

// ─── Public API ──────────────────────────────────────────────────────────────────────────────

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandAnalysis {
    /// Canonical text of the command used to tell "the same command" again: the effective
    /// segments with env assignments, redirections (`2>&1`, `>/dev/null`, `> out.log`, `&>x`)
    /// and transparent wrappers removed, words (as written, quotes included) separated by one
    /// space, segments joined by " ; ". `touch fixed && npm run typecheck` → "npm run
    /// typecheck"; `CI=1  npm test 2>&1` → "npm test"; `cd web && pnpm lint` → "pnpm lint".
    /// Empty when no segment is effective.
    pub normalized: String,
    /// One entry per effective segment, in order: its category.
    pub segments: Vec<Category>,
    /// False when the exit status may not tell about an effective command: its pipeline ends in
    /// a filter (`npm test | tail`) and no `set -o pipefail` ran earlier, or its failure would
    /// be replaced by a later command's status (`npm test; echo done`, `npm test || true`,
    /// `npm run lint; npm test`) and no `set -e` stops the shell first.
    pub status_reliable: bool,
}

pub fn analyze(command: &str) -> CommandAnalysis {
    let pipelines = split_pipelines(split_segments(tokenize(command)));
    let mut shell = ShellOptions::default();
    let mut normalized = Vec::new();
    let mut segments = Vec::new();
    let mut status_reliable = true;
    for (index, pipeline) in pipelines.iter().enumerate() {
        // Later stages of a pipeline only filter the first one's output.
        let stage = &pipeline.stages[0];
        let texts: Vec<&str> = stage.iter().map(|word| word.text.as_str()).collect();
        let start = prefix_length(&texts);
        match classify_words(&texts[start..]) {
            Some(category) => {
                segments.push(category);
                let raw: Vec<&str> = stage[start..].iter().map(|w| w.raw.as_str()).collect();
                normalized.push(raw.join(" "));
                let status_hidden_by_filter = pipeline.stages.len() > 1 && !shell.pipefail;
                if status_hidden_by_filter
                    || !failure_reaches_exit(&pipelines, index, shell.errexit)
                {
                    status_reliable = false;
                }
            }
            None => {
                if let Some(("set", options)) = texts[start..].split_first().map(|(p, a)| (*p, a)) {
                    shell.apply_set(options);
                }
            }
        }
    }
    CommandAnalysis {
        normalized: normalized.join(" ; "),
        segments,
        status_reliable,
    }
}

/// The category of a failed run: when the effective segments have one category, that one; when
/// several, the one the error lines point to (the last line with evidence wins: the exit status
/// comes from the last command that ran, whose output comes last), else the first validation
/// segment, else the first segment. None when there is no effective segment.
pub fn failure_category(analysis: &CommandAnalysis, error_lines: &[String]) -> Option<Category> {
    let first = *analysis.segments.first()?;
    if analysis.segments.iter().all(|&category| category == first) {
        // A build that runs the tests (`gradle build`, `make`) fails as a test when they fail.
        let tests_failed = first == Build
            && error_lines
                .iter()
                .rev()
                .find_map(|line| evidence_category(line.trim()))
                == Some(Test);
        return Some(if tests_failed { Test } else { first });
    }
    error_lines
        .iter()
        .rev()
        .filter_map(|line| evidence_category(line.trim()))
        .find(|category| analysis.segments.contains(category))
        .or_else(|| {
            analysis
                .segments
                .iter()
                .copied()
                .find(|c| c.is_validation())
        })
        .or(Some(first))
}

/// True when the line carries a TypeScript diagnostic code (`error TS2345`, `TS2322:`).
pub(crate) fn mentions_typescript_error(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.windows(6).enumerate().any(|(i, window)| {
        window.starts_with(b"TS")
            && window[2..].iter().all(u8::is_ascii_digit)
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes.get(i + 6).is_none_or(|b| !b.is_ascii_alphanumeric())
    })
}

fn evidence_category(line: &str) -> Option<Category> {
    if mentions_typescript_error(line) {
        Some(Typecheck)
    } else if TEST_LINE_STARTS
        .iter()
        .any(|marker| line.starts_with(marker))
        || TEST_MARKERS.iter().any(|marker| line.contains(marker))
    {
        Some(Test)
    } else if LINT_MARKERS.iter().any(|marker| line.contains(marker)) || LINT_LINE.is_match(line) {
        Some(Lint)
    } else if BUILD_MARKERS.iter().any(|marker| line.contains(marker)) {
        Some(Build)
    } else if RUNTIME_MARKERS
        .iter()
        .chain(INSTALL_MARKERS)
        .any(|marker| line.contains(marker))
    {
        Some(Runtime)
    } else {
        None
    }
}

// ─── Classification ──────────────────────────────────────────────────────────────────────────

/// The category of a command given as words (env assignments and wrappers included).
/// None: neutral, or nothing left to run.
fn classify_words(words: &[&str]) -> Option<Category> {
    let words = &words[prefix_length(words)..];
    let (program, args) = words.split_first()?;
    classify_program(program, args)
}

fn classify_program(word: &str, args: &[&str]) -> Option<Category> {
    let neutral = [SETUP_PROGRAMS, INSPECTION_PROGRAMS, STRUCTURAL_KEYWORDS];
    if neutral.iter().any(|table| table.contains(&word))
        || args
            .first()
            .is_some_and(|arg| SELF_QUERY_OPTIONS.contains(arg))
    {
        return None;
    }
    let program = program_name(word);
    if is_query(program, args) {
        return None;
    }
    let rule = PROGRAM_RULES
        .iter()
        .find(|(programs, _)| programs.contains(&program));
    match rule {
        Some((_, rule)) => by_rule(*rule, program, args),
        None => Some(by_tables(program, args)),
    }
}

/// A program of `PROGRAM_RULES`, classified by its rule.
fn by_rule(rule: ProgramRule, program: &str, args: &[&str]) -> Option<Category> {
    let subcommand = args.split_first();
    match rule {
        ProgramRule::PackageManager => package_manager(program, args),
        ProgramRule::Runner => {
            classify_words(&args[options_length(args, RUNNER_OPTIONS_WITH_VALUE)..])
        }
        ProgramRule::UvRun(run) => match subcommand {
            Some((verb, rest)) if *verb == run => uv_run(rest),
            _ => Some(Runtime),
        },
        ProgramRule::CommandAfter(runs) => match subcommand {
            Some((verb, inner)) if runs.contains(verb) => classify_words(inner),
            _ => Some(Runtime),
        },
        ProgramRule::ScriptAfter(run) => match subcommand {
            Some((verb, [name, rest @ ..])) if *verb == run => program_or_script(name, rest),
            _ => Some(Runtime),
        },
        ProgramRule::TasksAfter(task) => match subcommand {
            Some((verb, rest)) if *verb == task => Some(task_targets(rest)),
            _ => Some(by_tables(program, args)),
        },
        ProgramRule::Shell => shell_script(args),
        ProgramRule::Make => Some(make_targets(args)),
        ProgramRule::TaskRunner => Some(task_targets(args)),
        ProgramRule::Maven => Some(maven_goals(args)),
        ProgramRule::Gradle => Some(gradle_tasks(args)),
        ProgramRule::ToxOrNox => Some(tox_or_nox(args)),
        ProgramRule::Python => python(args),
        ProgramRule::Ruby => Some(ruby(program, args)),
        ProgramRule::Java => Some(java(args)),
    }
}

/// One of `QUERY_SUBCOMMANDS`: its first non-option words name the query.
fn is_query(program: &str, args: &[&str]) -> bool {
    let subcommand = positionals(args, OPTIONS_WITH_VALUE);
    QUERY_SUBCOMMANDS.iter().any(|(name, query)| {
        *name == program
            && query
                .split(' ')
                .enumerate()
                .all(|(index, word)| subcommand.get(index) == Some(&word))
    })
}

/// npm, pnpm, yarn and bun (see the package-manager tables above).
fn package_manager(manager: &str, args: &[&str]) -> Option<Category> {
    let args = &args[options_length(args, OPTIONS_WITH_VALUE)..];
    let Some((&verb, rest)) = args.split_first() else {
        return PACKAGE_MANAGERS_INSTALLING_BARE
            .contains(&manager)
            .then_some(Runtime);
    };
    let without_shorthand = PACKAGE_MANAGERS_WITHOUT_SHORTHAND.contains(&manager);
    let own_verb = PACKAGE_MANAGER_OWN_VERBS
        .iter()
        .find(|(name, own, _)| *name == manager && *own == verb);
    if PACKAGE_MANAGER_TEST_VERBS.contains(&verb) {
        Some(Test)
    } else if PACKAGE_MANAGER_RUN_VERBS.contains(&verb) {
        let rest = &rest[options_length(rest, OPTIONS_WITH_VALUE)..];
        // `npm run` alone lists the scripts.
        let (name, script_args) = rest.split_first()?;
        if without_shorthand {
            Some(script_category(name))
        } else {
            program_or_script(name, script_args)
        }
    } else if PACKAGE_MANAGER_EXEC_VERBS.contains(&verb) {
        classify_words(&rest[options_length(rest, RUNNER_OPTIONS_WITH_VALUE)..])
    } else if verb == PACKAGE_MANAGER_WORKSPACE_VERB {
        rest.split_first()
            .and_then(|(_, rest)| package_manager(manager, rest))
    } else if let Some((_, _, category)) = own_verb {
        Some(*category)
    } else if PACKAGE_MANAGER_QUERIES.contains(&verb) {
        None
    } else if PACKAGE_MANAGER_VERBS.contains(&verb) || without_shorthand {
        Some(Runtime)
    } else {
        program_or_script(verb, rest)
    }
}

/// A name that may be a program (`pnpm vitest`) or a script (`pnpm lint`, `hatch run test`): a
/// known validation program wins, else the words of the name decide.
fn program_or_script(name: &str, args: &[&str]) -> Option<Category> {
    match classify_program(name, args) {
        Some(category) if category.is_validation() => Some(category),
        _ => Some(script_category(name)),
    }
}

fn script_category(name: &str) -> Category {
    strong_script_category(name)
        .or_else(|| weak_script_category(name))
        .unwrap_or(Runtime)
}

fn strong_script_category(name: &str) -> Option<Category> {
    let name = name.to_ascii_lowercase();
    name.split([':', '-', '_']).find_map(|word| {
        SCRIPT_WORDS
            .iter()
            .find(|(_, words)| words.contains(&word))
            .map(|(category, _)| *category)
    })
}

fn weak_script_category(name: &str) -> Option<Category> {
    let name = name.to_ascii_lowercase();
    name.split([':', '-', '_']).find_map(|word| {
        WEAK_SCRIPT_WORDS
            .iter()
            .find(|(weak, _)| *weak == word)
            .map(|(_, category)| *category)
    })
}

/// make and ninja: targets are named like scripts; `check`-like targets run the test suite;
/// any other target, and bare `make`, builds.
fn make_targets(args: &[&str]) -> Category {
    let targets: Vec<&str> = positionals(args, MAKE_OPTIONS_WITH_VALUE)
        .into_iter()
        .filter(|target| !target.contains('='))
        .collect();
    targets
        .iter()
        .find_map(|target| strong_script_category(target))
        .or_else(|| {
            let weak = targets.iter().any(|t| weak_script_category(t).is_some());
            weak.then_some(Test)
        })
        .unwrap_or(Build)
}

/// just, task, rake, turbo, nx, lerna, mise, composer, `deno task`: any word that is not an
/// option may name the task (`nx run web:test`, `nx run-many -t lint`, `turbo run build`).
fn task_targets(args: &[&str]) -> Category {
    let names = || args.iter().filter(|arg| !arg.starts_with('-'));
    names()
        .find_map(|name| strong_script_category(name))
        .or_else(|| names().find_map(|name| weak_script_category(name)))
        .unwrap_or(Runtime)
}

/// tox and nox run test environments; a named one (`tox -e lint`, `nox -s typecheck`) is
/// classified by its words.
fn tox_or_nox(args: &[&str]) -> Category {
    args.windows(2)
        .filter(|pair| TOX_ENVIRONMENT_OPTIONS.contains(&pair[0]))
        .flat_map(|pair| pair[1].split(','))
        .find_map(strong_script_category)
        .unwrap_or(Test)
}

/// Maven: a lint plugin's goal lints, else the goal's phase decides (`MAVEN_PHASES`).
fn maven_goals(args: &[&str]) -> Category {
    positionals(args, MAVEN_OPTIONS_WITH_VALUE)
        .iter()
        .find_map(|goal| {
            let (plugin, phase) = goal.split_once(':').unwrap_or(("", goal));
            if MAVEN_LINT_PLUGINS.contains(&plugin) {
                return Some(Lint);
            }
            MAVEN_PHASES
                .iter()
                .find(|(name, _)| *name == phase)
                .map(|(_, category)| *category)
        })
        .unwrap_or(Build)
}

/// Gradle: the first task that `GRADLE_TASKS` names decides.
fn gradle_tasks(args: &[&str]) -> Category {
    positionals(args, GRADLE_OPTIONS_WITH_VALUE)
        .iter()
        .find_map(|task| {
            let task = task.rsplit(':').next().unwrap_or(task).to_ascii_lowercase();
            GRADLE_TASKS
                .iter()
                .find(|(matching, word, _)| match matching {
                    NameMatch::Contains => task.contains(word),
                    NameMatch::Whole => task == *word,
                })
                .map(|(_, _, category)| *category)
        })
        .unwrap_or(Build)
}

/// `ruby test/calc_test.rb` runs tests; `ruby -c` checks syntax; other scripts run.
fn ruby(program: &str, args: &[&str]) -> Category {
    let mut index = 0;
    while let Some(&arg) = args.get(index) {
        match arg {
            _ if arg == RUBY_CODE_OPTION => break,
            _ if RUBY_OPTIONS_WITH_VALUE.contains(&arg) => index += 2,
            _ if arg.starts_with('-') => index += 1,
            script => {
                let test_file = RUBY_TEST_FILE_SUFFIXES.iter().any(|s| script.ends_with(s))
                    || RUBY_TEST_DIRECTORIES.iter().any(|d| script.starts_with(d));
                if test_file {
                    return Test;
                }
                break;
            }
        }
    }
    by_tables(program, args)
}

/// `java -jar junit-platform-console-standalone.jar …` runs tests; any other class or jar runs.
fn java(args: &[&str]) -> Category {
    let launcher = args.windows(2).any(|pair| {
        pair[0] == JAVA_JAR_OPTION && program_name(pair[1]).contains(JUNIT_CONSOLE_JAR)
    }) || args.contains(&JUNIT_CONSOLE_CLASS);
    if launcher {
        Test
    } else {
        Runtime
    }
}

/// `uv run [options] cmd`, `uv run -m module`.
fn uv_run(args: &[&str]) -> Option<Category> {
    let mut index = 0;
    while let Some(&arg) = args.get(index) {
        match arg {
            _ if UV_RUN_MODULE_OPTIONS.contains(&arg) => return classify_words(&args[index + 1..]),
            "--" => return classify_words(&args[index + 1..]),
            _ if UV_RUN_OPTIONS_WITH_VALUE.contains(&arg) => index += 2,
            _ if arg.starts_with('-') => index += 1,
            _ => break,
        }
    }
    classify_words(args.get(index..).unwrap_or_default())
}

/// `python -m pytest` is pytest; `python manage.py test` is Django's test runner; any other
/// script or `-c` code is Runtime.
fn python(args: &[&str]) -> Option<Category> {
    let mut index = 0;
    while let Some(&arg) = args.get(index) {
        match arg {
            _ if arg == PYTHON_MODULE_OPTION => return classify_words(&args[index + 1..]),
            _ if arg == PYTHON_CODE_OPTION => return Some(Runtime),
            _ if PYTHON_OPTIONS_WITH_VALUE.contains(&arg) => index += 2,
            _ if arg.starts_with('-') => index += 1,
            script => {
                let runs_tests = PYTHON_TEST_SCRIPTS.iter().any(|(name, subcommand)| {
                    program_name(script) == *name && args.get(index + 1) == Some(subcommand)
                });
                return Some(if runs_tests { Test } else { Runtime });
            }
        }
    }
    Some(Runtime)
}

/// `bash -c 'cd web && npm test'`: the script is itself a command line, whose first validation
/// segment (else first segment) decides. `bash script.sh` is Runtime.
fn shell_script(args: &[&str]) -> Option<Category> {
    let c_option = args
        .iter()
        .position(|arg| arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c'));
    match c_option.and_then(|index| args.get(index + 1)) {
        Some(script) => {
            let inner = analyze(script);
            let first_validation = inner.segments.iter().copied().find(|c| c.is_validation());
            first_validation.or(inner.segments.first().copied())
        }
        None => Some(Runtime),
    }
}

fn by_tables(program: &str, args: &[&str]) -> Category {
    let subcommand = positionals(args, OPTIONS_WITH_VALUE);
    let has_flag = |flag: &str| {
        args.iter().any(|arg| {
            arg.strip_prefix(flag)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
        })
    };
    let flag_rule = FLAG_RULES.iter().find(|(name, sub, flag, _)| {
        *name == program && (sub.is_empty() || subcommand.first() == Some(sub)) && has_flag(flag)
    });
    if let Some((_, _, _, category)) = flag_rule {
        return *category;
    }
    let subcommand_rule = SUBCOMMAND_RULES.iter().find(|(name, sub, _)| {
        *name == program
            && sub
                .split(' ')
                .enumerate()
                .all(|(index, word)| subcommand.get(index) == Some(&word))
    });
    if let Some((_, _, category)) = subcommand_rule {
        return *category;
    }
    PROGRAMS
        .iter()
        .find(|(_, programs)| programs.contains(&program))
        .map_or(Runtime, |(category, _)| *category)
}

/// The name a program is known by: `./node_modules/.bin/jest` → `jest`, `python3.12` →
/// `python`, `pip3` → `pip`.
fn program_name(word: &str) -> &str {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let base = base.strip_suffix(".exe").unwrap_or(base);
    for family in VERSIONED_PROGRAMS {
        if let Some(version) = base.strip_prefix(family) {
            if version.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return family;
            }
        }
    }
    base
}

/// How many leading words are not the command itself: env assignments, compound-command
/// keywords and transparent wrappers with their options.
fn prefix_length(words: &[&str]) -> usize {
    let mut index = 0;
    while let Some(&word) = words.get(index) {
        if is_assignment(word) || LEADING_KEYWORDS.contains(&word) {
            index += 1;
        } else if let Some(consumed) = transparent_wrapper_arguments(word, &words[index + 1..]) {
            index += 1 + consumed;
        } else {
            break;
        }
    }
    index.min(words.len())
}

/// How many of the following words belong to the transparent wrapper `word` (its options and
/// operands), or None when `word` is no transparent wrapper.
fn transparent_wrapper_arguments(word: &str, args: &[&str]) -> Option<usize> {
    let program = program_name(word);
    let (_, words) = TRANSPARENT_WRAPPERS
        .iter()
        .find(|(wrapper, _)| *wrapper == program)?;
    let lookup = WRAPPER_LOOKUP_OPTIONS.iter().any(|(wrapper, options)| {
        *wrapper == program && args.first().is_some_and(|arg| options.contains(arg))
    });
    if lookup {
        return None;
    }
    let consumed = match *words {
        WrapperWords::Options(with_value) => options_length(args, with_value),
        WrapperWords::OptionsThenOperand(with_value) => options_length(args, with_value) + 1,
        WrapperWords::ThroughSeparatorElseOptions(with_value) => {
            match args.iter().position(|arg| *arg == "--") {
                Some(separator) => separator + 1,
                None => options_length(args, with_value),
            }
        }
        WrapperWords::Nothing => 0,
    };
    Some(consumed.min(args.len()))
}

/// `NAME=value` (quotes, if any, come after the `=`).
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// How many leading words are options (with the values of `with_value` options), through `--`.
pub(crate) fn options_length<S: AsRef<str>>(args: &[S], with_value: &[&str]) -> usize {
    let mut index = 0;
    while let Some(arg) = args.get(index).map(AsRef::as_ref) {
        if arg == "--" {
            return index + 1;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        index += if with_value.contains(&arg) { 2 } else { 1 };
    }
    index.min(args.len())
}

/// The words that are not options nor option values (`+toolchain` counts as an option).
fn positionals<'a>(args: &[&'a str], with_value: &[&str]) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut index = 0;
    while let Some(&arg) = args.get(index) {
        if with_value.contains(&arg) {
            index += 2;
            continue;
        }
        if !arg.starts_with(['-', '+']) {
            found.push(arg);
        }
        index += 1;
    }
    found
}

// ─── Exit status ─────────────────────────────────────────────────────────────────────────────

#[derive(Default)]
struct ShellOptions {
    pipefail: bool,
    errexit: bool,
}

impl ShellOptions {
    /// `set -e`, `set -o pipefail`, `set -euo pipefail`, `set +o pipefail`, …
    fn apply_set(&mut self, args: &[&str]) {
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let (enable, flags) = match (arg.strip_prefix('-'), arg.strip_prefix('+')) {
                (Some(flags), _) => (true, flags),
                (_, Some(flags)) => (false, flags),
                _ => continue,
            };
            if flags.starts_with('-') {
                continue;
            }
            for flag in flags.chars() {
                match flag {
                    'e' => self.errexit = enable,
                    'o' => match args.next() {
                        Some(&"pipefail") => self.pipefail = enable,
                        Some(&"errexit") => self.errexit = enable,
                        _ => {}
                    },
                    _ => {}
                }
            }
        }
    }
}

/// Whether a failure of pipeline `index` becomes the exit status of the whole chain. After a
/// failure the shell skips the `&&` pipelines that follow; the next `||` or `;` pipeline runs
/// and its status replaces the failure, unless `set -e` stopped the shell (which it does only
/// when the failure is not inside an `&&` list).
fn failure_reaches_exit(pipelines: &[Pipeline], index: usize, errexit: bool) -> bool {
    let mut next = index + 1;
    while pipelines.get(next).is_some_and(|p| p.joiner == Joiner::And) {
        next += 1;
    }
    match pipelines.get(next) {
        None => true,
        Some(pipeline) => pipeline.joiner == Joiner::Sequence && errexit && next == index + 1,
    }
}

// ─── Tokenizer ───────────────────────────────────────────────────────────────────────────────

/// One shell word: `text` without quotes and escapes (what the program receives), `raw` as
/// written (what `normalized` shows).
struct Word {
    text: String,
    raw: String,
}

/// The operator before a segment. Ordered by binding strength, for `(a) | b` where two
/// operators surround an empty segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Joiner {
    /// `;`, a newline, `&`, or the start of the chain.
    Sequence,
    And,
    Or,
    /// `|` or `|&`.
    Pipe,
}

enum Token {
    Word(Word),
    Joiner(Joiner),
}

/// A simple command and the operator joining it to the previous one.
struct Segment {
    joiner: Joiner,
    words: Vec<Word>,
}

/// `a | b | c`: the first stage does the work; the exit status is the last stage's.
struct Pipeline {
    joiner: Joiner,
    stages: Vec<Vec<Word>>,
}

/// What becomes of the word being read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NextWord {
    Argument,
    /// The file after `>`, `2>`, `<`, `&>`, `>&`, `<<<`: dropped.
    RedirectTarget,
    /// The delimiter after `<<` / `<<-`: the heredoc body is skipped at the next newline.
    HeredocDelimiter {
        strip_tabs: bool,
    },
}

struct Lexer {
    chars: Vec<char>,
    pos: usize,
    tokens: Vec<Token>,
    text: String,
    raw: String,
    in_word: bool,
    next_word: NextWord,
    heredocs: Vec<(String, bool)>,
}

fn tokenize(command: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        chars: command.chars().collect(),
        pos: 0,
        tokens: Vec::new(),
        text: String::new(),
        raw: String::new(),
        in_word: false,
        next_word: NextWord::Argument,
        heredocs: Vec::new(),
    };
    lexer.run();
    lexer.tokens
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' | '\r' => {
                    self.finish_word();
                    self.pos += 1;
                }
                '\n' => {
                    self.pos += 1;
                    self.push_joiner(Joiner::Sequence);
                    self.skip_heredoc_bodies();
                }
                '#' if !self.in_word => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                '\\' => {
                    self.pos += 1;
                    match self.peek(0) {
                        Some('\n') => self.pos += 1, // line continuation
                        Some(escaped) => {
                            self.raw.push('\\');
                            self.push_char(escaped);
                            self.pos += 1;
                        }
                        None => self.push_char('\\'),
                    }
                }
                '\'' => self.read_single_quoted(),
                '"' => self.read_double_quoted(),
                '`' => self.read_backticks(),
                '$' if matches!(self.peek(1), Some('(' | '{')) => self.read_balanced(),
                '<' | '>' if self.peek(1) == Some('(') => self.read_balanced(),
                '<' | '>' => self.read_redirection(),
                '&' => match self.peek(1) {
                    Some('&') => self.operator(2, Joiner::And),
                    Some('>') => {
                        // `&>file`, `&>>file`
                        self.finish_word();
                        self.pos += if self.peek(2) == Some('>') { 3 } else { 2 };
                        self.next_word = NextWord::RedirectTarget;
                    }
                    _ => self.operator(1, Joiner::Sequence),
                },
                '|' => match self.peek(1) {
                    Some('|') => self.operator(2, Joiner::Or),
                    Some('&') => self.operator(2, Joiner::Pipe),
                    _ => self.operator(1, Joiner::Pipe),
                },
                ';' => {
                    let length = if matches!(self.peek(1), Some(';' | '&')) {
                        2
                    } else {
                        1
                    };
                    self.operator(length, Joiner::Sequence);
                }
                // Subshells and groups: their inner commands are segments of the chain.
                '(' | ')' => self.operator(1, Joiner::Sequence),
                _ => {
                    self.push_char(c);
                    self.pos += 1;
                }
            }
        }
        self.finish_word();
    }

    fn push_char(&mut self, c: char) {
        self.text.push(c);
        self.raw.push(c);
        self.in_word = true;
    }

    fn finish_word(&mut self) {
        if !self.in_word {
            return;
        }
        self.in_word = false;
        let word = Word {
            text: std::mem::take(&mut self.text),
            raw: std::mem::take(&mut self.raw),
        };
        match std::mem::replace(&mut self.next_word, NextWord::Argument) {
            NextWord::Argument => self.tokens.push(Token::Word(word)),
            NextWord::RedirectTarget => {}
            NextWord::HeredocDelimiter { strip_tabs } => {
                self.heredocs.push((word.text, strip_tabs))
            }
        }
    }

    fn push_joiner(&mut self, joiner: Joiner) {
        self.finish_word();
        self.next_word = NextWord::Argument;
        self.tokens.push(Token::Joiner(joiner));
    }

    fn operator(&mut self, length: usize, joiner: Joiner) {
        self.pos += length;
        self.push_joiner(joiner);
    }

    fn read_single_quoted(&mut self) {
        self.in_word = true;
        self.raw.push('\'');
        self.pos += 1;
        while let Some(c) = self.peek(0) {
            self.pos += 1;
            self.raw.push(c);
            if c == '\'' {
                return;
            }
            self.text.push(c);
        }
    }

    fn read_double_quoted(&mut self) {
        self.in_word = true;
        self.raw.push('"');
        self.pos += 1;
        while let Some(c) = self.peek(0) {
            match c {
                '"' => {
                    self.raw.push('"');
                    self.pos += 1;
                    return;
                }
                '\\' => {
                    self.raw.push('\\');
                    self.pos += 1;
                    match self.peek(0) {
                        Some(escaped @ ('"' | '\\' | '$' | '`')) => {
                            self.push_char(escaped);
                            self.pos += 1;
                        }
                        Some('\n') => {
                            self.raw.push('\n');
                            self.pos += 1;
                        }
                        _ => self.text.push('\\'),
                    }
                }
                '$' if self.peek(1) == Some('(') => self.read_balanced(),
                '`' => self.read_backticks(),
                _ => {
                    self.push_char(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// Copies `$(…)`, `${…}`, `<(…)` or `>(…)` into the word, through the matching bracket.
    fn read_balanced(&mut self) {
        let open = self.chars[self.pos + 1];
        let close = if open == '(' { ')' } else { '}' };
        self.push_char(self.chars[self.pos]);
        self.push_char(open);
        self.pos += 2;
        let mut depth = 1;
        while let Some(c) = self.peek(0) {
            self.push_char(c);
            self.pos += 1;
            match c {
                '\\' => {
                    if let Some(escaped) = self.peek(0) {
                        self.push_char(escaped);
                        self.pos += 1;
                    }
                }
                '\'' | '"' => {
                    // Brackets inside quotes do not count.
                    while let Some(inner) = self.peek(0) {
                        self.push_char(inner);
                        self.pos += 1;
                        if inner == c {
                            break;
                        }
                    }
                }
                _ if c == open => depth += 1,
                _ if c == close => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn read_backticks(&mut self) {
        self.push_char('`');
        self.pos += 1;
        while let Some(c) = self.peek(0) {
            self.push_char(c);
            self.pos += 1;
            if c == '\\' {
                if let Some(escaped) = self.peek(0) {
                    self.push_char(escaped);
                    self.pos += 1;
                }
            } else if c == '`' {
                return;
            }
        }
    }

    /// `>`, `>>`, `>|`, `>&`, `<`, `<&`, `<>`, `<<<` and heredocs `<<`, `<<-`, optionally after a
    /// file descriptor (`2>&1`): the operator and its target are dropped.
    fn read_redirection(&mut self) {
        let is_descriptor = self.in_word && self.raw.bytes().all(|b| b.is_ascii_digit());
        if is_descriptor {
            self.text.clear();
            self.raw.clear();
            self.in_word = false;
        } else {
            self.finish_word();
        }
        let first = self.chars[self.pos];
        self.pos += 1;
        if first == '<' && self.peek(0) == Some('<') {
            self.pos += 1;
            if self.peek(0) == Some('<') {
                self.pos += 1;
                self.next_word = NextWord::RedirectTarget;
            } else {
                let strip_tabs = self.peek(0) == Some('-');
                if strip_tabs {
                    self.pos += 1;
                }
                self.next_word = NextWord::HeredocDelimiter { strip_tabs };
            }
            return;
        }
        if matches!(self.peek(0), Some('>' | '&' | '|')) {
            self.pos += 1;
        }
        self.next_word = NextWord::RedirectTarget;
    }

    /// After a newline: skips the bodies of the heredocs opened on the line just ended.
    fn skip_heredoc_bodies(&mut self) {
        for (delimiter, strip_tabs) in std::mem::take(&mut self.heredocs) {
            while self.pos < self.chars.len() {
                let start = self.pos;
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
                let line: String = self.chars[start..self.pos].iter().collect();
                self.pos = (self.pos + 1).min(self.chars.len());
                let line = if strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    &line
                };
                if line.trim_end() == delimiter {
                    break;
                }
            }
        }
    }
}

fn split_segments(tokens: Vec<Token>) -> Vec<Segment> {
    let mut segments: Vec<Segment> = Vec::new();
    let mut words = Vec::new();
    let mut joiner = Joiner::Sequence;
    for token in tokens {
        match token {
            Token::Word(word) => words.push(word),
            Token::Joiner(next) if words.is_empty() => {
                // Operators around an empty segment (`(a) | b`, `a &&⏎b`): the strongest binds.
                // Operators before the first segment mean nothing.
                if !segments.is_empty() {
                    joiner = joiner.max(next);
                }
            }
            Token::Joiner(next) => {
                segments.push(Segment {
                    joiner,
                    words: std::mem::take(&mut words),
                });
                joiner = next;
            }
        }
    }
    if !words.is_empty() {
        segments.push(Segment { joiner, words });
    }
    segments
}

fn split_pipelines(segments: Vec<Segment>) -> Vec<Pipeline> {
    let mut pipelines: Vec<Pipeline> = Vec::new();
    for segment in segments {
        match pipelines.last_mut() {
            Some(pipeline) if segment.joiner == Joiner::Pipe => pipeline.stages.push(segment.words),
            _ => pipelines.push(Pipeline {
                joiner: segment.joiner,
                stages: vec![segment.words],
            }),
        }
    }
    pipelines
}

/// The effective segments of a command, in the order `analyze` lists them: each one's category
/// and the words its program receives (quotes removed), after env assignments, redirections and
/// transparent wrappers. `timeout 60 npx jest 'src/a b.test.ts'` → `[(Test, [npx, jest, src/a
/// b.test.ts])]`. What a run covers is read from these words (see `scope`).
pub fn effective_segments(command: &str) -> Vec<(Category, Vec<String>)> {
    let pipelines = split_pipelines(split_segments(tokenize(command)));
    let mut found = Vec::new();
    for pipeline in &pipelines {
        let texts: Vec<&str> = pipeline.stages[0].iter().map(|w| w.text.as_str()).collect();
        let start = prefix_length(&texts);
        if let Some(category) = classify_words(&texts[start..]) {
            let words = texts[start..].iter().map(|w| w.to_string()).collect();
            found.push((category, words));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn categories(command: &str) -> Vec<Category> {
        analyze(command).segments
    }

    #[test]
    fn category_names_round_trip() {
        for category in [Typecheck, Test, Lint, Build, Runtime] {
            assert_eq!(Category::parse(category.as_str()), Some(category));
        }
        assert_eq!(Category::parse("tests"), None);
        assert!(Lint.is_validation());
        assert!(!Runtime.is_validation());
    }

    #[test]
    fn npm_scripts_are_classified_by_name() {
        assert_eq!(categories("npm run typecheck"), [Typecheck]);
        assert_eq!(categories("npm test"), [Test]);
        assert_eq!(categories("npm t"), [Test]);
        assert_eq!(categories("npm run test:unit -- --watch"), [Test]);
        assert_eq!(categories("npm run lint"), [Lint]);
        assert_eq!(categories("npm run format:check"), [Lint]);
        assert_eq!(categories("npm run build:types"), [Build]);
        assert_eq!(categories("npm run check-types"), [Typecheck]);
        assert_eq!(categories("npm run check"), [Typecheck]);
        assert_eq!(categories("npm start"), [Runtime]);
        assert_eq!(categories("npm run dev"), [Runtime]);
        assert_eq!(categories("npm install"), [Runtime]);
        assert_eq!(categories("npm --prefix web run build"), [Build]);
        assert!(categories("npm ls react").is_empty());
        assert!(categories("npm run").is_empty());
    }

    #[test]
    fn setup_before_the_command_is_not_part_of_it() {
        let analysis = analyze("touch fixed && npm run typecheck");
        assert_eq!(analysis.normalized, "npm run typecheck");
        assert_eq!(analysis.segments, [Typecheck]);
        assert!(analysis.status_reliable);
        assert_eq!(analyze("cd web && pnpm lint").normalized, "pnpm lint");
    }

    #[test]
    fn inspection_and_git_are_neutral() {
        for command in [
            "git log --oneline -5",
            "cat nonexistent.json",
            "ls build/",
            "git commit -m \"fix test\"",
            "grep -r error src",
            "cat test.log",
            "echo \"a && b\"",
            "env",
            "FOO=1",
            "command -v tsc",
            "gh pr view 12",
        ] {
            let analysis = analyze(command);
            assert!(analysis.segments.is_empty(), "{command}: {analysis:?}");
            assert_eq!(analysis.normalized, "", "{command}");
        }
    }

    #[test]
    fn dependency_queries_are_neutral() {
        for command in [
            "cargo tree -i serde",
            "cargo tree --offline -i tokio",
            "cargo pkgid serde",
            "go list -m all",
            "go mod why golang.org/x/text",
            "pip show requests",
            "python -m pip show flask",
            "uv pip show flask",
            "poetry show --outdated",
        ] {
            assert!(analyze(command).segments.is_empty(), "{command}");
        }
        // Decoys: the same programs doing real work.
        let cases = [
            ("cargo test -p tree", Test),
            ("go mod tidy", Build),
            ("go mod download", Build),
            ("go get github.com/google/uuid@v1.6.0", Runtime),
            ("pip install -r requirements.txt", Runtime),
            ("uv pip install flask", Runtime),
            ("gofmt -l .", Lint),
            ("gofmt -d main.go", Lint),
            ("gofmt -w main.go", Runtime),
        ];
        for (command, category) in cases {
            assert_eq!(categories(command), [category], "{command}");
        }
    }

    #[test]
    fn quoted_text_is_never_split_into_commands() {
        assert!(categories("git commit -m 'npm test && make'").is_empty());
        assert!(categories("echo \"npm test; cargo build\"").is_empty());
        assert_eq!(categories("npm test -- -t \"adds | numbers\""), [Test]);
    }

    #[test]
    fn env_assignments_and_redirections_are_dropped() {
        assert_eq!(analyze("CI=1  npm test 2>&1").normalized, "npm test");
        assert_eq!(
            analyze("CI=1 npm test").normalized,
            analyze("npm  test 2>&1").normalized
        );
        assert_eq!(
            analyze("FOO=\"a b\" npm test >/dev/null").normalized,
            "npm test"
        );
        assert_eq!(
            analyze("npm test > out.log 2> err.log").normalized,
            "npm test"
        );
        assert_eq!(analyze("npm test &>all.log").normalized, "npm test");
        assert_eq!(analyze("npm test>out.log").normalized, "npm test");
    }

    #[test]
    fn transparent_wrappers_are_looked_through_and_dropped() {
        let cases = [
            ("timeout 60 npm test", "npm test", Test),
            ("timeout -s KILL 5m cargo test", "cargo test", Test),
            ("time cargo build", "cargo build", Build),
            ("nice -n 10 make", "make", Build),
            ("env -i PATH=/bin NODE_ENV=test jest", "jest", Test),
            ("sudo -u app pytest", "pytest", Test),
            ("exec npm run lint", "npm run lint", Lint),
            ("cross-env NODE_ENV=test jest --ci", "jest --ci", Test),
            ("dotenv -e .env.test -- vitest run", "vitest run", Test),
        ];
        for (command, normalized, category) in cases {
            let analysis = analyze(command);
            assert_eq!(analysis.normalized, normalized, "{command}");
            assert_eq!(analysis.segments, [category], "{command}");
        }
    }

    #[test]
    fn runners_are_looked_through_but_kept() {
        let analysis = analyze("cd web && CI=1 pnpm exec vitest run");
        assert_eq!(analysis.segments, [Test]);
        assert_eq!(analysis.normalized, "pnpm exec vitest run");
        assert_eq!(categories("uv run pytest -x"), [Test]);
        assert_eq!(categories("uv run --with pytest-cov -m pytest"), [Test]);
        assert_eq!(categories("python3 -m mypy src"), [Typecheck]);
        assert_eq!(
            analyze("python3 -m mypy src").normalized,
            "python3 -m mypy src"
        );
        assert_eq!(categories("python -m unittest discover"), [Test]);
        assert_eq!(categories("poetry run ruff check ."), [Lint]);
        assert_eq!(categories("npx tsc --noEmit"), [Typecheck]);
        assert_eq!(categories("npx -y prettier --check ."), [Lint]);
        assert_eq!(categories("npx prettier --write ."), [Runtime]);
        assert_eq!(categories("bunx eslint src"), [Lint]);
        assert_eq!(categories("pnpm dlx vitest"), [Test]);
        assert_eq!(categories("yarn dlx tsc"), [Typecheck]);
        assert_eq!(categories("npm exec -- eslint ."), [Lint]);
        assert_eq!(categories("pipenv run pytest"), [Test]);
        assert_eq!(categories("hatch run test"), [Test]);
        assert_eq!(categories("bundle exec rspec"), [Test]);
        assert_eq!(categories("bundle exec rake test"), [Test]);
        assert_eq!(categories(".venv/bin/python -m pytest -q"), [Test]);
        assert_eq!(categories("bash -c 'cd web && npm test'"), [Test]);
        assert_eq!(categories("bash deploy.sh"), [Runtime]);
        assert_eq!(categories("xargs -n1 eslint"), [Runtime]);
    }

    #[test]
    fn package_manager_shorthands_run_scripts_or_binaries() {
        assert_eq!(categories("pnpm lint"), [Lint]);
        assert_eq!(categories("pnpm test"), [Test]);
        assert_eq!(categories("yarn test"), [Test]);
        assert_eq!(categories("yarn tsc --noEmit"), [Typecheck]);
        assert_eq!(categories("pnpm --filter web typecheck"), [Typecheck]);
        assert_eq!(categories("yarn workspace web build"), [Build]);
        assert_eq!(categories("bun test"), [Test]);
        assert_eq!(categories("bun build ./index.ts"), [Build]);
        assert_eq!(categories("bun run dev"), [Runtime]);
        assert_eq!(categories("bun run build.ts"), [Runtime]);
        assert_eq!(categories("pnpm install"), [Runtime]);
        assert!(categories("pnpm why react").is_empty());
    }

    #[test]
    fn program_tables() {
        let cases = [
            ("cargo build --release", Build),
            ("cargo clippy --all-targets -- -D warnings", Lint),
            ("cargo check", Typecheck),
            ("cargo +nightly test -p core", Test),
            ("cargo fmt --check", Lint),
            ("cargo fmt", Runtime),
            ("cargo run", Runtime),
            ("go test ./...", Test),
            ("go vet ./...", Lint),
            ("go build ./cmd/x", Build),
            ("make", Build),
            ("make test", Test),
            ("make check", Test),
            ("make -C web -j4 lint", Lint),
            ("make clean all", Build),
            ("./gradlew test", Test),
            ("./gradlew :app:assembleDebug", Build),
            ("mvn -q clean verify", Test),
            ("mvn package", Build),
            ("dotnet test", Test),
            ("playwright test", Test),
            ("node --test", Test),
            ("node scripts/migrate.js", Runtime),
            ("deno task lint", Lint),
            ("tox", Test),
            ("tox -e lint", Lint),
            ("ruff format --check .", Lint),
            ("black --check .", Lint),
            ("golangci-lint run", Lint),
            ("docker build -t app .", Build),
            ("docker compose build", Build),
            ("docker ps", Runtime),
            ("vite build", Build),
            ("vite", Runtime),
            ("next build", Build),
            ("tsc -b", Typecheck),
            ("vue-tsc --noEmit", Typecheck),
            ("gcc -o app main.c", Build),
            ("nx run web:test", Test),
            ("turbo run build --filter=web", Build),
            ("just", Runtime),
            ("python manage.py test", Test),
            ("python app.py", Runtime),
            ("./script.sh", Runtime),
            ("./test", Runtime),
            ("curl -fsS localhost:3000", Runtime),
        ];
        for (command, category) in cases {
            assert_eq!(categories(command), [category], "{command}");
        }
        assert!(categories("cargo --version").is_empty());
    }

    #[test]
    fn chains_keep_one_entry_per_effective_segment() {
        let analysis = analyze("npm run build && npm test");
        assert_eq!(analysis.segments, [Build, Test]);
        assert_eq!(analysis.normalized, "npm run build ; npm test");
        assert!(analysis.status_reliable);
        let analysis = analyze("cd web\nnpm run lint\ngit status");
        assert_eq!(analysis.segments, [Lint]);
        assert!(
            !analysis.status_reliable,
            "git's status replaces the lint's"
        );
    }

    #[test]
    fn pipelines_into_filters_hide_the_status() {
        let analysis = analyze("npm test 2>&1 | tail -20");
        assert_eq!(analysis.segments, [Test]);
        assert_eq!(analysis.normalized, "npm test");
        assert!(!analysis.status_reliable);
        let analysis = analyze("set -o pipefail; npm test | tee out.log");
        assert_eq!(analysis.segments, [Test]);
        assert!(analysis.status_reliable);
        assert!(analyze("set -euo pipefail\ncargo test |& grep -v warning").status_reliable);
        assert!(!analyze("npm test | tee out.log; set -o pipefail").status_reliable);
        assert!(analysis_is_neutral("git diff | head"));
    }

    fn analysis_is_neutral(command: &str) -> bool {
        let analysis = analyze(command);
        analysis.segments.is_empty() && analysis.status_reliable
    }

    #[test]
    fn a_later_command_can_replace_the_status() {
        assert!(!analyze("npm test; echo done").status_reliable);
        assert!(!analyze("npm test || true").status_reliable);
        assert!(!analyze("npm run lint; npm test").status_reliable);
        assert!(analyze("set -e; npm test; echo done").status_reliable);
        assert!(!analyze("set -e; npm test && echo ok; echo done").status_reliable);
        assert!(analyze("npm test && echo ok").status_reliable);
        assert!(analyze("npm run lint && npm test").status_reliable);
    }

    #[test]
    fn shell_syntax_is_understood() {
        // Heredoc bodies are data, not commands.
        let analysis = analyze("cat > t.py <<'EOF'\nnpm test\nmake\nEOF\npython t.py");
        assert_eq!(analysis.segments, [Runtime]);
        assert_eq!(analysis.normalized, "python t.py");
        assert_eq!(
            categories("cat <<-END\n\tcargo build\n\tEND\ncargo test"),
            [Test]
        );
        // Subshells, compound commands, comments, continuations, substitutions.
        assert_eq!(categories("(cd web && npm test)"), [Test]);
        assert_eq!(categories("if npm run lint; then echo ok; fi"), [Lint]);
        assert_eq!(categories("npm test # then make"), [Test]);
        assert_eq!(categories("cargo \\\n  test"), [Test]);
        assert_eq!(
            analyze("echo $(npm test) && jest \"$(ls src | head -1)\"").normalized,
            "jest \"$(ls src | head -1)\""
        );
        assert_eq!(categories("npm test & wait"), [Test]);
    }

    #[test]
    fn failure_category_follows_the_evidence() {
        let lines = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let chain = analyze("npm run build && npm test");
        assert_eq!(
            failure_category(&chain, &lines(&["not ok 1 - x"])),
            Some(Test)
        );
        // TS evidence points to Typecheck, which is no segment: the first validation one wins.
        assert_eq!(
            failure_category(&chain, &lines(&["src/a.ts(1,2): error TS2345: nope"])),
            Some(Build)
        );
        assert_eq!(
            failure_category(&chain, &lines(&["error[E0308]: mismatched types"])),
            Some(Build)
        );
        let lint_then_test = analyze("npm run lint; npm test");
        let both = lines(&[
            "3:7 error 'x' is unused no-unused-vars",
            "FAIL src/a.test.ts",
        ]);
        assert_eq!(failure_category(&lint_then_test, &both), Some(Test));
        assert_eq!(
            failure_category(&lint_then_test, &lines(&["src/a.py:1:8: F401 unused"])),
            Some(Lint)
        );
        assert_eq!(failure_category(&analyze("npm test"), &[]), Some(Test));
        assert_eq!(
            failure_category(
                &analyze("node a.js && npm run lint"),
                &lines(&["Error: boom"])
            ),
            Some(Lint)
        );
        assert_eq!(failure_category(&analyze("node a.js"), &[]), Some(Runtime));
        assert_eq!(failure_category(&analyze("git status"), &[]), None);
    }

    #[test]
    fn jvm_ruby_php_and_native_tools() {
        let cases = [
            ("ruby test/calc_test.rb", Test),
            ("ruby -Ilib:test test/user_test.rb --name test_roles", Test),
            ("ruby -I lib spec/calc_spec.rb", Test),
            ("ruby -c app.rb", Lint),
            ("ruby app.rb", Runtime),
            ("ruby -e 'puts 1'", Runtime),
            ("php -l src/Cart.php", Lint),
            ("php vendor/bin/phpunit --filter testX", Test),
            ("php app.php", Runtime),
            (
                "java -jar /opt/junit-platform-console-standalone.jar -cp out -c T",
                Test,
            ),
            ("java -cp out Main", Runtime),
            ("java -jar app.jar", Runtime),
            ("valgrind --error-exitcode=1 ./app", Test),
            ("valgrind ./app", Runtime),
        ];
        for (command, category) in cases {
            assert_eq!(categories(command), [category], "{command}");
        }
    }

    #[test]
    fn the_failing_step_of_a_chain_decides() {
        let lines = |text: &str| -> Vec<String> { text.lines().map(String::from).collect() };
        let cases = [
            (
                "cargo fmt --check && cargo test -q",
                "tests::adds --- FAILED\nerror: test failed, to rerun pass `--lib`",
                Test,
            ),
            (
                "bun build add.ts --outdir dist && bun test",
                "error: expect(received).toBe(expected)\n(fail) adds two numbers [1.85ms]",
                Test,
            ),
            (
                "pip install --no-index -r requirements.txt && pytest -q",
                "ERROR: No matching distribution found for requests==2.32.3",
                Runtime,
            ),
            (
                "uv sync && pytest",
                "cause: Because flask was not found, we can conclude that your requirements are unsatisfiable.",
                Runtime,
            ),
            // Decoy: the install passed and a test failed.
            (
                "pip install -r requirements.txt && pytest -q",
                "FAILED tests/test_calc.py::test_add - assert 4 == 5",
                Test,
            ),
        ];
        for (command, output, category) in cases {
            assert_eq!(
                failure_category(&analyze(command), &lines(output)),
                Some(category),
                "{command}"
            );
        }
    }

    #[test]
    fn the_failing_step_of_a_compound_command_decides() {
        let lines = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let compile_and_run = analyze("g++ a.cpp -o a && ./a");
        let crashed = lines(&["bash: line 1: 42 Segmentation fault ./a"]);
        assert_eq!(failure_category(&compile_and_run, &crashed), Some(Runtime));
        let linker = lines(&["a.cpp:(.text+0xa): undefined reference to `f(int)'"]);
        assert_eq!(failure_category(&compile_and_run, &linker), Some(Build));
        let build_and_test = analyze("cmake --build build && ctest --test-dir build");
        let ctest = lines(&["2/3 Test #2: t ....***Failed 0.01 sec", "2 - t (Failed)"]);
        assert_eq!(failure_category(&build_and_test, &ctest), Some(Test));
        let ninja = lines(&[
            "a.cpp:2:3: error: x",
            "ninja: build stopped: subcommand failed.",
        ]);
        assert_eq!(failure_category(&build_and_test, &ninja), Some(Build));
        // A build that runs the tests fails as a test only when a test failed.
        let gradle = analyze("gradle build");
        let test_failed = lines(&["T > adds FAILED", "java.lang.AssertionError at T.java:11"]);
        assert_eq!(failure_category(&gradle, &test_failed), Some(Test));
        let compile_failed = lines(&["A.java:18: error: cannot find symbol"]);
        assert_eq!(failure_category(&gradle, &compile_failed), Some(Build));
    }

    #[test]
    fn typescript_codes_are_word_bounded() {
        assert!(mentions_typescript_error("error TS2345: x"));
        assert!(mentions_typescript_error("TS2322"));
        assert!(!mentions_typescript_error("ATS2345 x"));
        assert!(!mentions_typescript_error("TS23456"));
        assert!(!mentions_typescript_error("TS12"));
    }
}
