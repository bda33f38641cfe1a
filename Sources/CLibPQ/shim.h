#ifndef TOKENVEND_CLIBPQ_SHIM_H
#define TOKENVEND_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#include <poll.h>
#endif
