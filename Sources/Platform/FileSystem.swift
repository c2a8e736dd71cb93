import Glibc

/// The few file-system questions the gateway asks, through open(2)/read(2)/stat(2).
package enum FileSystem {
    /// A failed read, with errno's text (`No such file or directory`).
    package struct ReadError: Error, Sendable, CustomStringConvertible {
        package let code: Int32
        package var description: String { String(cString: strerror(code)) }
    }

    /// True when `path` names an existing file or directory (symbolic links followed).
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The permission bits of `path` (`0o644`), nil when it cannot be stat'ed.
    package static func permissions(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The whole file at `path`.
    package static func contents(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = try Syscall.retrying({ open(path, O_RDONLY | O_CLOEXEC) }, failure: ReadError.init(code:))
        defer { close(fd) }
        return try contents(fd)
    }

    /// Everything readable from `fd` until end of file.
    package static func contents(_ fd: Int32) throws(ReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try Syscall.retrying(
                { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }, failure: ReadError.init(code:))
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// The file at `path` as UTF-8 text; invalid UTF-8 is an error (EILSEQ).
    package static func text(_ path: String) throws(ReadError) -> String {
        guard let text = String(validating: try contents(path), as: UTF8.self) else { throw ReadError(code: EILSEQ) }
        return text
    }

    /// Writes `bytes` to `path` through a temporary file and rename(2), so a reader sees the old
    /// file or the new one, never half of one; mode 0600. Throws what failed (a read-only or full
    /// file system: EROFS, ENOSPC, EDQUOT), the old file left as it was.
    package static func replace(_ path: String, with bytes: [UInt8]) throws(SystemCallError) {
        let temporary = "\(path).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemCallError("create '\(temporary)'", code: errno) }
        var failure: SystemCallError?
        do throws(SystemCallError) {
            try Syscall.writeAll(fd, bytes) { code in SystemCallError("write '\(temporary)'", code: code) }
            if fsync(fd) != 0 { failure = SystemCallError("fsync '\(temporary)'", code: errno) }
        } catch {
            failure = error
        }
        if close(fd) != 0, failure == nil { failure = SystemCallError("close '\(temporary)'", code: errno) }
        if failure == nil, rename(temporary, path) != 0 {
            failure = SystemCallError("rename to '\(path)'", code: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Removes the file at `path` if there is one; throws for any other failure (EROFS).
    package static func remove(_ path: String) throws(SystemCallError) {
        if unlink(path) != 0, errno != ENOENT { throw SystemCallError("remove '\(path)'", code: errno) }
    }

    /// Why files cannot be created in the directory at `path` (missing, not writable, a read-only
    /// file system), or nil. A full file system shows only when a write fails.
    package static func writabilityProblem(ofDirectory path: String) -> SystemCallError? {
        access(path, W_OK | X_OK) == 0 ? nil : SystemCallError("write in '\(path)'", code: errno)
    }

    /// Why the directory at `path` cannot be listed (`Not a directory`, `Permission denied`), or nil.
    package static func listingProblem(ofDirectory path: String) -> ReadError? {
        guard let directory = opendir(path) else { return ReadError(code: errno) }
        closedir(directory)
        return nil
    }
}
