#pragma once
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic, which Swift cannot call: this fixes the options the metrics
// endpoint uses. One internal polling thread (poll, so no FD_SETSIZE limit), and the limits that
// keep hostile clients cheap: at most `connection_limit` connections (more are accepted and
// closed at once), `timeout_seconds` of inactivity, `memory_limit` bytes per connection (a
// request whose headers do not fit is answered 431/413 and closed).
static inline struct MHD_Daemon *b2m_mhd_start(
    const struct sockaddr_in *address, unsigned int connection_limit, unsigned int per_ip_limit,
    unsigned int timeout_seconds, size_t memory_limit, MHD_AccessHandlerCallback handler, void *context) {
    return MHD_start_daemon(
        MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, ntohs(address->sin_port), NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 64u,
        MHD_OPTION_END);
}
