#ifndef TOKENVEND_CLIBPQ_SHIM_H
#define TOKENVEND_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#include <poll.h>
// Server notices (e.g. "drop cascades to …") would go to stderr: the store reports errors itself.
static void tokenvend_pq_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}
static inline void tokenvend_pq_silence_notices(PGconn *connection) {
    PQsetNoticeProcessor(connection, tokenvend_pq_ignore_notice, NULL);
}
#endif
