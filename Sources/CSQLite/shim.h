// SQLite 3 (Debian's libsqlite3-dev), the archive's storage: used only from HealthArchive.
#include <sqlite3.h>
