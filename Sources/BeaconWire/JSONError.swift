/// Why `JSONReader` stopped, and the byte offset (from 0) where it did.
package struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Reason: Equatable, Sendable {
        /// The text ends inside a value (or holds no value at all).
        case unexpectedEnd
        /// A byte that cannot start or continue what the grammar expects here.
        case unexpectedByte(UInt8)
        /// `\` followed by anything but `" \ / b f n r t u`, or `\u` without four hex digits.
        case invalidEscape
        /// A `\u` surrogate without its partner: a Swift string cannot hold it.
        case unpairedSurrogate
        /// A raw control character (U+0000…U+001F) inside a string.
        case controlCharacter
        /// Bytes that are not UTF-8 (RFC 8259 §8.1).
        case invalidUTF8
        /// A number outside `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
        case invalidNumber
        /// More than `JSONReader.maximumDepth` nested arrays and objects.
        case tooDeep
        /// Something after the one top-level value.
        case trailingData
        /// A well-formed value of another kind than the caller needs (e.g. an array for an object).
        case unexpectedValue
    }

    package var reason: Reason
    package var offset: Int

    package init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    package var description: String {
        let what: String
        switch reason {
        case .unexpectedEnd: what = "unexpected end of text"
        case .unexpectedByte(let byte):
            what =
                (0x21...0x7E).contains(byte)
                ? "unexpected '\(Character(Unicode.Scalar(byte)))'" : "unexpected byte 0x\(Hex.string([byte]))"
        case .invalidEscape: what = "invalid escape"
        case .unpairedSurrogate: what = "unpaired UTF-16 surrogate in \\u escape"
        case .controlCharacter: what = "control character in string"
        case .invalidUTF8: what = "invalid UTF-8"
        case .invalidNumber: what = "invalid number"
        case .tooDeep: what = "nested deeper than \(JSONReader.maximumDepth)"
        case .trailingData: what = "data after the value"
        case .unexpectedValue: what = "not the kind of value expected"
        }
        return "JSON offset \(offset): \(what)"
    }
}
