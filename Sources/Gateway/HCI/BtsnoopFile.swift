import BeaconWire
import Glibc

/// A btsnoop file being recorded: BeaconWire's `BtsnoopWriter` builds the bytes, this writes them.
final class BtsnoopFile {
    /// A failed open or write, with the system's reason.
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private var isOpen = true

    /// Creates (or truncates) `path` and writes the file header.
    init(path: String) throws(WriteError) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(description: String(cString: strerror(errno))) }
        try write(BtsnoopWriter.fileHeader())
    }

    deinit { try? close() }

    func write(_ packet: CapturedPacket) throws(WriteError) { try write(BtsnoopWriter.record(packet)) }

    private func write(_ bytes: [UInt8]) throws(WriteError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw WriteError(description: String(cString: strerror(errno)))
            }
            offset += n
        }
    }

    func close() throws(WriteError) {
        guard isOpen else { return }
        isOpen = false
        if Glibc.close(fd) != 0 { throw WriteError(description: String(cString: strerror(errno))) }
    }
}
