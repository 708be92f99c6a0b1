// SQLite's process-wide settings (`sqlite3_config`, which is variadic, so not callable from
// Swift). The header does not include <sqlite3.h>: GRDBSQLite already brings SQLite's
// declarations into Swift, and a second copy would make them ambiguous.
#ifndef FEEDMILL_SQLITE_SETTINGS_H
#define FEEDMILL_SQLITE_SETTINGS_H

/// Non-zero when SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`) were turned off as the
/// process loaded, before any code could initialise SQLite.
int feedmill_sqlite3_memory_statistics_off(void);

#endif
