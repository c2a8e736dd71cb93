import Foundation
import Glibc
import Synchronization

/// A TCP proxy on loopback between clients and a broker's port that can cut the path, as a network
/// that drops every packet: while cut it moves no byte either way and carries no new connection on
/// (the client's connect succeeds, its CONNECT gets no answer). When the cut heals, every connection
/// that lived through it is reset — both ends have timed it out by their keepalives — and new ones are
/// carried again.
final class PartitionProxy: Sendable {
    let port: Int
    private let upstream: Int
    private let listener: Int32
    /// Whether the path is cut, and how many times it was cut or healed: a connection opened in an
    /// earlier generation than the current one lived through a cut.
    private let state = Mutex<(cut: Bool, generation: Int, stopped: Bool)>((false, 0, false))

    init(upstream: Int) throws {
        self.upstream = upstream
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = Self.loopback(port: 0)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let bound = withUnsafeMutablePointer(to: &addr) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && getsockname(fd, sa, &len) == 0 && listen(fd, 16) == 0
            }
        }
        guard bound else { throw MosquittoBroker.BrokerError("the proxy cannot listen") }
        port = Int(UInt16(bigEndian: addr.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting and resets every connection.
    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Cuts the path: from now on nothing crosses it.
    func cut() { state.withLock { $0 = (true, $0.generation + 1, $0.stopped) } }

    /// Heals the path: the connections that lived through the cut are reset, new ones are carried.
    func heal() { state.withLock { $0 = (false, $0.generation + 1, $0.stopped) } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if state.withLock({ $0.stopped }) { return }
            guard client >= 0 else { continue }
            let generation = state.withLock { $0.generation }
            Thread { [self] in carry(client, born: generation) }.start()
        }
    }

    /// One client's connection: held while the path is cut, then the broker's, both ways.
    private func carry(_ client: Int32, born: Int) {
        var broker: Int32 = -1
        defer {
            Self.reset(client)
            if broker >= 0 { Self.reset(broker) }
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let now = state.withLock { $0 }
            if now.stopped || now.generation != born && !now.cut { return }
            if now.cut {
                usleep(50_000)
                continue
            }
            if broker < 0 {
                broker = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var addr = Self.loopback(port: upstream)
                let fd = broker
                let connected = withUnsafePointer(to: &addr) { ptr in
                    ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
                guard connected else { return }
            }
            var fds = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: broker, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, 50) >= 0 else { return }
            for (from, to) in [(0, broker), (1, client)] where fds[from].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fds[from].fd, $0.baseAddress, $0.count) }
                guard n > 0, Self.writeAll(to, buffer[0..<n]) else { return }
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            rest = rest.dropFirst(n)
        }
        return true
    }

    /// Closes with a reset (SO_LINGER 0), as a peer that forgot the connection answers.
    private static func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        return addr
    }
}
