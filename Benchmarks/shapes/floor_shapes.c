/* The shapes benchmark's database floors: the statements of one shape prepared once and run in a loop through
 * SQLite's C API, on one thread, without HTTP, reading every column of every row (sqlite3_column_*).
 *
 * A plan is the exact statement the emulator runs for the shape (`sql-explain`, with the parameters the engine
 * binds) or SQL written by hand for the same result: one statement, or a batched pair whose second statement takes
 * the keys of the first one's rows. One query is every statement of the plan, in order, with the
 * next parameter set (the sets cycle, as the HTTP bodies do).
 *
 * Usage: floor_shapes DATABASE PLAN_FILE SECONDS
 * PLAN_FILE, one item a line:
 *   S <sql>             a statement (one line), in the order they run
 *   V                   starts a parameter set
 *   P <k> <value>       the next parameter of statement k (from 1) in the current set; <value> is i:<int>,
 *                       r:<real>, t:<text> or n: (as sql-explain prints them), or k:<j>: the first column of
 *                       every row that the earlier statement j answered in the same query, as a JSON array
 *                       (text as strings, integers as numbers): the keys a batched second statement takes
 *   # ...               a comment
 * Prints: `queries=N seconds=S per_second=R mean_us=U rows=R bytes=B statements=K sets=M check=C`
 * (R and B: rows and column bytes read per query, on average).
 *
 * The functions the engine registers on its connections are registered here too, so that the exact statements
 * prepare and do the same work: `dataconnect_float(x)` (a finite REAL as its shortest text, an INTEGER as text,
 * anything else NULL), `dataconnect_embed(x)` (JSON text SQLite wrote, passed on) and `dataconnect_stored_json(x)`
 * (stored JSON text, checked), the three marked with SQLite's JSON subtype so that its JSON functions embed them
 * without parsing them again.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_STATEMENTS 16
/* The subtype SQLite's JSON functions give JSON text ('J'). */
#define JSON_SUBTYPE 74

typedef struct {
    /* 'i', 'r', 't', 'n', or 'k' (integer: the index of the statement whose keys it takes). */
    char type;
    long long integer;
    double real;
    char *text;
} Value;

/* The parameters of one statement in one set. */
typedef struct {
    int count;
    Value *values;
} Parameters;

/* One parameter set: the parameters of every statement. */
typedef struct {
    Parameters statement[MAX_STATEMENTS];
} ParameterSet;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, sqlite3 *db) {
    fprintf(stderr, "floor_shapes: %s%s%s\n", what, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
    exit(1);
}

/* The engine's `dataconnect_float`: the shortest text that reads back as the same double. */
static void dataconnect_float(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    char buffer[40];
    switch (sqlite3_value_type(argv[0])) {
    case SQLITE_FLOAT: {
        double value = sqlite3_value_double(argv[0]);
        if (!isfinite(value)) break;
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(buffer, sizeof buffer, "%.*g", digits, value);
            if (strtod(buffer, NULL) == value) break;
        }
        if (!strpbrk(buffer, ".eEn")) strcat(buffer, ".0");
        sqlite3_result_text(context, buffer, -1, SQLITE_TRANSIENT);
        sqlite3_result_subtype(context, JSON_SUBTYPE);
        return;
    }
    case SQLITE_INTEGER:
        snprintf(buffer, sizeof buffer, "%lld", (long long)sqlite3_value_int64(argv[0]));
        sqlite3_result_text(context, buffer, -1, SQLITE_TRANSIENT);
        sqlite3_result_subtype(context, JSON_SUBTYPE);
        return;
    }
    sqlite3_result_null(context);
}

/* The engine's `dataconnect_embed`: JSON text SQLite wrote, marked as JSON. */
static void dataconnect_embed(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    sqlite3_result_value(context, argv[0]);
    if (sqlite3_value_type(argv[0]) == SQLITE_TEXT) sqlite3_result_subtype(context, JSON_SUBTYPE);
}

/* One JSON value at *p (RFC 8259), at most 1000 levels deep; moves past it. */
static int json_value(const unsigned char **p, const unsigned char *end, int depth);

