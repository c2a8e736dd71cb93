import BeaconWire
import Glibc
import Platform

/// A btsnoop file being recorded: BeaconWire's `BtsnoopWriter` builds the bytes, this writes them.
package final class BtsnoopFile {
    /// A failed open or write, with the system's reason.
    package struct WriteError: Error, CustomStringConvertible {
        package var description: String
        /// errno's text.
        package init(errno code: Int32) { description = String(cString: strerror(code)) }
    }

    private let fd: Int32
    private var isOpen = true

    /// Creates (or truncates) `path` and writes the file header.
    package init(path: String) throws(WriteError) {
        fd = try Syscall.retrying(
            { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }, failure: WriteError.init(errno:))
        try write(BtsnoopWriter.fileHeader())
    }

    deinit { try? close() }

    package func write(_ packet: CapturedPacket) throws(WriteError) { try write(BtsnoopWriter.record(packet)) }

    private func write(_ bytes: [UInt8]) throws(WriteError) {
        try Syscall.writeAll(fd, bytes, failure: WriteError.init(errno:))
    }

    package func close() throws(WriteError) {
        guard isOpen else { return }
        isOpen = false
        _ = try Syscall.once({ Glibc.close(fd) }, failure: WriteError.init(errno:))
    }
}
