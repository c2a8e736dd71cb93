/// Appends many RFC 3339 times that mostly fall in the same minute — a ranging list's `last_seen`
/// values — reusing the text up to the minute and writing only seconds and milliseconds each time.
/// The output is byte for byte `Timestamp.rfc3339`.
public struct RFC3339Formatter: Sendable {
    private var minute: Int64 = .min
    /// `YYYY-MM-DDTHH:MM:` of `minute`.
    private var prefix: [UInt8] = []

    public init() {}

    public mutating func append(_ t: Timestamp, to out: inout [UInt8]) {
        let us = t.microseconds
        let ms = us >= 0 ? us / 1000 : (us - 999) / 1000
        let m = ms >= 0 ? ms / 60_000 : (ms - 59_999) / 60_000
        if m != minute {
            prefix.removeAll(keepingCapacity: true)
            t.appendRFC3339(to: &prefix)
            prefix.removeLast(7)  // "SS.mmmZ"
            minute = m
        }
        out.append(contentsOf: prefix)
        let inMinute = UInt8(truncatingIfNeeded: (ms - m * 60_000) / 1000)
        let milli = UInt16(truncatingIfNeeded: (ms - m * 60_000) % 1000)
        out.append(0x30 &+ inMinute / 10)
        out.append(0x30 &+ inMinute % 10)
        out.append(0x2E)
        out.append(0x30 &+ UInt8(truncatingIfNeeded: milli / 100))
        out.append(0x30 &+ UInt8(truncatingIfNeeded: milli / 10 % 10))
        out.append(0x30 &+ UInt8(truncatingIfNeeded: milli % 10))
        out.append(0x5A)
    }
}