static void json_spaces(const unsigned char **p, const unsigned char *end) {
    while (*p < end && (**p == ' ' || **p == '\n' || **p == '\r' || **p == '\t')) (*p)++;
}

static int json_string(const unsigned char **p, const unsigned char *end) {
    (*p)++;
    while (*p < end) {
        unsigned char c = *(*p)++;
        if (c == '"') return 1;
        if (c < 0x20) return 0;
        if (c == '\\') {
            if (*p >= end) return 0;
            c = *(*p)++;
            if (c == 'u') {
                for (int i = 0; i < 4; i++, (*p)++)
                    if (*p >= end || !strchr("0123456789abcdefABCDEF", **p) || !**p) return 0;
            } else if (!strchr("\"\\/bfnrt", c) || !c) {
                return 0;
            }
        }
    }
    return 0;
}

static int json_digits(const unsigned char **p, const unsigned char *end) {
    const unsigned char *start = *p;
    while (*p < end && **p >= '0' && **p <= '9') (*p)++;
    return *p > start;
}

static int json_value(const unsigned char **p, const unsigned char *end, int depth) {
    json_spaces(p, end);
    if (*p >= end) return 0;
    unsigned char c = **p;
    if (c == '{' || c == '[') {
        if (depth >= 1000) return 0;
        unsigned char close = c == '{' ? '}' : ']';
        (*p)++;
        json_spaces(p, end);
        if (*p < end && **p == close) { (*p)++; return 1; }
        for (;;) {
            if (c == '{') {
                json_spaces(p, end);
                if (*p >= end || **p != '"' || !json_string(p, end)) return 0;
                json_spaces(p, end);
                if (*p >= end || **p != ':') return 0;
                (*p)++;
            }
            if (!json_value(p, end, depth + 1)) return 0;
            json_spaces(p, end);
            if (*p < end && **p == ',') { (*p)++; continue; }
            if (*p < end && **p == close) { (*p)++; return 1; }
            return 0;
        }
    }
    if (c == '"') return json_string(p, end);
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(end - *p) >= n && memcmp(*p, words[i], n) == 0) { *p += n; return 1; }
    }
    if (**p == '-') (*p)++;
    if (*p < end && **p == '0') (*p)++;
    else if (!json_digits(p, end)) return 0;
    if (*p < end && **p == '.') { (*p)++; if (!json_digits(p, end)) return 0; }
    if (*p < end && (**p == 'e' || **p == 'E')) {
        (*p)++;
        if (*p < end && (**p == '+' || **p == '-')) (*p)++;
        if (!json_digits(p, end)) return 0;
    }
    return 1;
}

/* The engine's `dataconnect_stored_json`: stored JSON text, checked, marked as JSON. */
static void dataconnect_stored_json(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    switch (sqlite3_value_type(argv[0])) {
    case SQLITE_TEXT: {
        const unsigned char *p = sqlite3_value_text(argv[0]);
        const unsigned char *end = p + sqlite3_value_bytes(argv[0]);
        int valid = json_value(&p, end, 0);
        json_spaces(&p, end);
        if (!valid || p != end) {
            sqlite3_result_error(context, "malformed JSON", -1);
            return;
        }
        sqlite3_result_value(context, argv[0]);
        sqlite3_result_subtype(context, JSON_SUBTYPE);
        return;
    }
    case SQLITE_BLOB:
        sqlite3_result_error(context, "JSON cannot hold BLOB values", -1);
        return;
    default:
        sqlite3_result_value(context, argv[0]);
    }
}

static Value parse_value(const char *text) {
    Value value = {0};
    value.type = text[0];
    const char *rest = text[0] && text[1] == ':' ? text + 2 : "";
    switch (value.type) {
    case 'i': value.integer = strtoll(rest, NULL, 10); break;
    case 'r': value.real = strtod(rest, NULL); break;
    case 't': value.text = strdup(rest); break;
    case 'n': break;
    case 'k': value.integer = strtoll(rest, NULL, 10) - 1; break;
    default: die("a parameter is not i:, r:, t:, n: or k:", NULL);
    }
    return value;
}

/* The first column of every row a statement answered in the current query, as a JSON array being written. */
typedef struct {
    char *text;
    size_t count, capacity;
} Keys;

