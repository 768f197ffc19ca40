#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

/* microhttpd.h expects these platform headers to be included first. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <errno.h>
#include <microhttpd.h>
/* mallopt and mallinfo2 (ServerAllocator): <malloc.h> is outside Swift's Glibc module. */
#include <malloc.h>
/* The kernel's id of the calling thread, for per-thread scheduling priority (RequestLanes). */
#include <sys/syscall.h>

/*
 * Fixed-argument wrappers around libmicrohttpd's variadic functions, which Swift does not import.
 * Being static inline, they are compiled into the importing Swift module; no separate C target is needed.
 */

/* MHD_SIZE_UNKNOWN is a cast macro, which Swift does not import. */
static const uint64_t cmhd_size_unknown = MHD_SIZE_UNKNOWN;

/* The settings cmhd_start_daemon passes to MHD_start_daemon as options. */
struct cmhd_daemon_options {
    /* The IPv4 address and port to listen on (port 0: the kernel picks a free one). */
    const struct sockaddr_in *address;
    /* Worker threads; 0 or 1 runs a single internal polling thread. */
    unsigned int thread_pool_size;
    /* Seconds of inactivity after which a connection is closed; 0 disables the timeout. */
    unsigned int connection_timeout;
    /* Maximum number of concurrent connections; 0 keeps libmicrohttpd's default. */
    unsigned int connection_limit;
    /* Memory per connection for headers and buffers; 0 keeps libmicrohttpd's default (32 KiB). */
    size_t connection_memory_limit;
    /* Called when a request is finished, to free the per-request context. */
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
    /* Receives libmicrohttpd's error messages (requires MHD_USE_ERROR_LOG in the flags). */
    MHD_LogCallback logger;
    void *logger_cls;
    /* Called with the raw request target (path and query, as sent) once the request line is parsed; what it
       returns becomes the request's initial per-request context. */
    void *(*uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);
    void *uri_logger_cls;
    /* Non-zero: set SO_REUSEPORT, so several daemons can listen on one port (the kernel spreads connections). */
    int reuse_address;
};

/* MHD_start_daemon with the options above; returns NULL on failure. */
static inline struct MHD_Daemon *
cmhd_start_daemon(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                  const struct cmhd_daemon_options *options)
{
    struct MHD_OptionItem items[11];
    unsigned int count = 0;
    items[count++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *) options->address };
    if (options->reuse_address) {
        items[count++] = (struct MHD_OptionItem){ MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, NULL };
    }
    if (options->thread_pool_size > 1) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_THREAD_POOL_SIZE, (intptr_t) options->thread_pool_size, NULL };
    }
    items[count++] = (struct MHD_OptionItem){
        MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) options->connection_timeout, NULL };
    if (options->connection_limit > 0) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_CONNECTION_LIMIT, (intptr_t) options->connection_limit, NULL };
    }
    if (options->connection_memory_limit > 0) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) options->connection_memory_limit, NULL };
    }
    if (options->completed != NULL) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) options->completed, options->completed_cls };
    }
    if (options->logger != NULL) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) options->logger, options->logger_cls };
    }
    if (options->uri_logger != NULL) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) options->uri_logger, options->uri_logger_cls };
    }
    items[count] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, ntohs(options->address->sin_port), NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, items, MHD_OPTION_END);
}

/* The port the daemon is bound to (MHD_DAEMON_INFO_BIND_PORT), or 0 if unknown. */
static inline uint16_t
cmhd_daemon_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/* The socket of a connection (MHD_CONNECTION_INFO_CONNECTION_FD), or -1 if unknown. */
static inline int
cmhd_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

/* The size of the request line and header fields as received, CRLFs included
   (MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE), or 0 before the headers are complete. */
static inline size_t
cmhd_connection_header_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info != NULL ? info->header_size : 0;
}

/* The client's IP address as text into buffer (MHD_CONNECTION_INFO_CLIENT_ADDRESS); 0 on success, -1 if unknown. */
static inline int
cmhd_connection_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *) address)->sin_addr, buffer, size) != NULL ? 0 : -1;
    }
    if (address->sa_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *) address)->sin6_addr, buffer, size) != NULL ? 0 : -1;
    }
    return -1;
}

/* An epoll set for watching peers hang up (close-on-exec); -1 on failure. */
static inline int
cmhd_hangup_set_create(void)
{
    return epoll_create1(EPOLL_CLOEXEC);
}

/* Adds a socket to the set, reporting once (one-shot) when the peer hangs up; 0 on success. */
static inline int
cmhd_hangup_set_add(int set, int fd, uint64_t token)
{
    struct epoll_event event;
    event.events = EPOLLRDHUP | EPOLLONESHOT;
    event.data.u64 = token;
    return epoll_ctl(set, EPOLL_CTL_ADD, fd, &event);
}

