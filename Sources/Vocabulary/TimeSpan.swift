/// A length of time in microseconds: the one duration, for payload time and the monotonic clock alike.
public struct TimeSpan: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable
    public static func seconds(_ s: Int64) -> Self { Self(microseconds: s * 1_000_000) }
    @inlinable
    public static func milliseconds(_ ms: Int64) -> Self { Self(microseconds: ms * 1000) }
    public static let zero = Self(microseconds: 0)

    @inlinable
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.microseconds < rhs.microseconds }
    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self { Self(microseconds: lhs.microseconds + rhs.microseconds) }
    @inlinable
    public static func * (lhs: Self, rhs: Int64) -> Self { Self(microseconds: lhs.microseconds * rhs) }

    /// `10s`, `500ms`, `2m`, `1h`, or `1500us`: the shortest exact form, as the config accepts it.
    public var description: String {
        let us = microseconds
        if us != 0, us % 3_600_000_000 == 0 { return "\(us / 3_600_000_000)h" }
        if us != 0, us % 60_000_000 == 0 { return "\(us / 60_000_000)m" }
        if us % 1_000_000 == 0 { return "\(us / 1_000_000)s" }
        if us % 1000 == 0 { return "\(us / 1000)ms" }
        return "\(us)us"
    }
}
