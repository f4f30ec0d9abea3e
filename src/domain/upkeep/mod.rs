//! Looking after the data directory: `baseline`'s audit, `doctor`'s report, and what `gc --sweep`
//! finds dead.

pub mod audit;
pub mod doctor;
pub mod sweep;
