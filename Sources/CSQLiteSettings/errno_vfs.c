#include <sqlite3.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "errno_vfs.h"

/* The default VFS, wrapped so that a failed read, write, truncate or size query says its errno.
 *
 * SQLite's unix VFS logs a failed open, sync, ftruncate or unlink with its errno (sqlite3_log),
 * but a failed read or write only becomes "disk I/O error" (SQLITE_IOERR_WRITE): the errno is in
 * the connection (sqlite3_system_errno), which the code that reports the failure no longer has.
 * This layer forwards every call to the real VFS and, when one of those calls fails, records
 * "(errno) write(path) - " in the same ring as SQLite's own log, so StorageError names the call,
 * the file and the cause for every I/O error alike (issue 52). One indirect call per I/O. */

typedef struct {
    sqlite3_file base;      /* pMethods = our methods */
    const char *path;       /* valid until xClose (SQLite's guarantee for xOpen's name) */
    sqlite3_file *real;     /* the real VFS's file, right after this struct */
} errno_file;

static sqlite3_vfs *real_vfs = 0;
static sqlite3_vfs errno_vfs;
static sqlite3_io_methods errno_methods[3]; /* one per version the real file says */

static int failed(int rc) {
    int primary = rc & 0xff;
    return primary == SQLITE_IOERR || primary == SQLITE_FULL;
}

/* One failed call into the ring, in SQLite's log form. */
static void record(const char *call, const char *path, int number) {
    if (!path || number == 0) return;
    char message[512];
    snprintf(message, sizeof message, "feedmill_vfs: (%d) %s(%s) - ", number, call, path);
    feedmill_sqlite3_record_os_error(message);
}

static void note(errno_file *file, const char *call, int number) { record(call, file->path, number); }

#define REAL(file) (((errno_file *)(file))->real)

static int errno_close(sqlite3_file *file) {
    sqlite3_file *real = REAL(file);
    return real->pMethods ? real->pMethods->xClose(real) : SQLITE_OK;
}

static int errno_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    int rc = REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
    /* A short read is not an error of the system: SQLite zero-fills and goes on. */
    if (failed(rc) && rc != SQLITE_IOERR_SHORT_READ) note((errno_file *)file, "read", errno);
    return rc;
}

static int errno_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    int rc = REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
    if (failed(rc)) note((errno_file *)file, "write", errno);
    return rc;
}

static int errno_truncate(sqlite3_file *file, sqlite3_int64 size) {
    int rc = REAL(file)->pMethods->xTruncate(REAL(file), size);
    if (failed(rc)) note((errno_file *)file, "ftruncate", errno);
    return rc;
}

static int errno_sync(sqlite3_file *file, int flags) {
    int rc = REAL(file)->pMethods->xSync(REAL(file), flags);
    if (failed(rc)) note((errno_file *)file, "fsync", errno);
    return rc;
}

static int errno_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    int rc = REAL(file)->pMethods->xFileSize(REAL(file), size);
    if (failed(rc)) note((errno_file *)file, "fstat", errno);
    return rc;
}

static int errno_lock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xLock(REAL(file), level); }
static int errno_unlock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xUnlock(REAL(file), level); }
static int errno_check_reserved(sqlite3_file *file, int *out) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int errno_file_control(sqlite3_file *file, int op, void *argument) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}
static int errno_sector_size(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int errno_device(sqlite3_file *file) { return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file)); }
static int errno_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **out) {
    return REAL(file)->pMethods->xShmMap(REAL(file), region, size, extend, out);
}
static int errno_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, count, flags);
}
static void errno_shm_barrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int errno_shm_unmap(sqlite3_file *file, int delete_flag) {
    return REAL(file)->pMethods->xShmUnmap(REAL(file), delete_flag);
}
static int errno_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    const sqlite3_io_methods *methods = REAL(file)->pMethods;
    if (methods->iVersion < 3 || !methods->xFetch) { *out = 0; return SQLITE_OK; }
    return methods->xFetch(REAL(file), offset, amount, out);
}
static int errno_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    const sqlite3_io_methods *methods = REAL(file)->pMethods;
    if (methods->iVersion < 3 || !methods->xUnfetch) return SQLITE_OK;
    return methods->xUnfetch(REAL(file), offset, pointer);
}

