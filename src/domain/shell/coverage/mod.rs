//! The scope of a command: what a passing run of it proves, so that it clears exactly the open
//! errors it covers and no others.
//!
//! A scope is
//! - a tool **family** (`pytest`, `go test`, `tsc`, the package script `test`, …): the equivalent
//!   spellings of one tool share it (`npx tsc`, `pnpm exec tsc`, `yarn tsc` and `tsc`; `npm t`,
//!   `npm run test`, `pnpm test` and `yarn test`), and different tools never do (a formatter is
//!   not a linter, a typecheck is not a test run);
//! - its **steps**, for build tools whose steps include the tests (`mvn verify` runs `test`,
//!   `gradle build` runs `check` and `test`);
//! - its **settings**, which change what passing means (`-p tsconfig.app.json`, `-D warnings`,
//!   `--features x`, a package picked with `--prefix`);
//! - its **selectors**, which narrow the run (`-k name`, `--grep x`, a test-name filter);
//! - its **targets**: paths (`tests/`, `tests/test_a.py::test_add`, `spec/a_spec.rb:12`), Go
//!   packages (`./pkg/...`), test modules (`tests.test_a`); none means the whole project.
//!
//! Run A **covers** run B when they share the family and the settings, A runs every step B
//! runs, A's selectors are all among B's (A narrows no more than B), and every target of B lies
//! within a target of A (or A has none). A command no table knows has its own words as family:
//! it covers only itself. The tables of tools and options are in `tables.rs`.

mod tables;
#[cfg(test)]
mod tests;

use crate::domain::shell::command::{
    effective_segments, options_length, Category, PACKAGE_MANAGER_VERBS, RUNNER_OPTIONS_WITH_VALUE,
    UV_RUN_OPTIONS_WITH_VALUE,
};
use tables::{
    GRADLE_TASKS, MAVEN_PHASES, OUTPUT_OPTIONS, PACKAGE_MANAGER_OPTIONS, SCRIPT_ARGUMENTS, TOOLS,
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    pub family: String,
    /// Sorted; a covering run runs all of them.
    pub steps: Vec<String>,
    /// Sorted; equal in a covering run.
    pub settings: Vec<String>,
    /// Sorted; a covering run has no selector the covered one lacks.
    pub selectors: Vec<String>,
    /// Empty: the whole project.
    pub targets: Vec<Target>,
}

/// A place a run is limited to, as parts from the outermost in: `tests/test_a.py::test_add` is
/// `[tests, test_a.py, ::test_add]`, `spec/a_spec.rb:12` is `[spec, a_spec.rb, :12]`. A Go
/// package without `/...` ends with an empty part: `./pkg` is `[pkg, ""]`, which holds no
/// sub-package, while `./pkg/...` is `[pkg]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    parts: Vec<String>,
}

/// What an option means for the scope. "Flag" roles take no value; the others take the next
/// word, or the text after `=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Narrows the run (`-k name`): a selector.
    Narrow,
    NarrowFlag,
    /// Changes what passing means (`-p tsconfig.app.json`).
    Setting,
    SettingFlag,
    /// Says nothing about what ran (`--reporter dot`).
    Neutral,
    NeutralFlag,
    /// Its value is a target, like a positional path (`--spec test/a.js`).
    Target,
    /// Widens the run (`--workspace`): a run without it is narrower.
    Widen,
    /// Leaves the step named by its value out (`gradle build -x test`).
    SkipsStep,
    /// Leaves these steps out (`mvn install -DskipTests`).
    SkipsSteps(&'static [&'static str]),
}

type Options = &'static [(&'static str, Role)];

/// What a tool's words that are not options are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Positionals {
    /// Files and directories, pytest node ids, RSpec `file:line`, globs.
    Paths,
    /// Go package patterns (`./...`, `./pkg/...`, `./pkg`).
    GoPackages,
    /// Python test modules or labels (`tests.test_a.TestX`) or their files.
    Modules,
    /// Test-name filters (`cargo test parse`): selectors.
    Filters,
    /// Anything that changes the check itself (`cargo clippy -- -D warnings`).
    Settings,
    /// Maven phases and plugin goals: steps.
    MavenGoals,
    /// Gradle tasks, each with its project (`:app:test`): one scope per task.
    GradleTasks,
}

