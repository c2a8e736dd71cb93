/// A log line's severity (syslog's names), and the threshold `log_level` sets.
package enum LogLevel: String, Sendable, Equatable, CaseIterable, Comparable {
    case trace, debug, info, notice, warning, error, critical

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
