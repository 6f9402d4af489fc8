// The parts of libmicrohttpd that Swift cannot call directly (variadic functions), wrapped in
// prefixed static inline functions with fixed arguments.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <poll.h>
#include <errno.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <microhttpd.h>

/// Where libmicrohttpd's own messages go: a function of the application's, with its context.
typedef void (*cmhd_message_sink)(void *context, const char *message);
typedef struct cmhd_logger_target {
    cmhd_message_sink sink;
    void *context;
} cmhd_logger_target;

/// MHD_OPTION_EXTERNAL_LOGGER hands a printf format and a va_list, which Swift cannot take:
/// formatted here, then passed on as one string.
static inline void cmhd_format_log(void *cls, const char *format, va_list arguments) {
    const cmhd_logger_target *target = (const cmhd_logger_target *)cls;
    if (target == NULL || target->sink == NULL) return;
    char text[1024];
    vsnprintf(text, sizeof text, format, arguments);
    target->sink(target->context, text);
}

/// Everything the daemon is started with. Zero means "libmicrohttpd's default" for the limits.
typedef struct cmhd_config {
    unsigned int flags;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    int strict_for_client;      // MHD_OPTION_STRICT_FOR_CLIENT: 1 strict, 0 default, -1 lenient
    const cmhd_logger_target *logger; // libmicrohttpd's messages; NULL leaves them on stderr
    const char *tls_key_pem;    // with tls_cert_pem: serve HTTPS
    const char *tls_cert_pem;
    const char *tls_priorities; // GnuTLS priority string; NULL leaves libmicrohttpd's default
} cmhd_config;

/// Starts a daemon without a listening socket of its own: connections come from the
/// application's acceptor (`cmhd_add_connection`). Returns NULL when the options are refused.
static inline struct MHD_Daemon *cmhd_start_daemon(const cmhd_config *config,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   MHD_NotifyConnectionCallback notify, void *notify_cls,
                                                   void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection),
                                                   void *uri_log_cls) {
    unsigned int flags = config->flags | MHD_USE_NO_LISTEN_SOCKET;
    struct MHD_OptionItem options[24];
    int n = 0;
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
    if (notify != NULL) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, notify_cls };
    // Sees each request's target as sent, before libmicrohttpd decodes it (a %2F inside a path
    // segment is then still told apart from a "/" between segments).
    if (uri_log != NULL) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, uri_log_cls };
    if (config->thread_pool_size > 1) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, config->thread_pool_size, NULL };
    if (config->connection_limit) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL };
    if (config->connection_timeout_seconds) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout_seconds, NULL };
    if (config->connection_memory_limit) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)config->connection_memory_limit, NULL };
    if (config->strict_for_client) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_STRICT_FOR_CLIENT, config->strict_for_client, NULL };
    if (config->tls_key_pem && config->tls_cert_pem) {
        flags |= MHD_USE_TLS;
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)config->tls_key_pem };
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)config->tls_cert_pem };
        if (config->tls_priorities != NULL)
            options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)config->tls_priorities };
    }
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    if (config->logger != NULL) {
        // The external logger must be the first option, or libmicrohttpd prints some messages itself.
        return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                                MHD_OPTION_EXTERNAL_LOGGER, cmhd_format_log, (void *)config->logger,
                                MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// A client's address as accepted, for `cmhd_add_connection`.
typedef struct cmhd_peer {
    struct sockaddr_storage address;
    socklen_t length;
} cmhd_peer;

/// Opens a non-blocking TCP socket listening on `host` (an IPv4 or IPv6 literal) and `port` (0
/// picks a free one; the port bound is written to `bound`), with SO_REUSEADDR and, for IPv6,
/// IPV6_V6ONLY, as libmicrohttpd set its own. Returns the socket, or -1 with errno set.
static inline int cmhd_listen(const char *host, uint16_t port, int backlog, uint16_t *bound) {
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    socklen_t length;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        errno = EINVAL;
        return -1;
    }
    int fd = socket(storage.ss_family, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (storage.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0
        || bind(fd, (struct sockaddr *)&storage, length) < 0 || listen(fd, backlog) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    length = sizeof storage;
    if (getsockname(fd, (struct sockaddr *)&storage, &length) == 0)
        *bound = ntohs(storage.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
    return fd;
}

/// Accepts one waiting connection, non-blocking and close-on-exec. Returns -1 when none waits
/// (or on an error; errno says which).
static inline int cmhd_accept(int listener, cmhd_peer *peer) {
    peer->length = sizeof peer->address;
#ifdef __linux__
    return accept4(listener, (struct sockaddr *)&peer->address, &peer->length, SOCK_NONBLOCK | SOCK_CLOEXEC);
#else
    int fd = accept(listener, (struct sockaddr *)&peer->address, &peer->length);
    if (fd >= 0) {
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
    }
    return fd;
#endif
}

/// The peer's address as text ("127.0.0.1"), written into buffer; NULL if it is not IP.
static inline const char *cmhd_peer_address(const cmhd_peer *peer, char *buffer, size_t size) {
    const struct sockaddr *sa = (const struct sockaddr *)&peer->address;
    if (sa->sa_family == AF_INET) return inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer, (socklen_t)size);
    if (sa->sa_family == AF_INET6) return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer, (socklen_t)size);
    return NULL;
}

/// Hands an accepted connection to libmicrohttpd, which owns (and closes) the socket from here,
/// even when it refuses it. Returns 1 when taken.
static inline int cmhd_add_connection(struct MHD_Daemon *daemon, int fd, const cmhd_peer *peer) {
    return MHD_add_connection(daemon, fd, (const struct sockaddr *)&peer->address, peer->length) == MHD_YES;
}

/// Reports a socket readable to poll() only once at least `bytes` are waiting (or at its end,
/// or on an error): a connection whose head is incomplete is not reported again until more of
/// it arrives. 1 is the default.
static inline void cmhd_set_receive_low_water(int fd, int bytes) {
    setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &bytes, sizeof bytes);
}

