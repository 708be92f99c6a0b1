/* The floor for Feedmill's storage: the same rows (exported by feed-store-bench) upserted with
 * the SQLite C API into one fresh database per feed, one transaction per feed, same schema
 * (the table as Feedmill's migrations leave it), one prepared statement reused, no diffing.
 *   store-floor OUTDIR ROWS-FILE      prints: feeds=N rows=R seconds=S rows_per_second=X */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "read-file.h"

static const char *schema =
    "CREATE TABLE items (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, summary TEXT NOT NULL,"
    " pubdate_unix_time INTEGER NOT NULL, permalink TEXT, updated_unix_time INTEGER, author TEXT,"
    " first_seen_unix_time INTEGER, pubdate_is_first_seen INTEGER NOT NULL DEFAULT 0, id_source TEXT,"
    " content_hash TEXT, change_seq INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX items_change_seq ON items(change_seq);";

static const char *upsert =
    "INSERT INTO items (id, title, summary, pubdate_unix_time, permalink, updated_unix_time, author,"
    " first_seen_unix_time, id_source, change_seq) VALUES (?, ?, ?, ?, ?, ?, ?, 1700000000, ?, 1)"
    " ON CONFLICT(id) DO UPDATE SET title = excluded.title, summary = excluded.summary";

static const char *field(const char **cursor, int *length) {
    uint32_t size; memcpy(&size, *cursor, 4); *cursor += 4;
    const char *start = *cursor; *cursor += size; *length = (int)size;
    return start;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: store-floor OUTDIR ROWS-FILE\n"); return 64; }
    long size; char *data = readFile(argv[2], &size);
    const char *cursor = data, *end = data + size;
    double seconds = 0; long rows = 0; int feeds = 0; char path[4096];
    while (cursor < end) {
        int length; const char *count = field(&cursor, &length);
        int n = atoi(strndup(count, length));
        snprintf(path, sizeof path, "%s/feed_%d.sqlite", argv[1], feeds++);
        remove(path);
        struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
        sqlite3 *db; sqlite3_open(path, &db);
        sqlite3_exec(db, schema, NULL, NULL, NULL);
        sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
        sqlite3_stmt *statement; sqlite3_prepare_v2(db, upsert, -1, &statement, NULL);
        for (int row = 0; row < n; row++) {
            for (int column = 1; column <= 8; column++) {
                const char *value = field(&cursor, &length);
                if (length == 0 && (column == 5 || column == 6 || column == 7)) sqlite3_bind_null(statement, column);
                else sqlite3_bind_text(statement, column, value, length, SQLITE_STATIC);
            }
            if (sqlite3_step(statement) != SQLITE_DONE) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 1; }
            sqlite3_reset(statement);
            rows++;
        }
        sqlite3_finalize(statement);
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
        sqlite3_close(db);
        clock_gettime(CLOCK_MONOTONIC, &b);
        seconds += (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    }
    printf("feeds=%d rows=%ld seconds=%.3f rows_per_second=%ld\n", feeds, rows, seconds, (long)(rows / seconds));
    return 0;
}
