import Glibc

/// Work done as another user, in a forked child that takes the user's groups, gid and uid
/// (initgroups, setgid, setuid), so every file it opens meets exactly the permissions that user's
/// own process would: group membership and ACLs included, which no mode-bit arithmetic gets right.
/// Only root can switch; the parent never changes its own ids.
package enum UserSwitch {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package enum Reason: Sendable { case notRoot, noSuchUser, switchFailed }
        package let reason: Reason
        package let description: String
    }

    /// What `body` returns when run as `user`, in a child process that then exits.
    package static func run(as user: String, _ body: () -> [UInt8]) throws(Failure) -> [UInt8] {
        guard geteuid() == 0 else {
            throw Failure(reason: .notRoot, description: "reading files as '\(user)' needs root (try sudo)")
        }
        errno = 0
        guard let entry = getpwnam(user) else {
            throw Failure(reason: .noSuchUser, description: "no user '\(user)'")
        }
        let (uid, gid) = (entry.pointee.pw_uid, entry.pointee.pw_gid)
        let pipe = Syscall.wakePipe(nonBlocking: false)
        let ends = [pipe.read, pipe.write]
        let child = fork()
        guard child >= 0 else {
            let code = errno
            close(ends[0])
            close(ends[1])
            throw switchFailed(user, code)
        }
        if child == 0 {
            close(ends[0])
            // Groups before the gid, the gid before the uid: each needs the privilege the next drops.
            // Root stays root; anyone else must not be able to take root back.
            guard initgroups(user, gid) == 0, setgid(gid) == 0, setuid(uid) == 0, getuid() == uid, geteuid() == uid,
                uid == 0 || setuid(0) != 0
            else { _exit(125) }
            let written: ()? = try? Syscall.writeAll(ends[1], body(), failure: FileSystem.ReadError.init(code:))
            _exit(written == nil ? 124 : 0)
        }
        close(ends[1])
        let bytes = try? FileSystem.contents(ends[0])
        close(ends[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        guard let bytes, status == 0 else { throw switchFailed(user, nil) }
        return bytes
    }

    private static func switchFailed(_ user: String, _ code: Int32?) -> Failure {
        let reason = code.map { ": \(String(cString: strerror($0)))" } ?? ""
        return Failure(reason: .switchFailed, description: "cannot switch to user '\(user)'\(reason)")
    }
}
