/// One configuration layer as `beacon2mqtt config` edits it: the retained set payload (YAML or
/// JSON), a key set or removed by its dotted path (`gateway.room`, `beacons`), and the result as JSON.
package struct ConfigLayerDocument: Sendable {
    private var root: YAMLNode?
    private let source: String

    /// An empty payload is an empty layer.
    package init(payload: [UInt8], source: String) throws(ConfigError) {
        self.source = source
        let parsed = try YAMLDocumentParser(file: source).parse(payload)
        if let parsed, !parsed.isNull {
            guard case .mapping = parsed.kind else {
                throw ConfigError(
                    file: source, line: parsed.line, column: parsed.column, key: "",
                    message: "a configuration layer must be a mapping, found \(parsed.kindDescription)")
            }
            root = parsed
        } else {
            root = nil
        }
    }

    package var isEmpty: Bool {
        guard let root, case .mapping(let pairs) = root.kind else { return true }
        return pairs.isEmpty
    }

    /// The layer as JSON; `{}` when empty.
    package var json: String { ConfigDocumentJSON.render(root, redacting: false) }

    /// The value at `key` as JSON, nil when the layer does not set it.
    package func value(_ key: String) -> String? {
        var node = root
        for level in Self.levels(key) {
            guard case .mapping(let pairs)? = node?.kind else { return nil }
            node = pairs.first { $0.key == level }?.value
        }
        return node.map { ConfigDocumentJSON.render(value: $0) }
    }

    /// Sets `key` to `valueText` read as YAML (so JSON too): `2`, `"2"`, `[...]`, `{...}`.
    package mutating func set(_ key: String, valueText: String) throws(ConfigError) {
        guard let value = try YAMLDocumentParser(file: "value").parse(Array(valueText.utf8)) else {
            throw ConfigError(
                file: "value", line: 0, column: 0, key: key, message: "no value given; use 'unset' to remove a key")
        }
        root = Self.setting(root, Self.levels(key)[...], to: value)
    }

    /// Removes `key`; false when the layer did not set it.
    package mutating func remove(_ key: String) -> Bool {
        guard value(key) != nil else { return false }
        root = Self.removing(root, Self.levels(key)[...])
        return true
    }

    private static func levels(_ key: String) -> [String] { key.split(separator: ".").map(String.init) }

    private static func setting(_ node: YAMLNode?, _ levels: ArraySlice<String>, to value: YAMLNode) -> YAMLNode {
        guard let level = levels.first else { return value }
        var pairs: [YAMLNode.Pair] = []
        if let node, case .mapping(let existing) = node.kind { pairs = existing }
        let child = setting(pairs.first { $0.key == level }?.value, levels.dropFirst(), to: value)
        if let i = pairs.firstIndex(where: { $0.key == level }) {
            pairs[i].value = child
        } else {
            pairs.append(
                YAMLNode.Pair(
                    key: level, keyNode: YAMLNode(kind: .scalar(level, .plain), line: 1, column: 1), value: child))
        }
        return YAMLNode(kind: .mapping(pairs), line: node?.line ?? 1, column: node?.column ?? 1)
    }

    /// `node` without `levels`; mappings left empty by it go too.
    private static func removing(_ node: YAMLNode?, _ levels: ArraySlice<String>) -> YAMLNode? {
        guard let node, let level = levels.first, case .mapping(var pairs) = node.kind,
            let i = pairs.firstIndex(where: { $0.key == level })
        else { return node }
        if levels.count == 1 {
            pairs.remove(at: i)
        } else if let child = removing(pairs[i].value, levels.dropFirst()) {
            if case .mapping(let rest) = child.kind, rest.isEmpty {
                pairs.remove(at: i)
            } else {
                pairs[i].value = child
            }
        }
        var out = node
        out.kind = .mapping(pairs)
        return out
    }
}
