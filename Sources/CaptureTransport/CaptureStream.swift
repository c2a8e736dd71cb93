import BeaconWire
import Glibc
import Platform
import Vocabulary

/// A capture file (or a pipe) read in bounded chunks through `CaptureReader`'s streaming mode, so
/// `run --replay` holds a few chunks of the capture in memory rather than the whole file, and can
/// follow a capture that is still being written to a FIFO.
///
/// Owned by one thread at a time (the replay source's), and not copyable: a value the replay's loop
/// owns, so reading it pays no dynamic exclusivity check per packet (a class's stored properties
/// did: about 90 instructions a report).
struct CaptureStream: ~Copyable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Bytes a read takes: at 3,000 reports/s one read every 130 ms. The reader's buffer holds a
    /// chunk and the record cut at its end, so it stays under 32 KiB; with 64 KiB chunks it grew to
    /// 132 KiB, and the two were 0.1 MiB of a replay's resident memory.
    static let chunkSize = 16 * 1024
    let path: String
    /// A FIFO or socket: what it holds is what a writer has written so far.
    let isPipe: Bool
    /// The last `read()` took less than a chunk: a pipe had no more for now.
    private(set) var drained = false
    private let fd: Int32
    private var reader: CaptureReader
    private var chunk: [UInt8]
    private var atEnd: Bool

    /// Opens `path` and reads enough of it to recognise the container format.
    init(path: String) throws(Failure) {
        let fd = try Syscall.retrying({ open(path, O_RDONLY | O_CLOEXEC) }) { code in
            Failure(description: "cannot read '\(path)': \(String(cString: strerror(code)))")
        }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        let opened: (reader: CaptureReader, ended: Bool)
        do throws(Failure) {
            opened = try Self.recognise(fd, &chunk, path: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.path = path
        var status = stat()
        let type = fstat(fd, &status) == 0 ? status.st_mode & S_IFMT : 0
        isPipe = type == S_IFIFO || type == S_IFSOCK
        self.fd = fd
        self.chunk = chunk
        reader = opened.reader
        atEnd = opened.ended
    }

    /// Reads the file's first chunks until its format is known.
    private static func recognise(
        _ fd: Int32, _ chunk: inout [UInt8], path: String
    ) throws(Failure) -> (reader: CaptureReader, ended: Bool) {
        var prefix: [UInt8] = []
        while true {
            let n = try read(fd, into: &chunk, path: path)
            let ended = n == 0
            prefix += chunk[0..<n]
            // A binary container is known from its header; only hcidump text needs up to 4,096
            // bytes. Reading no further matters for a FIFO whose writer is still starting.
            if ended || prefix.count >= 4096 { return (try reader(prefix, ended, path: path), ended) }
            if let binary = try? CaptureReader(streaming: prefix, isWholeFile: false), binary.format != .hcidumpText {
                return (binary, false)
            }
        }
    }

    private static func reader(_ prefix: [UInt8], _ ended: Bool, path: String) throws(Failure) -> CaptureReader {
        do {
            return try CaptureReader(streaming: prefix, isWholeFile: ended)
        } catch {
            throw Failure(description: "\(path): \(error)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Appends the next packet already in the buffer to `batch` and returns its timestamp; nil when
    /// `needsRead` (or at the end).
    mutating func nextBuffered(into batch: inout PacketBatch) throws(Failure) -> Timestamp? {
        do {
            return try reader.next(into: &batch)
        } catch {
            throw Failure(description: "\(path): \(error)")
        }
    }

    /// The next packet is not whole in the buffer yet: `read()` before asking again.
    var needsRead: Bool { reader.needsInput && !atEnd }

    /// Reads one chunk (blocking on a pipe until a writer writes or closes it).
    mutating func read() throws(Failure) {
        let n = try Self.read(fd, into: &chunk, path: path)
        drained = n < chunk.count
        if n == 0 {
            atEnd = true
            reader.endOfInput()
        } else {
            chunk.withUnsafeBytes { reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    private static func read(_ fd: Int32, into buffer: inout [UInt8], path: String) throws(Failure) -> Int {
        try Syscall.retrying({ buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }) { code in
            Failure(description: "\(path): \(String(cString: strerror(code)))")
        }
    }
}
