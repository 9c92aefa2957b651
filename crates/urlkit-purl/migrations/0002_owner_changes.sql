-- Changes of owners (users, groups, domains, tokens), append-only like the records' history:
-- who did it (the user, and the token's public id if through one), when, what kind of
-- change, to what (a user, group, domain prefix or token id), and its details as JSON.
CREATE TABLE owner_changes (
    at BIGINT NOT NULL,
    user_name TEXT NOT NULL,
    token TEXT,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL
);

CREATE INDEX owner_changes_at ON owner_changes (at);
