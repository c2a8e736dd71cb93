import Foundation

/// A raw HTTP/1.1 client over a loopback TCP socket, so tests can send what no well-behaved client
/// would (garbage, huge headers, a request that never ends) and see how the server answers.
enum HTTPProbe {
    struct Answer {
        /// The status code, nil when the server closed (or timed out) without a status line.
        var status: Int?
        var head: String
        var body: String
    }

    /// A connected socket to `host` (127.0.0.1, or an IPv6 address such as ::1):`port` with receive
    /// and send timeouts, or nil.
    static func connect(port: Int, host: String = "127.0.0.1", timeout: Double = 10) -> Int32? {
        let ipv6 = host.contains(":")
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var storage = sockaddr_storage()
        let length = withUnsafeMutableBytes(of: &storage) { raw -> Int in
            if ipv6 {
                let a = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                a.pointee.sin6_family = sa_family_t(AF_INET6)
                a.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                _ = inet_pton(AF_INET6, host, &a.pointee.sin6_addr)
                return MemoryLayout<sockaddr_in6>.size
            }
            let a = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
            a.pointee.sin_family = sa_family_t(AF_INET)
            a.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET, host, &a.pointee.sin_addr)
            return MemoryLayout<sockaddr_in>.size
        }
        let ok = withUnsafePointer(to: &storage) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(length)) == 0
            }
        }
        if !ok {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends `bytes` (as far as the server takes them) and reads until the server closes or `timeout`.
    static func exchange(port: Int, host: String = "127.0.0.1", _ bytes: [UInt8], timeout: Double = 10) -> Answer {
        guard let fd = connect(port: port, host: host, timeout: timeout) else {
            return Answer(status: nil, head: "", body: "")
        }
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        return read(fd)
    }

    static func get(port: Int, host: String = "127.0.0.1", _ path: String, timeout: Double = 10) -> Answer {
        exchange(
            port: port, host: host, Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8),
            timeout: timeout)
    }

    /// Everything the server sends on `fd` until it closes or the receive timeout.
    static func read(_ fd: Int32) -> Answer {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let words = statusLine.split(separator: " ")
        let status = words.count >= 2 && words[0].hasPrefix("HTTP/") ? Int(words[1]) : nil
        return Answer(status: status, head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The value of the first sample line `name` (with its labels, as written) in an exposition.
    static func sample(_ exposition: String, _ name: String) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }
}
