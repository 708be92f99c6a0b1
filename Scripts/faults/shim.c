// Fault injection for Feedmill's commands, as SQLite's test harness fails its I/O calls in
// turn (issue 52). Loaded with LD_PRELOAD into a command, it makes the N-th file operation
// under a directory fail with a chosen errno, once or from then on. The process's own calls
// and SQLite's go through these libc symbols alike.
//
//   cc -shared -fPIC -O2 -o fault-shim.so Scripts/faults/shim.c -ldl
//   FEEDMILL_FAULT_UNDER=/srv/out      only paths under this directory (required)
//   FEEDMILL_FAULT_AT=N                the N-th matching call fails (1-based; 0: none, to count)
//   FEEDMILL_FAULT_ERRNO=5             the errno it fails with (default EIO)
//   FEEDMILL_FAULT_PERSIST=1           every matching call from the N-th on fails
//   FEEDMILL_FAULT_CALLS=fsync,rename  only these kinds (default every kind below)
//   FEEDMILL_FAULT_COUNT_TO=FILE       at exit, the number of matching calls is written there
//
// Kinds: open (open, openat, creat), write (write, pwrite), sync (fsync, fdatasync, syncfs),
// rename, unlink, link, truncate (ftruncate), mkdir. For a call on a descriptor, its path is
// read from /proc/self/fd.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *under;
static size_t under_length;
static long fail_at;
static int fail_errno = EIO;
static int persist;
static const char *kinds;
static const char *count_to;
static long calls;

__attribute__((constructor)) static void fault_setup(void) {
    under = getenv("FEEDMILL_FAULT_UNDER");
    under_length = under ? strlen(under) : 0;
    const char *at = getenv("FEEDMILL_FAULT_AT");
    fail_at = at ? atol(at) : 0;
    const char *number = getenv("FEEDMILL_FAULT_ERRNO");
    if (number && atoi(number) > 0) fail_errno = atoi(number);
    const char *always = getenv("FEEDMILL_FAULT_PERSIST");
    persist = always && strcmp(always, "1") == 0;
    kinds = getenv("FEEDMILL_FAULT_CALLS");
    count_to = getenv("FEEDMILL_FAULT_COUNT_TO");
}

