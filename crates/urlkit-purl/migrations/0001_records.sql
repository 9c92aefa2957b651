-- The resolver's records, their append-only history, owners, tokens and resolution counts.
-- Written for SQLite and PostgreSQL alike: no AUTOINCREMENT, no engine-specific types.

-- One row per name: the record as it answers now (a tombstone too), as its JSON body.
CREATE TABLE records (
    name TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    version BIGINT NOT NULL,
    domain TEXT,
    changed_at BIGINT NOT NULL,
    changed_by TEXT NOT NULL,
    deleted BOOLEAN NOT NULL
);

-- Every change, keyed by (name, version); rows are only ever inserted.
CREATE TABLE events (
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    at BIGINT NOT NULL,
    user_name TEXT NOT NULL,
    token TEXT,
    kind TEXT NOT NULL,
    before_body TEXT,
    after_body TEXT NOT NULL,
    reason TEXT,
    PRIMARY KEY (name, version)
);

-- Users: a password as an Argon2id PHC string, or none (a user acting through tokens).
CREATE TABLE users (
    name TEXT PRIMARY KEY,
    password_hash TEXT,
    admin BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE groups (
    name TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL
);

CREATE TABLE group_members (
    group_name TEXT NOT NULL REFERENCES groups (name),
    user_name TEXT NOT NULL REFERENCES users (name),
    PRIMARY KEY (group_name, user_name)
);

-- Domains: path prefixes in normal form, maintained by users or groups (`@group`).
CREATE TABLE domains (
    prefix TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL
);

CREATE TABLE domain_maintainers (
    prefix TEXT NOT NULL REFERENCES domains (prefix),
    maintainer TEXT NOT NULL,
    PRIMARY KEY (prefix, maintainer)
);

-- Tokens: a random public id and the SHA-256 of the secret (never the secret itself);
-- grants as JSON ([{"domain":"/net/","right":"write"}]).
CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    user_name TEXT NOT NULL REFERENCES users (name),
    secret_hash TEXT NOT NULL,
    grants TEXT NOT NULL,
    label TEXT,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);

-- Resolution counts, added in batches.
CREATE TABLE counts (
    name TEXT PRIMARY KEY,
    hits BIGINT NOT NULL
);
