import Synchronization

/// Buffered writes to a file descriptor through write(2), safe from any thread.
package final class FileDescriptorWriter: Sendable {
    private let fd: Int32
    private let bufferSize: Int
    private let buffer = Mutex<[UInt8]>([])

    package init(fd: Int32, bufferSize: Int) {
        self.fd = fd
        self.bufferSize = bufferSize
    }

    deinit { flush() }

    package func write(_ text: String) {
        buffer.withLock { pending in
            pending.append(contentsOf: text.utf8)
            if pending.count > bufferSize { drain(&pending) }
        }
    }

    package func flush() { buffer.withLock { drain(&$0) } }

    private func drain(_ pending: inout [UInt8]) {
        // EPIPE and friends: the reader went away; drop the output.
        try? Syscall.writeAll(fd, pending) { code in SystemCallError("write", code: code) }
        pending.removeAll(keepingCapacity: true)
    }
}
