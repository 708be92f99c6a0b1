import FeedBasics

/// The final response's body on its way from libcurl: counted against the size cap (in
/// decompressed bytes), hashed, and held (without a consumer, or up to ``holdLimit``) or
/// handed on to the consumer.
///
/// When a consumer is to read it, a compressed body is held as it came over the wire and
/// inflated only when it is read (``keepsCompressed``): the bodies waiting in transfers and
/// for a parse permit were most of a long cold run's heap, and feeds compress about 3.7× (the
/// benchmark corpus). A fetch without a consumer, and a recording, get the body decoded by libcurl.
final class BodyStream {
    /// A body up to this size (as received) is held before the consumer starts: most feeds are
    /// smaller, and one that hashes the same as last time then costs no parse. Such a body
    /// comes back with the response, to be read once the transfer slot is free; a larger body
    /// is read as it arrives, holding its slot meanwhile. 1 MiB covers nearly every feed of
    /// the benchmark corpus, decoded; a smaller limit streamed more of them inside their
    /// transfers, and the cold run was slower (docs/perf-notes/doc-comment-figures.md).
    /// The workers (``FetchScheduler``) × this bounds what held bodies take.
    static let holdLimit = 1 << 20

    let limit: Int
    let consumer: BodyConsumer?
    /// A recording keeps the whole body as well as streaming it.
    let keepsWhole: Bool
    /// libcurl is asked not to decode: a compressed body is held compressed and inflated here
    /// when it is handed to the consumer (or by ``HeldBody/handOn(to:)``).
    let keepsCompressed: Bool
    /// Bytes not handed to a consumer (with `keepsWhole`, all of them), as received.
    private(set) var held: [UInt8] = []
    /// How ``held`` is encoded.
    private(set) var coding = ContentCoding.identity
    /// Bytes received, compressed or not: what the cap counts while nothing is decoded.
    private var count = 0
    private(set) var exceededLimit = false
    /// The consumer refused more.
    private(set) var stoppedByConsumer = false
    /// Why the body could not be decoded (an encoding not asked for, damaged data).
    private(set) var decodingFailure: String?
    private var started = false
    private var inflater: BodyInflater?
    private var hasher = SHA256()
    private var source = BodySource(url: "", status: 200)

    init(limit: Int, consumer: BodyConsumer?, keepsWhole: Bool = false) {
        self.limit = limit
        self.consumer = consumer
        self.keepsWhole = keepsWhole
        keepsCompressed = !keepsWhole && consumer != nil
    }

    /// Where the body comes from and how it is encoded; set when its headers are in.
    /// `contentEncoding` matters only when the body ``keepsCompressed``: otherwise libcurl
    /// has decoded it already.
    func begin(_ source: BodySource, contentEncoding: String? = nil) {
        self.source = source
        guard keepsCompressed else { return }
        guard let named = ContentCoding.of(contentEncoding: contentEncoding) else {
            decodingFailure = "the body is encoded as \"\(contentEncoding ?? "")\", which Feedmill did not ask for and cannot decode"
            return
        }
        coding = named
        if named != .identity { inflater = BodyInflater(coding: named) }
    }

    /// Bytes accepted, or `false` to stop the transfer.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard decodingFailure == nil else { return false }
        guard count + bytes.count <= limit else {
            exceededLimit = true
            return false
        }
        count += bytes.count
        hasher.update(bytes)
        guard let consumer, started || count > Self.holdLimit else {
            hold(bytes)
            return true
        }
        if !started {
            guard startConsumer(consumer) else { return false }
        }
        if keepsWhole { held.append(contentsOf: bytes) }
        return hand(bytes, to: consumer)
    }

    /// Keeps bytes that are not handed on yet. The buffer doubles as an array's would, but
    /// when a consumer is to take the body past ``holdLimit``, never beyond that: left to
    /// itself, an array holding 0.6 MiB that grows is given 1.2 MiB and copied while both
    /// are live, so a body about to be streamed cost up to 3 MiB at that moment.
    private func hold(_ bytes: UnsafeRawBufferPointer) {
        let needed = held.count + bytes.count
        if needed > held.capacity {
            let ceiling = consumer == nil ? Int.max : Self.holdLimit
            held.reserveCapacity(max(needed, min(ceiling, held.count * 2)))
        }
        held.append(contentsOf: bytes)
    }

    /// SHA-256 (hex) of the whole body as received (compressed, when it is held compressed:
    /// no inflating to find that a feed has not changed). Call once, at its end.
    func digest() -> String {
        let finished = hasher
        return SHA256.hex(finished.finalize())
    }

    /// At the end of a body handed to the consumer while it arrived: why it is incomplete, when
    /// its compressed data stopped before the end of the stream.
    var cutShort: String? {
        guard started, let inflater, !inflater.isComplete else { return nil }
        return inflater.endedEarly
    }

    /// At the body's end: what the response carries. The body, encoded as ``coding`` says,
    /// unless it went to the consumer while it arrived (it outgrew ``holdLimit``): a consumer
    /// that never started is given it after the fetch (``FetchResponse/heldBody``).
    func finish() -> [UInt8] {
        streamed ? [] : held
    }

    /// The consumer was started and given the body as it arrived.
    var streamed: Bool { started }

    /// Starts the consumer and hands it what was held. `false`: stopped.
    private func startConsumer(_ consumer: BodyConsumer) -> Bool {
        started = true
        consumer.start(source)
        let early = held
        if !keepsWhole { held = [] }
        guard !early.isEmpty else { return true }
        return early.withUnsafeBytes { hand($0, to: consumer) }
    }

    /// Bytes as received, decoded if need be, to the consumer. `false`: stopped.
    private func hand(_ bytes: UnsafeRawBufferPointer, to consumer: BodyConsumer) -> Bool {
        guard let inflater else {
            guard consumer.receive(bytes) else {
                stoppedByConsumer = true
                return false
            }
            return true
        }
        do throws(BodyInflater.Failure) {
            guard try inflater.inflate(bytes, limit: limit, into: { consumer.receive($0) }) else {
                stoppedByConsumer = true
                return false
            }
            return true
        } catch {
            switch error {
            case .tooLarge: exceededLimit = true
            case .damaged(let reason): decodingFailure = reason
            }
            return false
        }
    }
}