struct Tool {
    family: &'static str,
    spellings: &'static [&'static str],
    positionals: Positionals,
    options: &'static [Options],
    default_target: Option<&'static str>,
}

impl Tool {
    const fn new(
        family: &'static str,
        spellings: &'static [&'static str],
        positionals: Positionals,
        options: &'static [Options],
    ) -> Tool {
        Tool {
            family,
            spellings,
            positionals,
            options,
            default_target: None,
        }
    }

    /// What the tool runs on when the command names nothing (`go test` tests `.`, not `./...`).
    const fn default_target(self, target: &'static str) -> Tool {
        Tool {
            default_target: Some(target),
            ..self
        }
    }

    fn role(&self, name: &str) -> Option<Role> {
        self.options
            .iter()
            .copied()
            .chain([OUTPUT_OPTIONS])
            .flat_map(|options| options.iter())
            .find(|(option, _)| *option == name)
            .map(|(_, role)| *role)
    }
}

// ─── Public API ──────────────────────────────────────────────────────────────────────────────

/// The scopes of a command, one per effective segment (a Gradle segment has one per task),
/// each with the segment's category.
pub fn scopes(command: &str) -> Vec<(Category, Coverage)> {
    effective_segments(command)
        .into_iter()
        .flat_map(|(category, words)| segment_scopes(category, &words))
        .collect()
}

/// The scopes an error recorded from `command` in `category` belongs to: the segments of that
/// category (the failing step of `npm run build && npm test` is the test), or all of them.
pub fn failed_scopes(command: &str, category: Category) -> Vec<Coverage> {
    let all = scopes(command);
    let of_category: Vec<Coverage> = all
        .iter()
        .filter(|(c, _)| *c == category)
        .map(|(_, s)| s.clone())
        .collect();
    if of_category.is_empty() {
        all.into_iter().map(|(_, s)| s).collect()
    } else {
        of_category
    }
}

/// Whether a passing run with scopes `run` proves every one of `failed` passes too.
pub fn run_covers(run: &[Coverage], failed: &[Coverage]) -> bool {
    !failed.is_empty() && failed.iter().all(|f| run.iter().any(|r| r.covers(f)))
}

impl Coverage {
    pub fn covers(&self, other: &Coverage) -> bool {
        self.family == other.family
            && self.settings == other.settings
            && other.steps.iter().all(|step| self.steps.contains(step))
            && self.selectors.iter().all(|s| other.selectors.contains(s))
            && targets_cover(&self.targets, &other.targets)
    }

    fn exact(words: &[String]) -> Coverage {
        Coverage {
            family: words.join(" "),
            steps: Vec::new(),
            settings: Vec::new(),
            selectors: Vec::new(),
            targets: Vec::new(),
        }
    }
}

impl Target {
    fn holds(&self, other: &Target) -> bool {
        if self.parts.iter().any(|part| is_glob(part)) {
            return self == other
                || (!other.parts.iter().any(|p| is_glob(p))
                    && (0..=other.parts.len())
                        .any(|n| glob_matches(&self.parts, &other.parts[..n])));
        }
        other.parts.starts_with(&self.parts)
    }
}

fn targets_cover(covering: &[Target], covered: &[Target]) -> bool {
    covering.is_empty()
        || (!covered.is_empty()
            && covered
                .iter()
                .all(|inner| covering.iter().any(|outer| outer.holds(inner))))
}

// ─── Reading a segment ───────────────────────────────────────────────────────────────────────

