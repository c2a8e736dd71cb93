import BeaconWire

/// A configuration tree as JSON, for the retained effective configuration: mappings in their
/// order, plain scalars as null, booleans or numbers when they read as such, every other scalar a
/// string, and the secrets' values replaced by `"<redacted>"`.
enum ConfigDocumentJSON {
    /// Values never published: who the gateway logs in as, where its password and TLS key are, and
    /// a device's identity resolving key (it tells anyone who holds it where the phone is).
    static let secrets: Set<String> = [
        "mqtt.username", "mqtt.password_file", "mqtt.tls.key_file", "devices[].irk", "metrics.map_password_file",
        "metrics.tls_key",
    ]

    static func render(_ root: YAMLNode?, redacting: Bool = true) -> String {
        var w = JSONWriter()
        if let root, case .mapping = root.kind {
            write(root, path: .root, redacting: redacting, to: &w)
        } else {
            w.beginObject()
            w.endObject()
        }
        return w.text
    }

    /// One value, unredacted (what `config get <key>` prints).
    static func render(value: YAMLNode) -> String {
        var w = JSONWriter()
        write(value, path: .root, redacting: false, to: &w)
        return w.text
    }

    private static func write(_ node: YAMLNode, path: ConfigPath, redacting: Bool, to w: inout JSONWriter) {
        if redacting, secrets.contains(path.schemaPath), !node.isNull {
            w.string("<redacted>")
            return
        }
        switch node.kind {
        case .mapping(let pairs):
            w.beginObject()
            for pair in pairs {
                w.key(pair.key)
                write(pair.value, path: path.appending(pair.key), redacting: redacting, to: &w)
            }
            w.endObject()
        case .sequence(let items):
            w.beginArray()
            for (i, item) in items.enumerated() {
                write(item, path: path.appending(index: i), redacting: redacting, to: &w)
            }
            w.endArray()
        case .scalar(let text, let style):
            guard style.isPlain else { return w.string(text) }
            if node.isNull { return w.null() }
            switch text.lowercased() {
            case "true", "yes", "on": return w.bool(true)
            case "false", "no", "off": return w.bool(false)
            default: break
            }
            if let i = Int(text) { return w.int(i) }
            if text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let d = Double(text),
                d.isFinite
            {
                return w.raw(String(d))
            }
            w.string(text)
        }
    }
}
