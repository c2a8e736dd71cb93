import Foundation
import Synchronization

/// Fetches http://127.0.0.1:`port`/metrics every `interval` on a thread of its own until `stop`,
/// counting answers that were a 200 with an exposition and those that were not (connection
/// refused before the agent listens counts as neither).
final class MetricsScraper: Sendable {
    private let port: Int
    private let interval: Double
    private let state = Mutex((stopped: false, ok: 0, failed: 0))
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, interval: Double) {
        self.port = port
        self.interval = interval
    }

    func start() {
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                switch scrape() {
                case true?: state.withLock { $0.ok += 1 }
                case false?: state.withLock { $0.failed += 1 }
                case nil: break
                }
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
    }

    func stop() -> (ok: Int, failed: Int) {
        state.withLock { $0.stopped = true }
        done.wait()
        return state.withLock { ($0.ok, $0.failed) }
    }

    /// One GET /metrics: true for a 200 with an exposition; nil: not listening (yet, or any more).
    func scrape() -> Bool? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var tv = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return nil }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        if answer.isEmpty { return nil }
        let text = String(decoding: answer, as: UTF8.self)
        return text.hasPrefix("HTTP/1.1 200") && text.contains("beacon2mqtt_reports_total")
    }
}
