import FeedBasics

/// Takes a feed's body as it arrives, so that it is never held whole: the update step parses,
/// normalises and stores each entry as soon as its bytes are in.
///
/// Started only for the final, successful (2xx) response, and only once the body has
/// outgrown ``BodyStream/holdLimit`` or has ended; a body that ends smaller and hashes the
/// same as last time is reported not modified without the consumer ever seeing it. After a
/// failed or not-modified fetch, what was consumed must be thrown away by the caller.
public protocol FetchBodyConsumer: AnyObject {
    /// The body begins. `finalURL` is where it comes from (after redirects), `status` its
    /// (2xx) status, `contentType` the response's `Content-Type`.
    func start(finalURL: String, status: Int, contentType: String?)
    /// The next bytes, decompressed. Returning `false` stops the transfer (the consumer has
    /// seen enough to know the rest would change nothing).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// `true`: a body that ends within ``BodyStream/holdLimit`` is not handed over during the
    /// fetch but returned in ``FetchResponse/body``, for the caller to hand over itself once
    /// the fetch has returned, and its transfer slot is free for the next feed
    /// (``FetchScheduler``). Most feeds are that small.
    var takesSmallBodiesAfterTheFetch: Bool { get }
}

extension FetchBodyConsumer {
    public var takesSmallBodiesAfterTheFetch: Bool { false }
}

/// The final response's body on its way from libcurl: counted against the size cap (in
/// decompressed bytes), hashed, and held (without a consumer, or up to ``holdLimit``) or
/// handed on to the consumer.
///
/// For a consumer that takes small bodies after the fetch (the update run), a compressed body
/// is held as it came over the wire and inflated only when it is parsed (``keepsCompressed``):
/// the bodies waiting in transfers and for a parse permit were most of a long cold run's heap,
/// and feeds compress about 3.7× (the benchmark corpus). Everyone else (a recording, a fetch
/// without a consumer) gets the body decoded by libcurl.
final class BodyStream {
    /// A body up to this size (as received) is held before the consumer starts: most feeds are
    /// smaller, and one that hashes the same as last time then costs no parse. A consumer that
    /// takes such bodies after the fetch parses them once the transfer slot is free; a larger
    /// body is parsed as it arrives, holding its slot meanwhile. 1 MiB covers nearly every
    /// feed of the benchmark corpus, decoded; a smaller limit streamed more of them inside
    /// their transfers, and the cold run was slower (docs/perf-notes/doc-comment-figures.md).
    /// The workers (``FetchScheduler``) × this bounds what held bodies take.
    static let holdLimit = 1 << 20

    let limit: Int
    let consumer: FetchBodyConsumer?
    /// A recording keeps the whole body as well as streaming it.
    let keepsWhole: Bool
    /// libcurl is asked not to decode: a compressed body is held compressed and inflated here
    /// when it is handed to the consumer (or by ``FetchResponse/withDecodedBody(_:)``).
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
    private var origin: (finalURL: String, status: Int, contentType: String?)?

    init(limit: Int, consumer: FetchBodyConsumer?, keepsWhole: Bool = false) {
        self.limit = limit
        self.consumer = consumer
        self.keepsWhole = keepsWhole
        keepsCompressed = !keepsWhole && consumer?.takesSmallBodiesAfterTheFetch == true
    }

    /// Where the body comes from and how it is encoded; set when its headers are in.
    /// `contentEncoding` matters only when the body ``keepsCompressed``: otherwise libcurl
    /// has decoded it already.
    func begin(finalURL: String, status: Int, contentType: String?, contentEncoding: String? = nil) {
        origin = (finalURL, status, contentType)
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

    /// At the body's end: what the response carries. Without a consumer, the body. A consumer
    /// that never started (the body stayed within ``holdLimit``) is started and handed it now,
    /// unless it takes small bodies after the fetch: then the response carries it, encoded as
    /// ``coding`` says.
    func finish() -> [UInt8] {
        guard let consumer, !started else { return consumer == nil ? held : [] }
        if consumer.takesSmallBodiesAfterTheFetch { return held }
        _ = startConsumer(consumer)
        return []
    }

    /// Starts the consumer and hands it what was held. `false`: stopped.
    private func startConsumer(_ consumer: FetchBodyConsumer) -> Bool {
        started = true
        consumer.start(finalURL: origin?.finalURL ?? "", status: origin?.status ?? 200, contentType: origin?.contentType)
        let early = held
        if !keepsWhole { held = [] }
        guard !early.isEmpty else { return true }
        return early.withUnsafeBytes { hand($0, to: consumer) }
    }

    /// Bytes as received, decoded if need be, to the consumer. `false`: stopped.
    private func hand(_ bytes: UnsafeRawBufferPointer, to consumer: FetchBodyConsumer) -> Bool {
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
