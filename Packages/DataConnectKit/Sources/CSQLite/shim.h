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

/* sqlite3_db_config is variadic too. Turns the checkpoint SQLite runs when the last connection to a WAL
   database closes on (enable = 0) or off (enable = 1). Returns an SQLite result code. */
static inline int csqlite_set_no_checkpoint_on_close(sqlite3 *db, int enable) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enable, (int *)0);
}
#endif
