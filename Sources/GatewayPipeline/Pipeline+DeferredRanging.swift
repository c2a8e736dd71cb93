import BeaconCore
import MessageContract

/// A ranging tick's output in slices (`defersRanging`). A tick of 500 beacons composes a few
/// hundred proximity messages and a ranging list of 500 entries, about 2 ms of the agent's
/// pipeline thread in one turn (`beacon2mqtt-bench e2e --only latency`): an enter
/// heard during it waited for all of it. Deferred, the results wait here as events and the agent
/// composes them as its outbox's expendable lane asks for more (`AgentCore.composeDeferred`).
///
/// Results are values taken at the tick (accuracy, proximity, times), so composing them later
/// prints what composing them at once would have; only their position among other messages moves
/// (after the events of packets heard in between, which go out first anyway).
extension Pipeline {
    /// Ranging results waiting to be composed.
    package var deferredOutput: Int { deferredRanging.count }

    /// Composes up to `limit` deferred results (a proximity message each, with its `mqtt_room`
    /// companion; a region's whole ranging list), oldest first.
    package mutating func composeDeferred(upTo limit: Int, into out: inout [OutboundMessage]) {
        deferredRanging.compose(upTo: limit, with: &composer, into: &out)
    }

    /// `composeEvents` while deferring: ranging results join the deferred ones, the rest is
    /// composed at once. A new tick's results first push out what the last one left (the broker
    /// took less than a tick's worth in a whole interval): so at most one tick waits here, and the
    /// outbox's pressure rules see every message as they did before.
    mutating func composeDeferring(into out: inout [OutboundMessage]) {
        var started = false
        events.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                switch buffer[i] {
                case .didRangeBeacon, .didRange:
                    if !started {
                        deferredRanging.compose(upTo: .max, with: &composer, into: &out)
                        deferredTicks += 1
                        started = true
                    }
                    deferredRanging.append(buffer[i])
                default:
                    composer.compose(buffer[i], into: &out)
                }
            }
        }
        events.removeAll(keepingCapacity: true)
    }
}
