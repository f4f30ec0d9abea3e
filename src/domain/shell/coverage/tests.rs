use super::tables::TOOLS;
use super::*;

fn only_scope(command: &str) -> Coverage {
    let found = scopes(command);
    assert_eq!(found.len(), 1, "{command}: {found:?}");
    found.into_iter().next().unwrap().1
}

/// Whether a passing `run` clears an error recorded from `failed` (in its first category).
fn covers(run: &str, failed: &str) -> bool {
    let category = scopes(failed).first().map(|(c, _)| *c).expect(failed);
    let run: Vec<Coverage> = scopes(run).into_iter().map(|(_, s)| s).collect();
    run_covers(&run, &failed_scopes(failed, category))
}

fn assert_covers(run: &str, failed: &str) {
    assert!(covers(run, failed), "`{run}` should cover `{failed}`");
}

fn assert_not_covers(run: &str, failed: &str) {
    assert!(!covers(run, failed), "`{run}` should not cover `{failed}`");
}

/// One command per row of `TOOLS`, with the family it must land in. Every row is here.
const ROW_SPELLINGS: &[(&str, &str)] = &[
    ("python -m pytest -q", "pytest"),
    ("py.test tests", "pytest"),
    ("python3 -m unittest discover", "unittest"),
    ("python manage.py test blog", "django test"),
    ("npx jest --ci", "jest"),
    ("./node_modules/.bin/vitest run", "vitest"),
    ("mocha --reporter dot", "mocha"),
    ("node --test test/", "node --test"),
    ("bun test", "bun test"),
    ("deno test --allow-read", "deno test"),
    ("cargo +nightly t", "cargo test"),
    ("cargo nextest run", "cargo nextest"),
    ("go test -race ./...", "go test"),
    ("bundle exec rspec", "rspec"),
    ("bin/rails test", "rails test"),
    ("vendor/bin/phpunit", "phpunit"),
    ("./vendor/bin/pest", "pest"),
    ("php artisan test", "artisan test"),
    ("dotnet test", "dotnet test"),
    ("ctest --output-on-failure", "ctest"),
    ("bats test/", "bats"),
    ("npx playwright test", "playwright"),
    ("./mvnw -q verify", "maven"),
    ("./gradlew build", "gradle"),
    ("npx tsc --noEmit", "tsc"),
    ("tsgo --noEmit", "tsgo"),
    ("vue-tsc --noEmit", "vue-tsc"),
    ("uv run mypy src", "mypy"),
    ("dmypy run -- src", "dmypy"),
    ("pyright", "pyright"),
    ("basedpyright", "basedpyright"),
    ("vendor/bin/phpstan analyse src", "phpstan"),
    ("cargo check", "cargo check"),
    ("pnpm exec eslint .", "eslint"),
    ("flake8 app", "flake8"),
    ("poetry run ruff check .", "ruff check"),
    ("pylint app", "pylint"),
    ("shellcheck deploy.sh", "shellcheck"),
    ("bundle exec rubocop", "rubocop"),
    ("cargo clippy --all-targets -- -D warnings", "cargo clippy"),
    ("go vet ./...", "go vet"),
    ("golangci-lint run", "golangci-lint"),
    ("staticcheck ./...", "staticcheck"),
    ("npx oxlint", "oxlint"),
    ("npx stylelint 'src/**/*.css'", "stylelint"),
    ("pycodestyle app", "pycodestyle"),
    ("bandit -r app", "bandit"),
    ("hadolint Dockerfile", "hadolint"),
    ("yamllint .", "yamllint"),
    ("actionlint", "actionlint"),
    ("vendor/bin/phpcs src", "phpcs"),
    ("npx biome lint src", "biome lint"),
    ("npx biome ci .", "biome check"),
    ("deno lint", "deno lint"),
    ("black --check .", "black"),
    ("ruff format --check .", "ruff format"),
    ("isort --check-only .", "isort"),
    ("npx prettier --check .", "prettier"),
    ("cargo fmt --check", "cargo fmt"),
    ("gofmt -l .", "gofmt"),
    ("deno fmt --check", "deno fmt"),
    ("npx biome format src", "biome format"),
    ("cargo build --release", "cargo build"),
    ("cargo doc", "cargo doc"),
    ("go build ./cmd/app", "go build"),
];

