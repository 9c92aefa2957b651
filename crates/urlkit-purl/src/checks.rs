//! Checks of a record against the others, shared by the command line and the server.

use crate::model::Stored;
use urlkit::purl::{Record, RecordError, Table};

/// Whether `record` can join `records` (the stored ones, tombstones included): checked on
/// its own, and a chain that would come back to itself refused.
///
/// Bad input: a record [`Record::check`] refuses, or a chain loop (`to` named), is the
/// error; a stored record that no longer checks is left out of the comparison.
pub fn chain_check(records: &[Stored], record: &Record) -> Result<(), RecordError> {
    let mut table = Table::new();
    for stored in records {
        if stored.record.name != record.name {
            let _ = table.insert(stored.record.clone());
        }
    }
    table.insert(record.clone()).map(drop)
}