/// Runners that locate another program, and their options that take a value: what follows
/// them is the command whose scope counts (`npx tsc` is `tsc`, `python -m pytest` is `pytest`,
/// `python manage.py test` is `manage.py test`).
const RUNNERS: &[(&[&str], &[&str])] = &[
    (&["npx"], RUNNER_OPTIONS_WITH_VALUE),
    (&["pnpx"], RUNNER_OPTIONS_WITH_VALUE),
    (&["bunx"], RUNNER_OPTIONS_WITH_VALUE),
    (&["uvx"], RUNNER_OPTIONS_WITH_VALUE),
    (&["c8"], RUNNER_OPTIONS_WITH_VALUE),
    (&["nyc"], RUNNER_OPTIONS_WITH_VALUE),
    (&["pnpm", "exec"], RUNNER_OPTIONS_WITH_VALUE),
    (&["pnpm", "dlx"], RUNNER_OPTIONS_WITH_VALUE),
    (&["yarn", "dlx"], RUNNER_OPTIONS_WITH_VALUE),
    (&["yarn", "exec"], RUNNER_OPTIONS_WITH_VALUE),
    (&["npm", "exec"], RUNNER_OPTIONS_WITH_VALUE),
    (&["npm", "x"], RUNNER_OPTIONS_WITH_VALUE),
    // Python project runners take `uv run`'s options (`--project`, `--group`, `--env-file`).
    (&["uv", "run"], UV_RUN_OPTIONS_WITH_VALUE),
    (&["poetry", "run"], UV_RUN_OPTIONS_WITH_VALUE),
    (&["pipenv", "run"], UV_RUN_OPTIONS_WITH_VALUE),
    (&["hatch", "run"], UV_RUN_OPTIONS_WITH_VALUE),
    (&["pdm", "run"], UV_RUN_OPTIONS_WITH_VALUE),
    (&["rye", "run"], UV_RUN_OPTIONS_WITH_VALUE),
    (&["bundle", "exec"], RUNNER_OPTIONS_WITH_VALUE),
    // `python -m pytest`, `python -W error -m pytest`: `-m` is skipped like any option.
    (&["python"], &["-X", "-W", "-c"]),
];

/// Shells whose `-c` script is itself a command line.
const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash"];

fn segment_scopes(category: Category, words: &[String]) -> Vec<(Category, Coverage)> {
    let inner = look_through_runners(words);
    let program = inner.first().map_or("", |word| program_name(word));
    if SHELLS.contains(&program) {
        if let Some(script) = shell_script(&inner[1..]) {
            return scopes(script);
        }
    }
    let found = tool_scopes(inner, category)
        .or_else(|| package_script_scope(inner, category).map(|s| vec![s]))
        .unwrap_or_else(|| vec![Coverage::exact(words)]);
    found.into_iter().map(|scope| (category, scope)).collect()
}

fn look_through_runners(words: &[String]) -> &[String] {
    let mut words = words;
    'outer: loop {
        for (prefix, with_value) in RUNNERS {
            let matches = words.len() > prefix.len()
                && program_name(&words[0]) == prefix[0]
                && words[1..prefix.len()]
                    .iter()
                    .zip(&prefix[1..])
                    .all(|(w, p)| w == p);
            if matches {
                let rest = &words[prefix.len()..];
                let rest = &rest[options_length(rest, with_value)..];
                if !rest.is_empty() {
                    words = rest;
                    continue 'outer;
                }
            }
        }
        return words;
    }
}

fn shell_script(args: &[String]) -> Option<&str> {
    let c_option = args
        .iter()
        .position(|arg| arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c'))?;
    args.get(c_option + 1).map(String::as_str)
}

/// The name a program is known by: `./node_modules/.bin/jest` → `jest`, `python3.12` → `python`.
fn program_name(word: &str) -> &str {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let base = base.strip_suffix(".exe").unwrap_or(base);
    match base.strip_prefix("python") {
        Some(version) if version.chars().all(|c| c.is_ascii_digit() || c == '.') => "python",
        _ => base,
    }
}

/// The scopes of a command a row of `TOOLS` knows, or None.
fn tool_scopes(words: &[String], category: Category) -> Option<Vec<Coverage>> {
    let (program, args) = words.split_first()?;
    let program = program_name(program);
    TOOLS.iter().find_map(|tool| {
        tool.spellings.iter().find_map(|spelling| {
            let mut spelled = spelling.split(' ');
            (spelled.next() == Some(program))
                .then(|| match_spelling(tool, spelled.collect(), args))
                .flatten()
                .map(|rest| read_tool(tool, &rest, category))
        })
    })
}

/// The arguments left once the spelling's words are found: each word must be the next
/// positional (options before it stay: `cargo +nightly test`), each `--option` must be present.
fn match_spelling<'a>(tool: &Tool, spelled: Vec<&str>, args: &'a [String]) -> Option<Vec<&'a str>> {
    let mut rest: Vec<&str> = args.iter().map(String::as_str).collect();
    for word in spelled {
        let index = if word.starts_with('-') {
            rest.iter().position(|arg| *arg == word)?
        } else {
            let index = first_positional(tool, &rest)?;
            (rest[index] == word).then_some(index)?
        };
        rest.remove(index);
    }
    Some(rest)
}

