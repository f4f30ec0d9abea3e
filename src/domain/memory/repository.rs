//! A repository's identity, so that memory follows a project whose folder was renamed or
//! moved: its root commits, and its remote URL folded to one spelling. Kept in workspace
//! memory under `workspace.repository`, a field the TypeScript plugin's readers ignore:
//!
//! ```json
//! "workspace": {"root": "/src/app", "key": "…",
//!               "repository": {"rootCommits": ["9fceb02…"], "remote": "github.com/acme/app"},
//!               "adoptedFrom": {"root": "/src/old-app", "key": "…", "at": "2026-…Z"}}
//! ```
//!
//! Also the pure readers of the `.git` files this needs (config, HEAD, packed-refs), so that
//! an ordinary hook never runs git.
//!
//! | remote as configured                      | folded to              |
//! |-------------------------------------------|------------------------|
//! | `git@GitHub.com:acme/app.git`             | `github.com/acme/app`  |
//! | `https://user:token@github.com/acme/app/` | `github.com/acme/app`  |
//! | `ssh://git@github.com:22/acme/app.git`    | `github.com/acme/app`  |
//! | `file:///srv/git/app.git`, `/srv/git/app` | `/srv/git/app`         |

use serde_json::{json, Map, Value};

/// The field of `workspace` holding the identity.
pub const IDENTITY_FIELD: &str = "repository";
/// The field of `workspace` saying which store this one was adopted from.
pub const ADOPTED_FIELD: &str = "adoptedFrom";
/// At most this many root commits are kept: a history that merged more unrelated ones is
/// still told apart by the first of them.
const MAX_ROOT_COMMITS: usize = 16;

/// What makes two checkouts one repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The commits without parents reachable from HEAD, sorted; never empty.
    pub root_commits: Vec<String>,
    /// The folded URL of the `origin` remote (else of the first remote), when there is one.
    pub remote: Option<String>,
}

impl Identity {
    /// An identity from `git rev-list --max-parents=0 HEAD`'s output and a folded remote;
    /// `None` when the output names no commit.
    pub fn new(rev_list_output: &str, remote: Option<String>) -> Option<Identity> {
        let mut roots: Vec<String> = rev_list_output
            .lines()
            .map(str::trim)
            .filter(|line| is_object_id(line))
            .map(str::to_ascii_lowercase)
            .collect();
        roots.sort();
        roots.dedup();
        roots.truncate(MAX_ROOT_COMMITS);
        (!roots.is_empty()).then_some(Identity {
            root_commits: roots,
            remote,
        })
    }

    /// Whether `other` is a checkout of the same repository: a root commit in common, and the
    /// same remote when both have one (a fork shares its root commits, not its remote).
    pub fn same_repository(&self, other: &Identity) -> bool {
        let shares_root = self
            .root_commits
            .iter()
            .any(|root| other.root_commits.contains(root));
        shares_root && remotes_agree(self.remote.as_deref(), other.remote.as_deref())
    }

    pub fn to_value(&self) -> Value {
        let mut value = json!({"rootCommits": self.root_commits});
        if let Some(remote) = &self.remote {
            value["remote"] = json!(remote);
        }
        value
    }

    /// The identity kept in a store's `workspace` object; `None` when absent or malformed.
    pub fn from_workspace(workspace: &Map<String, Value>) -> Option<Identity> {
        let value = workspace.get(IDENTITY_FIELD)?;
        let roots = value.get("rootCommits")?.as_array()?;
        let roots: Option<Vec<&str>> = roots.iter().map(Value::as_str).collect();
        let remote = match value.get("remote") {
            None | Some(Value::Null) => None,
            Some(Value::String(remote)) => Some(remote.clone()),
            Some(_) => return None,
        };
        Identity::new(&roots?.join("\n"), remote)
    }
}

/// Remotes only tell two repositories apart when both are known.
pub fn remotes_agree(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// A full SHA-1 or SHA-256 object name.
fn is_object_id(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Where a store came from, as `adoptedFrom` records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adoption {
    pub root: String,
    pub key: String,
    /// RFC 3339.
    pub at: String,
}

impl Adoption {
    pub fn to_value(&self) -> Value {
        json!({"root": self.root, "key": self.key, "at": self.at})
    }

    pub fn from_workspace(workspace: &Map<String, Value>) -> Option<Adoption> {
        let value = workspace.get(ADOPTED_FIELD)?;
        let text = |name: &str| value.get(name)?.as_str().map(str::to_string);
        Some(Adoption {
            root: text("root")?,
            key: text("key").unwrap_or_default(),
            at: text("at").unwrap_or_default(),
        })
    }

    /// The one line said when it happens, and by `doctor` afterwards.
    pub fn notice(&self, new_root: &str) -> String {
        format!(
            "memory of {} (folder gone, same repository) adopted for {new_root}",
            self.root
        )
    }
}

/// The URL of the `origin` remote in a git config file, else of the first remote that has
/// one; `include` directives are not followed.
pub fn remote_url(config: &str) -> Option<String> {
    let mut section: Option<String> = None;
    let mut first: Option<String> = None;
    for line in config.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            section = remote_section(header);
            continue;
        }
        let Some(remote) = &section else { continue };
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if !key.trim().eq_ignore_ascii_case("url") {
            continue;
        }
        let value = config_value(value);
        if value.is_empty() {
            continue;
        }
        if remote == "origin" {
            return Some(value);
        }
        first.get_or_insert(value);
    }
    first
}

