import Glibc

/// The one way the gateway makes a system call: a call that signals failure with a negative result
/// is retried while it fails with EINTR, and otherwise errno is read on the spot (before anything
/// else can overwrite it) into a typed error.
package enum Syscall {
    /// Calls `body` until it does not fail with EINTR; a negative result otherwise becomes
    /// `failure(errno)`.
    @inline(__always)
    package static func retrying<R: BinaryInteger, E: Error>(
        _ body: () -> R, failure: (Int32) -> E
    ) throws(E) -> R {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw failure(code) }
        }
    }

    /// As `retrying(_:failure:)`, failing with a `SystemCallError` that names `operation`.
    @inline(__always)
    package static func retrying<R: BinaryInteger>(
        _ operation: @autoclosure () -> String, _ body: () -> R
    ) throws(SystemCallError) -> R {
        try retrying(body) { code in SystemCallError(operation(), code: code) }
    }

    /// Calls `body` once, for calls that must not be repeated: close(2) frees the descriptor even
    /// when it reports EINTR, so a retry could close one another thread just opened.
    @inline(__always)
    package static func once<R: BinaryInteger, E: Error>(_ body: () -> R, failure: (Int32) -> E) throws(E) -> R {
        let result = body()
        if result >= 0 { return result }
        throw failure(errno)
    }

    /// A close-on-exec pipe(2) for waking a thread that polls its read end (`StopSignal`,
    /// `WakeEvent`); both ends non-blocking when asked. Only EMFILE/ENFILE can fail it, and the
    /// gateway cannot run out of descriptors and go on, so that stops the process.
    package static func wakePipe(nonBlocking: Bool) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let created = try? once({ Glibc.pipe(&ends) }) { code in SystemCallError("pipe", code: code) }
        precondition(created != nil, "pipe(2) failed: out of file descriptors")
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        return (ends[0], ends[1])
    }

    /// close(2), once; the error is what a caller that wrote through `fd` must report.
    package static func close(_ fd: Int32, _ operation: @autoclosure () -> String) throws(SystemCallError) {
        _ = try once({ Glibc.close(fd) }) { code in SystemCallError(operation(), code: code) }
    }

    /// Writes all of `bytes` to `fd`, resuming after short writes and EINTR.
    package static func writeAll<E: Error>(_ fd: Int32, _ bytes: [UInt8], failure: (Int32) -> E) throws(E) {
        var offset = 0
        while offset < bytes.count {
            offset += try retrying(
                { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) } },
                failure: failure)
        }
    }

    /// poll(2) on one descriptor for up to `timeout` (rounded up to whole milliseconds, so it never
    /// returns early); EINTR resumes with what is left of it, measured on the monotonic clock. The
    /// returned events are empty when the time ran out.
    package static func poll<E: Error>(
        _ fd: Int32, events: Int16 = Int16(POLLIN), timeout: Duration, failure: (Int32) -> E
    ) throws(E) -> Int16 {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        try withUnsafeMutablePointer(to: &descriptor) { (pointer) throws(E) in
            try poll(UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: timeout, failure: failure)
        }
        return descriptor.revents
    }

    /// As `poll(_:events:timeout:failure:)`, on several descriptors: sets each one's `revents`
    /// (all empty when the time ran out).
    package static func poll<E: Error>(
        _ descriptors: UnsafeMutableBufferPointer<pollfd>, timeout: Duration, failure: (Int32) -> E
    ) throws(E) {
        let clock = ContinuousClock()
        let deadline = clock.now + max(timeout, .zero)
        while true {
            let ready = Glibc.poll(
                descriptors.baseAddress, nfds_t(descriptors.count), milliseconds(until: deadline, clock))
            if ready >= 0 { return }
            let code = errno
            if code != EINTR { throw failure(code) }
        }
    }

    /// What is left until `deadline`, in whole milliseconds rounded up, clamped to poll(2)'s range.
    private static func milliseconds(until deadline: ContinuousClock.Instant, _ clock: ContinuousClock) -> Int32 {
        let left = deadline - clock.now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
