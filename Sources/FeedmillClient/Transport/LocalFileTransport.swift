import Foundation

/// `file:` URLs for every transport: a publication on a mounted volume, or in tests.
enum LocalFileTransport {
    /// A file on a mounted volume, with an ETag of its size, modification time and inode (as
    /// static web servers make them): a file replaced by rename gets another. A file larger
    /// than the request's cap is not read.
    static func read(_ request: TransportRequest) throws -> TransportResponse {
        guard request.method == "GET" else { throw ClientError.transport(url: request.url, reason: "a file URL is only read (not \(request.method))") }
        let path = request.url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return TransportResponse(status: 404, body: Data()) }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        let etag = "\"\(String(size, radix: 16))-\(String(Int64(modified * 1_000_000), radix: 16))-\(String(inode, radix: 16))\""
        if request.ifNoneMatch == etag { return TransportResponse(status: 304, body: Data(), etag: etag) }
        if let limit = request.maxBytes, size > Int64(limit) { throw ClientError.tooLarge(url: request.url, limit: limit) }
        return TransportResponse(status: 200, body: try Data(contentsOf: request.url), etag: etag)
    }
}