/// The remote's name in a `[remote "name"]` header (section names fold case, the
/// subsection's does not).
fn remote_section(header: &str) -> Option<String> {
    let header = header.split(']').next()?.trim();
    let (section, name) = header.split_once(char::is_whitespace)?;
    if !section.eq_ignore_ascii_case("remote") {
        return None;
    }
    let name = name.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some(name.to_string())
}

/// A config value without its comment and quotes.
fn config_value(raw: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = raw.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' => out.extend(chars.next()),
            '#' | ';' if !quoted => break,
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

/// A remote URL folded so that every spelling of one repository is one string: scheme,
/// user and password, port, `.git` suffix, trailing slashes, query and case of the host
/// dropped. `None` for an empty URL.
pub fn fold_remote(url: &str) -> Option<String> {
    let url = url.trim();
    if url.is_empty() {
        return None;
    }
    let (host, path) = if let Some((scheme, rest)) = url.split_once("://") {
        let rest = rest.split(['?', '#']).next().unwrap_or_default();
        if scheme.eq_ignore_ascii_case("file") {
            ("", rest)
        } else {
            let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
            (without_port(without_user(authority)), path)
        }
    } else if let Some((authority, path)) = scp_like(url) {
        (without_user(authority), path)
    } else {
        ("", url)
    };
    let path = path.trim_end_matches('/');
    let path = path
        .strip_suffix(".git")
        .unwrap_or(path)
        .trim_end_matches('/');
    if host.is_empty() {
        return (!path.is_empty()).then(|| path.to_string());
    }
    Some(format!(
        "{}/{}",
        host.to_ascii_lowercase(),
        path.trim_start_matches('/')
    ))
}

/// `[user@]host:path`, which git reads as ssh when the colon comes before any slash (a
/// one-letter host is a Windows drive).
fn scp_like(url: &str) -> Option<(&str, &str)> {
    let (authority, path) = url.split_once(':')?;
    let host = without_user(authority);
    (!authority.contains('/') && host.len() > 1).then_some((authority, path))
}

fn without_user(authority: &str) -> &str {
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host)
}

