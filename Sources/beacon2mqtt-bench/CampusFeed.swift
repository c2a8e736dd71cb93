import AgentCore
import BeaconWire
import Platform
import Synchronization
import Vocabulary

/// One simulated gateway's packet source in the campus host: the host's one simulator thread
/// (`FloorPlanCampus`) hands each gateway its share of a step through `send`, so the gateway's
/// source thread only waits. The agent sees an ordinary `PacketSource`, as `run` does.
final class CampusFeed: PacketSource {
    private let deliver = Mutex<(@Sendable (SourceEvent) -> Void)?>(nil)
    /// A condition, not a `StopSignal`: a pipe per gateway would cost two of the descriptors that
    /// libmosquitto's select() loop needs below FD_SETSIZE (see CampusBench.gatewaysPerHost).
    private let stopped = WaitableState(false)

    func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws {
        self.deliver.withLock { $0 = deliver }
        while !stopped.wait(until: MonotonicClock.now() + .seconds(3600), for: { $0 }) {}
        self.deliver.withLock { $0 = nil }
        deliver(.end)
    }

    func stop() { stopped.withLock { $0 = true } }

    /// Hands a batch to the agent (blocking while its packet lane is full, as a busy pipeline
    /// holds up a real source); false before the agent started its source or after it stopped.
    @discardableResult
    func send(_ packets: [CapturedPacket]) -> Bool {
        guard let deliver = deliver.withLock({ $0 }) else { return false }
        deliver(.packets(packets))
        return true
    }
}
