import Vocabulary

/// The agent core's two clocks as the shell last gave them, where they started, and a capture's
/// clock (its newest packet and when it was taken). What the pipeline's time is, read from these,
/// is AgentCore+Time's.
struct AgentClock: Sendable {
    /// Monotonic: never moves back, even if the shell's reading does.
    private(set) var now: MonotonicInstant
    private(set) var wall: Timestamp
    /// Both clocks at the start: a live source's pipeline time is `origin.wall` moved on by the
    /// monotonic clock.
    let origin: (now: MonotonicInstant, wall: Timestamp)
    /// The newest packet's time and when it was taken: a capture's clock.
    var anchor: (packet: Timestamp, at: MonotonicInstant)?

    init(now: MonotonicInstant, wall: Timestamp, origin: (now: MonotonicInstant, wall: Timestamp)) {
        self.now = now
        self.wall = wall
        self.origin = origin
    }

    mutating func set(_ now: MonotonicInstant, _ wall: Timestamp) {
        self.now = max(now, self.now)
        self.wall = wall
    }
}
