/// What errors and warnings share: a position in the file, a key path and a message, printed
/// `file:line:column: key: message` like a compiler diagnostic so editors can jump to it.
package protocol ConfigDiagnostic: CustomStringConvertible {
    var file: String { get }
    /// 1-based; 0 when there is no position.
    var line: Int { get }
    var column: Int { get }
    /// Dotted key path, e.g. `ranging.filter.window` or `regions[2].uuid`; may be empty.
    var key: String { get }
    var message: String { get }
}

extension ConfigDiagnostic {
    package var description: String {
        let position = line > 0 ? "\(file):\(line):\(column)" : file
        return key.isEmpty ? "\(position): \(message)" : "\(position): \(key): \(message)"
    }
}
