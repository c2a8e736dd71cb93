import Foundation

/// The pipeline thread's inbox, with two lanes. Packets are bounded: a fast source (a replay at
/// `--speed max`) waits for the pipeline instead of growing memory. Control events (signals, MQTT,
/// end of source) never block their producer, so the MQTT network thread and the signal thread
/// cannot be stalled by a busy source, and they are taken first.
public final class AgentEventQueue: @unchecked Sendable {
    // Invariant for @unchecked Sendable: every stored var is read and written only while
    // `condition` is locked.
    private let condition = NSCondition()
    private var packets: [AgentEvent] = []
    private var packetsHead = 0
    private var control: [AgentEvent] = []
    private var closed = false
    public let packetCapacity: Int

    public init(packetCapacity: Int = 1024) { self.packetCapacity = max(packetCapacity, 1) }

    /// Queues a control event; never blocks.
    public func post(_ event: AgentEvent) {
        condition.lock()
        control.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// Queues a source event (or the source's end), in order, waiting while the packet lane is
    /// full. False once closed.
    @discardableResult
    public func postFromSource(_ event: AgentEvent) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed, packets.count - packetsHead >= packetCapacity { condition.wait() }
        guard !closed else { return false }
        packets.append(event)
        condition.broadcast()
        return true
    }

    /// Stops accepting source events and releases a waiting source.
    public func close() {
        condition.lock()
        closed = true
        packets.removeAll()
        packetsHead = 0
        condition.broadcast()
        condition.unlock()
    }

    /// The next event (control first; source events only when `includeSource`), or nil at `deadline`.
    public func take(includeSource: Bool, until deadline: Date) -> AgentEvent? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !control.isEmpty { return control.removeFirst() }
            if includeSource, packetsHead < packets.count {
                let event = packets[packetsHead]
                packetsHead += 1
                if packetsHead == packets.count {
                    packets.removeAll(keepingCapacity: true)
                    packetsHead = 0
                }
                condition.broadcast()
                return event
            }
            if !condition.wait(until: deadline) { return nil }
        }
    }
}
