import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// What a `Harness` drives: sightings in, and the clock moved on, each collecting what it emits —
/// the monitor's events (BeaconCoreTests) or the pipeline's messages (GatewayPipelineTests).
package protocol Drivable {
    associatedtype Output
    init(configuration: Configuration, start: Timestamp)
    /// False when the sighting was ignored (it matches no region).
    @discardableResult mutating func observe(_ s: BeaconSighting, into out: inout [Output]) -> Bool
    mutating func advance(to time: Timestamp, into out: inout [Output])
}

/// Drives a subject on the manual clock of `Fixtures` while collecting its output.
package struct Harness<Subject: Drivable> {
    package var subject: Subject
    package var out: [Subject.Output] = []

    package init(_ c: Configuration, start: Timestamp = Fixtures.t0) {
        subject = Subject(configuration: c, start: start)
    }

    /// Observes and returns only the output this call produced.
    @discardableResult
    package mutating func see(_ s: BeaconSighting) -> [Subject.Output] {
        var o: [Subject.Output] = []
        subject.observe(s, into: &o)
        out += o
        return o
    }

    @discardableResult
    package mutating func advance(_ seconds: Double) -> [Subject.Output] {
        advance(to: Fixtures.at(seconds))
    }

    @discardableResult
    package mutating func advance(to t: Timestamp) -> [Subject.Output] {
        var o: [Subject.Output] = []
        subject.advance(to: t, into: &o)
        out += o
        return o
    }
}

extension BeaconMonitor: Drivable {
    package init(configuration: Configuration, start: Timestamp) {
        self.init(settings: MonitorSettings(configuration), start: start)
    }
}

/// A monitor on its own, collecting its events.
package typealias EventHarness = Harness<BeaconMonitor>

extension Harness where Subject == BeaconMonitor {
    package var monitor: BeaconMonitor { subject }
}