#[test]
fn every_row_is_reached_by_its_spellings() {
    for tool in TOOLS {
        assert!(
            ROW_SPELLINGS
                .iter()
                .any(|(_, family)| *family == tool.family),
            "row {} has no spelling test",
            tool.family
        );
    }
    for (command, family) in ROW_SPELLINGS {
        for (_, scope) in scopes(command) {
            assert_eq!(scope.family, *family, "{command}");
        }
        assert!(!scopes(command).is_empty(), "{command}");
    }
}

/// Per row: the broad run covers the narrow one, never the other way round.
const NARROWER: &[(&str, &str)] = &[
    ("pytest", "pytest tests/test_a.py"),
    ("pytest", "pytest -k add"),
    ("pytest tests/", "pytest tests/test_a.py::test_add"),
    (
        "pytest tests/test_a.py",
        "pytest tests/test_a.py::TestMath::test_add[1-2]",
    ),
    (
        "python -m unittest",
        "python -m unittest tests.test_a.TestX",
    ),
    (
        "python -m unittest tests",
        "python -m unittest tests/test_a.py",
    ),
    ("python manage.py test", "python manage.py test blog.tests"),
    ("npx jest", "npx jest src/auth.test.ts"),
    ("jest", "jest -t 'logs in'"),
    ("vitest run", "vitest run src/a.test.ts"),
    ("mocha", "mocha --grep parser"),
    ("mocha test/", "mocha test/unit/a.spec.js"),
    ("node --test", "node --test test/a.test.js"),
    ("bun test", "bun test src/a.test.ts"),
    ("deno test", "deno test --filter add"),
    ("cargo test", "cargo test parse"),
    ("cargo test", "cargo test -p core"),
    ("cargo test --workspace", "cargo test"),
    ("cargo test", "cargo test -- --exact parse::tests::one"),
    ("cargo nextest run", "cargo nextest run -E 'test(parse)'"),
    ("go test ./...", "go test ./pkg/..."),
    ("go test ./...", "go test ./internal/store"),
    ("go test ./pkg/...", "go test ./pkg/sub"),
    ("go test ./...", "go test -run TestParse ./..."),
    ("rspec", "rspec spec/a_spec.rb"),
    ("rspec spec/a_spec.rb", "rspec spec/a_spec.rb:12"),
    ("rspec", "rspec -e 'logs in'"),
    (
        "bin/rails test",
        "bin/rails test test/models/user_test.rb:7",
    ),
    ("phpunit", "phpunit --filter testAdd"),
    ("vendor/bin/pest", "vendor/bin/pest tests/Unit"),
    ("php artisan test", "php artisan test --filter=Login"),
    ("dotnet test", "dotnet test --filter Name~Add"),
    ("ctest", "ctest -R parser"),
    ("bats test", "bats test/a.bats"),
    (
        "npx playwright test",
        "npx playwright test e2e/login.spec.ts",
    ),
    ("mvn verify", "mvn test"),
    ("mvn install", "mvn -Dtest=UserTest test"),
    ("mvn test", "mvn -pl core test"),
    ("gradle build", "gradle test"),
    (
        "./gradlew check",
        "./gradlew :app:test --tests 'com.x.UserTest'",
    ),
    ("tsc", "tsc src/a.ts"),
    ("tsgo", "tsgo src/a.ts"),
    ("vue-tsc", "vue-tsc src/a.vue"),
    ("mypy src", "mypy src/app/models.py"),
    ("dmypy run -- src", "dmypy run -- src/app.py"),
    ("pyright", "pyright src/a.py"),
    ("basedpyright", "basedpyright src/a.py"),
    ("phpstan analyse src", "phpstan analyse src/Model"),
    ("cargo check --all-targets", "cargo check"),
    ("eslint .", "eslint src/a.ts"),
    ("eslint 'src/**/*.ts'", "eslint src/lib/a.ts"),
    ("flake8", "flake8 app/models.py"),
    ("ruff check .", "ruff check app/"),
    ("pylint app", "pylint app/models.py"),
    ("shellcheck scripts/*.sh", "shellcheck scripts/deploy.sh"),
    ("rubocop", "rubocop --only Style/StringLiterals"),
    (
        "cargo clippy --all-targets -- -D warnings",
        "cargo clippy -- -D warnings",
    ),
    ("go vet ./...", "go vet ./pkg"),
    ("golangci-lint run", "golangci-lint run ./pkg/..."),
    ("staticcheck ./...", "staticcheck ./pkg"),
    ("oxlint", "oxlint src"),
    ("stylelint src", "stylelint src/a.css"),
    ("pycodestyle", "pycodestyle app"),
    ("bandit -r .", "bandit -r app"),
    ("hadolint .", "hadolint docker/Dockerfile"),
    ("yamllint .", "yamllint .github"),
    ("actionlint", "actionlint .github/workflows/ci.yml"),
    ("phpcs", "phpcs src"),
    ("biome lint", "biome lint src"),
    ("biome check", "biome check src"),
    ("deno lint", "deno lint src"),
    ("black --check .", "black --check app/models.py"),
    ("ruff format --check", "ruff format --check app"),
    ("isort --check-only .", "isort --check-only app"),
    ("prettier --check .", "prettier --check src/a.ts"),
    ("cargo fmt --all --check", "cargo fmt --check"),
    ("gofmt -l .", "gofmt -l cmd"),
    ("deno fmt --check", "deno fmt --check src"),
    ("biome format", "biome format src"),
    ("cargo build --workspace", "cargo build -p core"),
    ("cargo doc", "cargo doc -p core"),
    ("go build ./...", "go build ./cmd/app"),
    ("npm test", "npm test -- auth"),
    ("npm test", "npm run test -- -t 'adds numbers'"),
    ("pnpm test", "pnpm test src/auth.test.ts"),
    ("yarn test", "yarn test --grep login"),
];

