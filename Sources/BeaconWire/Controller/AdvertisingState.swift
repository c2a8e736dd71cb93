/// What the radio is doing with the advertisement the daemon was asked for (`advertise:`), as
/// `ScanWithAdvertising` reports it; the agent publishes it on the retained `advertising` topic.
/// Waiting for an absent adapter is the source's health, not a state of the controller.
import Vocabulary

public enum AdvertisingState: Sendable, Equatable {
    /// Set-up under way (or waiting for the scan to run first).
    case starting
    /// On air with this command set, every `interval` (raised to 100 ms on a pre-5.0 controller).
    case advertising(LECommandSet, interval: TimeSpan)
    /// The controller cannot advertise alongside the scan (LE Read Supported States); scanning goes on.
    case refused(String)
    /// A command was rejected or timed out; tried again at the next scan set-up. Scanning goes on.
    case failed(String)
    /// The gateway stopped (SIGTERM, SIGINT) and took its advertisement off the air.
    case stopped

    /// The published word: `starting`, `advertising`, `refused`, `failed`, `stopped`.
    public var name: String {
        switch self {
        case .starting: "starting"
        case .advertising: "advertising"
        case .refused: "refused"
        case .failed: "failed"
        case .stopped: "stopped"
        }
    }

    /// Why it is not advertising (refused, failed).
    public var reason: String? {
        switch self {
        case .refused(let reason), .failed(let reason): reason
        case .starting, .advertising, .stopped: nil
        }
    }
}
