import Vocabulary

extension WallTime {
    /// This moment as a payload timestamp (microseconds since the epoch).
    package var timestamp: Timestamp { Timestamp(microseconds: Int64(timeIntervalSince1970 * 1_000_000)) }
}
