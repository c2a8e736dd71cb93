import Glibc

/// The process's environment variables (what Foundation's `ProcessInfo.environment` gave).
package enum ProcessEnvironment {
    /// Every `NAME=value` of `environ`; for a name set twice, the first wins (as getenv(3) does).
    package static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
