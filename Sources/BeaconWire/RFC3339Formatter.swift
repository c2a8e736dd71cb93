/// Writes many RFC 3339 times that mostly fall in the same minute — a ranging list's `last_seen`
/// values — reusing the text up to the minute and writing only seconds and milliseconds each time.
/// The output is byte for byte `Timestamp.rfc3339`.
import Vocabulary

public struct RFC3339Formatter: Sendable {
    private var minute: Int64 = .min
    /// `YYYY-MM-DDTHH:MM:` of `minute`.
    private var prefix: [UInt8] = []

    /// The longest text `write` puts: `Timestamp`'s range has years of at most 6 digits and a sign.
    public static let maximumLength = 40

    public init() {}

    public mutating func append(_ t: Timestamp, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumLength) { buffer in
            let n = write(t, at: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Writes `t` at `p`, which has room for `maximumLength` bytes; returns how many it wrote.
    public mutating func write(_ t: Timestamp, at p: UnsafeMutablePointer<UInt8>) -> Int {
        let us = t.microseconds
        let ms = us >= 0 ? us / 1000 : (us - 999) / 1000
        let m = ms >= 0 ? ms / 60_000 : (ms - 59_999) / 60_000
        if m != minute {
            prefix.removeAll(keepingCapacity: true)
            t.appendRFC3339(to: &prefix)
            prefix.removeLast(7)  // "SS.mmmZ"
            minute = m
        }
        // The prefix is at most 20 bytes (sign, 6-digit year, "-MM-DDTHH:MM:"); 7 follow.
        let k = prefix.count
        prefix.withUnsafeBufferPointer { p.update(from: $0.baseAddress!, count: k) }
        let inMinute = UInt8(truncatingIfNeeded: (ms - m * 60_000) / 1000)
        let milli = UInt16(truncatingIfNeeded: (ms - m * 60_000) % 1000)
        p[k] = 0x30 &+ inMinute / 10
        p[k &+ 1] = 0x30 &+ inMinute % 10
        p[k &+ 2] = 0x2E
        p[k &+ 3] = 0x30 &+ UInt8(truncatingIfNeeded: milli / 100)
        p[k &+ 4] = 0x30 &+ UInt8(truncatingIfNeeded: milli / 10 % 10)
        p[k &+ 5] = 0x30 &+ UInt8(truncatingIfNeeded: milli % 10)
        p[k &+ 6] = 0x5A
        return k &+ 7
    }
}
