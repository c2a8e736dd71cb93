import BeaconWire

/// Topic and payload reading for the locator: the beacon levels of a topic, and single fields of
/// the flat JSON objects the gateways publish (README, “Messages, monitoring and ranging”).
enum LocatorTopic {
    /// The beacon named by the levels after `<base>/`, and the levels after it.
    static func beacon(in topic: String, baseTopic: String) -> (BeaconIdentity, [String])? {
        let prefix = baseTopic + "/"
        guard topic.hasPrefix(prefix) else { return nil }
        let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        guard levels.count >= 3 else { return nil }
        let rest = Array(levels.dropFirst(3))
        if levels[0] == "eddystone", levels[1].count == 20, levels[2].count == 12,
            let id = BeaconID128(uuidString: levels[1] + levels[2])
        {
            return (.eddystone(id), rest)
        }
        if levels[0].count == 36, let uuid = BeaconID128(uuidString: levels[0]), let major = UInt16(levels[1]),
            let minor = UInt16(levels[2])
        {
            return (.uuid(uuid, major: major, minor: minor), rest)
        }
        return nil
    }

    /// `<base>/<uuid>/<major>/<minor>` or `<base>/eddystone/<namespace>/<instance>`.
    static func path(_ id: BeaconIdentity, baseTopic: String) -> String {
        switch id.scheme {
        case .uuid: return "\(baseTopic)/\(id.id.uuidString)/\(id.major)/\(id.minor)"
        case .eddystone: return "\(baseTopic)/eddystone/\(id.eddystoneNamespace)/\(id.eddystoneInstance)"
        }
    }

    /// A string field; nil when missing or `null`.
    static func string(_ key: String, in json: String) -> String? {
        RetainedAttributes.stringField(key, in: json)
    }

    /// A number field; nil when missing, `null` or not a number.
    static func number(_ key: String, in json: String) -> Double? {
        let utf8 = Array(json.utf8)
        let needle = Array("\"\(key)\":".utf8)
        var i = 0
        while i + needle.count <= utf8.count {
            if utf8[i..<(i + needle.count)].elementsEqual(needle) {
                var end = i + needle.count
                while end < utf8.count, utf8[end] != UInt8(ascii: ","), utf8[end] != UInt8(ascii: "}") { end += 1 }
                return Double(String(decoding: utf8[(i + needle.count)..<end], as: UTF8.self))
            }
            i += 1
        }
        return nil
    }
}
