-- The link checker's status history: one row per check of a record's target, only ever
-- inserted. The kind is the outcome's label (ok, moved, gone, client_error, server_error,
-- redirect_loop, dns, tls, timeout, unreachable, disallowed); http_status the last status
-- answered, if any; suggested where permanent redirects lead (for moved).
CREATE TABLE target_checks (
    name TEXT NOT NULL,
    target TEXT NOT NULL,
    checked_at BIGINT NOT NULL,
    kind TEXT NOT NULL,
    http_status BIGINT,
    suggested TEXT,
    detail TEXT NOT NULL
);

CREATE INDEX target_checks_target ON target_checks (name, target, checked_at);
CREATE INDEX target_checks_at ON target_checks (checked_at);
