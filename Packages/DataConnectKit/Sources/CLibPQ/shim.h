#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
#include <libpq-fe.h>
#include <poll.h>

/* A notice processor that drops notices (`NOTICE: table "x" does not exist, skipping`), which libpq would
   otherwise print on standard error. */
static inline void clibpq_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

/* Installs clibpq_ignore_notice on a connection. */
static inline void clibpq_silence_notices(PGconn *connection) {
    PQsetNoticeProcessor(connection, clibpq_ignore_notice, NULL);
}
#endif
