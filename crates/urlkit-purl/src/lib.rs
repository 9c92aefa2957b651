//! The persistent-URL resolver (PRODUCT §4c) around the library's `urlkit::purl`: where
//! records are kept, who may change them, and the server that answers with them.
//!
//! | module | concept |
//! |---|---|
//! | `checker` | the link checker: every target visited, politely, and what became of it |
//! | `model` | what is stored: a record with its version, owner domain and last change; the history's events; who acts (a user, through a token, with grants per domain) |
//! | `store` | the database (SQLite or PostgreSQL, migrations in `migrations/`): records, history, domains, users, tokens, resolution counts |
//! | `registry` | the records held in memory beside the store: reads answered from memory, writes checked (owner, version, chains) then stored then applied |
//! | `transfer` | records in and out: the export with every history, and the readers of other services' files (PURLZ's XML, `.htaccess`, CSV, JSON Lines) |
//! | `server` | `urlkit purl serve`: resolution on every path but `/-/`, the JSON API, the page, health and metrics, on the web tool's connection layer |

pub mod checker;
pub mod checks;
pub mod model;
pub mod registry;
pub mod server;
pub mod store;
pub mod transfer;
