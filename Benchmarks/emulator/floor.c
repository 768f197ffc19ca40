/* The database floor: one statement prepared once and stepped in a loop through SQLite's C API, on one
 * thread, without HTTP. The statement and its parameters are what `sql-explain` prints for an operation
 * (the exact SQL the emulator runs).
 *
 * Usage: floor DATABASE STATEMENT_FILE SECONDS
 * STATEMENT_FILE: the SQL on the first line, then one parameter per line: i:<int>, r:<real>, t:<text>, n:
 * Prints: `runs=N seconds=S per_second=R mean_us=U bytes=B` (B: the size of one result).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, sqlite3 *db) {
    fprintf(stderr, "floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: floor DATABASE STATEMENT_FILE SECONDS\n");
        return 2;
    }
    double seconds = atof(argv[3]);
    FILE *file = fopen(argv[2], "r");
    if (!file) die("cannot open the statement file", NULL);
    static char sql[1 << 20];
    if (!fgets(sql, sizeof sql, file)) die("empty statement file", NULL);
    sql[strcspn(sql, "\n")] = 0;

    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) die("open", db);
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK) die("prepare", db);

    static char line[1 << 16];
    int index = 0;
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0]) continue;
        index++;
        const char *value = line + 2;
        int rc;
        switch (line[0]) {
        case 'i': rc = sqlite3_bind_int64(stmt, index, strtoll(value, NULL, 10)); break;
        case 'r': rc = sqlite3_bind_double(stmt, index, strtod(value, NULL)); break;
        case 't': rc = sqlite3_bind_text(stmt, index, value, -1, SQLITE_TRANSIENT); break;
        default: rc = sqlite3_bind_null(stmt, index); break;
        }
        if (rc != SQLITE_OK) die("bind", db);
    }
    fclose(file);

    long runs = 0;
    size_t bytes = 0, checksum = 0;
    double start = now(), end = start + seconds, t = start;
    while (t < end) {
        for (int i = 0; i < 64; i++) {
            if (sqlite3_step(stmt) != SQLITE_ROW) die("step", db);
            const unsigned char *text = sqlite3_column_text(stmt, 0);
            bytes = (size_t)sqlite3_column_bytes(stmt, 0);
            checksum += text ? text[bytes / 2] : 0;
            sqlite3_reset(stmt);
        }
        runs += 64;
        t = now();
    }
    double elapsed = t - start;
    printf("runs=%ld seconds=%.3f per_second=%.1f mean_us=%.2f bytes=%zu check=%zu\n", runs, elapsed,
           runs / elapsed, elapsed / runs * 1e6, bytes, checksum % 7);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return 0;
}