__attribute__((destructor)) static void fault_report(void) {
    if (!count_to) return;
    char text[32];
    int length = snprintf(text, sizeof text, "%ld\n", __atomic_load_n(&calls, __ATOMIC_SEQ_CST));
    int descriptor = (int)syscall(SYS_openat, AT_FDCWD, count_to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (descriptor < 0) return;
    (void)!syscall(SYS_write, descriptor, text, (size_t)length);
    syscall(SYS_close, descriptor);
}

static int kind_chosen(const char *kind) {
    if (!kinds || !*kinds) return 1;
    size_t length = strlen(kind);
    for (const char *p = kinds; (p = strstr(p, kind)); p += length) {
        if ((p == kinds || p[-1] == ',') && (p[length] == ',' || p[length] == 0)) return 1;
    }
    return 0;
}

static int path_under(const char *path) {
    if (!under || !path) return 0;
    char absolute[4096];
    if (path[0] != '/' && getcwd(absolute, sizeof absolute)) {
        size_t length = strlen(absolute);
        snprintf(absolute + length, sizeof absolute - length, "/%s", path);
        path = absolute;
    }
    if (strncmp(path, under, under_length) != 0) return 0;
    return path[under_length] == '/' || path[under_length] == 0;
}

static int descriptor_under(int descriptor) {
    if (!under) return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return 0;
    path[length] = 0;
    return path_under(path);
}

/// Whether this matching call is the one (or one of those) to fail; counts it.
static int should_fail(const char *kind, int matches) {
    if (!matches || !kind_chosen(kind)) return 0;
    long number = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
    if (fail_at <= 0) return 0;
    return persist ? number >= fail_at : number == fail_at;
}

#define NEXT(name) static __typeof__(name) *next_##name; if (!next_##name) next_##name = dlsym(RTLD_NEXT, #name)
#define FAIL(value) do { errno = fail_errno; return value; } while (0)

static int writes_or_creates(int flags) { return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0; }

int open(const char *path, int flags, ...) {
    NEXT(open);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list list; va_start(list, flags); mode = va_arg(list, mode_t); va_end(list); }
    if (should_fail("open", writes_or_creates(flags) && path_under(path))) FAIL(-1);
    return next_open(path, flags, mode);
}
int open64(const char *path, int flags, ...) {
    NEXT(open64);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list list; va_start(list, flags); mode = va_arg(list, mode_t); va_end(list); }
    if (should_fail("open", writes_or_creates(flags) && path_under(path))) FAIL(-1);
    return next_open64(path, flags, mode);
}
int openat(int directory, const char *path, int flags, ...) {
    NEXT(openat);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list list; va_start(list, flags); mode = va_arg(list, mode_t); va_end(list); }
    if (should_fail("open", writes_or_creates(flags) && path_under(path))) FAIL(-1);
    return next_openat(directory, path, flags, mode);
}
int openat64(int directory, const char *path, int flags, ...) {
    NEXT(openat64);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list list; va_start(list, flags); mode = va_arg(list, mode_t); va_end(list); }
    if (should_fail("open", writes_or_creates(flags) && path_under(path))) FAIL(-1);
    return next_openat64(directory, path, flags, mode);
}
int creat(const char *path, mode_t mode) {
    NEXT(creat);
    if (should_fail("open", path_under(path))) FAIL(-1);
    return next_creat(path, mode);
}
ssize_t write(int descriptor, const void *bytes, size_t count) {
    NEXT(write);
    if (should_fail("write", descriptor > 2 && descriptor_under(descriptor))) FAIL(-1);
    return next_write(descriptor, bytes, count);
}
ssize_t pwrite(int descriptor, const void *bytes, size_t count, off_t offset) {
    NEXT(pwrite);
    if (should_fail("write", descriptor_under(descriptor))) FAIL(-1);
    return next_pwrite(descriptor, bytes, count, offset);
}
ssize_t pwrite64(int descriptor, const void *bytes, size_t count, off_t offset) {
    NEXT(pwrite64);
    if (should_fail("write", descriptor_under(descriptor))) FAIL(-1);
    return next_pwrite64(descriptor, bytes, count, offset);
}
int fsync(int descriptor) {
    NEXT(fsync);
    if (should_fail("sync", descriptor_under(descriptor))) FAIL(-1);
    return next_fsync(descriptor);
}
int fdatasync(int descriptor) {
    NEXT(fdatasync);
    if (should_fail("sync", descriptor_under(descriptor))) FAIL(-1);
    return next_fdatasync(descriptor);
}
int syncfs(int descriptor) {
    NEXT(syncfs);
    if (should_fail("sync", descriptor_under(descriptor))) FAIL(-1);
    return next_syncfs(descriptor);
}
int rename(const char *from, const char *to) {
    NEXT(rename);
    if (should_fail("rename", path_under(from) || path_under(to))) FAIL(-1);
    return next_rename(from, to);
}
int renameat(int from_directory, const char *from, int to_directory, const char *to) {
    NEXT(renameat);
    if (should_fail("rename", path_under(from) || path_under(to))) FAIL(-1);
    return next_renameat(from_directory, from, to_directory, to);
}
int unlink(const char *path) {
    NEXT(unlink);
    if (should_fail("unlink", path_under(path))) FAIL(-1);
    return next_unlink(path);
}
int link(const char *from, const char *to) {
    NEXT(link);
    if (should_fail("link", path_under(from) || path_under(to))) FAIL(-1);
    return next_link(from, to);
}
int ftruncate(int descriptor, off_t length) {
    NEXT(ftruncate);
    if (should_fail("truncate", descriptor_under(descriptor))) FAIL(-1);
    return next_ftruncate(descriptor, length);
}
int ftruncate64(int descriptor, off_t length) {
    NEXT(ftruncate64);
    if (should_fail("truncate", descriptor_under(descriptor))) FAIL(-1);
    return next_ftruncate64(descriptor, length);
}
int mkdir(const char *path, mode_t mode) {
    NEXT(mkdir);
    if (should_fail("mkdir", path_under(path))) FAIL(-1);
    return next_mkdir(path, mode);
}
