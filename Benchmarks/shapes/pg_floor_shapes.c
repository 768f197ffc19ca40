/* The shapes benchmark's PostgreSQL floor: one shape's exact statement (what `sql-explain --dialect postgresql`
 * prints, the SQL the emulator sends) prepared once per connection and executed in a loop through libpq, without
 * HTTP, on CONNECTIONS connections (one thread each), reading every column of every row (PQgetvalue,
 * PQgetlength). Every parameter is bound as text, in its storage form, as the emulator binds it (the placeholders
 * cast it). The parameter sets cycle as the HTTP bodies do; each connection starts at its own place in the cycle.
 *
 * Usage: pg_floor_shapes CONNINFO PLAN_FILE SECONDS CONNECTIONS
 *        pg_floor_shapes CONNINFO PLAN_FILE --print    (runs the first set once, prints its first column)
 * PLAN_FILE, one item a line (floor_shapes.c's format, one statement):
 *   S <sql>             the statement (one line)
 *   V                   starts a parameter set
 *   P 1 <value>         the next parameter in the current set: i:<int>, r:<real>, t:<text> or n: (null)
 *   # ...               a comment
 * Prints: `queries=N seconds=S per_second=R mean_us=U rows=R bytes=B threads=T sets=M check=C` (per_second:
 * the sum of the connections' rates; mean_us: the mean time of one execution on one connection; R and B: rows
 * and column bytes read per query, on average).
 */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PARAMETERS 64
#define MAX_THREADS 64

typedef struct {
    int count;
    char *values[MAX_PARAMETERS];
} ParameterSet;

static char *sql;
static ParameterSet *sets;
static int set_count;
static const char *conninfo;
static double seconds;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, PGconn *db) {
    fprintf(stderr, "pg_floor_shapes: %s%s%s\n", what, db ? ": " : "", db ? PQerrorMessage(db) : "");
    exit(1);
}

static PGresult *execute(PGconn *db, const ParameterSet *set) {
    PGresult *result = PQexecPrepared(db, "floor", set->count, (const char *const *)set->values, NULL, NULL, 0);
    if (PQresultStatus(result) != PGRES_TUPLES_OK) die("execute", db);
    return result;
}

static PGconn *connect_and_prepare(void) {
    PGconn *db = PQconnectdb(conninfo);
    if (PQstatus(db) != CONNECTION_OK) die("connect", db);
    PGresult *prepared = PQprepare(db, "floor", sql, sets[0].count, NULL);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) die("prepare", db);
    PQclear(prepared);
    return db;
}

struct worker {
    pthread_t thread;
    pthread_barrier_t *ready;
    int first;
    long queries;
    double elapsed;
    unsigned long long rows, bytes, checksum;
};

static void *run(void *argument) {
    struct worker *worker = argument;
    PGconn *db = connect_and_prepare();
    /* One execution of every set: plans and caches are built before the clock starts. */
    for (int s = 0; s < set_count; s++) PQclear(execute(db, &sets[s]));
    pthread_barrier_wait(worker->ready);

    long queries = 0;
    unsigned long long rows = 0, bytes = 0, checksum = 0;
    double start = now(), end = start + seconds, t = start;
    while (t < end) {
        for (int i = 0; i < 16; i++, queries++) {
            PGresult *result = execute(db, &sets[(worker->first + queries) % set_count]);
            int n = PQntuples(result), columns = PQnfields(result);
            for (int row = 0; row < n; row++)
                for (int c = 0; c < columns; c++) {
                    const char *value = PQgetvalue(result, row, c);
                    int length = PQgetlength(result, row, c);
                    bytes += (unsigned long long)length;
                    checksum += length ? (unsigned char)value[length / 2] : 0;
                }
            rows += (unsigned long long)n;
            PQclear(result);
        }
        t = now();
    }
    worker->queries = queries;
    worker->elapsed = t - start;
    worker->rows = rows;
    worker->bytes = bytes;
    worker->checksum = checksum;
    PQfinish(db);
    return NULL;
}

static void read_plan(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) die("cannot open the plan file", NULL);
    static char line[1 << 20];
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] == 'S' && line[1] == ' ') {
            if (sql) die("one statement only", NULL);
            sql = strdup(line + 2);
        } else if (line[0] == 'V') {
            sets = realloc(sets, (size_t)(set_count + 1) * sizeof *sets);
            if (!sets) die("out of memory", NULL);
            memset(&sets[set_count], 0, sizeof *sets);
            set_count++;
        } else if (line[0] == 'P' && line[1] == ' ' && line[2] == '1' && line[3] == ' ') {
            if (set_count == 0) die("a P line before any V line", NULL);
            ParameterSet *set = &sets[set_count - 1];
            if (set->count == MAX_PARAMETERS) die("too many parameters", NULL);
            const char *value = line + 4;
            if (!strchr("irtn", value[0]) || value[1] != ':') die("a parameter is not i:, r:, t: or n:", NULL);
            set->values[set->count++] = value[0] == 'n' ? NULL : strdup(value + 2);
        } else if (line[0] && line[0] != '#') {
            die("a line is not S, V, P 1 or #", NULL);
        }
    }
    fclose(file);
    if (!sql) die("no statement", NULL);
    if (set_count == 0) {
        sets = calloc(1, sizeof *sets);
        set_count = 1;
    }
    for (int s = 1; s < set_count; s++)
        if (sets[s].count != sets[0].count) die("the parameter sets differ in length", NULL);
}

int main(int argc, char **argv) {
    if (argc != 5 && !(argc == 4 && strcmp(argv[3], "--print") == 0)) {
        fprintf(stderr, "usage: pg_floor_shapes CONNINFO PLAN_FILE SECONDS CONNECTIONS\n"
                        "       pg_floor_shapes CONNINFO PLAN_FILE --print\n");
        return 2;
    }
    conninfo = argv[1];
    read_plan(argv[2]);
    if (argc == 4) {
        PGconn *db = connect_and_prepare();
        PGresult *result = execute(db, &sets[0]);
        if (PQntuples(result) > 0) printf("%s\n", PQgetvalue(result, 0, 0));
        PQclear(result);
        PQfinish(db);
        return 0;
    }
    seconds = atof(argv[3]);
    int threads = atoi(argv[4]);
    if (threads < 1 || threads > MAX_THREADS) die("CONNECTIONS must be between 1 and 64", NULL);

    pthread_barrier_t ready;
    pthread_barrier_init(&ready, NULL, (unsigned)threads);
    struct worker workers[MAX_THREADS];
    for (int i = 0; i < threads; i++) {
        workers[i] = (struct worker){.ready = &ready, .first = i * set_count / threads};
        if (pthread_create(&workers[i].thread, NULL, run, &workers[i]) != 0) die("pthread_create", NULL);
    }
    long queries = 0;
    double elapsed = 0, per_second = 0;
    unsigned long long rows = 0, bytes = 0, checksum = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        queries += workers[i].queries;
        rows += workers[i].rows;
        bytes += workers[i].bytes;
        checksum += workers[i].checksum;
        per_second += workers[i].queries / workers[i].elapsed;
        if (workers[i].elapsed > elapsed) elapsed = workers[i].elapsed;
    }
    printf("queries=%ld seconds=%.3f per_second=%.1f mean_us=%.2f rows=%.1f bytes=%.0f threads=%d sets=%d "
           "check=%llu\n",
           queries, elapsed, per_second, threads / per_second * 1e6, (double)rows / queries,
           (double)bytes / queries, threads, set_count, checksum % 7);
    return 0;
}
