//! Persistent URLs (PRODUCT §4c): records that name where a resource lives now, and how a
//! resolver answers a request with them. No I/O: the server, its storage and its command
//! line build on this.
//!
//! | module | concept |
//! |---|---|
//! | `name` | a record's name in one normal form (RFC 3986 §6), and which names a domain holds |
//! | `record` | what a name answers (redirect, partial, chain, negotiated, 404, 410), checked |
//! | `negotiate` | `Accept` and `Accept-Language` with q-values and specificity (RFC 9110 §12) |
//! | `table` | the records held, and the answer to a request: exact name, else the longest partial prefix; chains followed; never a location off a record's site |

mod name;
pub mod negotiate;
mod record;
mod table;

pub use name::{Name, NameError, NameProblem, MAX_NAME_BYTES, RESERVED_PREFIX};
pub use record::{
    Action, Offer, Record, RecordError, RecordProblem, DEFAULT_NEGOTIATED_STATUS, DEFAULT_STATUS,
    MAX_CHAIN, REDIRECT_STATUSES,
};
pub use table::{Answer, RedirectKind, Table};
