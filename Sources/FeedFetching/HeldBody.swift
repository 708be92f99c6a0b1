/// A whole body in hand: a small fetched body, which comes back with its response held as it
/// came over the wire (compressed, when it was), or a body read from elsewhere (a file).
/// ``handOn(to:)`` gives it to a ``BodyConsumer`` through the calls a streamed body takes, so
/// every body reaches a reader one way.
public struct HeldBody: Sendable {
    public var source: BodySource
    /// The bytes as received, encoded as ``coding`` says.
    public var bytes: [UInt8]
    public var coding: ContentCoding
    /// The cap on the decoded size.
    public var decodedLimit: Int

    public init(source: BodySource, bytes: [UInt8], coding: ContentCoding = .identity, decodedLimit: Int = .max) {
        self.source = source
        self.bytes = bytes
        self.coding = coding
        self.decodedLimit = decodedLimit
    }

    /// Starts `consumer` and hands it the decoded body in pieces, until it refuses more.
    /// - Throws: as ``withDecoded(_:)``.
    public func handOn(to consumer: BodyConsumer) throws(FetchError) {
        consumer.start(source)
        try withDecoded { consumer.receive($0) }
    }

    /// Hands the decoded body to `receive` in pieces, inflating a compressed one; the size cap
    /// counts decoded bytes. Stops early when `receive` returns `false`.
    /// - Throws: `tooLarge` past the cap; `network` for damaged compressed data or a stream cut short.
    public func withDecoded(_ receive: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) {
        guard !bytes.isEmpty else { return }
        guard coding != .identity else {
            _ = bytes.withUnsafeBytes(receive)
            return
        }
        let inflater = BodyInflater(coding: coding)
        var outcome: Result<Bool, BodyInflater.Failure> = .success(true)
        bytes.withUnsafeBytes { bytes in
            do throws(BodyInflater.Failure) {
                outcome = .success(try inflater.inflate(bytes, limit: decodedLimit, into: receive))
            } catch {
                outcome = .failure(error)
            }
        }
        let url = source.url ?? ""
        switch outcome {
        case .success(let wanted):
            guard wanted, !inflater.ended else { return }
            throw FetchError(kind: .network, url: url, message: inflater.endedEarly, status: source.status)
        case .failure(.tooLarge):
            throw FetchError(kind: .tooLarge, url: url, message: "body larger than \(decodedLimit) bytes once decompressed", status: source.status)
        case .failure(.damaged(let reason)):
            throw FetchError(kind: .network, url: url, message: reason, status: source.status)
        }
    }
}