/// poll()'s report that the peer has shut down its sending side (Linux's POLLRDHUP); 0 where
/// there is none, and a hang-up or error is then what ends a held connection.
static inline short cmhd_poll_read_hangup(void) {
#if defined(__linux__) && defined(POLLRDHUP)
    return POLLRDHUP;
#elif defined(__linux__)
    return 0x2000;
#else
    return 0;
#endif
}

/// Reads without consuming what has arrived on a socket, at most `size` bytes. Returns the
/// count, 0 at the end of the stream, or -1 with errno set (EAGAIN: nothing yet).
static inline long cmhd_peek(int fd, void *buffer, size_t size) {
    return recv(fd, buffer, size, MSG_PEEK | MSG_DONTWAIT);
}

/// The number of connections currently open, or 0 when unknown.
static inline unsigned int cmhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/// The socket of a connection, or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The size of the current request's head (request line, fields and the empty line), counted
/// from the method in libmicrohttpd's read buffer; 0 before the head is complete.
static inline size_t cmhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info ? info->header_size : 0;
}

/// What the connection-started notification stored for this connection (NULL if nothing).
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The client's address as text ("127.0.0.1"), written into buffer.
static inline const char *cmhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return NULL;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) return inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer, (socklen_t)size);
    if (sa->sa_family == AF_INET6) return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer, (socklen_t)size);
    return NULL;
}

/// Lowers the calling thread's scheduling priority by `nice` steps (Linux schedules threads
/// separately; elsewhere this does nothing). Worker threads call it, so the I/O threads that
/// answer health checks win the CPU from them.
static inline void cmhd_lower_thread_priority(int nice) {
#ifdef __linux__
    pid_t thread = (pid_t)syscall(SYS_gettid);
    int current = getpriority(PRIO_PROCESS, (id_t)thread);
    setpriority(PRIO_PROCESS, (id_t)thread, current + nice);
#else
    (void)nice;
#endif
}

/// Caps the kernel's send buffer of a socket: what a client that does not read can make the
/// server hold beyond the one response in progress.
static inline void cmhd_set_send_buffer(int fd, int bytes) {
    if (fd >= 0 && bytes > 0) setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

/// Reads and discards what a client still sends on a socket whose response has been sent and
/// whose sending side is shut down, so the close that follows does not reset the connection
/// (which would destroy the response before the client reads it: RFC 9112 §9.6). Returns the
/// bytes drained: -1 on end of stream or error, 0 when nothing is waiting now.
static inline long cmhd_drain(int fd) {
    char buffer[16384];
    long total = 0;
    for (;;) {
        ssize_t n = recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n > 0) { total += n; if (total >= (1 << 20)) return total; continue; }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return total;
        return -1;
    }
}

#endif
