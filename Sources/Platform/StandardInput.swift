import Glibc

/// Reads standard input at the edge, for commands that accept their input there.
package enum StandardInput {
    package static func lines() -> [String] {
        // A read error ends the input like end of file does (as FileHandle's read did).
        let data = (try? FileSystem.contents(0)) ?? []
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }
}
