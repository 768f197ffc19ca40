/* A lower bound, in C, of an engine that writes the 3-level shape's document itself from flat rows instead of
 * having SQLite build JSON: the statement (`rows.sql` or `rows-ids.sql`) returns one row per review (one per movie
 * without reviews) and this program writes the bytes `none.sql` answers; with the reviews' keys among the columns
 * (`rows-ids.sql`) it also writes, into a second buffer, the entity-id properties the emulator's EntityIDStripper
 * writes for this shape with a client cache, in response order, separated by commas.
 *
 * Usage: rows DATABASE SQL_FILE RUNS [DOCUMENT_OUT [IDS_OUT]]
 *        rows --check-escaping
 * Runs the statement RUNS times (bound to 'ACTION') and assembles each run's answer; prints the bytes of a run's
 * document and ids, and writes the last run's to the files given. Run it under callgrind with RUNS and with 0 and
 * divide the difference by RUNS (run.sh does): the instructions of one execution, SQLite's and the assembly's.
 * `--check-escaping` compares the string writer with SQLite's json_quote: every byte value at every place of short
 * texts.
 *
 * The columns, in this order: the movie's id and title, the review's id (rows-ids.sql only), rating and text, the
 * user's id and username. The movie's id tells one movie's rows from the next; a review is absent (a movie without
 * reviews) when its key, or without keys its rating (NOT NULL), is NULL. Keys are primary keys, never NULL, so
 * every element of a non-empty list has an id and the list gets its LIST property. Values are written as SQLite
 * 3.40's json_object writes them: text as a JSON string, an integer in decimal, a real as SQLite's text of it, NULL
 * as null. Memory statistics are off, as in carriers.c.
 *
 * The rows come grouped by movie, in the nested statement's order, because the flat join runs the same plan: the
 * same movies subquery as a co-routine in the outer loop (SQLite keeps a LEFT JOIN's right table after its left),
 * each movie's reviews through review_movie_id_fkidx (rowid order, as the nested subquery's scan), each review's
 * user by key. SQL does not promise it; run.sh compares the bytes. The flat join does not cut a movie's reviews at
 * 100 as the nested list's LIMIT 100 does: with 3 to 7 reviews a movie it never binds here, and an engine would
 * need a window function (row_number() over each movie's reviews) or a statement per movie for it. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfile.h"

/* A fixed buffer: the answer is about 20 kB, so no run comes near its end, and none grows. */
typedef struct {
    char *bytes;
    int count;
    int capacity;
} Buffer;

static char documentBytes[1 << 20], idBytes[1 << 20], tailBytes[1 << 20], pendingBytes[1 << 16];
static Buffer document = {documentBytes, 0, sizeof documentBytes};
/* The properties: the movies' LIST first, which is complete only at the end, so the rest goes to `tail` and is
 * copied after it, as the stripper copies its slots. */
static Buffer ids = {idBytes, 0, sizeof idBytes};
static Buffer tail = {tailBytes, 0, sizeof tailBytes};
/* The GET properties of the current movie's reviews' users, which follow the reviews' LIST. */
static Buffer pending = {pendingBytes, 0, sizeof pendingBytes};

static void overflow(void) {
    fprintf(stderr, "rows: a buffer is too small\n");
    exit(1);
}

static inline void put(Buffer *buffer, const void *bytes, int count) {
    if (buffer->count + count > buffer->capacity) overflow();
    memcpy(buffer->bytes + buffer->count, bytes, count);
    buffer->count += count;
}

#define PUT(buffer, literal) put(buffer, literal, sizeof literal - 1)

static inline void putByte(Buffer *buffer, char byte) {
    if (buffer->count == buffer->capacity) overflow();
    buffer->bytes[buffer->count++] = byte;
}

static void putDecimal(Buffer *buffer, sqlite3_int64 value) {
    /* Ratings and list indexes: most are one digit. */
    if (value >= 0 && value < 10) {
        putByte(buffer, (char)('0' + value));
        return;
    }
    char digits[24];
    int at = sizeof digits;
    sqlite3_uint64 rest = value < 0 ? 0 - (sqlite3_uint64)value : (sqlite3_uint64)value;
    do {
        digits[--at] = (char)('0' + rest % 10);
        rest /= 10;
    } while (rest);
    if (value < 0) digits[--at] = '-';
    put(buffer, digits + at, (int)sizeof digits - at);
}

/* For each byte, 0 when it is copied as is, else the letter after the backslash ('u' for \u00XX): SQLite's
 * jsonAppendString escapes `"`, `\` and the control bytes, and copies every other byte, UTF-8 or not. */
