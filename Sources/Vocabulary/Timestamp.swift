/// A point in time, in microseconds since the Unix epoch (UTC): the one wall-clock instant, which
/// payloads carry. Deadlines and timers use `MonotonicInstant` instead.
///
/// The core never reads a clock: live sources stamp packets on arrival, captures carry their own
/// timestamps, and tests advance a manual clock. So replay is deterministic and as fast as the CPU.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable
    public static func seconds(_ s: Double) -> Self { Self(microseconds: Int64((s * 1_000_000).rounded())) }

    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.microseconds < rhs.microseconds }
    @inlinable
    public static func + (lhs: Self, rhs: TimeSpan) -> Self { Self(microseconds: lhs.microseconds &+ rhs.microseconds) }
    @inlinable
    public static func - (lhs: Self, rhs: TimeSpan) -> Self { Self(microseconds: lhs.microseconds &- rhs.microseconds) }
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> TimeSpan {
        TimeSpan(microseconds: lhs.microseconds &- rhs.microseconds)
    }

    /// RFC 3339 UTC with milliseconds: `2024-05-01T12:00:00.123Z`.
    public var description: String { rfc3339 }

    /// RFC 3339 UTC with milliseconds, computed without Foundation (civil-from-days).
    public var rfc3339: String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        appendRFC3339(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `rfc3339`'s text, appended as bytes.
    public func appendRFC3339(to out: inout [UInt8]) {
        let ms = microseconds >= 0 ? microseconds / 1000 : (microseconds - 999) / 1000
        var days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let msOfDay = ms - days * 86_400_000
        // Howard Hinnant's civil_from_days.
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        var year = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        if month <= 2 { year += 1 }
        func field(_ v: Int64, _ width: Int, then separator: UInt8) {
            if v < 0 { out.append(0x2D) }
            ASCIIText.appendDigits(v.magnitude, minimumWidth: width, to: &out)
            out.append(separator)
        }
        field(year, 4, then: 0x2D)
        field(month, 2, then: 0x2D)
        field(day, 2, then: 0x54)
        field(msOfDay / 3_600_000, 2, then: 0x3A)
        field((msOfDay / 60_000) % 60, 2, then: 0x3A)
        field((msOfDay / 1000) % 60, 2, then: 0x2E)
        field(msOfDay % 1000, 3, then: 0x5A)
    }
}
