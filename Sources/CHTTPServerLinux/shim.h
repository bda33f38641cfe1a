// Linux calls the Glibc module does not export: epoll, eventfd and the CPU affinity mask.
#ifndef CHTTPSERVERLINUX_SHIM_H
#define CHTTPSERVERLINUX_SHIM_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <unistd.h>

extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// accept4(2), which the Glibc module hides behind _GNU_SOURCE.
static inline int chttp_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

/// sched_getaffinity(2) for this process; returns the mask size in bytes written, or -1.
static inline long chttp_sched_getaffinity(unsigned long size, void *mask) {
    return syscall(SYS_sched_getaffinity, 0, size, mask);
}
#endif

#endif