#[test]
fn broad_runs_cover_narrow_ones_and_not_the_reverse() {
    for (broad, narrow) in NARROWER {
        assert_covers(broad, narrow);
        assert_covers(narrow, narrow);
        assert_not_covers(narrow, broad);
    }
}

#[test]
fn equivalent_spellings_cover_each_other() {
    let groups: &[&[&str]] = &[
        &[
            "tsc --noEmit",
            "npx tsc --noEmit",
            "pnpm exec tsc --noEmit",
            "yarn tsc --noEmit",
            "bunx tsc",
            "./node_modules/.bin/tsc --noEmit --pretty",
        ],
        &[
            "pytest",
            "py.test",
            "python -m pytest",
            "python3 -m pytest -q",
            "uv run pytest",
            "poetry run pytest -x",
        ],
        &[
            "npm test",
            "npm t",
            "npm run test",
            "pnpm test",
            "yarn test",
            "pnpm run test",
        ],
        &["cargo test", "cargo t", "cargo test --locked -q"],
        &[
            "rspec",
            "bundle exec rspec",
            "bin/rspec --format documentation",
        ],
        &["eslint .", "npx eslint .", "pnpm eslint . --cache"],
        &[
            "vitest run",
            "npx vitest run",
            "pnpm vitest run --reporter dot",
        ],
    ];
    for group in groups {
        for a in *group {
            for b in *group {
                assert_covers(a, b);
            }
        }
    }
}

#[test]
fn sibling_targets_do_not_cover_each_other() {
    let pairs = [
        ("pytest tests/test_b.py", "pytest tests/test_a.py"),
        (
            "pytest tests/test_a.py::test_one",
            "pytest tests/test_a.py::test_two",
        ),
        ("pytest tests/unit", "pytest tests/unit_extra/test_a.py"),
        ("rspec spec/b_spec.rb", "rspec spec/a_spec.rb"),
        ("rspec spec/a_spec.rb:30", "rspec spec/a_spec.rb:12"),
        ("rspec -e other", "rspec -e 'logs in'"),
        ("mocha --grep other", "mocha --grep parser"),
        ("go test ./other/...", "go test ./pkg/..."),
        ("go test ./pkg", "go test ./pkg/sub"),
        ("go test", "go test ./..."),
        ("shellcheck b.sh", "shellcheck a.sh"),
        ("eslint src/b.ts", "eslint src/a.ts"),
        ("eslint 'src/**/*.ts'", "eslint src/a.js"),
        ("flake8 app/b.py", "flake8 app/a.py"),
        ("ruff check app/b.py", "ruff check app/a.py"),
        ("npm test -- billing", "npm test -- auth"),
        ("cargo test lexer", "cargo test parser"),
        ("jest -t other", "jest -t 'logs in'"),
        (
            "python -m unittest tests.test_b",
            "python -m unittest tests.test_a",
        ),
        ("mvn -pl api test", "mvn -pl core test"),
        ("gradle :api:test", "gradle :app:test"),
    ];
    for (run, failed) in pairs {
        assert_not_covers(run, failed);
    }
}

