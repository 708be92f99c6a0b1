#include <sqlite3.h>
#include <pthread.h>
#include <string.h>
#include <stdio.h>
#include "CSQLiteSettings.h"
#include "errno_vfs.h"

static int memory_statistics_off = 0;
static int errno_vfs_registered = 0;

/* The last operating-system errors SQLite logged (sqlite3_log from os_unix.c), in a ring:
 * StorageError reads the one for its file after a failure. */
#define FEEDMILL_OS_ERRORS 32
static char os_errors[FEEDMILL_OS_ERRORS][512];
static unsigned long os_errors_logged = 0;
static pthread_mutex_t os_errors_lock = PTHREAD_MUTEX_INITIALIZER;

void feedmill_sqlite3_record_os_error(const char *message) {
    pthread_mutex_lock(&os_errors_lock);
    char *slot = os_errors[os_errors_logged % FEEDMILL_OS_ERRORS];
    strncpy(slot, message, sizeof os_errors[0] - 1);
    slot[sizeof os_errors[0] - 1] = 0;
    __atomic_store_n(&os_errors_logged, os_errors_logged + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&os_errors_lock);
}

static void feedmill_sqlite3_log(void *context, int code, const char *message) {
    (void)context; (void)code;
    if (!message || strncmp(message, "os_", 3) != 0) return;
    feedmill_sqlite3_record_os_error(message);
}

/* Read on every storage call (StorageError.wrap takes a mark before it starts), written only
 * when an I/O call fails: an atomic load, no lock. */
unsigned long feedmill_sqlite3_os_errors_logged(void) {
    return __atomic_load_n(&os_errors_logged, __ATOMIC_ACQUIRE);
}

/* Which ring entries a search takes. */
enum { ENTRY_ANY, ENTRY_NOT_SQLITE_OPEN, ENTRY_OWN_OPEN };

/* Whether a ring entry ("prefix: (errno) call(path) - text") is of a file whose path starts
 * with `path`, and of the kind asked: SQLite's own log of a failed open carries its read-only
 * retry's errno, so the first attempt's, which errno_vfs.c records, is preferred. */
static int entry_matches(const char *message, const char *path, size_t length, int kind) {
    const char *open = strchr(message, '(');
    const char *close = open ? strchr(open, ')') : NULL;
    const char *call = open ? strchr(open + 1, '(') : NULL;
    if (!close || !call || strncmp(call + 1, path, length) != 0) return 0;
    int is_open = strncmp(close + 1, " open(", 6) == 0;
    if (kind == ENTRY_NOT_SQLITE_OPEN) return !(is_open && strncmp(message, "os_", 3) == 0);
    if (kind == ENTRY_OWN_OPEN) return is_open && strncmp(message, "feedmill_vfs:", 13) == 0;
    return 1;
}

/* The newest entry since `mark` of that kind, copied into `out`; 1 when there is one. Called
 * with the lock held. */
static int search(unsigned long mark, const char *path, int kind, char *out, int size) {
    size_t length = strlen(path);
    unsigned long oldest = os_errors_logged > FEEDMILL_OS_ERRORS ? os_errors_logged - FEEDMILL_OS_ERRORS : 0;
    if (mark < oldest) mark = oldest;
    for (unsigned long index = os_errors_logged; index > mark && size > 0; index--) {
        const char *message = os_errors[(index - 1) % FEEDMILL_OS_ERRORS];
        if (entry_matches(message, path, length, kind)) {
            strncpy(out, message, (size_t)size - 1);
            out[size - 1] = 0;
            return 1;
        }
    }
    return 0;
}

int feedmill_sqlite3_os_error(unsigned long mark, const char *path, char *out, int size) {
    pthread_mutex_lock(&os_errors_lock);
    int found = search(mark, path, ENTRY_NOT_SQLITE_OPEN, out, size) || search(mark, path, ENTRY_ANY, out, size);
    pthread_mutex_unlock(&os_errors_lock);
    return found;
}

int feedmill_sqlite3_failed_open(const char *path, char *out, int size) {
    pthread_mutex_lock(&os_errors_lock);
    int found = search(0, path, ENTRY_OWN_OPEN, out, size);
    pthread_mutex_unlock(&os_errors_lock);
    return found;
}

// A constructor, so the setting is in place before main: `sqlite3_config` is refused once
// SQLite is initialised, which the first connection opened anywhere in the process (a test
// opening a file directly, say) would do.
__attribute__((constructor)) static void feedmill_sqlite3_configure(void) {
    memory_statistics_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    sqlite3_config(SQLITE_CONFIG_LOG, feedmill_sqlite3_log, (void *)0);
    /* Last: registering a VFS initialises SQLite, after which sqlite3_config is refused. */
    errno_vfs_registered = feedmill_sqlite3_register_errno_vfs();
}

int feedmill_sqlite3_errno_vfs_registered(void) {
    return errno_vfs_registered;
}

int feedmill_sqlite3_memory_statistics_off(void) {
    return memory_statistics_off;
}
