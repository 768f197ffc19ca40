#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/* sqlite3_config is variadic, so Swift cannot call it; these fixed-argument wrappers can.
   Must run before the first connection opens (sqlite3_initialize). */

/* Turns off memory-usage statistics: they take a process-wide mutex on every allocation, which
   serializes concurrent connections. Returns an SQLite result code. */
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