static int errno_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    errno_file *wrapper = (errno_file *)file;
    wrapper->path = name;
    wrapper->real = (sqlite3_file *)(wrapper + 1);
    wrapper->real->pMethods = 0;
    int rc = real_vfs->xOpen(real_vfs, name, wrapper->real, flags, out_flags);
    /* SQLite calls xClose only when pMethods is set, even after a failed open. */
    const sqlite3_io_methods *methods = wrapper->real->pMethods;
    if (!methods) {
        file->pMethods = 0;
        return rc;
    }
    /* The real methods decide which optional calls exist (shared memory from version 2, memory
     * mapping from 3): ours say the same version, so SQLite asks for no call the file lacks. */
    int version = methods->iVersion < 1 ? 1 : methods->iVersion > 3 ? 3 : methods->iVersion;
    if (version >= 2 && !methods->xShmMap) version = 1;
    file->pMethods = &errno_methods[version - 1];
    return rc;
}

static int errno_delete(sqlite3_vfs *vfs, const char *name, int sync_directory) {
    (void)vfs;
    return real_vfs->xDelete(real_vfs, name, sync_directory);
}
static int errno_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, out);
}
static int errno_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}
static void *errno_dl_open(sqlite3_vfs *vfs, const char *name) { (void)vfs; return real_vfs->xDlOpen(real_vfs, name); }
static void errno_dl_error(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; real_vfs->xDlError(real_vfs, size, out); }
static void (*errno_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return real_vfs->xDlSym(real_vfs, handle, symbol);
}
static void errno_dl_close(sqlite3_vfs *vfs, void *handle) { (void)vfs; real_vfs->xDlClose(real_vfs, handle); }
static int errno_randomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return real_vfs->xRandomness(real_vfs, size, out); }
static int errno_sleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return real_vfs->xSleep(real_vfs, microseconds); }
static int errno_current_time(sqlite3_vfs *vfs, double *out) { (void)vfs; return real_vfs->xCurrentTime(real_vfs, out); }
static int errno_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return real_vfs->xGetLastError(real_vfs, size, out);
}
static int errno_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, out);
}
static int errno_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr pointer) {
    (void)vfs;
    return real_vfs->xSetSystemCall(real_vfs, name, pointer);
}
static sqlite3_syscall_ptr errno_get_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xGetSystemCall(real_vfs, name);
}
static const char *errno_next_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xNextSystemCall(real_vfs, name);
}

/* The unix VFS's own open (its "open" system call), wrapped. SQLite retries a failed
 * read-write open read-only, and when that fails too, logs the retry's errno (ENOENT for a
 * -shm or -wal a read-only open may not create), not the first one's: the first is recorded here.
 * ENOENT is what a probe or that retry meets, not a cause. */
typedef int (*open_call)(const char *, int, int);
static open_call real_open = 0;

static int errno_open_call(const char *path, int flags, int mode) {
    int fd = real_open(path, flags, mode);
    if (fd < 0 && errno != ENOENT && errno != EINTR) {
        int number = errno;
        record("open", path, number);
        errno = number;
    }
    return fd;
}

int feedmill_sqlite3_register_errno_vfs(void) {
    real_vfs = sqlite3_vfs_find(0);
    if (!real_vfs || real_vfs->iVersion < 3) return 0;
    real_open = (open_call)real_vfs->xGetSystemCall(real_vfs, "open");
    if (real_open) real_vfs->xSetSystemCall(real_vfs, "open", (sqlite3_syscall_ptr)errno_open_call);
    for (int version = 1; version <= 3; version++) {
        errno_methods[version - 1] = (sqlite3_io_methods){
            version, errno_close, errno_read, errno_write, errno_truncate, errno_sync, errno_file_size, errno_lock,
            errno_unlock, errno_check_reserved, errno_file_control, errno_sector_size, errno_device, errno_shm_map,
            errno_shm_lock, errno_shm_barrier, errno_shm_unmap, errno_fetch, errno_unfetch};
    }
    errno_vfs = (sqlite3_vfs){
        3, (int)sizeof(errno_file) + real_vfs->szOsFile, real_vfs->mxPathname, 0, "feedmill-errno", 0,
        errno_open, errno_delete, errno_access, errno_full_pathname, errno_dl_open, errno_dl_error,
        errno_dl_sym, errno_dl_close, errno_randomness, errno_sleep, errno_current_time, errno_last_error,
        errno_current_time_int64, errno_set_system_call, errno_get_system_call, errno_next_system_call};
    return sqlite3_vfs_register(&errno_vfs, 1) == SQLITE_OK;
}
