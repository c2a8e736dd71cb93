/// `metrics.map_password_file`: who may see the live map, one `user:password` a line (blank lines
/// and lines starting with `#` are skipped). The password is everything after the first colon.
package enum MapPasswordFile {
    package struct Entry: Sendable, Equatable {
        package var user: String
        package var password: String
    }

    /// Why a file is refused, with its 1-based line (0: the whole file).
    package struct Problem: Error, Equatable {
        package var line: Int
        package var message: String
    }

    package static func parse(_ text: String) throws(Problem) -> [Entry] {
        var entries: [Entry] = []
        // "\r\n" is one Character: both end a line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (i, line) in lines.enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw Problem(line: i + 1, message: "expected user:password")
            }
            let password = line[line.index(after: colon)...]
            guard !password.isEmpty else { throw Problem(line: i + 1, message: "the password is empty") }
            entries.append(Entry(user: String(line[..<colon]), password: String(password)))
        }
        guard !entries.isEmpty else { throw Problem(line: 0, message: "names no user:password") }
        return entries
    }
}
