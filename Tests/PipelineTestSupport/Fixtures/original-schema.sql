-- A per-feed database exactly as the original (pre-Feedmill) pipeline wrote it: the four-column
-- items table, no permalink, no migration bookkeeping. Scripts/make-original-schema-fixture turns
-- this into original-schema.sqlite. item-1 and item-2 are in the feed the upgrade test serves;
-- dropped-item is not, and must survive.
CREATE TABLE items (
    id TEXT PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    pubdate_unix_time INTEGER NOT NULL);
INSERT INTO items VALUES ('item-1', 'First post', '<p>One</p>', 1240356720);
INSERT INTO items VALUES ('dropped-item', 'No longer in the feed', '<p>Old</p>', 1100000000);
INSERT INTO items VALUES ('item-2', 'Second post', '<p>Two</p>', 1240443120);
