/// Why a controller procedure (scan or advertising set-up) gave up: a command rejected with a
/// status that has no fallback, or no Command Complete/Status in time.
public enum ControllerFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case rejected(HCIOpcode, HCIStatus)
    case timedOut(HCIOpcode)

    public var description: String {
        switch self {
        case .rejected(let op, let status): return "\(op) failed: \(status)"
        case .timedOut(let op): return "\(op) timed out"
        }
    }
}
