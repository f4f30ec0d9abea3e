//! Long-term memory: typed entries of a workspace, their archive and search, team memory kept in
//! the repository, and the repository's identity that memory follows.

pub mod archive;
pub mod kind;
pub mod repository;
pub mod search;
pub mod team;
pub mod workspace;