static char escapes[256];

static void initEscapes(void) {
    for (int byte = 0; byte < 0x20; byte++) escapes[byte] = 'u';
    escapes['\b'] = 'b';
    escapes['\t'] = 't';
    escapes['\n'] = 'n';
    escapes['\f'] = 'f';
    escapes['\r'] = 'r';
    escapes['"'] = '"';
    escapes['\\'] = '\\';
}

static inline char *escape(char *out, unsigned char byte) {
    char letter = escapes[byte];
    *out++ = '\\';
    *out++ = letter;
    if (letter == 'u') {
        *out++ = '0';
        *out++ = '0';
        *out++ = "0123456789abcdef"[byte >> 4];
        *out++ = "0123456789abcdef"[byte & 15];
    }
    return out;
}

/* The text's bytes as inside a JSON string. Eight bytes are looked at as one word, and stored whole when none
 * needs an escape (most words): the buffer keeps room for the worst case and a word beyond it. */
static void putEscaped(Buffer *buffer, const unsigned char *text, int count) {
    if (buffer->count + 6 * count + 8 > buffer->capacity) overflow();
    const sqlite3_uint64 ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    char *out = buffer->bytes + buffer->count;
    int index = 0;
    while (index + 8 <= count) {
        sqlite3_uint64 word, quote, backslash;
        memcpy(&word, text + index, 8);
        memcpy(out, &word, 8);
        quote = word ^ (ones * '"');
        backslash = word ^ (ones * '\\');
        /* The high bit of each byte below 0x20, or equal to `"` or `\` (zero in `quote` or `backslash`, whose
         * high bits are the word's): exact for the lowest such byte, which is the one used. */
        sqlite3_uint64 found = ((word - ones * 0x20) | (quote - ones) | (backslash - ones)) & ~word & highs;
        if (!found) {
            out += 8;
            index += 8;
            continue;
        }
        int at = __builtin_ctzll(found) >> 3;
        out = escape(out + at, text[index + at]);
        index += at + 1;
    }
    for (; index < count; index++) {
        if (escapes[text[index]])
            out = escape(out, text[index]);
        else
            *out++ = (char)text[index];
    }
    buffer->count = (int)(out - buffer->bytes);
}

static void putString(Buffer *buffer, const unsigned char *text, int count) {
    putByte(buffer, '"');
    putEscaped(buffer, text, count);
    putByte(buffer, '"');
}

/* A column's value, read once: sqlite3_column_value and the sqlite3_value_ functions cost less than a
 * sqlite3_column_ call for each of type, text and length (the value is unprotected, which is safe on a
 * connection opened without a mutex and used by one thread). */
typedef struct {
    int type;
    const unsigned char *text;
    int count;
    sqlite3_int64 integer;
} Cell;

static inline Cell readCell(sqlite3_stmt *statement, int column) {
    sqlite3_value *value = sqlite3_column_value(statement, column);
    Cell cell = {sqlite3_value_type(value), NULL, 0, 0};
    if (cell.type == SQLITE_INTEGER) {
        cell.integer = sqlite3_value_int64(value);
    } else if (cell.type != SQLITE_NULL) {
        /* A real's text is "%!.15g", what json_object appends. */
        cell.text = sqlite3_value_text(value);
        cell.count = sqlite3_value_bytes(value);
    }
    return cell;
}

/* A value as json_object writes it. */
static void putValue(Buffer *buffer, const Cell *cell) {
    switch (cell->type) {
    case SQLITE_INTEGER:
        putDecimal(buffer, cell->integer);
        break;
    case SQLITE_FLOAT:
        put(buffer, cell->text, cell->count);
        break;
    case SQLITE_NULL:
        PUT(buffer, "null");
        break;
    default:
        putString(buffer, cell->text, cell->count);
    }
}

/* The path of a movie's member: `{"path":["movies",I,"reviews"`. */
static void putReviewsPath(Buffer *buffer, int movie) {
    PUT(buffer, "{\"path\":[\"movies\",");
    putDecimal(buffer, movie);
    PUT(buffer, ",\"reviews\"");
}

/* An id read off a key value: the type's opening (`"Movie/`), the value's text as the document has it (inside
 * its quotes, or a number), the closing quote. */
static void putID(Buffer *buffer, const char *opening, int openingCount, const Cell *key) {
    put(buffer, opening, openingCount);
    if (key->type == SQLITE_INTEGER)
        putDecimal(buffer, key->integer);
    else
        putEscaped(buffer, key->text, key->count);
    putByte(buffer, '"');
}

