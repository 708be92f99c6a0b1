/// Evaluates `body` and hands its failure to `wrap`: how a layer raises its own error type for
/// a call into the layer below, in one expression instead of a `do`/`catch` block each time.
///
///     let feeds = try rethrowing(try catalog.feeds(), as: PipelineError.storage)
///
/// An autoclosure, because Swift infers a typed `throws` for it (not yet for a closure).
@inlinable
public func rethrowing<Value, Failure: Error, Wrapped: Error>(
    _ body: @autoclosure () throws(Failure) -> Value, as wrap: (Failure) -> Wrapped
) throws(Wrapped) -> Value {
    do {
        return try body()
    } catch {
        throw wrap(error)
    }
}
