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

// MHD_start_daemon is variadic, which Swift cannot call: this fixes the options the metrics
// endpoint uses. One internal polling thread (poll, so no FD_SETSIZE limit), and the limits that
// keep hostile clients cheap: at most `connection_limit` connections (more are accepted and
// closed at once), `timeout_seconds` of inactivity, `memory_limit` bytes per connection (a
// request whose headers do not fit is answered 431/413 and closed). `listen_fd` is a socket the
// caller bound and listens on (so a failure is the caller's to report, with errno); the library
// closes it when stopped. No MHD_USE_ERROR_LOG: the library never writes to stderr.
static inline struct MHD_Daemon *b2m_mhd_start(
    b2m_mhd_start_daemon_fn start_daemon, int listen_fd,
    unsigned int connection_limit, unsigned int per_ip_limit, unsigned int timeout_seconds, size_t memory_limit,
    MHD_AccessHandlerCallback handler, void *context) {
    unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD;
    return start_daemon(
        flags, 0, NULL, NULL, handler, context,
        MHD_OPTION_LISTEN_SOCKET, listen_fd,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_END);
}
