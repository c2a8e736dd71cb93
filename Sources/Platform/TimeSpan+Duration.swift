import Vocabulary

/// The vocabulary's duration and the standard library's, for the waits that take a `Duration`
/// (`ContinuousClock` deadlines, condition waits): microseconds either way, rounded toward zero.
extension TimeSpan {
    package init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(microseconds: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}

extension Duration {
    package init(_ span: TimeSpan) { self = .microseconds(span.microseconds) }
}