fn first_positional(tool: &Tool, args: &[&str]) -> Option<usize> {
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        if !arg.starts_with(['-', '+']) {
            return Some(index);
        }
        let takes_value = !arg.contains('=') && tool.role(arg).is_some_and(takes_value);
        index += if takes_value { 2 } else { 1 };
    }
    None
}

fn takes_value(role: Role) -> bool {
    matches!(
        role,
        Role::Narrow | Role::Setting | Role::Neutral | Role::Target | Role::SkipsStep
    )
}

/// Options no row lists: neutral for test runners, settings for every other tool.
fn unlisted_role(category: Category) -> Role {
    if category == Category::Test {
        Role::NeutralFlag
    } else {
        Role::SettingFlag
    }
}

/// Everything read from a tool's arguments before it becomes one scope or several.
#[derive(Default)]
struct Reading {
    settings: Vec<String>,
    selectors: Vec<String>,
    targets: Vec<Target>,
    skipped: Vec<String>,
    widened: Vec<&'static str>,
    positionals: Vec<String>,
}

fn read_arguments(
    options: &dyn Fn(&str) -> Option<Role>,
    args: &[&str],
    category: Category,
) -> Reading {
    let mut reading = Reading::default();
    let mut index = 0;
    while let Some(&arg) = args.get(index) {
        index += 1;
        if arg == "--" {
            // What follows goes to the program the tool runs (the test binary, the script);
            // the same table reads it.
            continue;
        }
        if let Some(toolchain) = arg.strip_prefix('+') {
            reading.settings.push(format!("+{toolchain}"));
            continue;
        }
        if !arg.starts_with('-') || arg == "-" {
            reading.positionals.push(arg.to_string());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (arg, None),
        };
        let role = options(name).unwrap_or_else(|| unlisted_role(category));
        let value = if takes_value(role) {
            inline.map(str::to_string).or_else(|| {
                let next = args.get(index).map(|v| v.to_string());
                index += 1;
                next
            })
        } else {
            None
        };
        let value = value.unwrap_or_default();
        match role {
            Role::Narrow => reading.selectors.push(format!("{name}={value}")),
            Role::NarrowFlag => reading.selectors.push(name.to_string()),
            Role::Setting => reading.settings.push(format!("{name}={value}")),
            Role::SettingFlag => reading.settings.push(arg.to_string()),
            Role::Neutral | Role::NeutralFlag => {}
            Role::Target => reading
                .targets
                .extend(value.split(',').filter_map(path_target)),
            Role::Widen => reading.widened.push(widened_name(name)),
            Role::SkipsStep => reading.skipped.push(value),
            Role::SkipsSteps(steps) => reading.skipped.extend(steps.iter().map(|s| s.to_string())),
        }
    }
    reading
}

/// The name a widening option is known by, so a run without it can say so.
fn widened_name(name: &str) -> &'static str {
    WIDENING_NAMES
        .iter()
        .find(|(known, _)| *known == name)
        .map_or("", |(_, canonical)| *canonical)
}

/// Every option some row lists as `Widen`, with the name its synonyms share.
const WIDENING_NAMES: &[(&str, &str)] = &[
    ("--workspace", "--workspace"),
    ("--all", "--workspace"),
    ("--all-targets", "--all-targets"),
    ("--include-ignored", "--include-ignored"),
];