#[test]
fn different_tools_never_cover_each_other() {
    let pairs = [
        ("black --check .", "flake8 ."),
        ("flake8 .", "black --check ."),
        ("prettier --check .", "eslint ."),
        ("eslint .", "prettier --check ."),
        ("cargo fmt --check", "cargo clippy"),
        ("cargo clippy", "cargo fmt --check"),
        ("ruff format --check .", "ruff check ."),
        ("ruff check .", "ruff format --check ."),
        ("tsc --noEmit", "npm test"),
        ("npx tsc --noEmit", "npm run typecheck"),
        ("npm run typecheck", "npx tsc --noEmit"),
        ("cargo check", "cargo test"),
        ("cargo build", "cargo test"),
        ("go vet ./...", "go test ./..."),
        ("mypy .", "pytest"),
        ("npm test", "npx jest"),
        ("npm test", "npm run lint"),
        ("pnpm test", "bun test"),
        ("make check", "make test"),
        ("node scripts/other.js", "node scripts/migrate.js"),
    ];
    for (run, failed) in pairs {
        assert_not_covers(run, failed);
    }
}

#[test]
fn settings_must_match() {
    let pairs = [
        ("tsc -p tsconfig.app.json", "tsc"),
        ("tsc", "tsc -p tsconfig.app.json"),
        ("cargo clippy", "cargo clippy -- -D warnings"),
        ("cargo test --features x", "cargo test"),
        ("eslint .", "eslint --max-warnings 0 ."),
        ("flake8 --exit-zero .", "flake8 ."),
        ("ruff check --exit-zero .", "ruff check ."),
        ("npm --prefix web test", "npm test"),
        ("npm test", "npm --prefix web test"),
        ("pnpm --filter api test", "pnpm --filter web test"),
        ("go test -tags integration ./...", "go test ./..."),
        ("cargo +nightly test", "cargo test"),
    ];
    for (run, failed) in pairs {
        assert_not_covers(run, failed);
    }
    assert_covers("pnpm --filter web test", "pnpm --filter web test -- auth");
    assert_covers(
        "tsc -p tsconfig.app.json --pretty",
        "npx tsc -p tsconfig.app.json",
    );
}

#[test]
fn build_steps_that_run_the_tests_cover_test_failures() {
    for run in [
        "mvn verify",
        "mvn install",
        "mvn -q clean package",
        "./mvnw deploy",
    ] {
        assert_covers(run, "mvn test");
    }
    assert_covers("mvn test", "mvn compile");
    assert_not_covers("mvn compile", "mvn test");
    assert_not_covers("mvn install -DskipTests", "mvn test");
    assert_not_covers("mvn package -Dmaven.test.skip=true", "mvn test");
    assert_not_covers("mvn test", "mvn verify");
    for run in ["gradle build", "./gradlew check", "gradle test --no-daemon"] {
        assert_covers(run, "gradle test");
    }
    assert_covers("gradle build", "gradle :app:test");
    assert_not_covers("gradle assemble", "gradle test");
    assert_not_covers("gradle build -x test", "gradle test");
    assert_not_covers("gradle test", "gradle build");
    // `:app:test` and `:lib:build` are two scopes: the pair covers `:lib:test` but not
    // `:app:build`.
    assert_covers("gradle :app:test :lib:build", "gradle :lib:test");
    assert_not_covers("gradle :app:test :lib:build", "gradle :app:build");
}

#[test]
fn targets_are_parsed_from_paths_ids_and_packages() {
    let parts = |command: &str| -> Vec<Vec<String>> {
        only_scope(command)
            .targets
            .into_iter()
            .map(|t| t.parts)
            .collect()
    };
    assert_eq!(
        parts("pytest ./tests/test_a.py::TestX::test_y"),
        [["tests", "test_a.py", "::TestX", "::test_y"]]
    );
    assert_eq!(
        parts("rspec spec/a_spec.rb:12"),
        [["spec", "a_spec.rb", ":12"]]
    );
    assert_eq!(
        parts("rspec spec/a_spec.rb[1:2]"),
        [["spec", "a_spec.rb", "[1:2]"]]
    );
    assert_eq!(parts("go test ./pkg"), [["pkg", ""]]);
    assert_eq!(parts("go test"), [[""]]);
    assert_eq!(parts("go test ./pkg/..."), [["pkg"]]);
    assert!(parts("go test ./...").is_empty());
    assert!(parts("pytest .").is_empty());
    assert!(parts("pytest tests .").is_empty(), "`.` is everything");
    assert_eq!(
        parts("python -m unittest tests/test_a.py"),
        [["tests", "test_a"]]
    );
    assert_eq!(parts("mocha --spec test/a.js"), [["test", "a.js"]]);
}

