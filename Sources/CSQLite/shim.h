// SQLite 3 (Debian's libsqlite3-dev), the archive's storage: used only from HealthArchive.
#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call: the one setting HealthArchive changes.
// Turns the loading of extensions off for `db` (also through the SQL function load_extension());
// SQLITE_OK or SQLite's error code.
static inline int health_sqlite_disable_load_extension(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
}
