import FeedBasics
import FeedPublishing
import Foundation
import HTTPTypes
import Hummingbird

#if canImport(Glibc)
import Glibc
#endif

/// GET and HEAD of a publication's files, as the client contract asks of any static server:
/// the contract's `Content-Type` and `Cache-Control` per name (``PublishedHeaders``), strong
/// ETags and `If-None-Match` → 304, one `Range`. Only plain, regular files directly in the
/// publication (no link is followed, no directory listed, nothing hidden), so nothing outside
/// it is ever read.
struct PublicationFiles: Sendable {
    let directory: String
    let tags = EntityTags()

    func respond(to request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.plain(.methodNotAllowed, "only GET and HEAD\n", extra: [.allow: "GET, HEAD"])
        }
        guard let name = PublishedFileName.from(path: request.uri.path), let file = open(name) else {
            return Self.plain(.notFound, "not found\n")
        }
        defer { close(file.descriptor) }
        // The bytes are read only when the answer needs them: a 304 or a HEAD of a file whose
        // tag is known reads none (the common case: readers revalidating pointers). A small
        // file read to compute its tag is kept for the answer.
        var bytes: [UInt8]?
        let tag = tags.tag(for: file.identity) {
            if file.size <= Self.chunk {
                bytes = Self.readAll(file.descriptor, size: file.size)
                return bytes.map(SHA256.hexDigest)
            }
            return Self.hexDigest(file.descriptor, size: file.size)
        }
        guard let tag else { return Self.plain(.notFound, "not found\n") }
        var headers: HTTPFields = [
            .contentType: PublishedHeaders.contentType(of: name), .cacheControl: PublishedHeaders.cacheControl(of: name),
            .eTag: tag, .acceptRanges: "bytes",
        ]
        // JSON (the root, pointers, deltas) is gzipped for readers that take it, when small
        // enough to compress whole and not asked by range: a representation of its own, with
        // its own strong tag; either tag revalidates, since both name the same version.
        let json = name.hasSuffix(".json")
        if json { headers[.vary] = "Accept-Encoding" }
        let gzipTag = String(tag.dropLast()) + "-gzip\""
        let gzipped = json && request.headers[.range] == nil && file.size <= Self.chunk && Gzip.accepted(by: request.headers[.acceptEncoding])
        if gzipped { headers[.eTag] = gzipTag }
        if let asked = request.headers[.ifNoneMatch], Self.matches(asked, tag) || (json && Self.matches(asked, gzipTag)) {
            return Response(status: .notModified, headers: headers)
        }
        if gzipped {
            guard let whole = bytes ?? Self.readAll(file.descriptor, size: file.size), let body = Gzip.compress(whole) else {
                return Self.plain(.notFound, "not found\n")
            }
            headers[.contentEncoding] = "gzip"
            headers[.contentLength] = String(body.count)
            if request.method == .head { return Response(status: .ok, headers: headers, body: ResponseBody()) }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        // A Range with an If-Range naming another version gets the whole file.
        let rangeHeader = request.headers[.ifRange].map { $0 == tag } == false ? nil : request.headers[.range]
        var status = HTTPResponse.Status.ok
        var range = 0..<file.size
        switch RangeRequest(header: rangeHeader, size: file.size) {
        case .whole:
            break
        case .partial(let first, let last):
            status = .partialContent
            headers[.contentRange] = "bytes \(first)-\(last)/\(file.size)"
            range = first..<(last + 1)
        case .unsatisfiable:
            return Self.plain(.rangeNotSatisfiable, "range not satisfiable\n", extra: [.contentRange: "bytes */\(file.size)"])
        }
        headers[.contentLength] = String(range.count)
        if request.method == .head { return Response(status: status, headers: headers, body: ResponseBody()) }
        if range.count <= Self.chunk {
            var part = [UInt8](repeating: 0, count: range.count)
            if let whole = bytes {
                part = Array(whole[range])
            } else if !Self.read(file.descriptor, into: &part, at: range.lowerBound) {
                return Self.plain(.notFound, "not found\n")
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: part)))
        }
        // Larger: streamed a chunk at a time from the same version of the file (opened again
        // when the body is written, and checked to be the version tagged), so a reader of a
        // 200 MB catalog costs the server one chunk, not the file.
        let path = directory + "/" + name
        let (identity, sent) = (file.identity, range)
        return Response(status: status, headers: headers, body: ResponseBody(contentLength: sent.count) { writer in
            let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { throw FileChanged() }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, EntityTags.identity(of: status) == identity else { throw FileChanged() }
            var offset = sent.lowerBound
            var buffer = [UInt8](repeating: 0, count: Self.chunk)
            while offset < sent.upperBound {
                let count = min(Self.chunk, sent.upperBound - offset)
                if buffer.count != count { buffer = [UInt8](repeating: 0, count: count) }
                guard Self.read(descriptor, into: &buffer, at: offset) else { throw FileChanged() }
                try await writer.write(ByteBuffer(bytes: buffer))
                offset += count
            }
            try await writer.finish(nil)
        })
    }

    /// A file replaced or cut short while it was being sent: the connection is closed short of
    /// its Content-Length, which a client sees as an incomplete answer (never as other bytes).
    struct FileChanged: Error {}

    /// Files up to this size are answered from one read; larger ones are hashed and sent in
    /// chunks of it.
    static let chunk = 256 * 1024

    /// SHA-256 (hex) of an open file's `size` bytes, read a chunk at a time.
    static func hexDigest(_ descriptor: Int32, size: Int) -> String? {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: chunk)
        var offset = 0
        while offset < size {
            let count = min(chunk, size - offset)
            if buffer.count != count { buffer = [UInt8](repeating: 0, count: count) }
            guard read(descriptor, into: &buffer, at: offset) else { return nil }
            hasher.update(buffer)
            offset += count
        }
        return SHA256.hex(hasher.finalize())
    }

    /// Fills `buffer` from `offset` of an open file; false when it cannot be read whole.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// A regular file directly in the directory, open, with its identity and size; nil for
    /// anything else (absent, a link, a directory, a device, unreadable). The caller closes it.
    func open(_ name: String) -> (descriptor: Int32, identity: EntityTags.Identity, size: Int)? {
        let descriptor = Glibc.open(directory + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return (descriptor, EntityTags.identity(of: status), Int(status.st_size))
    }

    /// The file's identity alone (a `stat`, no read): whether it changed since it was last read.
    func identity(_ name: String) -> EntityTags.Identity? {
        var status = stat()
        guard lstat(directory + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return EntityTags.identity(of: status)
    }

    /// The file read whole, with its identity; nil for anything ``open(_:)`` refuses.
    func read(_ name: String) -> (bytes: [UInt8], identity: EntityTags.Identity)? {
        guard let file = open(name) else { return nil }
        defer { close(file.descriptor) }
        return Self.readAll(file.descriptor, size: file.size).map { ($0, file.identity) }
    }

    /// `size` bytes from the start of an open file; nil when it cannot be read whole.
    static func readAll(_ descriptor: Int32, size: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        return read(descriptor, into: &bytes, at: 0) ? bytes : nil
    }

    /// `If-None-Match`: `*`, or a list of tags one of which is this one (weak comparison, RFC 9110 §13.1.2).
    static func matches(_ header: String, _ tag: String) -> Bool {
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { candidate in
            var trimmed = candidate.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("W/") { trimmed.removeFirst(2) }
            return trimmed == tag
        }
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
