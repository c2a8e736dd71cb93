/// The top-level members of one JSON object, read once by `JSONReader` and decoded on lookup:
/// how the daemon reads the flat payloads it receives (stats, proximity, events, retained
/// attributes and locations). Nested arrays and objects are checked and skipped. Of repeated
/// names the last one counts.
package struct JSONObject: Sendable {
    /// A member's value; numbers are kept as written (`12.5`, `-3`, `1e3`).
    package enum Value: Equatable, Sendable {
        case string(String)
        case number(String)
        case bool(Bool)
        case null
        /// An array or an object.
        case nested
    }

    private let reader: JSONReader
    /// Names and value tokens in document order (`.beginObject`/`.beginArray` for nested values).
    private var members: [(name: JSONText, value: JSONReader.Token)] = []

    /// Reads `bytes`, which must be exactly one object (whitespace around it allowed).
    package init(_ bytes: [UInt8]) throws(JSONError) {
        var reader = JSONReader(bytes)
        guard try reader.next() == .beginObject else { throw JSONError(.unexpectedValue, at: 0) }
        var members: [(name: JSONText, value: JSONReader.Token)] = []
        members.reserveCapacity(16)
        while case .key(let name)? = try reader.next() {
            guard let value = try reader.next() else { throw JSONError(.unexpectedEnd, at: reader.offset) }
            if value == .beginObject || value == .beginArray { try reader.skipContainer() }
            members.append((name, value))
        }
        guard try reader.next() == nil else { throw JSONError(.trailingData, at: reader.offset) }
        self.reader = reader
        self.members = members
    }

    package init(_ text: String) throws(JSONError) { try self.init(Array(text.utf8)) }

    /// How many members the object has (repeated names counted each time).
    package var count: Int { members.count }

    /// The member names, in document order.
    package var names: [String] { members.map { reader.string($0.name) } }

    private func token(_ name: String) -> JSONReader.Token? {
        members.last { reader.matches($0.name, name) }?.value
    }

    package subscript(name: String) -> Value? {
        switch token(name) {
        case nil: return nil
        case .string(let text)?: return .string(reader.string(text))
        case .number(let text)?: return .number(reader.raw(text))
        case .bool(let b)?: return .bool(b)
        case .null?: return .null
        default: return .nested
        }
    }

    /// A string member's value; nil when missing or not a string (`null` included).
    package func string(_ name: String) -> String? {
        guard case .string(let text)? = token(name) else { return nil }
        return reader.string(text)
    }

    /// A number member's value; nil when missing or not a number (`null` included).
    package func number(_ name: String) -> Double? {
        guard case .number(let text)? = token(name) else { return nil }
        return reader.number(text)
    }
}
