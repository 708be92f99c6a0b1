import CZlib

/// Inflates a gzip or deflate body piece by piece with zlib, for a body the fetcher held
/// compressed (``BodyStream``): the cap counts decoded bytes, so a small bomb stops at it.
///
/// Lenient where servers are sloppy and libcurl is too: `gzip` also accepts a zlib stream,
/// `deflate` also a raw one (no zlib header), and bytes after the end of the stream are
/// ignored. Strict where it matters: a stream that is damaged, or that ends before its end,
/// is an error, so a cut-off document is never read as if it were whole.
final class BodyInflater {
    enum Failure: Error, Equatable {
        /// More decoded bytes than the cap.
        case tooLarge
        /// What zlib said was wrong.
        case damaged(String)
    }

    let coding: ContentCoding
    /// The stream reached its end; later input is ignored.
    private(set) var ended = false
    /// Decoded bytes handed on so far.
    private(set) var decodedCount = 0
    /// zlib keeps a pointer back to its stream, so the stream must not move.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private static let outputSize = 32 * 1024
    private let outputStart = UnsafeMutableRawPointer.allocate(byteCount: outputSize, alignment: 16)
    private var initialised = false

    /// `coding` is `.gzip` or `.deflate`.
    init(coding: ContentCoding) {
        precondition(coding != .identity, "an identity body needs no inflater")
        self.coding = coding
        stream.initialize(to: z_stream())
    }

    deinit {
        if initialised { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        outputStart.deallocate()
    }

    /// The bytes are complete once this is true: ``ended``, or nothing was ever given.
    var isComplete: Bool { ended || !initialised }

    /// Why the data read so far is not a whole body, when its stream has not ended.
    var endedEarly: String { "the body's \(coding.rawValue) data ends before the end of its stream" }

    /// Inflates `input`, handing each decoded piece to `receive`.
    /// - Returns: `false` when `receive` refused more.
    func inflate(
        _ input: UnsafeRawBufferPointer, limit: Int, into receive: (UnsafeRawBufferPointer) -> Bool
    ) throws(Failure) -> Bool {
        guard !ended, let base = input.baseAddress, !input.isEmpty else { return true }
        if !initialised { try start(first: input) }
        var offset = 0
        while offset < input.count, !ended {
            // zlib counts input in 32 bits.
            let slice = min(input.count - offset, Int(UInt32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = UInt32(slice)
            guard try drain(limit: limit, into: receive) else { return false }
            offset += slice - Int(stream.pointee.avail_in)
            if stream.pointee.avail_in != 0, !ended { break }
        }
        return true
    }

    /// Runs zlib until the input given is used up (or the stream ends), handing on its output.
    private func drain(limit: Int, into receive: (UnsafeRawBufferPointer) -> Bool) throws(Failure) -> Bool {
        repeat {
            stream.pointee.next_out = outputStart.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(Self.outputSize)
            let result = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = Self.outputSize - Int(stream.pointee.avail_out)
            if produced > 0 {
                decodedCount += produced
                guard decodedCount <= limit else { throw .tooLarge }
                guard receive(UnsafeRawBufferPointer(start: outputStart, count: produced)) else { return false }
            }
            switch result {
            case Z_STREAM_END:
                ended = true
                return true
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                // No progress possible: all input used and no output pending.
                return true
            default:
                throw .damaged(message(for: result))
            }
        } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
        return true
    }

    /// A `deflate` body starting without a zlib header is raw deflate (RFC 9110 says zlib, some
    /// servers send raw); `gzip` detects a gzip or zlib header itself (window bits + 32).
    private func start(first: UnsafeRawBufferPointer) throws(Failure) {
        let windowBits: Int32
        switch coding {
        case .gzip: windowBits = MAX_WBITS + 32
        default: windowBits = Self.hasZlibHeader(first) ? MAX_WBITS : -MAX_WBITS
        }
        let result = feedmill_inflate_init(stream, windowBits)
        guard result == Z_OK else { throw .damaged(message(for: result)) }
        initialised = true
    }

    /// RFC 1950: compression method 8, a window of at most 32 KiB, and a check that makes the
    /// first two bytes a multiple of 31.
    static func hasZlibHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first, first & 0x0F == 8, first >> 4 <= 7 else { return false }
        guard bytes.count > 1 else { return true }
        return (Int(first) << 8 | Int(bytes[1])) % 31 == 0
    }

    private func message(for result: Int32) -> String {
        let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
        return "the body's \(coding.rawValue) data is damaged (\(reason))"
    }
}
