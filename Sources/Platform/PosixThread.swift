import Glibc

/// Detached POSIX threads, for the gateway's long-running workers (MQTT network loop,
/// HCI reader, tickers). Foundation's `Thread` would do, but importing Foundation maps ~10 MB of
/// shared libraries (Foundation, ICU) into the daemon, which is most of its RSS.
package enum PosixThread {
    /// Carries the closure through `pthread_create`'s `void *` argument.
    fileprivate final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it; `top -H`
    /// and gdb show it). The thread inherits the caller's signal mask.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, posixThreadMain, start)
        // Only EAGAIN (out of threads or memory) is possible here; the gateway cannot run without it.
        precondition(result == 0, "pthread_create failed: \(String(cString: strerror(result)))")
        pthread_detach(thread)
    }

    /// Names the calling thread (what pthread_setname_np does; Glibc's Swift module leaves that GNU
    /// extension out). The kernel keeps the first 15 bytes.
    package static func nameCurrentThread(_ name: String) {
        // Best effort: an unnamed thread works the same.
        let failure = { (code: Int32) in SystemCallError("name thread", code: code) }
        guard let fd = try? Syscall.retrying({ open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC) }, failure: failure)
        else { return }
        defer { close(fd) }
        try? Syscall.writeAll(fd, Array(name.utf8.prefix(15)), failure: failure)
    }

    /// The calling thread's kernel id (`/proc/self/task/<id>`), from the `/proc/thread-self` link
    /// (Glibc's module does not export gettid(2)); nil without procfs.
    package static var currentKernelID: pid_t? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> pid_t? in
            let count = readlink("/proc/thread-self", buffer.baseAddress!, 63)
            guard count > 0 else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
            return text.split(separator: "/").last.flatMap { pid_t($0) }
        }
    }
}

/// The new thread's entry: takes back the `Start` box `PosixThread.start` retained.
private func posixThreadMain(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<PosixThread.Start>.fromOpaque(raw!).takeRetainedValue()
    PosixThread.nameCurrentThread(start.name)
    start.body()
    return nil
}
