#ifndef CNGHTTP2_SHIM_H
#define CNGHTTP2_SHIM_H

#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <nghttp2/nghttp2.h>

/*
 * The socket calls of the connection dispatcher and the HTTP/2 loops, with errno folded into the result so that
 * Swift need not read it: static inline, compiled into the importing module.
 */

/* Binds and listens on an IPv4 address (SO_REUSEADDR, non-blocking, close-on-exec); returns the socket, or -1 with
   the failing call's errno in *error. */
static inline int
cnh2_listen(const struct sockaddr_in *address, int backlog, int *error)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = errno;
        return -1;
    }
    int one = 1;
    (void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *) address, sizeof *address) != 0 || listen(fd, backlog) != 0) {
        *error = errno;
        close(fd);
        return -1;
    }
    return fd;
}

/* The port a socket is bound to, or 0. */
static inline uint16_t
cnh2_bound_port(int fd)
{
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *) &address, &length) != 0) return 0;
    return ntohs(address.sin_port);
}

/* Accepts one connection (non-blocking, close-on-exec) and writes the peer's address; returns the socket, -1 when
   none is waiting, or -2 with errno in *error on another failure. */
static inline int
cnh2_accept(int listener, struct sockaddr_in *address, int *error)
{
    socklen_t length = sizeof *address;
    int fd = accept4(listener, (struct sockaddr *) address, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) return fd;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED) return -1;
    *error = errno;
    return -2;
}

/* Looks at up to `capacity` bytes waiting in a socket without taking them: returns how many, 0 at end-of-file, -1
   when nothing is waiting yet, -2 on failure. */
static inline long
cnh2_peek(int fd, uint8_t *buffer, long capacity)
{
    ssize_t got = recv(fd, buffer, (size_t) capacity, MSG_PEEK | MSG_DONTWAIT);
    if (got >= 0) return got;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return -1;
    return -2;
}

/* Reads what a non-blocking socket holds, up to `capacity`: bytes read, 0 at end-of-file, -1 when nothing is
   waiting, -2 on failure. */
static inline long
cnh2_read(int fd, uint8_t *buffer, long capacity)
{
    ssize_t got = recv(fd, buffer, (size_t) capacity, MSG_DONTWAIT);
    if (got >= 0) return got;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return -1;
    return -2;
}

/* Writes to a non-blocking socket without raising SIGPIPE: bytes written, -1 when it takes nothing now, -2 on
   failure. */
static inline long
cnh2_write(int fd, const uint8_t *buffer, long count)
{
    ssize_t sent = send(fd, buffer, (size_t) count, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (sent >= 0) return sent;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return -1;
    return -2;
}

/* Turns Nagle's algorithm off: HTTP/2 frames go out as soon as they are written. */
static inline void
cnh2_set_nodelay(int fd)
{
    int one = 1;
    (void) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Watches a socket of an epoll set edge-triggered (readable and hang-ups): reported again only when more bytes
   arrive, for a socket whose bytes are peeked and left in place. 0 on success. */
static inline int
cnh2_watch_edge(int set, int fd, uint64_t token)
{
    struct epoll_event event;
    event.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    event.data.u64 = token;
    return epoll_ctl(set, EPOLL_CTL_MOD, fd, &event);
}

/* The peer's IPv4 address as text into buffer; 0 on success. */
static inline int
cnh2_address_text(const struct sockaddr_in *address, char *buffer, socklen_t size)
{
    return inet_ntop(AF_INET, &address->sin_addr, buffer, size) != NULL ? 0 : -1;
}

/* The frame's type, stream, flags and (for HEADERS) category: nghttp2_frame is a union Swift reads awkwardly. */
static inline uint8_t cnh2_frame_type(const nghttp2_frame *frame) { return frame->hd.type; }
static inline int32_t cnh2_frame_stream(const nghttp2_frame *frame) { return frame->hd.stream_id; }
static inline uint8_t cnh2_frame_flags(const nghttp2_frame *frame) { return frame->hd.flags; }
static inline int cnh2_frame_is_request_headers(const nghttp2_frame *frame)
{
    return frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST;
}
static inline int cnh2_frame_is_response_headers(const nghttp2_frame *frame)
{
    return frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_RESPONSE;
}
static inline uint32_t cnh2_frame_goaway_error(const nghttp2_frame *frame) { return frame->goaway.error_code; }
static inline int32_t cnh2_frame_goaway_last_stream(const nghttp2_frame *frame)
{
    return frame->goaway.last_stream_id;
}
static inline uint32_t cnh2_frame_rst_error(const nghttp2_frame *frame) { return frame->rst_stream.error_code; }

/* A data provider whose read callback finds its stream by id (the source is unused). */
static inline nghttp2_data_provider
cnh2_data_provider(nghttp2_data_source_read_callback read)
{
    nghttp2_data_provider provider;
    provider.source.ptr = NULL;
    provider.read_callback = read;
    return provider;
}

#endif
