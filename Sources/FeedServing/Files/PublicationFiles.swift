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
        guard let name = PublishedFileName.from(path: request.uri.path), let file = read(name) else {
            return Self.plain(.notFound, "not found\n")
        }
        let tag = tags.tag(for: file.identity) { file.bytes }
        var headers: HTTPFields = [
            .contentType: PublishedHeaders.contentType(of: name), .cacheControl: PublishedHeaders.cacheControl(of: name),
            .eTag: tag, .acceptRanges: "bytes",
        ]
        if let asked = request.headers[.ifNoneMatch], Self.matches(asked, tag) {
            return Response(status: .notModified, headers: headers)
        }
        // A Range with an If-Range naming another version gets the whole file.
        let rangeHeader = request.headers[.ifRange].map { $0 == tag } == false ? nil : request.headers[.range]
        let body: ArraySlice<UInt8>
        var status = HTTPResponse.Status.ok
        switch RangeRequest(header: rangeHeader, size: file.bytes.count) {
        case .whole:
            body = file.bytes[...]
        case .partial(let first, let last):
            status = .partialContent
            headers[.contentRange] = "bytes \(first)-\(last)/\(file.bytes.count)"
            body = file.bytes[first...last]
        case .unsatisfiable:
            return Self.plain(.rangeNotSatisfiable, "range not satisfiable\n", extra: [.contentRange: "bytes */\(file.bytes.count)"])
        }
        headers[.contentLength] = String(body.count)
        if request.method == .head { return Response(status: status, headers: headers, body: ResponseBody()) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A regular file directly in the directory, read whole with its identity; nil for anything
    /// else (absent, a link, a directory, a device, unreadable).
    func read(_ name: String) -> (bytes: [UInt8], identity: EntityTags.Identity)? {
        let descriptor = open(directory + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            offset += count
        }
        return (bytes, EntityTags.identity(of: status))
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