static void keys_append(Keys *keys, const char *bytes, size_t count) {
    if (keys->count + count + 1 > keys->capacity) {
        keys->capacity = (keys->count + count + 1) * 2;
        keys->text = realloc(keys->text, keys->capacity);
        if (!keys->text) die("out of memory", NULL);
    }
    memcpy(keys->text + keys->count, bytes, count);
    keys->count += count;
    keys->text[keys->count] = 0;
}

/* Adds the first column of the statement's current row to its keys: text as a JSON string, an integer as a
 * number (other values are not keys). */
static void keys_add(Keys *keys, sqlite3_stmt *stmt) {
    keys_append(keys, keys->count ? "," : "[", 1);
    if (sqlite3_column_type(stmt, 0) == SQLITE_INTEGER) {
        char number[24];
        keys_append(keys, number, (size_t)snprintf(number, sizeof number, "%lld", sqlite3_column_int64(stmt, 0)));
        return;
    }
    const unsigned char *text = sqlite3_column_text(stmt, 0);
    int n = sqlite3_column_bytes(stmt, 0);
    keys_append(keys, "\"", 1);
    for (int i = 0; i < n; i++) {
        char escaped[8];
        if (text[i] == '"' || text[i] == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)text[i];
            keys_append(keys, escaped, 2);
        } else if (text[i] < 0x20) {
            keys_append(keys, escaped, (size_t)snprintf(escaped, sizeof escaped, "\\u%04x", text[i]));
        } else {
            keys_append(keys, (const char *)text + i, 1);
        }
    }
    keys_append(keys, "\"", 1);
}

