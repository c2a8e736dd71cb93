import BeaconCore
import GatewayPipeline
import MessageContract
import TestFixtures

extension Pipeline: Drivable {}

/// A monitor driven through the message contract, collecting the messages.
typealias MessageHarness = Harness<Pipeline>

extension Harness where Subject == Pipeline {
    var pipeline: Pipeline {
        get { subject }
        set { subject = newValue }
    }
    var monitor: BeaconMonitor { subject.monitor! }
}

extension Array where Element == OutboundMessage {
    /// Messages of one kind.
    func of(_ kind: OutboundMessage.Kind) -> [OutboundMessage] { filter { $0.kind == kind } }
    /// Messages whose topic ends with `suffix`.
    func topic(endingWith suffix: String) -> [OutboundMessage] { filter { $0.topic.hasSuffix(suffix) } }
    /// The payload texts of event messages, in order.
    var eventPayloads: [String] { of(.event).map(\.payload.text) }
}
