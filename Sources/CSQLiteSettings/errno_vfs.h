// Private to CSQLiteSettings: the VFS layer that says the errno of a failed read or write.
#ifndef FEEDMILL_ERRNO_VFS_H
#define FEEDMILL_ERRNO_VFS_H

/// Adds one operating-system error to the ring StorageError reads, in SQLite's log form
/// ("prefix: (errno) call(path) - text").
void feedmill_sqlite3_record_os_error(const char *message);

/// Makes the errno-recording layer over the default VFS the default; 1 when it is.
int feedmill_sqlite3_register_errno_vfs(void);

#endif
