// The system SQLite for FeedmillClient on platforms without Apple's SQLite3 module (Linux).
// A module of its own, not GRDB's GRDBSQLite: the client library depends on no other package,
// so an app can take it alone. Nothing but the header: the client calls no variadic function.
#ifndef FEEDMILL_CLIENT_SQLITE_SHIM_H
#define FEEDMILL_CLIENT_SQLITE_SHIM_H
#include <sqlite3.h>
#endif
