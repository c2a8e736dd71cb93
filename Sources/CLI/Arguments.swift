/// The arguments of one subcommand, consumed as the command's initializer reads them.
///
/// Options take `--name value` or `--name=value`; flags are `--name`. Anything starting with `-`
/// that no command read is a usage error, so a typo never passes silently.
package struct Arguments: Sendable {
    private var items: [String]

    package init(_ items: [String]) { self.items = items }

    /// True when any of `names` is present (and removes it).
    package mutating func flag(_ names: String...) -> Bool {
        var found = false
        items.removeAll { item in
            let hit = names.contains(item)
            found = found || hit
            return hit
        }
        return found
    }

    /// The value of an option; the last occurrence wins.
    package mutating func option(_ names: String...) throws(UsageError) -> String? {
        var value: String?
        var index = 0
        while index < items.count {
            let item = items[index]
            if item == "--" { break }
            if let name = names.first(where: { item == $0 }) {
                guard index + 1 < items.count else { throw UsageError("missing value for '\(name)'") }
                value = items[index + 1]
                items.removeSubrange(index...(index + 1))
                continue
            }
            if let name = names.first(where: { item.hasPrefix($0 + "=") }) {
                value = String(item.dropFirst(name.count + 1))
                items.remove(at: index)
                continue
            }
            index += 1
        }
        return value
    }

    /// A parsed numeric option, with a usage error naming the option when it is not a number in range.
    package mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "'\(name)' needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// All remaining positional arguments; fails on any unread option.
    package mutating func positionals() throws(UsageError) -> [String] {
        var out: [String] = []
        var afterDashes = false
        for item in items {
            if !afterDashes, item == "--" {
                afterDashes = true
                continue
            }
            if !afterDashes, item.hasPrefix("-"), item.count > 1 {
                throw UsageError("unknown option '\(item)'")
            }
            out.append(item)
        }
        items = []
        return out
    }

    /// Fails when anything is left over.
    package mutating func finish() throws(UsageError) {
        let rest = try positionals()
        if let first = rest.first { throw UsageError("unexpected argument '\(first)'") }
    }
}
