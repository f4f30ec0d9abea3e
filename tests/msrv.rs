//! Keeps `rust-version` honest: it must be at least what every locked package needs, and the
//! README must state the same version.
//!
//! What a package needs is its own `rust-version`, or the first Rust release of its edition,
//! whichever is newer. What the project's own files use is in `OWN_NEEDS`. Packages come from `cargo metadata` for the host platform (packages of
//! other platforms are not downloaded by a build here, and asking for them would need the
//! network).

use std::process::Command;

use serde_json::Value;

/// The first Rust release of each edition.
const EDITION_FLOOR: [(&str, &str); 4] = [
    ("2015", "1.0"),
    ("2018", "1.31"),
    ("2021", "1.56"),
    ("2024", "1.85"),
];

/// What the project's own files use that needs a newer Rust or Cargo: (file, text found in
/// it, the first release that understands it).
const OWN_NEEDS: [(&str, &str, &str); 2] = [
    ("src/store/lock.rs", ".try_lock()", "1.89"),
    (".cargo/config.toml", "\"host-tuple\"", "1.91"),
];

/// `1.85`, `1.85.0` → (1, 85, 0).
fn version(text: &str) -> (u64, u64, u64) {
    let mut parts = text.split('.').map(|part| {
        part.parse::<u64>()
            .unwrap_or_else(|_| panic!("bad Rust version {text:?}"))
    });
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    let patch = parts.next().unwrap_or(0);
    (major, minor, patch)
}

/// What one package of `cargo metadata` needs: (version, why).
fn needs(package: &Value) -> ((u64, u64, u64), String) {
    let name = format!("{} {}", package["name"], package["version"]);
    let edition = package["edition"].as_str().unwrap_or("2015");
    let floor = EDITION_FLOOR
        .iter()
        .find(|(e, _)| *e == edition)
        .map(|(_, v)| version(v))
        .unwrap_or_else(|| panic!("{name}: unknown edition {edition}"));
    match package["rust_version"].as_str().map(version) {
        Some(declared) if declared > floor => (declared, format!("{name}: rust-version")),
        _ => (floor, format!("{name}: edition {edition}")),
    }
}

fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).arg("-vV").output().expect("rustc -vV");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_string()
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(["--filter-platform", &host_triple()])
        .arg("--manifest-path")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn rust_version_covers_every_locked_package() {
    let metadata = metadata();
    let ours = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "ocmem")
        .expect("ocmem is in the metadata");
    let declared = version(
        ours["rust_version"]
            .as_str()
            .expect("Cargo.toml declares rust-version"),
    );
    let resolved: Vec<&Value> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| &node["id"])
        .collect();
    let mut too_new: Vec<String> = Vec::new();
    let mut checked = 0;
    for package in metadata["packages"].as_array().unwrap() {
        if package["name"] == "ocmem" || !resolved.contains(&&package["id"]) {
            continue;
        }
        checked += 1;
        let (needed, why) = needs(package);
        if needed > declared {
            too_new.push(format!("{why} needs {needed:?}"));
        }
    }
    assert!(checked > 20, "only {checked} locked packages were checked");
    assert!(
        too_new.is_empty(),
        "rust-version {declared:?} is older than what locked packages need:\n{}",
        too_new.join("\n")
    );
}

fn declared() -> (u64, u64, u64) {
    let manifest = include_str!("../Cargo.toml");
    let text = manifest
        .lines()
        .find_map(|line| line.strip_prefix("rust-version = "))
        .expect("Cargo.toml declares rust-version");
    version(text.trim_matches('"'))
}

#[test]
fn rust_version_covers_what_our_own_files_use() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, text, needs) in OWN_NEEDS {
        let content = std::fs::read_to_string(root.join(file))
            .unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
        if content.contains(text) {
            assert!(
                declared() >= version(needs),
                "{file} uses {text}, which needs Rust {needs}; rust-version is {:?}",
                declared()
            );
        }
    }
}

#[test]
fn readme_states_the_declared_rust_version() {
    let manifest = include_str!("../Cargo.toml");
    let declared = manifest
        .lines()
        .find_map(|line| line.strip_prefix("rust-version = "))
        .expect("Cargo.toml declares rust-version")
        .trim_matches('"');
    let readme = include_str!("../README.md");
    let claim = format!("Rust {declared} or newer");
    assert!(
        readme.contains(&claim),
        "README.md must say {claim:?}, as Cargo.toml declares"
    );
    for line in readme.lines().filter(|l| l.contains("or newer")) {
        if line.contains("Rust ") && !line.contains(&claim) {
            panic!("README.md states another Rust version: {line}");
        }
    }
}

#[test]
fn edition_floor_and_declared_versions_compare_as_numbers() {
    assert!(version("1.100") > version("1.89"));
    assert!(version("1.85.0") == version("1.85"));
    let package = serde_json::json!({
        "name": "x", "version": "1.0.0", "edition": "2024", "rust_version": "1.80"
    });
    assert_eq!(needs(&package).0, version("1.85"));
}
