import BeaconWire
import Foundation
import Vocabulary

/// Streams a generated capture to disk as btsnoop (datalink 1002, H4), using BeaconWire's
/// `BtsnoopWriter` for the bytes, in 1 MiB writes so a million-packet flood never sits in memory.
final class CaptureFileWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private(set) var packets = 0

    init(path: String) throws(BenchFailure) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw BenchFailure("cannot create \(path)") }
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
        buffer.append(contentsOf: BtsnoopWriter.fileHeader())
    }

    /// Appends one controller → host packet (H4 indicator first) at `timestamp`.
    func append(_ packet: [UInt8], at timestamp: Timestamp) {
        buffer.append(contentsOf: BtsnoopWriter.record(CapturedPacket(timestamp: timestamp, bytes: packet)))
        packets += 1
        if buffer.count >= 1 << 20 { flush() }
    }

    func close() {
        flush()
        try? handle.close()
    }

    private func flush() {
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
