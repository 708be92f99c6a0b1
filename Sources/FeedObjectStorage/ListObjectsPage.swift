/// One page of a ListObjectsV2 answer (`ListBucketResult`).
struct ListObjectsPage {
    var objects: [StoredObjectInfo]
    var isTruncated: Bool
    var nextContinuationToken: String?

    init(xml: [UInt8]) throws(ObjectStorageError) {
        let document = Substring(String(decoding: xml, as: UTF8.self))
        guard document.contains("<ListBucketResult") else {
            throw .malformedResponse("a listing that is not a ListBucketResult: \(document.prefix(120))")
        }
        var objects: [StoredObjectInfo] = []
        for contents in S3XML.elements("Contents", in: document) {
            guard let key = S3XML.text(of: "Key", in: contents) else { throw .malformedResponse("a listed object without a key") }
            let etag = S3XML.text(of: "ETag", in: contents) ?? ""
            let size = S3XML.text(of: "Size", in: contents).flatMap { Int($0) } ?? 0
            objects.append(StoredObjectInfo(key: key, etag: etag, size: size))
        }
        self.objects = objects
        isTruncated = S3XML.text(of: "IsTruncated", in: document) == "true"
        nextContinuationToken = isTruncated ? S3XML.text(of: "NextContinuationToken", in: document) : nil
    }
}
