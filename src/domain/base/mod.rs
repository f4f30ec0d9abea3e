//! The leaves every concern may use: text as a prompt may carry it, time, paths, the agents'
//! names and what reading a store gave. Nothing here uses another folder of the domain.

pub mod classifier;
pub mod hash;
pub mod host_name;
pub mod install_level;
pub mod paths;
pub mod pattern;
pub mod stored;
pub mod text;
pub mod time;