/* Waits up to timeout_ms for hang-ups; writes their tokens and returns how many (0 on timeout or error). */
static inline int
cmhd_hangup_set_wait(int set, uint64_t *tokens, int capacity, int timeout_ms)
{
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(set, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) tokens[i] = events[i].data.u64;
    return count > 0 ? count : 0;
}

/* MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE): hands an upgraded socket back to libmicrohttpd, which closes it. */
static inline enum MHD_Result
cmhd_upgrade_close(struct MHD_UpgradeResponseHandle *urh)
{
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}

/* Takes an upgraded socket over from libmicrohttpd, so that the connection can be handed back at once and
   libmicrohttpd frees it with its memory pool: returns a duplicate of the socket (close-on-exec) and puts a fresh,
   unconnected socket under the original descriptor number, which libmicrohttpd then shuts down and closes in its
   place; the duplicate keeps the connection. Returns -1, leaving the socket as it was, on failure. */
static inline int
cmhd_upgrade_detach(int fd)
{
    int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) return -1;
    int placeholder = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (placeholder < 0) {
        close(own);
        return -1;
    }
    if (dup2(placeholder, fd) < 0) {
        close(placeholder);
        close(own);
        return -1;
    }
    close(placeholder);
    (void) fcntl(fd, F_SETFD, FD_CLOEXEC);
    return own;
}

/* A second descriptor for a socket (close-on-exec), so that the connection outlives libmicrohttpd's close of the
   first; -1 on failure. */
static inline int
cmhd_duplicate(int fd)
{
    return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

/* Reads and discards what a socket holds, up to limit bytes, without blocking: returns the bytes discarded, 0 when
   nothing is waiting, or -1 when the peer has closed its side or the connection has failed. */
static inline long
cmhd_discard(int fd, long limit)
{
    char buffer[65536];
    long total = 0;
    while (total < limit) {
        ssize_t got = recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (got > 0) {
            total += got;
            continue;
        }
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return total;
        if (got < 0 && errno == EINTR) continue;
        return -1;
    }
    return total;
}

/* Puts a socket in non-blocking mode; 0 on success. */
static inline int
cmhd_set_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/* An epoll set for upgraded (WebSocket) sockets, level-triggered (close-on-exec); -1 on failure. */
static inline int
cmhd_reactor_create(void)
{
    return epoll_create1(EPOLL_CLOEXEC);
}

/* Adds (add != 0) or changes a socket's interest: always readable and hang-ups, writable when asked; 0 on success. */
static inline int
cmhd_reactor_watch(int set, int fd, uint64_t token, int writable, int add)
{
    struct epoll_event event;
    event.events = EPOLLIN | EPOLLRDHUP | (writable ? EPOLLOUT : 0);
    event.data.u64 = token;
    return epoll_ctl(set, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/* Removes a socket from the set; 0 on success. */
static inline int
cmhd_reactor_remove(int set, int fd)
{
    struct epoll_event event = { 0 };
    return epoll_ctl(set, EPOLL_CTL_DEL, fd, &event);
}

/* Waits up to timeout_ms; writes each ready socket's token and readiness (bit 0: readable or hung up, bit 1:
   writable) and returns how many (0 on timeout or error). */
static inline int
cmhd_reactor_wait(int set, uint64_t *tokens, uint32_t *readiness, int capacity, int timeout_ms)
{
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(set, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        uint32_t ready = 0;
        if (events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ready |= 1;
        if (events[i].events & EPOLLOUT) ready |= 2;
        tokens[i] = events[i].data.u64;
        readiness[i] = ready;
    }
    return count > 0 ? count : 0;
}

/* An eventfd that wakes a reactor's epoll_wait (non-blocking, close-on-exec); -1 on failure. */
static inline int
cmhd_wake_create(void)
{
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/* Makes a wake descriptor readable. */
static inline void
cmhd_wake_signal(int fd)
{
    uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof one);
    (void) written;
}

/* Makes a wake descriptor unreadable again. */
static inline void
cmhd_wake_drain(int fd)
{
    uint64_t value;
    ssize_t got = read(fd, &value, sizeof value);
    (void) got;
}

/* Sets glibc's mmap threshold (M_MMAP_THRESHOLD) then its trim threshold (M_TRIM_THRESHOLD), in bytes, for the
   whole process; setting either also stops glibc from moving them itself. Returns 1 if both were taken, else 0. */
static inline int
cmhd_set_allocator_thresholds(int mmap_threshold, int trim_threshold)
{
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
}

/* The bytes the allocator holds free, over every arena (mallinfo2's fordblks: free chunks and each arena's top). */
static inline size_t
cmhd_allocator_free_bytes(void)
{
    return mallinfo2().fordblks;
}
/* The calling thread's kernel id (gettid), which setpriority takes to change one thread's priority. */
static inline pid_t
cmhd_thread_id(void)
{
    return (pid_t) syscall(SYS_gettid);
}

#endif
