import BeaconCore
import BeaconWire
import Vocabulary

extension ConfigDecoder {
    /// Phones, watches and tags: a name (a topic level, unique) and exactly one of `irk`, `irk_file`
    /// or `address`; each key and each address listed once.
    mutating func devices(_ value: ConfigValue) throws(ConfigError) -> [DeviceSettings] {
        var devices: [DeviceSettings] = []
        var names: [String: ConfigValue] = [:]
        var identities: [BeaconIdentity: String] = [:]
        var keys: [IdentityResolvingKey: ConfigValue] = [:]
        var addresses: [BluetoothAddress: ConfigValue] = [:]
        for item in try value.list() {
            let m = try item.mapping()
            let name = try Self.uniqueName(m, item, what: "device", in: &names)
            let identity = BeaconIdentity.device(named: name)
            if let other = identities[identity] {
                throw m.error(
                    "name", locatedAt: ["name"], "'\(name)' and '\(other)' hash to the same identity; rename one")
            }
            identities[identity] = name

            let given = ["irk", "irk_file", "address"].compactMap { key in
                m[key].flatMap { $0.isNull ? nil : (key, $0) }
            }
            guard given.count == 1, let (key, v) = given.first else {
                if given.count > 1 {
                    throw given[1].1.error(
                        "cannot be combined with \(given[0].0); a device has one of irk, irk_file or address")
                }
                throw m.at.error("needs irk (its identity resolving key), irk_file or address")
            }
            var device: DeviceSettings
            switch key {
            case "irk":
                device = DeviceSettings(name: name, identification: .irk(try Self.irk(v)))
            case "irk_file":
                let path = try v.nonEmptyText()
                device = DeviceSettings(name: name, identification: .irk(try Self.irk(file: path, v)), irkFile: path)
                named(path, .secret, at: v)
            default:
                device = DeviceSettings(name: name, identification: .address(try Self.address(v)))
            }
            switch device.identification {
            case .irk(let k):
                if let first = keys[k] { throw v.error("the same key as \(first.path) (line \(first.node.line))") }
                keys[k] = v
            case .address(let a):
                if let first = addresses[a] {
                    throw v.error("the same address as \(first.path) (line \(first.node.line))")
                }
                addresses[a] = v
            }
            try m.readOptional("measured_power", into: &device.measuredPower) { v throws(ConfigError) in
                try v.integer(in: -127...0)
            }
            try m.readOptional("exit_timeout", into: &device.exitTimeout) { v throws(ConfigError) in
                try v.duration(atLeast: .seconds(1))
            }
            devices.append(device)
        }
        return devices
    }

    /// 32 hex digits (most significant first) or Home Assistant's base64 form. The key is never
    /// quoted back in an error.
    private static func irk(_ v: ConfigValue) throws(ConfigError) -> IdentityResolvingKey {
        guard let key = IdentityResolvingKey(text: try v.text()) else {
            throw v.error(
                "must be an identity resolving key: 32 hex digits, or Home Assistant's base64 form ending in '='")
        }
        return key
    }

    /// The key on the first line of `path` (the rest of the file is ignored).
    private static func irk(file path: String, _ v: ConfigValue) throws(ConfigError) -> IdentityResolvingKey {
        let bytes: [UInt8]
        do {
            bytes = try ConfigLoader.readFile(path)
        } catch {
            let reason = error.message.hasPrefix("cannot read: ") ? String(error.message.dropFirst(13)) : error.message
            throw v.error("cannot read '\(path)': \(reason)")
        }
        let firstLine = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).first ?? []
        let text = String(decoding: firstLine, as: UTF8.self).filter { !$0.isWhitespace }
        guard let key = IdentityResolvingKey(text: text) else {
            throw v.error(
                "'\(path)' must hold an identity resolving key on its first line: 32 hex digits, or Home Assistant's "
                    + "base64 form ending in '='")
        }
        return key
    }

    /// `aa:bb:cc:dd:ee:ff`, most significant byte first, as `scan` shows it.
    private static func address(_ v: ConfigValue) throws(ConfigError) -> BluetoothAddress {
        let text = try v.text()
        guard let address = BluetoothAddress(text) else {
            throw v.error("must be a Bluetooth address like c1:02:03:04:05:06, found '\(text)'")
        }
        return address
    }
}
