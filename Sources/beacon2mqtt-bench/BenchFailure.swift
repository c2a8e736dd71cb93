/// A section could not produce a trustworthy number (wrong decode, missing tool, lost messages…).
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
