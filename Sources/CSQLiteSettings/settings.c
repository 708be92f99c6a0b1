#include <sqlite3.h>
#include <pthread.h>
#include <string.h>
#include "CSQLiteSettings.h"

static int memory_statistics_off = 0;

/* The last operating-system errors SQLite logged (sqlite3_log from os_unix.c), in a ring:
 * StorageError reads the one for its file after a failure. */
#define FEEDMILL_OS_ERRORS 32
static char os_errors[FEEDMILL_OS_ERRORS][512];
static unsigned long os_errors_logged = 0;
static pthread_mutex_t os_errors_lock = PTHREAD_MUTEX_INITIALIZER;

static void feedmill_sqlite3_log(void *context, int code, const char *message) {
    (void)context; (void)code;
    if (!message || strncmp(message, "os_", 3) != 0) return;
    pthread_mutex_lock(&os_errors_lock);
    char *slot = os_errors[os_errors_logged % FEEDMILL_OS_ERRORS];
    strncpy(slot, message, sizeof os_errors[0] - 1);
    slot[sizeof os_errors[0] - 1] = 0;
    os_errors_logged++;
    pthread_mutex_unlock(&os_errors_lock);
}

unsigned long feedmill_sqlite3_os_errors_logged(void) {
    pthread_mutex_lock(&os_errors_lock);
    unsigned long logged = os_errors_logged;
    pthread_mutex_unlock(&os_errors_lock);
    return logged;
}

int feedmill_sqlite3_os_error(unsigned long mark, const char *path, char *out, int size) {
    int found = 0;
    pthread_mutex_lock(&os_errors_lock);
    size_t length = strlen(path);
    unsigned long oldest = os_errors_logged > FEEDMILL_OS_ERRORS ? os_errors_logged - FEEDMILL_OS_ERRORS : 0;
    if (mark < oldest) mark = oldest;
    for (unsigned long index = os_errors_logged; index > mark && !found; index--) {
        const char *message = os_errors[(index - 1) % FEEDMILL_OS_ERRORS];
        const char *open = strchr(message, '(');
        /* "(errno) call(path) - text": the path follows the second parenthesis. */
        const char *call = open ? strchr(open + 1, '(') : NULL;
        if (call && strncmp(call + 1, path, length) == 0 && size > 0) {
            strncpy(out, message, (size_t)size - 1);
            out[size - 1] = 0;
            found = 1;
        }
    }
    pthread_mutex_unlock(&os_errors_lock);
    return found;
}

// A constructor, so the setting is in place before main: `sqlite3_config` is refused once
// SQLite is initialised, which the first connection opened anywhere in the process (a test
// opening a file directly, say) would do.
__attribute__((constructor)) static void feedmill_sqlite3_configure(void) {
    memory_statistics_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    sqlite3_config(SQLITE_CONFIG_LOG, feedmill_sqlite3_log, (void *)0);
}

int feedmill_sqlite3_memory_statistics_off(void) {
    return memory_statistics_off;
}
