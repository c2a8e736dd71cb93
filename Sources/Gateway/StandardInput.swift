import Foundation

/// Reads standard input at the edge, for commands that accept their input there.
enum StandardInput {
    static func lines() -> [String] {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }
}
