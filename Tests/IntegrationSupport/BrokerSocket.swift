import Foundation
import Glibc

/// What the kernel holds on a loopback broker's sockets (a broker stopped with SIGSTOP reads nothing,
/// so what a client sent stays there).
enum BrokerSocket {
    /// Bytes written to the broker's port and not read by it: the client socket's send queue plus
    /// the broker socket's receive queue (proc(5), /proc/net/tcp: hex ports, tx_queue:rx_queue).
    static func unreadBytes(port: Int) -> Int {
        let text = procFile("/proc/net/tcp")
        let hexPort = String(format: ":%04X", port)
        var total = 0
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 4, f[3] == "01" else { continue }  // ESTABLISHED
            let queues = f[4].split(separator: ":").compactMap { Int($0, radix: 16) }
            guard queues.count == 2 else { continue }
            if f[2].hasSuffix(hexPort) { total += queues[0] }  // the client's end: what it sent
            if f[1].hasSuffix(hexPort) { total += queues[1] }  // the broker's end: what it has not read
        }
        return total
    }

    /// A procfs file read to its end: its size reads as 0, and a busy machine's socket table is
    /// longer than one read.
    static func procFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
