/* The PostgreSQL floor: one statement prepared once per connection and executed in a loop through libpq,
 * without HTTP, on THREADS connections (one thread each, default 1). The statement and its parameters are what
 * `sql-explain --dialect postgresql` prints for an operation (the exact SQL the emulator sends); every
 * parameter is bound as text, in its storage form, as the emulator binds it (the placeholders cast it).
 *
 * Usage: pg_floor CONNINFO STATEMENT_FILE SECONDS [THREADS]
 * STATEMENT_FILE: the SQL on the first line, then one parameter per line: i:<int>, r:<real>, t:<text>, n:
 * Prints: `runs=N seconds=S per_second=R mean_us=U bytes=B threads=T` (mean_us: the mean time of one
 * execution on one connection; B: the size of the first column of one result).
 */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PARAMETERS 256

static char sql[1 << 20];
static char *values[MAX_PARAMETERS];
static int count;
static const char *conninfo;
static double seconds;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, PGconn *db) {
    fprintf(stderr, "pg_floor: %s: %s\n", what, db ? PQerrorMessage(db) : "");
    exit(1);
}

struct worker {
    pthread_t thread;
    pthread_barrier_t *ready;
    long runs;
    double elapsed;
    size_t bytes;
};

static void *run(void *argument) {
    struct worker *worker = argument;
    PGconn *db = PQconnectdb(conninfo);
    if (PQstatus(db) != CONNECTION_OK) die("connect", db);
    PGresult *prepared = PQprepare(db, "floor", sql, count, NULL);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) die("prepare", db);
    PQclear(prepared);
    /* One warm-up execution: plans and caches are built before the clock starts. */
    PGresult *warm = PQexecPrepared(db, "floor", count, (const char *const *)values, NULL, NULL, 0);
    if (PQresultStatus(warm) != PGRES_TUPLES_OK) die("execute", db);
    PQclear(warm);
    pthread_barrier_wait(worker->ready);

    long runs = 0;
    size_t bytes = 0;
    double start = now(), end = start + seconds, t = start;
    while (t < end) {
        for (int i = 0; i < 16; i++) {
            PGresult *result = PQexecPrepared(db, "floor", count, (const char *const *)values, NULL, NULL, 0);
            if (PQresultStatus(result) != PGRES_TUPLES_OK) die("execute", db);
            bytes = PQntuples(result) > 0 ? (size_t)PQgetlength(result, 0, 0) : 0;
            PQclear(result);
        }
        runs += 16;
        t = now();
    }
    worker->runs = runs;
    worker->elapsed = t - start;
    worker->bytes = bytes;
    PQfinish(db);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: pg_floor CONNINFO STATEMENT_FILE SECONDS [THREADS]\n");
        return 2;
    }
    conninfo = argv[1];
    seconds = atof(argv[3]);
    int threads = argc == 5 ? atoi(argv[4]) : 1;
    if (threads < 1 || threads > 64) die("THREADS must be between 1 and 64", NULL);

    FILE *file = fopen(argv[2], "r");
    if (!file) die("cannot open the statement file", NULL);
    if (!fgets(sql, sizeof sql, file)) die("empty statement file", NULL);
    sql[strcspn(sql, "\n")] = 0;
    static char line[1 << 16];
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0]) continue;
        if (count == MAX_PARAMETERS) die("too many parameters", NULL);
        values[count++] = line[0] == 'n' ? NULL : strdup(line + 2);
    }
    fclose(file);

    pthread_barrier_t ready;
    pthread_barrier_init(&ready, NULL, (unsigned)threads);
    struct worker workers[64];
    for (int i = 0; i < threads; i++) {
        workers[i] = (struct worker){.ready = &ready};
        if (pthread_create(&workers[i].thread, NULL, run, &workers[i]) != 0) die("pthread_create", NULL);
    }
    long runs = 0;
    double elapsed = 0, per_second = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        runs += workers[i].runs;
        per_second += workers[i].runs / workers[i].elapsed;
        if (workers[i].elapsed > elapsed) elapsed = workers[i].elapsed;
    }
    printf("runs=%ld seconds=%.3f per_second=%.1f mean_us=%.2f bytes=%zu threads=%d\n", runs, elapsed, per_second,
           threads / per_second * 1e6, workers[0].bytes, threads);
    return 0;
}
