#pragma once
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

// libmicrohttpd is loaded with dlopen when a metrics endpoint starts (MicroHTTPDLibrary.swift), not
// linked: it pulls in GnuTLS and eight more libraries whose constructors cost every gateway about
// 2.4 MiB of RSS, metrics on or off. These are the types of the functions the endpoint resolves,
// taken from the header itself so a mismatch cannot compile.
typedef __typeof__(&MHD_start_daemon) b2m_mhd_start_daemon_fn;
typedef __typeof__(&MHD_stop_daemon) b2m_mhd_stop_daemon_fn;
typedef __typeof__(&MHD_create_response_from_buffer) b2m_mhd_create_response_from_buffer_fn;
typedef __typeof__(&MHD_destroy_response) b2m_mhd_destroy_response_fn;
typedef __typeof__(&MHD_add_response_header) b2m_mhd_add_response_header_fn;
typedef __typeof__(&MHD_queue_response) b2m_mhd_queue_response_fn;
typedef __typeof__(&MHD_create_response_from_callback) b2m_mhd_create_response_from_callback_fn;
typedef __typeof__(&MHD_lookup_connection_value) b2m_mhd_lookup_connection_value_fn;

// What a streaming reader returns at the end of its stream (a macro Swift cannot import).
static const ssize_t b2m_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const uint64_t b2m_mhd_size_unknown = MHD_SIZE_UNKNOWN;

// MHD_start_daemon is variadic, which Swift cannot call: this fixes the options the metrics
// endpoint uses. One internal polling thread (poll, so no FD_SETSIZE limit), and the limits that
// keep hostile clients cheap: at most `connection_limit` connections (more are accepted and
// closed at once), `timeout_seconds` of inactivity, `memory_limit` bytes per connection (a
// request whose headers do not fit is answered 431/413 and closed). `listen_fd` is a socket the
// caller bound and listens on (so a failure is the caller's to report, with errno); the library
// closes it when stopped. No MHD_USE_ERROR_LOG: the library never writes to stderr.
// `thread_per_connection` (the live map's event streams, whose readers wait for news) gives each
// connection a thread of its own, so a waiting stream never holds up a scrape. `key_pem` and
// `cert_pem` (both or neither) serve TLS through the library's GnuTLS.
static inline struct MHD_Daemon *b2m_mhd_start(
    b2m_mhd_start_daemon_fn start_daemon, int listen_fd,
    unsigned int connection_limit, unsigned int per_ip_limit, unsigned int timeout_seconds, size_t memory_limit,
    int thread_per_connection, const char *key_pem, const char *cert_pem,
    MHD_AccessHandlerCallback handler, void *context) {
    unsigned int flags = thread_per_connection
        ? (MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL)
        : MHD_USE_POLL_INTERNAL_THREAD;
    if (key_pem != NULL && cert_pem != NULL) {
        return start_daemon(
            flags | MHD_USE_TLS, 0, NULL, NULL, handler, context,
            MHD_OPTION_LISTEN_SOCKET, listen_fd,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
            MHD_OPTION_HTTPS_MEM_KEY, key_pem,
            MHD_OPTION_HTTPS_MEM_CERT, cert_pem,
            MHD_OPTION_END);
    }
    return start_daemon(
        flags, 0, NULL, NULL, handler, context,
        MHD_OPTION_LISTEN_SOCKET, listen_fd,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_END);
}
