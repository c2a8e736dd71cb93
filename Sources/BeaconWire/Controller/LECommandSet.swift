/// Which LE command set drives a controller: the legacy scan/advertising commands or the extended
/// ones (Core Spec Vol 4, Part E, §3.1.1: a host never mixes them on one controller).
public enum LECommandSet: String, Sendable, Equatable {
    case legacy, extended
}
