import Synchronization

/// How events reach the consumer: the events libmosquitto's callbacks raise inside one call into
/// the library (a read pass of up to `readBurst` packets, a write, a keepalive) are held back and
/// handed over together when the call returns, in the order raised. The consumer (`Agent`,
/// `LocateService`) posts them to its loop thread in one hand-over, one lock and at most one
/// wake-up: a burst from the broker no longer costs the loop thread a wake-up per message
/// (issue #18: at a fresh site's start-up `locate` made a futex call per message in).
///
/// Only one thread collects at a time: the one holding `driveLock` on plain TCP (the network
/// thread's pass, or a writer's `writeQueued`), the network thread in `mosquitto_loop` on TLS,
/// where nobody else calls into the library's I/O. Callbacks raise events only inside those
/// calls, so no event of another thread can slip between a batch's; and the batch goes out before
/// the lock is let go, so batches keep the order their calls had. Events raised outside a call
/// (the network thread's connect failures and disconnects) go out at once.
extension MosquittoClient {
    struct HeldEvents: ~Copyable {
        var collecting = false
        var events: [Event] = []
    }

    /// Calls into libmosquitto through `body`, holding back the events its callbacks raise, and
    /// delivers them as one batch after it. The caller is the one thread that collects (see above).
    func collectingEvents<Result>(_ body: () -> Result) -> Result {
        heldEvents.withLock { $0.collecting = true }
        let result = body()
        let events = heldEvents.withLock { held in
            held.collecting = false
            defer { held.events = [] }
            return held.events
        }
        if !events.isEmpty { consumer.load()?.deliver(events) }
        return result
    }

    /// From a callback, or the network thread: held while a call collects, else delivered at once.
    func deliver(_ event: Event) {
        let held = heldEvents.withLock { held in
            guard held.collecting else { return false }
            held.events.append(event)
            return true
        }
        if !held { consumer.load()?.deliver([event]) }
    }
}