#[test]
fn option_roles_are_read_with_their_values() {
    let scope = only_scope("pytest -k 'add and not slow' --tb short -p no:cacheprovider tests");
    assert_eq!(scope.selectors, ["-k=add and not slow"]);
    assert_eq!(scope.targets.len(), 1);
    let scope = only_scope("go test -run=TestParse -count=1 ./pkg/...");
    assert_eq!(scope.selectors, ["-run=TestParse"]);
    let scope = only_scope("cargo clippy --all-targets -- -D warnings");
    assert_eq!(scope.settings, ["-D=warnings"]);
    assert!(!scope
        .selectors
        .contains(&"without --all-targets".to_string()));
    assert!(only_scope("cargo clippy")
        .selectors
        .contains(&"without --all-targets".to_string()));
    // Synonyms widen alike.
    assert_covers("cargo test --all", "cargo test --workspace");
    assert_covers("cargo test --workspace", "cargo test --all");
    // Unlisted options: neutral for a test run, a setting for a linter.
    assert!(only_scope("pytest -x --weird-plugin-flag")
        .settings
        .is_empty());
    assert_eq!(only_scope("eslint --weird .").settings, ["--weird"]);
}

#[test]
fn a_compound_command_is_judged_by_its_failing_step() {
    let failed = failed_scopes("npm run build && npm test", Category::Test);
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].family, "script test");
    let run: Vec<Coverage> = scopes("npm test").into_iter().map(|(_, s)| s).collect();
    assert!(run_covers(&run, &failed));
    let failed_build = failed_scopes("npm run build && npm test", Category::Build);
    assert!(!run_covers(&run, &failed_build));
    // A passing chain covers each of its steps.
    let run: Vec<Coverage> = scopes("npx tsc --noEmit && pytest")
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert!(run_covers(
        &run,
        &failed_scopes("pytest tests/test_a.py", Category::Test)
    ));
    assert!(run_covers(&run, &failed_scopes("tsc", Category::Typecheck)));
    // Both test steps of a chain must be covered when either may have failed.
    let failed = failed_scopes("pytest tests/a.py && pytest tests/b.py", Category::Test);
    let run: Vec<Coverage> = scopes("pytest tests/a.py")
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert!(!run_covers(&run, &failed));
    assert!(!run_covers(&run, &[]), "nothing to cover is not covered");
}

#[test]
fn shell_scripts_and_wrappers_are_looked_through() {
    assert_covers("bash -c 'cd web && npx jest'", "jest src/a.test.ts");
    assert_covers("timeout 300 pytest", "CI=1 pytest tests/test_a.py");
    assert_covers("cross-env NODE_ENV=test jest", "jest src/a.test.ts");
}

#[test]
fn unknown_commands_cover_only_themselves() {
    assert_covers("node scripts/migrate.js", "node  scripts/migrate.js");
    assert_not_covers(
        "node scripts/migrate.js --dry-run",
        "node scripts/migrate.js",
    );
    assert_covers("make test", "make test");
    assert_not_covers("make", "make test");
    assert_not_covers("make -C web test", "make test");
}

#[test]
fn globs_match_within_and_across_parts() {
    let glob = |p: &str, t: &str| {
        let split = |s: &str| s.split('/').map(str::to_string).collect::<Vec<_>>();
        glob_matches(&split(p), &split(t))
    };
    assert!(glob("src/**/*.ts", "src/a.ts"));
    assert!(glob("src/**/*.ts", "src/x/y/a.ts"));
    assert!(!glob("src/**/*.ts", "src/x/a.js"));
    assert!(glob("test_?.py", "test_a.py"));
    assert!(!glob("test_?.py", "test_ab.py"));
    assert!(glob("*", "anything"));
    assert!(!glob("*.sh", "dir/a.sh"));
    assert!(glob("**", ""));
    assert!(glob("a/**", "a/b/c"));
    // Many `**` against many parts stays fast (dynamic programming, not backtracking).
    let pattern = vec!["**".to_string(); 40]
        .into_iter()
        .chain(["x".to_string()])
        .collect::<Vec<_>>();
    let parts = vec!["a".to_string(); 200];
    assert!(!glob_matches(&pattern, &parts));
}
