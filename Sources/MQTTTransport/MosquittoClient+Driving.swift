import CMosquitto
import Glibc
import Platform
import Synchronization

/// Who writes to the broker, and how the network thread waits (plain TCP; a TLS session keeps
/// `mosquitto_loop`, see `writesDirectly`).
///
/// In threaded mode libmosquitto's `mosquitto_publish` only queues the packet and writes a byte to
/// a socketpair of its own, which wakes `mosquitto_loop`'s pselect on the network thread, which
/// then reads the byte and writes the packet: a wake-up of that thread and three system calls
/// per message (pselect, the byte's read and write), and the message waits for the thread to be
/// scheduled. Here the network thread polls the broker's socket and `writeWake`, never the
/// socketpair. A QoS ≥ 1 message (an event, a state: few, and what a subscriber waits for) is
/// written by the thread that queued it, at once (`mosquitto_loop_write`; libmosquitto
/// serializes writers with its packet mutexes). A QoS 0 message (a ranging tick's proximity
/// burst: hundreds at once with `per_beacon`) is left to the network thread, woken once for the
/// burst (`WakeEvent` coalesces), so the pipeline thread's tick does not grow by a loopback TCP
/// write per message. The network thread also wakes for what the broker sends, for keepalive
/// once a second, and when a writer could not finish (a full socket buffer, a lost connection,
/// or the library busy in the other thread). The socketpair's unread bytes fill its buffer (a
/// few hundred), after which libmosquitto's write of the byte fails without effect; each
/// connection gets a new handle and a new pair.
///
/// `driveLock` keeps one thread at a time inside libmosquitto's read, write and misc calls, so
/// the library's error path (it closes the socket and calls on_disconnect) never runs in two
/// threads at once. Writers only try it: a callback on the network thread that publishes or
/// subscribes, while that thread holds it, leaves the write to the network thread's pass.
extension MosquittoClient {
    /// Whether writers write their own packets: not through TLS, where OpenSSL's reads and writes
    /// on one connection must stay on one thread (and the handshake is `mosquitto_loop`'s).
    var writesDirectly: Bool { !options.tls.enabled }

    /// After a call that queued a packet on `handle` (the caller holds `handleSlot`): writes what is
    /// queued (`directly`), or leaves it to the network thread and wakes it.
    func writeQueued(_ handle: OpaquePointer, directly: Bool = true) {
        guard writesDirectly else { return }  // libmosquitto's own wake-up byte reaches mosquitto_loop
        guard directly else { return writeWake.signal() }
        let finished = driveLock.withLockIfAvailable { _ in
            collectingEvents {
                mosquitto_loop_write(handle, 1) == Int32(MOSQ_ERR_SUCCESS.rawValue) && !mosquitto_want_write(handle)
            }
        }
        if finished != true { writeWake.signal() }
    }

    /// One pass of the network thread on a plain TCP session: waits up to a second for the broker's
    /// socket (and for writing, while packets wait) or `writeWake`, then reads what the socket holds
    /// (`readAvailable`), runs the keepalive and writes what waits; the pass's events go to the
    /// consumer together. The result is `mosquitto_loop`'s: anything but success ends the session.
    func drivePass(_ handle: OpaquePointer) -> Int32 {
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return Int32(MOSQ_ERR_NO_CONN.rawValue) }
        let interest = Int16(POLLIN) | (mosquitto_want_write(handle) ? Int16(POLLOUT) : 0)
        var ready: Int16 = 0
        withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors in
            descriptors.initializeElement(at: 0, to: pollfd(fd: socket, events: interest, revents: 0))
            descriptors.initializeElement(
                at: 1, to: pollfd(fd: writeWake.descriptor, events: Int16(POLLIN), revents: 0))
            // Only EFAULT/EINVAL/ENOMEM can fail a poll of two valid descriptors: take it as a timeout.
            _ = try? Syscall.poll(descriptors, timeout: .seconds(1)) { code in SystemCallError("poll", code: code) }
            ready = descriptors[0].revents
            if descriptors[1].revents != 0 { writeWake.drain() }
        }
        return driveLock.withLock { _ in
            collectingEvents {
                let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
                var rc = success
                if ready & Int16(POLLIN | POLLERR | POLLHUP) != 0 { rc = readAvailable(handle, socket: socket) }
                if rc == success { rc = mosquitto_loop_misc(handle) }
                if rc == success, mosquitto_want_write(handle) { rc = mosquitto_loop_write(handle, 1) }
                return rc
            }
        }
    }

    /// Most `mosquitto_loop_read` calls in one pass before it runs the keepalive (and polls again):
    /// a flood cannot hold back the keepalive, and a pass holds a bounded number of events.
    static let readBurst = 256

    /// Reads whole packets while the socket holds them, up to `readBurst`, and writes between them
    /// what waits: a writer that found `driveLock` taken left its packet to this thread, and it
    /// goes out now rather than after the burst. libmosquitto 2.0.11's `mosquitto_loop_read` ignores
    /// its `max_packets`: it reads one packet, or as many as QoS ≥ 1 messages are in flight either
    /// way, and stops early once a read of the socket finds it empty (EAGAIN in errno).
    private func readAvailable(_ handle: OpaquePointer, socket: Int32) -> Int32 {
        let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
        for packet in 1...Self.readBurst {
            errno = 0
            var rc = mosquitto_loop_read(handle, 1)
            // The socket found empty, mid-packet or between packets, or a stale code (the library's
            // wake-up byte for a PUBACK it queued, into a full socketpair): the socket says which.
            let emptied = errno == EAGAIN
            if rc == success, mosquitto_want_write(handle) { rc = mosquitto_loop_write(handle, 1) }
            guard rc == success, packet < Self.readBurst, !emptied || Self.readable(socket) else { return rc }
        }
        return success
    }

    /// Whether `socket` has bytes to read (or an error or hang-up to report) right now.
    private static func readable(_ socket: Int32) -> Bool {
        let events = try? Syscall.poll(socket, timeout: .zero) { code in SystemCallError("poll", code: code) }
        return (events ?? 0) != 0
    }
}
