// SQLite's process-wide settings (`sqlite3_config`, which is variadic, so not callable from
// Swift). The header does not include <sqlite3.h>: GRDBSQLite already brings SQLite's
// declarations into Swift, and a second copy would make them ambiguous.
#ifndef FEEDMILL_SQLITE_SETTINGS_H
#define FEEDMILL_SQLITE_SETTINGS_H

/// Non-zero when SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`) were turned off as the
/// process loaded, before any code could initialise SQLite.
int feedmill_sqlite3_memory_statistics_off(void);

/// Non-zero when every connection's files go through the layer that logs the errno of a failed
/// read, write, truncate or sync (errno_vfs.c), which SQLite's own log does not say.
int feedmill_sqlite3_errno_vfs_registered(void);

/// How many operating-system errors SQLite has logged so far (a mark to search from).
unsigned long feedmill_sqlite3_os_errors_logged(void);

/// The newest operating-system error SQLite logged since `mark` for a file whose path starts
/// with `path` (the database, its -wal, -shm or -journal), as SQLite wrote it
/// ("os_unix.c:43872: (5) write(/srv/data/feed_3.sqlite-wal) - Input/output error"), copied
/// into `out`; 1 when there is one. SQLite's result code ("disk I/O error") names only the
/// symptom; this names the call, the file and errno's meaning (issue 52).
int feedmill_sqlite3_os_error(unsigned long mark, const char *path, char *out, int size);

/// The newest failed open of `path` (or a file whose name starts with it: the `.new` a database
/// is created as, its journal) recorded by the errno layer, whenever it was: a
/// read-write open that failed, after which SQLite opened the file read-only and later said
/// only "attempt to write a readonly database". 1 when there is one.
int feedmill_sqlite3_failed_open(const char *path, char *out, int size);

#endif
