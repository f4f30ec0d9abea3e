//! Memory that follows a renamed or moved checkout, through the binary, with real git
//! repositories: the identity recorded in workspace memory, adoption of the store a vanished
//! folder left, and everything that must not be adopted (a live second clone, a fork, a
//! folder without git, a broken or newer store, a choice between several). ocmem runs with a
//! `git` on PATH that logs each call before running the real one, so the tests see when git
//! runs, and that an ordinary hook never runs it.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use serde_json::{json, Value};

struct Lab {
    env: Env,
    /// The canonical temp directory the repositories are made in.
    root: PathBuf,
    real_git: PathBuf,
    /// A directory holding only the logging `git`.
    wrapper_dir: PathBuf,
    git_log: PathBuf,
}

impl Lab {
    fn new() -> Lab {
        let env = Env::new();
        let root = fs::canonicalize(env.tmp.path()).unwrap().join("lab");
        fs::create_dir_all(&root).unwrap();
        let real_git = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|dir| dir.join("git"))
            .find(|git| git.is_file())
            .expect("git is installed");
        let wrapper_dir = env.tmp.path().join("bin");
        fs::create_dir_all(&wrapper_dir).unwrap();
        let git_log = env.tmp.path().join("git-calls.log");
        let wrapper = wrapper_dir.join("git");
        fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
                git_log.display(),
                real_git.display()
            ),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
        }
        Lab {
            env,
            root,
            real_git,
            wrapper_dir,
            git_log,
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// The real git, outside ocmem's view, with no user configuration.
    fn git(&self, dir: &Path, args: &[&str]) -> String {
        let out = std::process::Command::new(&self.real_git)
            .current_dir(dir)
            .env("HOME", self.env.tmp.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .args([
                "-c",
                "user.name=Test",
                "-c",
                "user.email=test@example.com",
                "-c",
                "init.defaultBranch=main",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
        stdout(&out)
    }

    /// A repository at `relative` with one commit (its own root) and, when given, a remote.
    fn repo(&self, relative: &str, remote: Option<&str>) -> PathBuf {
        let dir = self.path(relative);
        fs::create_dir_all(dir.join("src")).unwrap();
        self.git(&dir, &["init", "-q"]);
        fs::write(dir.join("README.md"), format!("# {relative}\n")).unwrap();
        self.git(&dir, &["add", "."]);
        self.git(&dir, &["commit", "-q", "-m", &format!("start {relative}")]);
        if let Some(url) = remote {
            self.git(&dir, &["remote", "add", "origin", url]);
        }
        dir
    }

    fn root_commit(&self, dir: &Path) -> String {
        self.git(dir, &["rev-list", "--max-parents=0", "HEAD"])
            .trim()
            .to_string()
    }

    fn rename(&self, from: &Path, to: &str) -> PathBuf {
        let to = self.path(to);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::rename(from, &to).unwrap();
        to
    }

    /// `ocmem` with the logging git first on PATH.
    fn ocmem(&self) -> assert_cmd::Command {
        let mut path = vec![self.wrapper_dir.clone()];
        path.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let mut cmd = self.env.ocmem();
        cmd.env("PATH", std::env::join_paths(path).unwrap());
        cmd
    }

    /// `ocmem render` for a session's first render in `dir`, started without waiting.
    fn spawn_render(&self, dir: &Path, session: &str) -> std::process::Child {
        use std::process::{Command, Stdio};
        let cmd = self.ocmem();
        let mut child = Command::new(cmd.get_program())
            .args(cmd.get_args())
            .envs(
                cmd.get_envs()
                    .filter_map(|(k, v)| v.map(|v| (k.to_os_string(), v.to_os_string()))),
            )
            .env_remove("OCMEM_DATA_DIR")
            .env_remove("XDG_DATA_HOME")
            .arg("render")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let event = json!({"directory": display(dir), "sessionID": session});
        let mut stdin = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut stdin, event.to_string().as_bytes()).unwrap();
        child
    }

    fn render_with(&self, mut cmd: assert_cmd::Command, dir: &Path, event: Value) -> Output {
        let mut event = event;
        event["directory"] = json!(dir.to_string_lossy());
        cmd.arg("render")
            .write_stdin(event.to_string())
            .output()
            .unwrap()
    }

    /// A session's first render, which freezes and prints the workspace block.
    fn render(&self, dir: &Path, session: &str) -> Output {
        self.render_with(self.ocmem(), dir, json!({"sessionID": session}))
    }

    /// Asks to remember `text` in a session of its own, quietly.
    fn remember(&self, dir: &Path, text: &str) {
        self.remember_with(self.ocmem(), dir, text);
    }

    fn remember_with(&self, cmd: assert_cmd::Command, dir: &Path, text: &str) {
        let session = format!("ses_{}", &sha256_hex(text)[..12]);
        let event = json!({"sessionID": session, "prompt": format!("remember: {text}"), "messageID": "msg_1"});
        let out = self.render_with(cmd, dir, event);
        assert_success(&out);
        assert!(stdout(&out).contains(text), "{}", stdout(&out));
    }

    fn workspace_dir(&self, root: &Path) -> PathBuf {
        self.env.workspace_dir(&root.to_string_lossy())
    }

    fn memory_file(&self, root: &Path) -> PathBuf {
        self.workspace_dir(root).join("workspace-memory.json")
    }

    fn memory(&self, root: &Path) -> Value {
        serde_json::from_str(&fs::read_to_string(self.memory_file(root)).unwrap()).unwrap()
    }

    fn active_texts(&self, root: &Path) -> Vec<String> {
        common::active_texts(&self.memory(root))
    }

    /// The git calls ocmem made so far.
    fn git_calls(&self) -> Vec<String> {
        fs::read_to_string(&self.git_log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn doctor(&self, dir: &Path, json: bool) -> String {
        let mut cmd = self.ocmem();
        cmd.current_dir(dir).arg("doctor");
        if json {
            cmd.arg("--json");
        }
        // Exits non-zero here (no host is installed): only the report matters.
        stdout(&cmd.output().unwrap())
    }
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn a_renamed_checkout_keeps_its_memory_and_says_so_once() {
    let lab = Lab::new();
    let old = lab.repo("work/app", Some("git@github.com:acme/app.git"));
    lab.remember(&old, "use pnpm for all packages");
    let memory = lab.memory(&old);
    assert_eq!(
        memory["workspace"]["repository"],
        json!({"rootCommits": [lab.root_commit(&old)], "remote": "github.com/acme/app"})
    );
    let ids: Vec<Value> = memory["entries"].as_array().unwrap().clone();
    assert_eq!(
        lab.git_calls(),
        vec![format!(
            "-C {} rev-list --max-parents=0 HEAD",
            display(&old)
        )],
        "git runs once, when the store is created"
    );

    let new = lab.rename(&old, "work/app-renamed");
    let out = lab.render(&new, "ses_after_rename");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("use pnpm for all packages"));
    let notice = stderr(&out);
    assert_eq!(notice.lines().count(), 1, "{notice}");
    assert!(
        notice.contains("adopted") && notice.contains(&display(&old)),
        "{notice}"
    );
    assert!(notice.contains(&display(&new)), "{notice}");

    // Moved, not copied: sessions went along, the old key is gone.
    assert!(!lab.workspace_dir(&old).exists());
    assert!(lab
        .workspace_dir(&new)
        .join("sessions")
        .read_dir()
        .unwrap()
        .any(|_| true));
    let adopted = lab.memory(&new);
    assert_eq!(adopted["workspace"]["root"], json!(display(&new)));
    assert_eq!(
        adopted["workspace"]["key"],
        json!(&sha256_hex(&display(&new))[..16])
    );
    assert_eq!(
        adopted["workspace"]["adoptedFrom"]["root"],
        json!(display(&old))
    );
    assert_eq!(
        adopted["workspace"]["repository"],
        memory["workspace"]["repository"]
    );
    assert_eq!(adopted["entries"].as_array().unwrap(), &ids);

    // The next hooks are ordinary: quiet, and without git.
    let calls = lab.git_calls().len();
    assert_eq!(calls, 2, "one more call to consider the adoption");
    let out = lab.render(&new, "ses_next");
    assert_success(&out);
    assert!(stdout(&out).contains("use pnpm for all packages"));
    let event = bash(
        &display(&new),
        "ses_next",
        "call_1",
        "pnpm test",
        "ok",
        json!(0),
    );
    let out = lab
        .ocmem()
        .arg("tool-after")
        .write_stdin(event.to_string())
        .output()
        .unwrap();
    assert_success(&out);
    lab.remember(&new, "the staging database is read-only");
    assert_eq!(lab.git_calls().len(), calls, "{:?}", lab.git_calls());

    let text = lab.doctor(&new.join("src"), false);
    assert!(
        text.contains(&format!("memory adopted from {}", display(&old))),
        "{text}"
    );
    let report: Value = serde_json::from_str(&lab.doctor(&new, true)).unwrap();
    assert_eq!(
        report["workspace"]["adopted_from"]["root"],
        json!(display(&old))
    );
    assert!(report["workspace"]["adopted_from"]["at"].is_string());
}

#[test]
fn a_folder_moved_elsewhere_is_found_from_a_subdirectory_and_doctor_tells_beforehand() {
    let lab = Lab::new();
    // No remote: the root commit alone tells the repository.
    let old = lab.repo("projects/tool", None);
    lab.remember(&old, "the CLI must stay dependency-free");
    assert!(lab.memory(&old)["workspace"]["repository"]
        .get("remote")
        .is_none());
    // A decoy orphan: another repository, moved too.
    let other = lab.repo("projects/other", None);
    lab.remember(&other, "other uses yarn workspaces");
    let other_moved = lab.rename(&other, "elsewhere/other");

    let new = lab.rename(&old, "archive/2026/tool");
    let report: Value = serde_json::from_str(&lab.doctor(&new, true)).unwrap();
    assert_eq!(
        report["workspace"]["adopted_from"],
        json!({"root": display(&old), "at": null})
    );
    let text = lab.doctor(&new, false);
    assert!(text.contains("will be adopted at the next hook"), "{text}");
    assert!(!lab.workspace_dir(&new).exists(), "doctor changes nothing");

    let out = lab.render(&new.join("src"), "ses_moved");
    assert!(out.status.success());
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert_eq!(
        lab.active_texts(&new),
        vec!["the CLI must stay dependency-free"]
    );
    assert!(!stdout(&out).contains("yarn"));
    // The decoy's store is where it was, untouched; its own folder adopts it.
    assert!(lab.memory_file(&other).is_file());
    let out = lab.render(&other_moved, "ses_other");
    assert!(stdout(&out).contains("other uses yarn workspaces"));
}

#[test]
fn two_live_clones_keep_separate_memories() {
    let lab = Lab::new();
    let seed = lab.repo("seed", Some("https://github.com/acme/shared.git"));
    let first = lab.path("clones/first");
    let second = lab.path("clones/second");
    for clone in [&first, &second] {
        lab.git(
            &lab.root,
            &["clone", "-q", &display(&seed), &display(clone)],
        );
        lab.git(
            clone,
            &[
                "remote",
                "set-url",
                "origin",
                "https://github.com/acme/shared.git",
            ],
        );
    }
    lab.remember(&first, "first clone tries the new parser");
    let before = fs::read(lab.memory_file(&first)).unwrap();
    let calls = lab.git_calls().len();

    let out = lab.render(&second, "ses_second");
    assert_success(&out);
    assert!(!stdout(&out).contains("new parser"), "{}", stdout(&out));
    assert_eq!(fs::read(lab.memory_file(&first)).unwrap(), before);
    assert!(!lab.memory_file(&second).exists());
    assert_eq!(
        lab.git_calls().len(),
        calls,
        "no orphan, no git: the first clone's folder exists"
    );
    lab.remember(&second, "second clone keeps the old parser");
    assert_eq!(
        lab.active_texts(&first),
        vec!["first clone tries the new parser"]
    );
    assert_eq!(
        lab.active_texts(&second),
        vec!["second clone keeps the old parser"]
    );
}

#[test]
fn another_spelling_of_the_remote_is_the_same_repository_and_a_fork_is_not() {
    let lab = Lab::new();
    let app = lab.repo("a/app", Some("https://GitHub.com/acme/app.git"));
    lab.remember(&app, "deploys go through the release branch");
    // A fork: the same root commit, another remote, its folder gone too.
    let fork = lab.path("f/app");
    lab.git(&lab.root, &["clone", "-q", &display(&app), &display(&fork)]);
    lab.git(
        &fork,
        &[
            "remote",
            "set-url",
            "origin",
            "git@github.com:someone/app.git",
        ],
    );
    lab.remember(&fork, "the fork patches the release script");
    fs::remove_dir_all(&fork).unwrap();

    let moved = lab.rename(&app, "b/app");
    lab.git(
        &moved,
        &["remote", "set-url", "origin", "git@github.com:acme/app"],
    );
    let out = lab.render(&moved, "ses_ssh");
    assert!(out.status.success());
    assert!(stderr(&out).contains(&display(&app)), "{}", stderr(&out));
    assert!(stdout(&out).contains("deploys go through the release branch"));
    assert!(!stdout(&out).contains("fork patches"));
    assert_eq!(
        lab.active_texts(&fork),
        vec!["the fork patches the release script"]
    );
}

#[test]
fn a_folder_without_git_has_no_identity_and_adopts_nothing() {
    let lab = Lab::new();
    let notes = lab.path("notes");
    fs::create_dir_all(&notes).unwrap();
    lab.remember(&notes, "notes are written in Markdown");
    assert!(lab.memory(&notes)["workspace"].get("repository").is_none());
    let before = fs::read(lab.memory_file(&notes)).unwrap();

    let moved = lab.rename(&notes, "notes-2026");
    let out = lab.render(&moved, "ses_notes");
    assert_success(&out);
    assert!(!stdout(&out).contains("Markdown"));
    assert_eq!(fs::read(lab.memory_file(&notes)).unwrap(), before);
    // A git repository made at the new place is not the folder that left either.
    let fresh = lab.repo("notes-2026/inner", None);
    let out = lab.render(&fresh, "ses_inner");
    assert_success(&out);
    assert!(!stdout(&out).contains("Markdown"));
    assert!(lab.git_calls().is_empty(), "{:?}", lab.git_calls());
}

#[test]
fn without_git_on_path_nothing_is_recorded_or_adopted_and_nothing_fails() {
    let lab = Lab::new();
    let empty_bin = lab.env.tmp.path().join("empty-bin");
    fs::create_dir_all(&empty_bin).unwrap();
    let without_git = || {
        let mut cmd = lab.env.ocmem();
        cmd.env("PATH", &empty_bin);
        cmd
    };

    let app = lab.repo("app", Some("git@github.com:acme/app.git"));
    lab.remember_with(without_git(), &app, "builds run in the container");
    assert!(lab.memory(&app)["workspace"].get("repository").is_none());
    // A later write with git recording it, once: a store from before is not left out.
    lab.remember(&app, "tests need the database container");
    assert_eq!(
        lab.memory(&app)["workspace"]["repository"]["rootCommits"],
        json!([lab.root_commit(&app)])
    );

    let moved = lab.rename(&app, "app-moved");
    let before = fs::read(lab.memory_file(&app)).unwrap();
    let out = lab.render_with(without_git(), &moved, json!({"sessionID": "ses_nogit"}));
    assert_success(&out);
    assert!(!stdout(&out).contains("container"));
    assert_eq!(fs::read(lab.memory_file(&app)).unwrap(), before);
}

#[test]
fn a_broken_or_newer_candidate_store_is_left_alone() {
    fn cut(text: &str) -> String {
        text[..text.len() / 2].to_string()
    }
    fn newer(text: &str) -> String {
        text.replacen("\"version\": 1", "\"version\": 99", 1)
    }
    type Spoil = fn(&str) -> String;
    for (name, spoil) in [("cut", cut as Spoil), ("newer", newer)] {
        let lab = Lab::new();
        let app = lab.repo("app", Some("git@github.com:acme/app.git"));
        lab.remember(&app, "the API is versioned by date");
        let file = lab.memory_file(&app);
        let spoiled = spoil(&fs::read_to_string(&file).unwrap());
        fs::write(&file, &spoiled).unwrap();
        let before = lab.env.data_files();

        let moved = lab.rename(&app, "app-moved");
        let out = lab.render(&moved, "ses_broken");
        assert_success(&out);
        assert!(!stdout(&out).contains("versioned"), "{name}");
        assert_eq!(fs::read_to_string(&file).unwrap(), spoiled, "{name}");
        let after: Vec<String> = lab
            .env
            .data_files()
            .into_iter()
            .filter(|f| {
                !f.starts_with(&format!(
                    "workspaces/{}",
                    &sha256_hex(&display(&moved))[..16]
                ))
            })
            .collect();
        assert_eq!(after, before, "{name}: nothing quarantined or moved");
    }
}

#[test]
fn a_repository_without_commits_gets_no_identity_and_runs_no_git() {
    let lab = Lab::new();
    let dir = lab.path("empty-repo");
    fs::create_dir_all(&dir).unwrap();
    lab.git(&dir, &["init", "-q"]);
    lab.remember(&dir, "this project starts from the template");
    assert!(lab.memory(&dir)["workspace"].get("repository").is_none());
    assert!(lab.git_calls().is_empty(), "{:?}", lab.git_calls());
}

#[test]
fn several_orphans_of_one_repository_are_not_chosen_between() {
    let lab = Lab::new();
    let seed = lab.repo("seed", None);
    let mut gone = Vec::new();
    for (name, fact) in [
        ("one", "clone one pins node 20"),
        ("two", "clone two pins node 22"),
    ] {
        let clone = lab.path(name);
        lab.git(
            &lab.root,
            &["clone", "-q", &display(&seed), &display(&clone)],
        );
        lab.remember(&clone, fact);
        gone.push((clone, fs::read(lab.memory_file(&lab.path(name))).unwrap()));
    }
    for (clone, _) in &gone {
        fs::remove_dir_all(clone).unwrap();
    }
    let third = lab.path("three");
    lab.git(
        &lab.root,
        &["clone", "-q", &display(&seed), &display(&third)],
    );
    let out = lab.render(&third, "ses_three");
    assert!(out.status.success());
    let notice = stderr(&out);
    assert_eq!(notice.lines().count(), 1, "{notice}");
    assert!(notice.contains("none adopted"), "{notice}");
    for (clone, bytes) in &gone {
        assert!(notice.contains(&display(clone)), "{notice}");
        assert_eq!(&fs::read(lab.memory_file(clone)).unwrap(), bytes);
    }
    assert!(!stdout(&out).contains("pins node"));
}

#[test]
fn concurrent_first_hooks_adopt_once_and_leave_nothing_behind() {
    let lab = Lab::new();
    let old = lab.repo("app", Some("git@github.com:acme/app.git"));
    lab.remember(&old, "release notes live in CHANGES.md");
    let new = lab.rename(&old, "app-renamed");
    let children: Vec<_> = (0..6)
        .map(|i| lab.spawn_render(&new, &format!("ses_race_{i}")))
        .collect();
    let outputs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let notices: Vec<String> = outputs.iter().map(stderr).collect();
    for out in &outputs {
        assert!(out.status.success(), "{}", stderr(out));
    }
    assert_eq!(
        notices.iter().filter(|n| n.contains("adopted")).count(),
        1,
        "{notices:?}"
    );
    assert!(
        notices.iter().all(|n| !n.contains("warning")),
        "{notices:?}"
    );
    assert_eq!(
        lab.active_texts(&new),
        vec!["release notes live in CHANGES.md"]
    );
    assert!(
        !lab.workspace_dir(&old).exists(),
        "{:?}",
        lab.env.data_files()
    );
}

#[test]
fn a_checkout_with_a_git_file_and_packed_refs_is_read_without_git_until_the_store_is_made() {
    let lab = Lab::new();
    let seed = lab.repo("seed", Some("https://github.com/acme/lib.git"));
    // `.git` is a file naming a git directory elsewhere, and the branch is only in packed-refs.
    let checkout = lab.path("work/lib");
    let git_dir = lab.path("git-dirs/lib.git");
    fs::create_dir_all(git_dir.parent().unwrap()).unwrap();
    lab.git(
        &lab.root,
        &[
            "clone",
            "-q",
            "--separate-git-dir",
            &display(&git_dir),
            &display(&seed),
            &display(&checkout),
        ],
    );
    lab.git(&checkout, &["pack-refs", "--all"]);
    assert!(checkout.join(".git").is_file());
    assert!(!git_dir.join("refs/heads/main").exists());
    lab.git(
        &checkout,
        &["remote", "set-url", "origin", "git@github.com:acme/lib"],
    );

    lab.remember(&checkout, "the public API is frozen until 2.0");
    assert_eq!(
        lab.memory(&checkout)["workspace"]["repository"],
        json!({"rootCommits": [lab.root_commit(&seed)], "remote": "github.com/acme/lib"})
    );
    assert_eq!(lab.git_calls().len(), 1, "{:?}", lab.git_calls());
    let moved = lab.rename(&checkout, "work/lib-v2");
    let out = lab.render(&moved, "ses_lib");
    assert!(
        stdout(&out).contains("the public API is frozen"),
        "{}",
        stderr(&out)
    );
}
