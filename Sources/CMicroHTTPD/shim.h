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
// request whose headers do not fit is answered 431/413 and closed). `address` is a sockaddr_in or,
// with `ipv6`, a sockaddr_in6; an IPv6 socket is dual-stack, so `::` takes IPv4 clients as well.
static inline struct MHD_Daemon *b2m_mhd_start(
    b2m_mhd_start_daemon_fn start_daemon, const struct sockaddr *address, uint16_t port, int ipv6,
    unsigned int connection_limit, unsigned int per_ip_limit, unsigned int timeout_seconds, size_t memory_limit,
    MHD_AccessHandlerCallback handler, void *context) {
    unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_DUAL_STACK : 0);
    return start_daemon(
        flags, port, NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 64u,
        MHD_OPTION_END);
}
