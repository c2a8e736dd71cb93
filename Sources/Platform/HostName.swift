import Glibc

/// The default gateway id: the host name up to its first dot, made safe as one topic level.
package enum HostName {
    package static func gatewayID() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gateway" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self).split(separator: ".").first.map(String.init) ?? ""
        let safe = String(name.unicodeScalars.filter { !"+#/".unicodeScalars.contains($0) && $0.value >= 0x20 })
        return safe.isEmpty ? "gateway" : safe
    }
}