/* The assembly's state over one run's rows. */
typedef struct {
    int withIDs;
    /* The column of the review's rating (its text, user id and username follow), and of its key (-1: none). */
    int rating, reviewKey;
    int movies;
    int reviews;
    /* The current movie's key, to tell its rows from the next movie's. */
    char movieKey[256];
    int movieKeyCount;
    sqlite3_int64 movieKeyInteger;
    /* The movies' LIST's ids, written as they come, joined to its opening at the end. */
    char movieIDBytes[1 << 14];
    Buffer movieIDs;
} Assembly;

static void startRun(Assembly *assembly) {
    document.count = ids.count = tail.count = pending.count = 0;
    assembly->movies = 0;
    assembly->movieIDs = (Buffer){assembly->movieIDBytes, 0, sizeof assembly->movieIDBytes};
    putByte(&document, '[');
}

/* Closes the current movie: its reviews' list, then its properties (the reviews' LIST, then each user's GET). */
static void finishMovie(Assembly *assembly) {
    PUT(&document, "]}");
    if (!assembly->withIDs) return;
    if (assembly->reviews) PUT(&tail, "],\"action\":\"LIST\"}");
    if (pending.count) {
        if (tail.count) putByte(&tail, ',');
        put(&tail, pending.bytes, pending.count);
        pending.count = 0;
    }
}

/* One row: a new movie's object when its key changes, then the review's object, if there is a review. */
static void assembleRow(Assembly *assembly, sqlite3_stmt *statement) {
    Cell key = readCell(statement, 0);
    int changed = !assembly->movies || (key.type == SQLITE_INTEGER ? key.integer != assembly->movieKeyInteger
                                        : key.count != assembly->movieKeyCount ||
                                              memcmp(key.text, assembly->movieKey, key.count) != 0);
    if (changed) {
        if (assembly->movies) {
            finishMovie(assembly);
            putByte(&document, ',');
        }
        if (key.count >= (int)sizeof assembly->movieKey) overflow();
        if (key.count) memcpy(assembly->movieKey, key.text, key.count);
        assembly->movieKeyCount = key.count;
        assembly->movieKeyInteger = key.integer;
        Cell title = readCell(statement, 1);
        PUT(&document, "{\"id\":");
        putValue(&document, &key);
        PUT(&document, ",\"title\":");
        putValue(&document, &title);
        PUT(&document, ",\"reviews\":[");
        if (assembly->withIDs) {
            if (assembly->movies) putByte(&assembly->movieIDs, ',');
            putID(&assembly->movieIDs, "\"Movie/", 7, &key);
        }
        assembly->movies++;
        assembly->reviews = 0;
    }
    int column = assembly->rating;
    Cell rating = readCell(statement, column);
    /* The review's key says whether there is one; without keys, its rating (NOT NULL) does. */
    Cell reviewKey = assembly->withIDs ? readCell(statement, assembly->reviewKey) : rating;
    if (reviewKey.type == SQLITE_NULL) return;
    Cell text = readCell(statement, column + 1), user = readCell(statement, column + 2);
    if (assembly->reviews) putByte(&document, ',');
    PUT(&document, "{\"rating\":");
    putValue(&document, &rating);
    PUT(&document, ",\"text\":");
    putValue(&document, &text);
    PUT(&document, ",\"user\":");
    if (user.type != SQLITE_NULL) {
        Cell username = readCell(statement, column + 3);
        PUT(&document, "{\"id\":");
        putValue(&document, &user);
        PUT(&document, ",\"username\":");
        putValue(&document, &username);
        PUT(&document, "}}");
    } else {
        PUT(&document, "null}");
    }
    if (assembly->withIDs) {
        /* The reviews' LIST is written as the reviews come; the users' GETs wait for its end. */
        if (assembly->reviews == 0) {
            if (tail.count) putByte(&tail, ',');
            putReviewsPath(&tail, assembly->movies - 1);
            PUT(&tail, "],\"entityIds\":[");
        } else {
            putByte(&tail, ',');
        }
        putID(&tail, "\"Review/", 8, &reviewKey);
        if (user.type != SQLITE_NULL) {
            if (pending.count) putByte(&pending, ',');
            putReviewsPath(&pending, assembly->movies - 1);
            putByte(&pending, ',');
            putDecimal(&pending, assembly->reviews);
            PUT(&pending, ",\"user\"],\"entityId\":");
            putID(&pending, "\"User/", 6, &user);
            PUT(&pending, ",\"action\":\"GET\"}");
        }
    }
    assembly->reviews++;
}

