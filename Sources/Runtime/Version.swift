/// The release version: in the daemon's `starting` line and status payload, `--version`, the man
/// page and the .deb (scripts/build-deb.sh reads it here).
package enum Version {
    package static let string = "0.1.0"
}
