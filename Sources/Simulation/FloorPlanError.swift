/// A floor plan that cannot serve as asked (the file itself parsed: its errors are `ConfigError`s).
package struct FloorPlanError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
