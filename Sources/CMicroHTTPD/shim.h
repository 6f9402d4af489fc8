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
    const char *host;           // IPv4 or IPv6 literal to bind; NULL binds every address
    uint16_t port;              // 0 picks a free port
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    unsigned int listen_backlog;
    int strict_for_client;      // MHD_OPTION_STRICT_FOR_CLIENT: 1 strict, 0 default, -1 lenient
    const cmhd_logger_target *logger; // libmicrohttpd's messages; NULL leaves them on stderr
    const char *tls_key_pem;    // with tls_cert_pem: serve HTTPS
    const char *tls_cert_pem;
    const char *tls_priorities; // GnuTLS priority string; NULL leaves libmicrohttpd's default
} cmhd_config;

/// Starts a daemon. Returns NULL when the address cannot be bound or the options are refused.
static inline struct MHD_Daemon *cmhd_start_daemon(const cmhd_config *config,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   MHD_NotifyConnectionCallback notify, void *notify_cls,
                                                   void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection),
                                                   void *uri_log_cls) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *address = NULL;
    unsigned int flags = config->flags;
    if (config->host != NULL) {
        memset(&v4, 0, sizeof v4);
        memset(&v6, 0, sizeof v6);
        if (inet_pton(AF_INET, config->host, &v4.sin_addr) == 1) {
            v4.sin_family = AF_INET;
            v4.sin_port = htons(config->port);
            address = (const struct sockaddr *)&v4;
        } else if (inet_pton(AF_INET6, config->host, &v6.sin6_addr) == 1) {
            v6.sin6_family = AF_INET6;
            v6.sin6_port = htons(config->port);
            address = (const struct sockaddr *)&v6;
            flags |= MHD_USE_IPv6;
        } else {
            return NULL;
        }
    }
    struct MHD_OptionItem options[24];
    int n = 0;
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
    if (notify != NULL) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, notify_cls };
    // Sees each request's target as sent, before libmicrohttpd decodes it (a %2F inside a path
    // segment is then still told apart from a "/" between segments).
    if (uri_log != NULL) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, uri_log_cls };
    if (address != NULL) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)address };
    if (config->thread_pool_size > 1) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, config->thread_pool_size, NULL };
    if (config->connection_limit) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL };
    if (config->per_ip_connection_limit) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, config->per_ip_connection_limit, NULL };
    if (config->connection_timeout_seconds) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout_seconds, NULL };
    if (config->connection_memory_limit) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)config->connection_memory_limit, NULL };
    if (config->listen_backlog) options[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, config->listen_backlog, NULL };
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
        return MHD_start_daemon(flags, config->port, NULL, NULL, handler, handler_cls,
                                MHD_OPTION_EXTERNAL_LOGGER, cmhd_format_log, (void *)config->logger,
                                MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, config->port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0), or 0.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
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

/// Stops listening without dropping connections the kernel has already completed: quiesces the
/// daemon, hands every connection waiting in the accept backlog to libmicrohttpd, and closes
/// the listening socket. Returns how many waiting connections were handed over, or -1.
static inline int cmhd_quiesce_and_adopt(struct MHD_Daemon *daemon) {
    MHD_socket listener = MHD_quiesce_daemon(daemon);
    if (listener == MHD_INVALID_SOCKET) return -1;
    int flags = fcntl(listener, F_GETFL, 0);
    if (flags >= 0) fcntl(listener, F_SETFL, flags | O_NONBLOCK);
    int adopted = 0;
    for (;;) {
        struct sockaddr_storage address;
        socklen_t length = sizeof address;
        int client = accept(listener, (struct sockaddr *)&address, &length);
        if (client < 0) break;
        if (MHD_add_connection(daemon, client, (const struct sockaddr *)&address, length) == MHD_YES) adopted++;
    }
    close(listener);
    return adopted;
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
