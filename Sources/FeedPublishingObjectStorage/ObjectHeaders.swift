import FeedObjectStorage
import FeedPublishing

/// What each name of a publication is uploaded with: ``PublishedHeaders``' rules, as the
/// object store's put options.
enum ObjectHeaders {
    static func options(for name: String, condition: WriteCondition = .none) -> PutOptions {
        PutOptions(contentType: PublishedHeaders.contentType(of: name), cacheControl: PublishedHeaders.cacheControl(of: name), condition: condition)
    }
}
