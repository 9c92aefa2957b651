-- A domain's archive fallback, off unless both are set: once a record's target has failed
-- `archive_after` checks in a row, the resolver sends people to `archive_template` filled
-- in ({url}: the target, {timestamp}: its last good check as YYYYMMDDhhmmss).
ALTER TABLE domains ADD COLUMN archive_template TEXT;
ALTER TABLE domains ADD COLUMN archive_after BIGINT;
