import BeaconWire

/// Which adapter `scanner.adapter` (or `--adapter`) means: `hci0`, a controller address, or `auto`.
///
/// By address survives index changes after a USB reset; `auto` takes the first adapter that is up
/// (or the first one at all), re-evaluated on every reopen.
package enum HCIAdapterSelection: Sendable, Equatable, CustomStringConvertible {
    case auto
    case index(UInt16)
    case address(BluetoothAddress)

    /// Parses `auto`, `hciN` or `aa:bb:cc:dd:ee:ff`; nil otherwise.
    package init?(_ text: String) {
        let lower = text.lowercased()
        if lower == "auto" {
            self = .auto
        } else if lower.hasPrefix("hci"), let n = UInt16(lower.dropFirst(3)) {
            self = .index(n)
        } else if let address = BluetoothAddress(lower) {
            self = .address(address)
        } else {
            return nil
        }
    }

    package func pick(from adapters: [HCIAdapter]) -> HCIAdapter? {
        switch self {
        case .auto: return adapters.first(where: \.isUp) ?? adapters.first
        case .index(let n): return adapters.first { $0.index == n }
        case .address(let a): return adapters.first { $0.address == a }
        }
    }

    package var description: String {
        switch self {
        case .auto: return "auto"
        case .index(let n): return "hci\(n)"
        case .address(let a): return a.description
        }
    }
}
