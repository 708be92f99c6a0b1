-- A feed database exactly as Feedmill wrote it before issue 40 (schema `feed-schema-merged-1`,
-- commit ff38ea8): the DDL below is `sqlite3 .schema` of Fixtures/generated/data/feed_1.sqlite
-- as that commit generated it, the stamp of feed 1, and three rows: two written by that
-- Feedmill (their content hashes are what it computed) and one from before Feedmill (no
-- first-seen time, no hash). Scripts/make-original-schema-fixture turns this into
-- feed-schema-merged-1.sqlite.
PRAGMA application_id = -1425008722;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
CREATE TABLE items (
    id TEXT PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    pubdate_unix_time INTEGER NOT NULL, permalink TEXT, updated_unix_time INTEGER, author TEXT, first_seen_unix_time INTEGER, pubdate_is_first_seen INTEGER NOT NULL DEFAULT 0, id_source TEXT, content_hash TEXT, change_seq INTEGER NOT NULL DEFAULT 0);
CREATE INDEX items_change_seq ON items(change_seq);
CREATE TABLE feedmill_feed (feedid INTEGER NOT NULL, origin_url TEXT NOT NULL);
INSERT INTO grdb_migrations VALUES ('feed-schema-merged-1');
INSERT INTO feedmill_feed VALUES (1, 'https://site.example/feed.xml');
INSERT INTO items VALUES ('old-item', 'Older', '<p>Old</p>', 1600000000, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0);
INSERT INTO items VALUES ('https://site.example/1', 'First post', '<p>One</p>', 1700000000, 'https://site.example/1', NULL, 'Ann', 1700000100, 0, 'native', '3b2be01adb04a548edaaff2a768885ec9e74ed817c18c232c2d80463fadb5886', 1);
INSERT INTO items VALUES ('https://site.example/2', 'Second post', '<p>Two</p>', 1700086400, 'https://site.example/2', 1700090000, NULL, 1700086500, 0, 'native', '2a7559d01d37209f84531f73ee7c2b39da416bed1baa729a6959216f10903f28', 2);
