/// A floor plan that cannot serve as asked (the file itself parsed: its errors are `ConfigError`s).
public struct FloorPlanError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
