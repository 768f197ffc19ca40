/* How much SQLite's own work grows when a statement carries entity ids, by the way they travel: the 3-level shape's
 * statement (`listWithReviews`, whose reviews do not select their key) with no ids, with the reviews' keys as a hidden
 * member of each object, or collected beside the document by an application-defined aggregate.
 *
 * Usage: carriers DATABASE SQL_FILE RUNS [ANSWER_OUT]
 * Runs the statement RUNS times (bound to 'ACTION'), reading its one column; prints the bytes of a run's answer and
 * of what the aggregate collected, and writes the last run's answer to the file given (to compare with rows.c's).
 * Run it under callgrind with RUNS and with 0 and divide the difference by RUNS (run.sh does): the instructions of
 * one execution.
 *
 * The aggregate `dc(list, parent key, key, to-one key...)` is as cheap as such a function can be: its context is a
 * flag, it appends each argument's text with a length byte to one static arena, and its final value is NULL, so that
 * `coalesce(json_group_array(...), dc(...), '[]')` returns the document and the keys stay beside it. Memory
 * statistics are off, as the emulator's connections have them. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfile.h"

static char arena[1 << 20];
static int arenaCount;

typedef struct {
    int started;
} Context;

static void append(const void *bytes, int count) {
    if (arenaCount + count + 1 > (int)sizeof arena) return;
    arena[arenaCount++] = (char)count;
    memcpy(arena + arenaCount, bytes, count);
    arenaCount += count;
}

static void collectStep(sqlite3_context *context, int count, sqlite3_value **values) {
    Context *state = sqlite3_aggregate_context(context, sizeof(Context));
    if (!state) return;
    if (!state->started) {
        state->started = 1;
        char list = (char)sqlite3_value_int(values[0]);
        append(&list, 1);
    }
    for (int index = 1; index < count; index++) {
        if (sqlite3_value_type(values[index]) == SQLITE_NULL) {
            append("", 0);
            continue;
        }
        const unsigned char *text = sqlite3_value_text(values[index]);
        append(text, sqlite3_value_bytes(values[index]));
    }
}

static void collectFinal(sqlite3_context *context) { sqlite3_result_null(context); }

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: carriers DATABASE SQL_FILE RUNS [ANSWER_OUT]\n");
        return 2;
    }
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3 *database;
    if (sqlite3_open_v2(argv[1], &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fprintf(stderr, "carriers: cannot open %s\n", argv[1]);
        return 1;
    }
    sqlite3_create_function_v2(database, "dc", -1, SQLITE_UTF8, NULL, NULL, collectStep, collectFinal, NULL);
    char *sql = readFile(argv[2]);
    sqlite3_stmt *statement;
    if (!sql || sqlite3_prepare_v2(database, sql, -1, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "carriers: %s\n", sql ? sqlite3_errmsg(database) : "cannot read the SQL file");
        return 1;
    }
    int runs = atoi(argv[3]);
    long bytes = 0;
    FILE *answer = argc == 5 ? fopen(argv[4], "wb") : NULL;
    if (argc == 5 && !answer) {
        fprintf(stderr, "carriers: cannot write %s\n", argv[4]);
        return 1;
    }
    for (int run = 0; run < runs; run++) {
        arenaCount = 0;
        sqlite3_bind_text(statement, 1, "ACTION", -1, SQLITE_STATIC);
        while (sqlite3_step(statement) == SQLITE_ROW) {
            bytes += sqlite3_column_bytes(statement, 0);
            if (answer && run == runs - 1)
                fwrite(sqlite3_column_text(statement, 0), 1, sqlite3_column_bytes(statement, 0), answer);
        }
        sqlite3_reset(statement);
    }
    if (answer && fclose(answer) != 0) {
        fprintf(stderr, "carriers: cannot write %s\n", argv[4]);
        return 1;
    }
    printf("answer_bytes=%ld collected_bytes=%d\n", runs ? bytes / runs : 0, arenaCount);
    sqlite3_finalize(statement);
    sqlite3_close(database);
    return 0;
}
