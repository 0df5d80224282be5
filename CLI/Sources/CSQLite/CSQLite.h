// SQLite's C interface, from the system (Debian and Ubuntu: libsqlite3-dev).
#include <sqlite3.h>