fn without_port(host: &str) -> &str {
    if let Some(end) = host.find(']') {
        return &host[..=end];
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// What a `HEAD` file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// `ref: refs/heads/main`
    Branch(String),
    /// A detached commit.
    Detached,
}

pub fn parse_head(text: &str) -> Option<Head> {
    let text = text.trim();
    if let Some(name) = text.strip_prefix("ref:") {
        let name = name.trim();
        // A ref name never climbs out of the git directory.
        let safe = name.starts_with("refs/") && !name.split('/').any(|part| part == "..");
        return safe.then(|| Head::Branch(name.to_string()));
    }
    is_object_id(text).then_some(Head::Detached)
}

/// Whether a `packed-refs` file holds `name`.
pub fn packed_ref_exists(packed_refs: &str, name: &str) -> bool {
    packed_refs
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with('^'))
        .filter_map(|line| line.split_once(' '))
        .any(|(id, refname)| is_object_id(id) && refname.trim() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT_A: &str = "9fceb02d0ae598e95dc970b74767f19372d61af8";
    const ROOT_B: &str = "1b2e3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";

    #[test]
    fn every_spelling_of_one_remote_folds_to_one_string() {
        let one = [
            "git@github.com:acme/app.git",
            "git@GitHub.COM:acme/app",
            "https://github.com/acme/app",
            "https://github.com/acme/app.git/",
            "https://user:s3cr3t@github.com/acme/app.git",
            "ssh://git@github.com:22/acme/app.git",
            "ssh://git@github.com/acme/app",
            "git://github.com/acme/app.git",
            "http://github.com:80/acme/app?ref=x#frag",
            "github.com:acme/app.git",
        ];
        for url in one {
            assert_eq!(
                fold_remote(url).as_deref(),
                Some("github.com/acme/app"),
                "{url}"
            );
        }
        // Decoys: another owner, another host, another name; a path's case is kept.
        for other in [
            "git@github.com:acme/app2.git",
            "git@github.com:other/app.git",
            "git@gitlab.com:acme/app.git",
            "https://github.com/Acme/App",
        ] {
            assert_ne!(fold_remote(other).as_deref(), Some("github.com/acme/app"));
        }
    }

    #[test]
    fn local_remotes_fold_to_their_path() {
        assert_eq!(
            fold_remote("file:///srv/git/app.git").as_deref(),
            Some("/srv/git/app")
        );
        assert_eq!(
            fold_remote("/srv/git/app/").as_deref(),
            Some("/srv/git/app")
        );
        assert_eq!(
            fold_remote("../app.git").as_deref(),
            Some("../app"),
            "no colon: a relative path"
        );
        assert_eq!(
            fold_remote(r"C:\repos\app.git").as_deref(),
            Some(r"C:\repos\app")
        );
        assert_eq!(fold_remote("  "), None);
        assert_eq!(
            fold_remote("ssh://git@[::1]:2222/app.git").as_deref(),
            Some("[::1]/app")
        );
    }

    #[test]
    fn origin_is_the_remote_else_the_first() {
        let config = r#"
[core]
	url = not-a-remote
[remote "upstream"]
	url = git@github.com:upstream/app.git
[Remote "origin"] ; a comment
	fetch = +refs/heads/*:refs/remotes/origin/*
	URL = "https://github.com/acme/app.git" # trailing
"#;
        assert_eq!(
            remote_url(config).as_deref(),
            Some("https://github.com/acme/app.git")
        );
        let no_origin = "[remote \"fork\"]\n\turl = git@host:me/app\n[remote \"b\"]\n\turl = x\n";
        assert_eq!(remote_url(no_origin).as_deref(), Some("git@host:me/app"));
        // A subsection's name is case-sensitive: "Origin" is just another remote.
        let cased = "[remote \"first\"]\n url = one\n[remote \"Origin\"]\n url = two\n";
        assert_eq!(remote_url(cased).as_deref(), Some("one"));
        assert_eq!(remote_url("[core]\n\tbare = false\n"), None);
        assert_eq!(remote_url("[remote \"origin\"]\n\turl =\n"), None);
    }

    #[test]
    fn identity_reads_rev_list_and_round_trips() {
        let output = format!("{ROOT_B}\n{ROOT_A}\nwarning: noise\n\n{ROOT_B}\n");
        let id = Identity::new(&output, Some("github.com/acme/app".into())).unwrap();
        assert_eq!(id.root_commits, vec![ROOT_B, ROOT_A]);
        let mut workspace = Map::new();
        workspace.insert(IDENTITY_FIELD.into(), id.to_value());
        assert_eq!(Identity::from_workspace(&workspace), Some(id));
        assert_eq!(Identity::new("fatal: bad revision 'HEAD'\n", None), None);
        assert_eq!(Identity::new("", None), None);
        workspace.insert(IDENTITY_FIELD.into(), json!({"rootCommits": [1]}));
        assert_eq!(Identity::from_workspace(&workspace), None);
        workspace.insert(IDENTITY_FIELD.into(), json!({"rootCommits": []}));
        assert_eq!(Identity::from_workspace(&workspace), None);
    }

    #[test]
    fn one_repository_shares_a_root_and_agrees_on_its_remote() {
        let id = |roots: &[&str], remote: Option<&str>| Identity {
            root_commits: roots.iter().map(|r| r.to_string()).collect(),
            remote: remote.map(str::to_string),
        };
        let app = id(&[ROOT_A], Some("github.com/acme/app"));
        assert!(app.same_repository(&id(&[ROOT_A], Some("github.com/acme/app"))));
        assert!(
            app.same_repository(&id(&[ROOT_A], None)),
            "remote added later"
        );
        assert!(app.same_repository(&id(&[ROOT_A, ROOT_B], Some("github.com/acme/app"))));
        assert!(!app.same_repository(&id(&[ROOT_B], Some("github.com/acme/app"))));
        assert!(
            !app.same_repository(&id(&[ROOT_A], Some("github.com/someone/app"))),
            "a fork"
        );
    }

    #[test]
    fn head_and_packed_refs() {
        assert_eq!(
            parse_head("ref: refs/heads/main\n"),
            Some(Head::Branch("refs/heads/main".into()))
        );
        assert_eq!(parse_head(&format!("{ROOT_A}\n")), Some(Head::Detached));
        assert_eq!(parse_head("ref: refs/../../etc/passwd"), None);
        assert_eq!(parse_head("garbage"), None);
        let packed = format!(
            "# pack-refs with: peeled fully-peeled sorted\n{ROOT_A} refs/heads/main\n^{ROOT_B}\n{ROOT_B} refs/tags/v1\n"
        );
        assert!(packed_ref_exists(&packed, "refs/heads/main"));
        assert!(!packed_ref_exists(&packed, "refs/heads/mai"));
        assert!(!packed_ref_exists(&packed, "refs/heads/dev"));
    }

    #[test]
    fn adoption_round_trips_and_says_where_from() {
        let adoption = Adoption {
            root: "/src/old".into(),
            key: "0123456789abcdef".into(),
            at: "2026-11-21T16:00:00.000Z".into(),
        };
        let mut workspace = Map::new();
        workspace.insert(ADOPTED_FIELD.into(), adoption.to_value());
        assert_eq!(Adoption::from_workspace(&workspace), Some(adoption.clone()));
        let line = adoption.notice("/src/new");
        assert!(
            line.contains("/src/old") && line.contains("/src/new"),
            "{line}"
        );
        assert!(!line.contains('\n'));
    }
}