static void bind(sqlite3 *db, sqlite3_stmt *stmt, const ParameterSet *set, int k, Keys *keys) {
    for (int i = 0; i < set->statement[k].count; i++) {
        const Value *value = &set->statement[k].values[i];
        int rc;
        switch (value->type) {
        case 'i': rc = sqlite3_bind_int64(stmt, i + 1, value->integer); break;
        case 'r': rc = sqlite3_bind_double(stmt, i + 1, value->real); break;
        case 't': rc = sqlite3_bind_text(stmt, i + 1, value->text, -1, SQLITE_STATIC); break;
        case 'k': {
            const Keys *taken = &keys[value->integer];
            rc = sqlite3_bind_text(stmt, i + 1, taken->text, (int)taken->count, SQLITE_STATIC);
            break;
        }
        default: rc = sqlite3_bind_null(stmt, i + 1); break;
        }
        if (rc != SQLITE_OK) die("bind", db);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: floor_shapes DATABASE PLAN_FILE SECONDS\n");
        return 2;
    }
    double seconds = atof(argv[3]);
    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) die("open", db);
    if (sqlite3_create_function(db, "dataconnect_float", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                dataconnect_float, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(db, "dataconnect_embed", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                dataconnect_embed, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(db, "dataconnect_stored_json", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                dataconnect_stored_json, NULL, NULL) != SQLITE_OK)
        die("create function", db);

    FILE *file = fopen(argv[2], "r");
    if (!file) die("cannot open the plan file", NULL);
    sqlite3_stmt *statements[MAX_STATEMENTS];
    int statement_count = 0;
    ParameterSet *sets = calloc(1, sizeof *sets);
    int set_count = 0;
    static char line[1 << 20];
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] == 'S' && line[1] == ' ') {
            if (statement_count == MAX_STATEMENTS) die("too many statements", NULL);
            if (sqlite3_prepare_v3(db, line + 2, -1, SQLITE_PREPARE_PERSISTENT, &statements[statement_count], NULL)
                != SQLITE_OK)
                die("prepare", db);
            statement_count++;
        } else if (line[0] == 'V') {
            sets = realloc(sets, (set_count + 1) * sizeof *sets);
            if (!sets) die("out of memory", NULL);
            memset(&sets[set_count], 0, sizeof *sets);
            set_count++;
        } else if (line[0] == 'P' && line[1] == ' ') {
            char *end;
            long k = strtol(line + 2, &end, 10) - 1;
            if (set_count == 0 || k < 0 || k >= MAX_STATEMENTS || *end != ' ') die("a bad P line", NULL);
            Parameters *parameters = &sets[set_count - 1].statement[k];
            parameters->values = realloc(parameters->values, (parameters->count + 1) * sizeof(Value));
            if (!parameters->values) die("out of memory", NULL);
            parameters->values[parameters->count++] = parse_value(end + 1);
        } else if (line[0] && line[0] != '#') {
            die("a line is not S, V, P or #", NULL);
        }
    }
    fclose(file);
    if (statement_count == 0) die("no statement", NULL);
    if (set_count == 0) set_count = 1; /* no parameters */
    /* Keys taken from earlier statements are bound for every query (they change with it); only the statements
     * whose keys are taken collect them. */
    int takes_keys = 0, keys_taken[MAX_STATEMENTS] = {0};
    for (int s = 0; s < set_count; s++)
        for (int k = 0; k < statement_count; k++) {
            if (sets[s].statement[k].count != sqlite3_bind_parameter_count(statements[k]))
                die("a parameter set does not match its statement's placeholders", NULL);
            for (int i = 0; i < sets[s].statement[k].count; i++)
                if (sets[s].statement[k].values[i].type == 'k') {
                    long long j = sets[s].statement[k].values[i].integer;
                    if (j < 0 || j >= k) die("a k: parameter names a statement that does not run before", NULL);
                    takes_keys = 1;
                    keys_taken[j] = 1;
                }
        }
    Keys keys[MAX_STATEMENTS] = {{0}};
    int bind_every_query = set_count > 1 || takes_keys;
    if (!bind_every_query)
        for (int k = 0; k < statement_count; k++) bind(db, statements[k], &sets[0], k, keys);

    long queries = 0;
    unsigned long long rows = 0, bytes = 0, checksum = 0;
    double start = now(), end = start + seconds, t = start;
    while (t < end) {
        for (int batch = 0; batch < 16; batch++, queries++) {
            const ParameterSet *set = &sets[queries % set_count];
            for (int k = 0; k < statement_count; k++) keys[k].count = 0;
            for (int k = 0; k < statement_count; k++) {
                sqlite3_stmt *stmt = statements[k];
                if (bind_every_query) bind(db, stmt, set, k, keys);
                int rc;
                while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
                    rows++;
                    if (keys_taken[k]) keys_add(&keys[k], stmt);
                    int columns = sqlite3_column_count(stmt);
                    for (int c = 0; c < columns; c++) {
                        switch (sqlite3_column_type(stmt, c)) {
                        case SQLITE_INTEGER: checksum += (unsigned long long)sqlite3_column_int64(stmt, c); break;
                        case SQLITE_FLOAT: checksum += (unsigned long long)sqlite3_column_double(stmt, c); break;
                        case SQLITE_TEXT: {
                            const unsigned char *text = sqlite3_column_text(stmt, c);
                            int n = sqlite3_column_bytes(stmt, c);
                            bytes += n;
                            checksum += n ? text[n / 2] : 0;
                            break;
                        }
                        case SQLITE_BLOB: {
                            const unsigned char *blob = sqlite3_column_blob(stmt, c);
                            int n = sqlite3_column_bytes(stmt, c);
                            bytes += n;
                            checksum += n ? blob[n / 2] : 0;
                            break;
                        }
                        default: break;
                        }
                    }
                }
                if (rc != SQLITE_DONE) die("step", db);
                sqlite3_reset(stmt);
                /* The array is closed once, whichever statements take it. */
                if (keys_taken[k]) keys_append(&keys[k], keys[k].count ? "]" : "[]", keys[k].count ? 1 : 2);
            }
        }
        t = now();
    }
    double elapsed = t - start;
    printf("queries=%ld seconds=%.3f per_second=%.1f mean_us=%.2f rows=%.1f bytes=%.0f statements=%d sets=%d "
           "check=%llu\n",
           queries, elapsed, queries / elapsed, elapsed / queries * 1e6, (double)rows / queries,
           (double)bytes / queries, statement_count, set_count, checksum % 7);
    for (int k = 0; k < statement_count; k++) sqlite3_finalize(statements[k]);
    sqlite3_close(db);
    return 0;
}
