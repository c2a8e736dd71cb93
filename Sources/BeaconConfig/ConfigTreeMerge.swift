/// Merges a configuration layer's YAML tree over a lower one, key by key: a mapping merges into a
/// mapping, anything else replaces what is below. `regions`, `devices` and `beacons` take either a whole list
/// (it replaces the list below) or a mapping by identity that adds, updates (key by key) or, with
/// an empty value, removes one item: regions and devices by `name`, beacons by
/// `<uuid>/<major>/<minor>` or `eddystone/<namespace>/<instance>`, the levels of their topics.
enum ConfigTreeMerge {
    static func merge(_ lower: YAMLNode?, _ upper: YAMLNode) throws(ConfigError) -> YAMLNode {
        try merge(lower, upper, path: .root)
    }

    private static func merge(_ lower: YAMLNode?, _ upper: YAMLNode, path: ConfigPath) throws(ConfigError) -> YAMLNode {
        if path.components.count == 1, case .mapping(let patch) = upper.kind,
            case .key(let section) = path.components[0],
            let identity = ItemIdentity(section: section)
        {
            return try apply(patch, to: lower, identity: identity, at: upper, path: path)
        }
        guard case .mapping(let upperPairs) = upper.kind else { return upper }
        var merged = upper
        var pairs: [YAMLNode.Pair] = []
        if let lower, case .mapping(let lowerPairs) = lower.kind {
            merged = lower
            pairs = lowerPairs
        }
        for pair in upperPairs {
            if let i = pairs.firstIndex(where: { $0.key == pair.key }) {
                pairs[i].value = try merge(pairs[i].value, pair.value, path: path.appending(pair.key))
            } else {
                pairs.append(
                    YAMLNode.Pair(
                        key: pair.key, keyNode: pair.keyNode,
                        value: try merge(nil, pair.value, path: path.appending(pair.key))))
            }
        }
        merged.kind = .mapping(pairs)
        return merged
    }

    /// How the items of a list section are told apart.
    private enum ItemIdentity {
        case name, beacon

        init?(section: String) {
            switch section {
            case "regions", "devices": self = .name
            case "beacons": self = .beacon
            default: return nil
            }
        }
    }

    /// The per-item form: `regions: {office: {...}, lab: null}`.
    private static func apply(
        _ patch: [YAMLNode.Pair], to lower: YAMLNode?, identity: ItemIdentity, at node: YAMLNode, path: ConfigPath
    ) throws(ConfigError) -> YAMLNode {
        var items: [YAMLNode] = []
        if let lower, case .sequence(let list) = lower.kind { items = list }
        for pair in patch {
            let key = try keyPairs(pair, identity, path)
            let index = items.firstIndex { matches($0, key) }
            if pair.value.isNull {
                if let index { items.remove(at: index) }
                continue
            }
            guard case .mapping = pair.value.kind else {
                throw error(
                    pair.value, path.appending(pair.key),
                    "expected a mapping of this item's keys, or nothing to remove it; found \(pair.value.kindDescription)"
                )
            }
            if let index {
                items[index] = try merge(items[index], pair.value, path: path.appending(index: index))
            } else {
                let seed = YAMLNode(
                    kind: .mapping(key), line: pair.keyNode.line, column: pair.keyNode.column,
                    source: pair.keyNode.source)
                items.append(try merge(seed, pair.value, path: path.appending(index: items.count)))
            }
        }
        return YAMLNode(kind: .sequence(items), line: node.line, column: node.column, source: node.source)
    }

    /// The identity keys an item's key stands for, as the pairs of a new item.
    private static func keyPairs(
        _ pair: YAMLNode.Pair, _ identity: ItemIdentity, _ path: ConfigPath
    ) throws(ConfigError)
        -> [YAMLNode.Pair]
    {
        func scalar(_ text: String, _ style: YAMLNode.ScalarStyle) -> YAMLNode {
            YAMLNode(
                kind: .scalar(text, style), line: pair.keyNode.line, column: pair.keyNode.column,
                source: pair.keyNode.source)
        }
        func item(_ key: String, _ value: YAMLNode) -> YAMLNode.Pair {
            YAMLNode.Pair(key: key, keyNode: scalar(key, .plain), value: value)
        }
        switch identity {
        case .name:
            return [item("name", scalar(pair.key, .doubleQuoted))]
        case .beacon:
            let levels = pair.key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard levels.count == 3, !levels.contains(where: \.isEmpty) else {
                throw error(
                    pair.keyNode, path.appending(pair.key),
                    "a beacon is named <uuid>/<major>/<minor> or eddystone/<namespace>/<instance>, as in its topics")
            }
            if levels[0] == "eddystone" {
                return [
                    item("namespace", scalar(levels[1], .doubleQuoted)),
                    item("instance", scalar(levels[2], .doubleQuoted)),
                ]
            }
            return [
                item("uuid", scalar(levels[0], .doubleQuoted)), item("major", scalar(levels[1], .plain)),
                item("minor", scalar(levels[2], .plain)),
            ]
        }
    }

    /// True when the list item has the identity `key` names (UUIDs and hex compared without case or dashes).
    private static func matches(_ item: YAMLNode, _ key: [YAMLNode.Pair]) -> Bool {
        guard case .mapping(let pairs) = item.kind else { return false }
        func normal(_ node: YAMLNode?) -> String? {
            guard let node, case .scalar(let text, _) = node.kind else { return nil }
            if let n = Int(text) { return String(n) }
            return text.lowercased().filter { $0 != "-" }
        }
        return key.allSatisfy { k in
            let mine = normal(pairs.first { $0.key == k.key }?.value)
            return mine != nil && mine == normal(k.value)
        }
    }

    private static func error(_ node: YAMLNode, _ path: ConfigPath, _ message: String) -> ConfigError {
        ConfigError(
            file: node.source ?? "", line: node.line, column: node.column, key: path.description, message: message)
    }
}
