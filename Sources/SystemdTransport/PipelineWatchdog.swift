import Synchronization

/// Feeds systemd's watchdog from the pipeline's progress rather than from a bare timer.
///
/// A timer thread that pings unconditionally keeps a process alive whose HCI read loop is wedged,
/// which is exactly the failure `WatchdogSec=` is there to catch. So the pipeline calls
/// `noteProgress()` each time it completes a turn (a batch of reports handled, or an idle poll
/// timeout that proves the loop still runs), and the timer calls `pingIfProgressed()` every
/// `pingInterval` (half the timeout, as sd_watchdog_enabled(3) advises). No turn since the last
/// ping → no `WATCHDOG=1` → systemd restarts the unit (`Restart=on-failure`).
package final class PipelineWatchdog: Sendable {
    package let notifier: SystemdNotifier
    /// How often the timer should call `pingIfProgressed()`.
    package let pingInterval: Duration
    private let turns = Atomic<UInt64>(0)
    private let turnsAtLastPing = Mutex<UInt64>(0)
    private let nextPing = Mutex<ContinuousClock.Instant?>(nil)

    /// Nil when systemd has no watchdog for this process (no `WatchdogSec=`, or not under systemd).
    package convenience init?(notifier: SystemdNotifier) {
        guard notifier.isActive, let timeout = SystemdNotifier.watchdogTimeout() else { return nil }
        self.init(notifier: notifier, timeout: timeout)
    }

    package init(notifier: SystemdNotifier, timeout: Duration) {
        self.notifier = notifier
        self.pingInterval = timeout / 2
    }

    /// The pipeline completed a turn. Lock-free; cheap enough for the hot path.
    package func noteProgress() {
        turns.add(1, ordering: .relaxed)
    }

    /// For an event loop that is itself the pipeline (the `run` loop wakes at least once a second):
    /// records the turn and pings when `pingInterval` has passed since the last ping. A loop stuck
    /// anywhere stops calling this, so the pings stop. Returns whether it pinged.
    @discardableResult
    package func loopTurned(at now: ContinuousClock.Instant = .now) -> Bool {
        noteProgress()
        let due = nextPing.withLock { next in
            guard next.map({ now >= $0 }) ?? true else { return false }
            next = now + pingInterval
            return true
        }
        return due && pingIfProgressed()
    }

    /// Sends `WATCHDOG=1` if the pipeline turned since the previous call; returns whether it did.
    @discardableResult
    package func pingIfProgressed() -> Bool {
        let now = turns.load(ordering: .relaxed)
        let progressed = turnsAtLastPing.withLock { last in
            defer { last = now }
            return now != last
        }
        return progressed && notifier.watchdog()
    }
}
