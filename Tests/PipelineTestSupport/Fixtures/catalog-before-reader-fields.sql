-- A catalog exactly as Feedmill wrote it before issue 40 (commit ff38ea8): the DDL below is
-- `sqlite3 .schema` of Fixtures/generated/data/all_feeds.sqlite as that commit generated it,
-- with two feeds. Scripts/make-original-schema-fixture turns this into
-- catalog-before-reader-fields.sqlite.
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
CREATE TABLE feeds (feedid INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE TABLE about (feedid INTEGER UNIQUE, title TEXT);
CREATE TABLE last_update (feedid INTEGER UNIQUE, when_unix_time INTEGER);
CREATE TABLE fetch_state (
    feedid INTEGER PRIMARY KEY,
    site_link TEXT,
    category TEXT,
    opml_title TEXT,
    in_opml INTEGER NOT NULL DEFAULT 1,
    etag TEXT,
    last_modified TEXT,
    body_hash TEXT,
    last_status INTEGER,
    last_error_kind TEXT,
    last_error TEXT,
    consecutive_errors INTEGER NOT NULL DEFAULT 0,
    last_attempt_unix_time INTEGER,
    last_success_unix_time INTEGER,
    next_attempt_unix_time INTEGER,
    redirect_target TEXT,
    redirect_sightings INTEGER NOT NULL DEFAULT 0,
    gone INTEGER NOT NULL DEFAULT 0,
    hint_interval_seconds INTEGER,
    skip_hours TEXT,
    skip_days TEXT, origin_url TEXT, keep_items INTEGER, keep_days INTEGER);
CREATE TABLE feedmill_catalog (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
INSERT INTO grdb_migrations VALUES ('catalog-original'), ('catalog-fetch-state'), ('catalog-identity'), ('catalog-retention');
INSERT INTO feeds VALUES (1, 'https://site.example/feed.xml'), (2, 'https://other.example/atom.xml');
INSERT INTO about VALUES (1, 'Site'), (2, 'Other');
INSERT INTO last_update VALUES (1, 1700090000), (2, 1700090000);
INSERT INTO fetch_state (feedid, site_link, origin_url) VALUES (1, 'https://site.example/', 'https://site.example/feed.xml'), (2, NULL, 'https://other.example/atom.xml');
INSERT INTO feedmill_catalog VALUES ('feedid_high_water', 2);
