import BeaconCore
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
            mosquitto_loop_write(handle, 1) == Int32(MOSQ_ERR_SUCCESS.rawValue) && !mosquitto_want_write(handle)
        }
        if finished != true { writeWake.signal() }
    }

    /// One pass of the network thread on a plain TCP session: waits up to a second for the broker's
    /// socket (and for writing, while packets wait) or `writeWake`, then reads, runs the keepalive
    /// and writes what waits. The result is `mosquitto_loop`'s: anything but success ends the session.
    func drivePass(_ handle: OpaquePointer) -> Int32 {
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return Int32(MOSQ_ERR_NO_CONN.rawValue) }
        let interest = Int16(POLLIN) | (mosquitto_want_write(handle) ? Int16(POLLOUT) : 0)
        var ready: Int16 = 0
        withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors in
            descriptors.initializeElement(at: 0, to: pollfd(fd: socket, events: interest, revents: 0))
            descriptors.initializeElement(at: 1, to: pollfd(fd: writeWake.descriptor, events: Int16(POLLIN), revents: 0))
            // Only EFAULT/EINVAL/ENOMEM can fail a poll of two valid descriptors: take it as a timeout.
            _ = try? Syscall.poll(descriptors, timeout: .seconds(1)) { code in SystemCallError("poll", code: code) }
            ready = descriptors[0].revents
            if descriptors[1].revents != 0 { writeWake.drain() }
        }
        return driveLock.withLock { _ in
            let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
            var rc = success
            if ready & Int16(POLLIN | POLLERR | POLLHUP) != 0 { rc = mosquitto_loop_read(handle, 1) }
            if rc == success { rc = mosquitto_loop_misc(handle) }
            if rc == success, mosquitto_want_write(handle) { rc = mosquitto_loop_write(handle, 1) }
            return rc
        }
    }
}
