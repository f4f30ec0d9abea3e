//! Trains every model of ocmem's language layer from the labelled corpora in `tests/fixtures/`
//! and writes their weights into `src/`. Deterministic: the same corpora give the same bytes
//! (`tests/models.rs` checks that the committed weights are what this produces).
//!
//!     cargo run --release --example train_models            # train, write, report
//!     cargo run --release --example train_models -- --curve  # also the learning curves
//!     cargo run --release --example train_models -- --blind  # also the blind batches' figures
//!     cargo run --release --example train_models -- --blind-only  # the committed weights'
//!                                                                 # figures on the blind
//!                                                                 # batches; trains nothing
//!     cargo run --release --example train_models -- --tune   # the decision odds, on the
//!                                                            # development split; writes nothing

mod corpus;
mod training;

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let curve = std::env::args().any(|a| a == "--curve");
    let blind = std::env::args().any(|a| a == "--blind");
    if std::env::args().any(|a| a == "--conv") {
        if std::env::args().any(|a| a == "--dev") {
            corpus::start_tuning();
        }
        println!("{}", training::conv_experiment(root));
        return;
    }
    if std::env::args().any(|a| a == "--blind-only") {
        println!("{}", training::blind(root, &training::committed(root)));
        return;
    }
    if std::env::args().any(|a| a == "--tune") {
        corpus::start_tuning();
        println!("{}", training::tune(root));
        return;
    }
    // The models read the words of the vocabulary only: a vocabulary that changes changes what
    // the compiled-in code reads, so it is written first and training runs again on it.
    let vocabulary = training::vocabulary(root);
    let compiled = ocmem::domain::capture::explicit::vocabulary::compiled();
    rerun_if_changed(
        root,
        ocmem::domain::capture::explicit::vocabulary::FILE,
        vocabulary.as_bytes(),
        compiled.as_bytes(),
    );
    // The gate reads the guard's verdicts as rule hits: a guard that changes changes the gate's
    // examples, so it is written first and training runs again on it, like the vocabulary.
    rerun_if_changed(
        root,
        ocmem::domain::guard::injection::model::WEIGHTS_FILE,
        &training::train_guard_of(root),
        ocmem::domain::guard::injection::model::compiled_bytes(),
    );
    let trained = training::train_all(root);
    for model in &trained {
        std::fs::write(root.join(model.path), &model.bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", model.path));
        println!("{}", model.report);
    }
    if blind {
        println!("{}", training::blind(root, &trained));
    }
    if curve {
        println!("{}", training::learning_curves(root));
    }
}

/// Writes `learned` to `path` and exits with 2 (build and run again) when it is not what the
/// binary has compiled in: what the rest of training reads must be what was just learned.
fn rerun_if_changed(root: &std::path::Path, path: &str, learned: &[u8], compiled: &[u8]) {
    if learned != compiled {
        std::fs::write(root.join(path), learned).unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!("{path} changed: build and run train_models again to train on it");
        std::process::exit(2);
    }
}