fn read_tool(tool: &Tool, args: &[&str], category: Category) -> Vec<Coverage> {
    let options = |name: &str| tool.role(name);
    let mut reading = read_arguments(&options, args, category);
    // A run without a widening option is narrower than one with it.
    for (widening, canonical) in WIDENING_NAMES {
        if options(widening) == Some(Role::Widen) && !reading.widened.contains(canonical) {
            reading.selectors.push(format!("without {canonical}"));
        }
    }
    let positionals = std::mem::take(&mut reading.positionals);
    let mut steps = Vec::new();
    match tool.positionals {
        Positionals::Paths => reading
            .targets
            .extend(positionals.iter().filter_map(|p| path_target(p))),
        Positionals::GoPackages => {
            let default = tool.default_target.map(str::to_string);
            let packages = if positionals.is_empty() {
                default.into_iter().collect()
            } else {
                positionals
            };
            reading
                .targets
                .extend(packages.iter().filter_map(|p| go_target(p)));
        }
        Positionals::Modules => reading
            .targets
            .extend(positionals.iter().filter_map(|p| module_target(p))),
        Positionals::Filters => reading
            .selectors
            .extend(positionals.iter().map(|p| format!("filter={p}"))),
        Positionals::Settings => reading.settings.extend(positionals),
        Positionals::MavenGoals => steps = maven_steps(&positionals),
        Positionals::GradleTasks => {
            return gradle_tasks(&positionals)
                .into_iter()
                .map(|(project, task_steps)| {
                    let mut scope = finish(tool.family, task_steps, &reading);
                    scope.targets.extend(project);
                    scope.targets = whole_if_any_is(scope.targets);
                    scope
                })
                .collect();
        }
    }
    vec![finish(tool.family, steps, &reading)]
}

/// One scope from what was read; skipped steps (`-x test`, `-DskipTests`) are left out.
fn finish(family: &str, mut steps: Vec<String>, reading: &Reading) -> Coverage {
    let sorted = |mut items: Vec<String>| {
        items.sort();
        items.dedup();
        items
    };
    steps.retain(|step| !reading.skipped.contains(step));
    Coverage {
        family: family.to_string(),
        steps: sorted(steps),
        settings: sorted(reading.settings.clone()),
        selectors: sorted(reading.selectors.clone()),
        targets: whole_if_any_is(reading.targets.clone()),
    }
}

/// A target with no parts (`.`, `./...`) is the whole project, which the empty list says.
fn whole_if_any_is(targets: Vec<Target>) -> Vec<Target> {
    if targets.iter().any(|t| t.parts.is_empty()) {
        Vec::new()
    } else {
        targets
    }
}

// ─── Package scripts ─────────────────────────────────────────────────────────────────────────
// `npm test`, `npm t`, `npm run test`, `pnpm test`, `pnpm run test`, `yarn test` and
// `bun run test` run the package script `test`; what the script runs is not on the command
// line, so its scope is the script's name and the arguments passed to it (`npm test -- auth`,
// `pnpm test auth`). `pnpm vitest` and `yarn tsc` call a tool a row knows: that row reads them.
// `bun test` is bun's own test runner (a row of its own).

const PACKAGE_MANAGERS: &[&str] = &["npm", "pnpm", "yarn", "bun"];

/// Verbs of the package managers that run another tool rather than a script; the rest of
/// their verbs are `command::PACKAGE_MANAGER_VERBS`.
const RUNNER_VERBS: &[&str] = &["exec", "dlx", "x"];

