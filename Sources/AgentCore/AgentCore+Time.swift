import BeaconWire
import Vocabulary

/// The agent core's clocks. Deadlines, timers and — for a live source — the pipeline's time (exit
/// timeouts, ranging) follow the monotonic clock, so a stepped wall clock (NTP at boot, `date -s`)
/// moves no exit and no tick; the wall clock only stamps payloads, through the offset the pipeline
/// adds to every time it prints. A live source stamps its packets on the same steady timeline
/// (the shell's `SteadyWallClock`, which the core's `clock.origin` is read from).
extension AgentCore {
    /// The pipeline's notion of now: for a live source, the wall clock at the start moved on by
    /// the monotonic clock; for a capture, the capture's time moved on by the monotonic clock
    /// since the last packet (at the replay speed).
    var pipelineNow: Timestamp? {
        switch options.timing {
        case .wallClock:
            return steadyNow - options.sourceDelay
        case .capture(let speed):
            guard let anchor = clock.anchor else { return nil }
            guard let speed else { return anchor.packet }
            let elapsed = now.seconds(since: anchor.at) * speed
            let time = anchor.packet + TimeSpan(microseconds: Int64(elapsed * 1_000_000))
            return captureHorizon.map { min(time, $0) } ?? time
        }
    }

    /// The steady timeline's now (live sources stamp on it): the wall clock at the start moved on
    /// by the monotonic clock.
    var steadyNow: Timestamp { clock.origin.wall + (now - clock.origin.now) }

    /// How far the wall clock is from the steady timeline the pipeline's times are on: what a step
    /// of the wall clock since the start added (0 for a capture, whose payloads carry the capture's
    /// own times).
    var payloadClockOffset: TimeSpan {
        guard options.timing == .wallClock else { return TimeSpan(microseconds: 0) }
        return wall - steadyNow
    }

    /// Payload time: the wall clock, or a capture's newest packet.
    var payloadTime: Timestamp {
        if options.timing != .wallClock, let anchor = clock.anchor { return anchor.packet }
        return wall
    }
}