/* Closes the document, and puts the movies' LIST before the other properties. */
static void finishRun(Assembly *assembly) {
    if (assembly->movies) finishMovie(assembly);
    putByte(&document, ']');
    if (!assembly->withIDs) return;
    if (assembly->movies) {
        PUT(&ids, "{\"path\":[\"movies\"],\"entityIds\":[");
        put(&ids, assembly->movieIDs.bytes, assembly->movieIDs.count);
        PUT(&ids, "],\"action\":\"LIST\"}");
        if (tail.count) putByte(&ids, ',');
    }
    put(&ids, tail.bytes, tail.count);
}

static int writeFile(const char *path, const Buffer *buffer) {
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(buffer->bytes, 1, buffer->count, file) != (size_t)buffer->count || fclose(file) != 0) {
        fprintf(stderr, "rows: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

/* Every byte value, at every place of texts of 1 to 24 bytes (the rest letters, or with a `"` five places on),
 * written by putString and by json_quote: the same bytes. */
static int checkEscaping(void) {
    sqlite3 *database;
    sqlite3_stmt *statement;
    if (sqlite3_open(":memory:", &database) != SQLITE_OK ||
        sqlite3_prepare_v2(database, "SELECT json_quote(?1)", -1, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "rows: %s\n", sqlite3_errmsg(database));
        return 1;
    }
    int failures = 0;
    for (int byte = 1; byte < 256; byte++) {
        for (int count = 1; count <= 24; count++) {
            for (int at = 0; at < 2 * count; at++) {
                unsigned char text[24];
                memset(text, 'a', sizeof text);
                if (at >= count) text[(at + 5) % count] = '"';
                text[at % count] = (unsigned char)byte;
                document.count = 0;
                putString(&document, text, count);
                sqlite3_bind_text(statement, 1, (const char *)text, count, SQLITE_STATIC);
                sqlite3_step(statement);
                const void *expected = sqlite3_column_text(statement, 0);
                if (sqlite3_column_bytes(statement, 0) != document.count ||
                    memcmp(expected, document.bytes, document.count) != 0) {
                    if (failures++ < 10)
                        fprintf(stderr, "rows: byte 0x%02x at %d of %d is written %.*s, json_quote writes %s\n",
                                byte, at % count, count, document.count, document.bytes, (const char *)expected);
                }
                sqlite3_reset(statement);
            }
        }
    }
    sqlite3_finalize(statement);
    sqlite3_close(database);
    printf("escaping: %s\n", failures ? "differs" : "as json_quote");
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    initEscapes();
    if (argc == 2 && strcmp(argv[1], "--check-escaping") == 0) return checkEscaping();
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: rows DATABASE SQL_FILE RUNS [DOCUMENT_OUT [IDS_OUT]] | rows --check-escaping\n");
        return 2;
    }
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3 *database;
    if (sqlite3_open_v2(argv[1], &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fprintf(stderr, "rows: cannot open %s\n", argv[1]);
        return 1;
    }
    char *sql = readFile(argv[2]);
    sqlite3_stmt *statement;
    if (!sql || sqlite3_prepare_v2(database, sql, -1, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "rows: %s\n", sql ? sqlite3_errmsg(database) : "cannot read the SQL file");
        return 1;
    }
    static Assembly assembly;
    int columns = sqlite3_column_count(statement);
    if (columns != 6 && columns != 7) {
        fprintf(stderr, "rows: the statement has %d columns, not 6 (no keys) or 7\n", columns);
        return 1;
    }
    assembly.withIDs = columns == 7;
    assembly.reviewKey = assembly.withIDs ? 2 : -1;
    assembly.rating = assembly.withIDs ? 3 : 2;
    int runs = atoi(argv[3]);
    long documentTotal = 0, idsTotal = 0;
    for (int run = 0; run < runs; run++) {
        sqlite3_bind_text(statement, 1, "ACTION", -1, SQLITE_STATIC);
        startRun(&assembly);
        while (sqlite3_step(statement) == SQLITE_ROW) assembleRow(&assembly, statement);
        finishRun(&assembly);
        sqlite3_reset(statement);
        documentTotal += document.count;
        idsTotal += ids.count;
    }
    printf("answer_bytes=%ld ids_bytes=%ld\n", runs ? documentTotal / runs : 0, runs ? idsTotal / runs : 0);
    sqlite3_finalize(statement);
    sqlite3_close(database);
    if (argc >= 5 && !writeFile(argv[4], &document)) return 1;
    if (argc >= 6 && !writeFile(argv[5], &ids)) return 1;
    return 0;
}