fn package_script_scope(words: &[String], category: Category) -> Option<Coverage> {
    let (manager, args) = words.split_first()?;
    let manager = program_name(manager);
    if !PACKAGE_MANAGERS.contains(&manager) {
        return None;
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let manager_options = |name: &str| {
        PACKAGE_MANAGER_OPTIONS
            .iter()
            .find(|(option, _)| *option == name)
            .map(|(_, role)| *role)
    };
    // The manager's own options before the verb; unknown ones say nothing about the scope.
    let mut verb_at = 0;
    while let Some(arg) = args.get(verb_at) {
        if !arg.starts_with('-') {
            break;
        }
        let with_value = !arg.contains('=') && manager_options(arg).is_some_and(takes_value);
        verb_at += if with_value { 2 } else { 1 };
    }
    if verb_at >= args.len() {
        return None;
    }
    let before = read_arguments(
        &|name| manager_options(name).or(Some(Role::NeutralFlag)),
        &args[..verb_at],
        category,
    );
    let mut settings = before.settings;
    let (mut verb, mut rest) = (args[verb_at], &args[verb_at + 1..]);
    if manager == "yarn" && verb == "workspace" {
        let (workspace, after) = rest.split_first()?;
        settings.push(format!("workspace={workspace}"));
        (verb, rest) = after.split_first()?;
    }
    let script = match verb {
        "test" | "t" | "tst" if manager != "bun" => "test",
        "run" | "run-script" => {
            let (name, after) = rest.split_first()?;
            rest = after;
            name
        }
        _ if manager == "npm"
            || PACKAGE_MANAGER_VERBS.contains(&verb)
            || RUNNER_VERBS.contains(&verb) =>
        {
            return None
        }
        name => name,
    };
    if manager != "npm" {
        // `pnpm vitest run`, `yarn tsc --noEmit`: a tool's own binary.
        let mut as_tool = vec![script.to_string()];
        as_tool.extend(rest.iter().map(|s| s.to_string()));
        if let Some(mut found) = tool_scopes(&as_tool, category) {
            for scope in &mut found {
                scope.settings.extend(settings.iter().cloned());
                scope.settings.sort();
            }
            return found.into_iter().next();
        }
    }
    // npm reads `--flag`s before `--` itself; the script gets the rest.
    let passed: Vec<String> = if manager == "npm" {
        let separator = rest.iter().position(|a| *a == "--").unwrap_or(rest.len());
        let own = read_arguments(
            &|name| manager_options(name).or(Some(Role::NeutralFlag)),
            &rest[..separator],
            category,
        );
        settings.extend(own.settings);
        let after = rest.get(separator + 1..).unwrap_or_default();
        own.positionals
            .into_iter()
            .chain(after.iter().map(|a| a.to_string()))
            .collect()
    } else {
        rest.iter().map(|a| a.to_string()).collect()
    };
    let passed: Vec<&str> = passed.iter().map(String::as_str).collect();
    let script_options = |name: &str| {
        SCRIPT_ARGUMENTS
            .iter()
            .chain(OUTPUT_OPTIONS.iter())
            .find(|(option, _)| *option == name)
            .map(|(_, role)| *role)
    };
    let mut reading = read_arguments(&script_options, &passed, category);
    reading.settings.extend(settings);
    let positionals = std::mem::take(&mut reading.positionals);
    reading
        .targets
        .extend(positionals.iter().filter_map(|p| path_target(p)));
    Some(finish(&format!("script {script}"), Vec::new(), &reading))
}

// ─── Targets ─────────────────────────────────────────────────────────────────────────────────

/// A path, pytest node id, RSpec `file:line` or `file[1:2]`, or glob. `.` and `./` are the
/// whole project (no parts).
fn path_target(word: &str) -> Option<Target> {
    if word.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    let (path, node) = match word.split_once("::") {
        Some((path, node)) => (path, Some(node)),
        None => (word, None),
    };
    let absolute = path.starts_with('/');
    if absolute {
        parts.push("/".to_string());
    }
    parts.extend(
        path.split('/')
            .filter(|part| !part.is_empty() && *part != ".")
            .map(str::to_string),
    );
    if let Some(node) = node {
        parts.extend(node.split("::").map(|n| format!("::{n}")));
    } else if let Some(last) = parts.pop() {
        parts.extend(split_location(&last));
    }
    Some(Target { parts })
}

/// `a_spec.rb:12` → `[a_spec.rb, :12]`; `a_spec.rb[1:2]` → `[a_spec.rb, [1:2]]`.
fn split_location(name: &str) -> Vec<String> {
    if let Some((file, lines)) = name.split_once(':') {
        if file.contains('.')
            && !lines.is_empty()
            && lines.chars().all(|c| c.is_ascii_digit() || c == ':')
        {
            return vec![file.to_string(), format!(":{lines}")];
        }
    }
    if let Some((file, ids)) = name.strip_suffix(']').and_then(|n| n.split_once('[')) {
        if file.contains('.') && !is_glob(name) {
            return vec![file.to_string(), format!("[{ids}]")];
        }
    }
    vec![name.to_string()]
}

/// `./...` and `...` are every package; `./pkg/...` is pkg and below; `./pkg` and `.` are one
/// package (an empty last part).
fn go_target(pattern: &str) -> Option<Target> {
    let (base, recursive) = match pattern.strip_suffix("...") {
        Some(base) => (base, true),
        None => (pattern, false),
    };
    let mut parts: Vec<String> = base
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .map(str::to_string)
        .collect();
    if !recursive {
        parts.push(String::new());
    }
    Some(Target { parts })
}

/// `tests.test_a.TestX` or `tests/test_a.py`: the module path as parts. `discover` (unittest's
/// subcommand) names nothing.
fn module_target(word: &str) -> Option<Target> {
    if word == "discover" {
        return None;
    }
    let path = word.strip_suffix(".py").unwrap_or(word);
    let parts = path
        .split(['/', '.'])
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect();
    Some(Target { parts })
}

fn is_glob(part: &str) -> bool {
    part.contains(['*', '?'])
}

/// Glob parts against literal parts: `**` spans any number of parts, `*` and `?` stay in one.
/// Dynamic programming over (pattern, parts) prefixes, so no pattern takes exponential time.
fn glob_matches(pattern: &[String], parts: &[String]) -> bool {
    // matched[j]: the pattern read so far matches the first j parts.
    let mut matched = vec![false; parts.len() + 1];
    matched[0] = true;
    for piece in pattern {
        let mut next = vec![false; parts.len() + 1];
        if piece == "**" {
            let mut reachable = false;
            for j in 0..=parts.len() {
                reachable |= matched[j];
                next[j] = reachable;
            }
        } else {
            for j in 1..=parts.len() {
                next[j] = matched[j - 1] && part_matches(piece, &parts[j - 1]);
            }
        }
        matched = next;
    }
    matched[parts.len()]
}

fn part_matches(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    // Classic two-pointer wildcard match, linear in practice.
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

// ─── Maven and Gradle ────────────────────────────────────────────────────────────────────────

/// Every phase up to the last one named, and each `plugin:goal`.
fn maven_steps(goals: &[String]) -> Vec<String> {
    let last_phase = goals
        .iter()
        .filter_map(|goal| MAVEN_PHASES.iter().position(|phase| phase == goal))
        .max();
    let phases = last_phase.map_or(&[][..], |last| &MAVEN_PHASES[..=last]);
    let plugin_goals = goals.iter().filter(|goal| goal.contains(':')).cloned();
    phases
        .iter()
        .map(|p| p.to_string())
        .chain(plugin_goals)
        .collect()
}

/// Each task with its project (`:app:test` → `:app`, none for the root) and the steps it runs.
fn gradle_tasks(tasks: &[String]) -> Vec<(Option<Target>, Vec<String>)> {
    tasks
        .iter()
        .filter(|task| task.as_str() != "clean")
        .map(|task| {
            let (project, name) = match task.rsplit_once(':') {
                Some((project, name)) => (project, name),
                None => ("", task.as_str()),
            };
            let project = project
                .split(':')
                .filter(|p| !p.is_empty())
                .map(|p| format!(":{p}"))
                .collect::<Vec<_>>();
            let target = (!project.is_empty()).then_some(Target { parts: project });
            let included = GRADLE_TASKS
                .iter()
                .find(|(known, _)| *known == name)
                .map_or(&[][..], |(_, steps)| *steps);
            let mut steps = vec![name.to_string()];
            steps.extend(included.iter().map(|s| s.to_string()));
            (target, steps)
        })
        .collect()
}
