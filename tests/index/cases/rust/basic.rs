//! Configuration loading.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{BufRead, BufReader as Reader};
use std::path::Path as FsPath;
use serde::{Deserialize, Serialize};
use crate::error::*;
pub use self::defaults::DEFAULT_PORT;
extern crate log;

/// Maximum size of a configuration file, in bytes.
pub const MAX_SIZE: u64 = 1 << 20;

static GREETING: &str = "hello";

/// Errors raised while loading a configuration.
#[derive(Debug)]
pub enum ConfigError {
    /// The file could not be read.
    Io(std::io::Error),
    Parse { line: usize, message: String },
}

/// A parsed configuration.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Config {
    pub name: String,
    pub values: HashMap<String, Value>,
    port: Option<u16>,
}

/// A configuration value.
pub type Value = serde_json::Value;

/// Loads a configuration from `path`.
///
/// Lines starting with `#` are ignored.
pub fn load(path: &FsPath) -> Result<Config, ConfigError> {
    let file = File::open(path).map_err(ConfigError::Io)?;
    let mut config = Config::default();
    for (number, line) in Reader::new(file).lines().enumerate() {
        let line = line.map_err(ConfigError::Io)?;
        if let Some((key, value)) = parse_line(&line) {
            config.values.insert(key.to_string(), Value::String(value.into()));
        } else {
            log::warn!("skipping line {}", number);
        }
    }
    Ok(config)
}

fn parse_line(line: &str) -> Option<(&str, &str)> {
    line.split_once('=').map(|(k, v)| (k.trim(), v.trim()))
}

/// Builds a map from pairs.
macro_rules! map {
    ($($k:expr => $v:expr),* $(,)?) => {{
        let mut m = ::std::collections::HashMap::new();
        $(m.insert($k, $v);)*
        m
    }};
}

pub mod defaults {
    /// Port used when none is configured.
    pub const DEFAULT_PORT: u16 = 8080;

    pub fn port() -> u16 {
        DEFAULT_PORT
    }
}

mod tests;

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn parses_pairs() {
        let pairs = map! { "a" => 1 };
        assert_eq!(parse_line("a=1"), Some(("a", "1")));
        assert!(pairs.contains_key("a"));
    }
}
