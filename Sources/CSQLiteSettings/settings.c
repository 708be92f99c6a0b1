#include <sqlite3.h>
#include "CSQLiteSettings.h"

static int memory_statistics_off = 0;

// A constructor, so the setting is in place before main: `sqlite3_config` is refused once
// SQLite is initialised, which the first connection opened anywhere in the process (a test
// opening a file directly, say) would do.
__attribute__((constructor)) static void feedmill_sqlite3_configure(void) {
    memory_statistics_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
}

int feedmill_sqlite3_memory_statistics_off(void) {
    return memory_statistics_off;
}
