//! A small linear classifier over hashed character and word n-grams: the one method behind
//! every "what does this text mean" decision (a request to remember, which text is the memory,
//! its type, a candidate line kept or junk, a recall request).
//!
//! Why this and not phrase tables: n-grams of characters see a trigger misspelt, inflected or
//! written without its accents, and the weights are learned from labelled messages rather than
//! grown example by example. The weights are data compiled into the binary (`Weights::parse`
//! reads them in place, no per-process build step), inference is a few hundred hash lookups,
//! and the same text always gets the same answer. `train` is what produces the weights, from
//! the corpora, deterministically (see `examples/train_models.rs`).

mod blend;
mod conv;
mod features;
mod linear;
mod train;

pub use blend::Blend;
pub use conv::{sequence, train_conv, ConvExample, ConvOptions, ConvWeights, OrderReader, Token};
pub use features::{each_feature, hangul_affixes, tokens, FeatureSink, Field, Known};
pub use linear::{Contribution, Input, Prediction, Weights};
pub use train::{train, train_ranking, Example, TrainOptions};
