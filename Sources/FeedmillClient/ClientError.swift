import Foundation

/// Why a sync, or one file of it, did not happen. Each case prints one line a person
/// understands (`description`); an app shows it or logs it, and retries later: the files
/// already in the folder are kept whatever went wrong.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request could not be made or did not finish (no network, refused, reset).
    case transport(url: URL, reason: String)
    /// The answer was larger than the client accepts for it (an object's stated size, or the
    /// fixed caps on the root, a pointer and a catalog page): stopped there, not used.
    case tooLarge(url: URL, limit: Int)
    /// The request did not end within its deadline (a stalled or dripping server).
    case deadline(url: URL, seconds: Double)
    /// The task that made the request was cancelled.
    case cancelled(url: URL)
    /// A root or pointer whose signature is missing, by a key not trusted, or wrong, while the
    /// client pins keys (``PublicationSync/trustedKeys``): refused, the files held kept.
    case unverified(file: String, reason: String)
    /// A pointer whose usable entry is of an older generation of its shard than the one the
    /// client already applied to the feed's file: a stale copy (a CDN edge) or a replay (an
    /// old pointer, even validly signed). The file held is kept; a later sync tries again.
    case stalePointer(file: String, shard: String, generation: Int, applied: Int)
    /// The server answered with a status other than 200.
    case httpStatus(url: URL, status: Int)
    case manifestUnreadable(url: URL, reason: String)
    /// A manifest format or version this client would misread: update the client.
    case unsupportedFormat(url: URL, format: String, version: Int?)
    /// A database of a schema version this client does not know (newer than it reads).
    case unsupportedSchema(file: String, schemaVersion: Int, known: ClosedRange<Int>)
    /// A database of a lower schema version than the file held: a publisher only raises it
    /// (migrations add, never remove), so this is a replay or a broken server. The file held is kept.
    case schemaWentBack(file: String, schemaVersion: Int, held: Int)
    /// A name in the manifest that is not a plain file name (no folders, no hidden files).
    case unsafeName(String)
    /// A name in the manifest other than the one the contract gives that database
    /// (`all_feeds.sqlite`, `feed_<feedid>.sqlite`): an app opens a feed's file by that name,
    /// so another would put one feed's items where the app reads another's.
    case misnamed(name: String, expected: String)
    /// The downloaded bytes are not the published file (cut short, changed on the way).
    case sizeMismatch(file: String, expected: Int, received: Int)
    case sha256Mismatch(file: String, expected: String, received: String)
    /// The database's rows are not the version the manifest names.
    case contentDigestMismatch(file: String, expected: String, found: String)
    case unusableDelta(file: String, reason: String)
    /// A feed pointer (`feed_<id>.json`) whose `feedid` is not the feed its name is for: it
    /// would give one feed's items to another.
    case wrongFeed(pointer: String, feedID: Int64, expected: Int64)
    /// An entry of a pointer or root that lacks what format 2 requires of it.
    case unusableEntry(file: String, reason: String)
    case database(path: String, message: String)
    /// The local folder or a file in it could not be read or written.
    case folder(path: String, reason: String)
    /// A file the client did not write is where it would write one: left alone, not synced.
    case foreignFile(path: String)
    /// Another sync holds the folder.
    case busy(path: String)
    case stateUnreadable(path: String, reason: String)
    /// The reading-state server did not take the token (401): a wrong or revoked one.
    case unauthorized(url: URL)
    /// The reading-state server asks to wait (429, or 503 while it cannot store marks).
    case retryLater(url: URL, status: Int, seconds: Int?)
    /// The reading-state server's answer is not what the contract gives.
    case unreadableAnswer(url: URL, reason: String)

    public var description: String {
        switch self {
        case .transport(let url, let reason): "\(url.absoluteString): \(reason)"
        case .tooLarge(let url, let limit): "\(url.absoluteString): the answer is larger than \(limit) bytes, the most expected of it: stopped, not used"
        case .deadline(let url, let seconds):
            "\(url.absoluteString): no complete answer within \(seconds.formatted(.number.grouping(.never))) s (the whole request's time limit): stopped"
        case .cancelled(let url): "\(url.absoluteString): cancelled"
        case .unverified(let file, let reason): "\(file): \(reason): refused, the files held are kept"
        case .schemaWentBack(let file, let schemaVersion, let held):
            "\(file) has schema version \(schemaVersion), lower than the \(held) of the file held; a publisher only raises it "
                + "(a replay or a broken server): the local copy is kept"
        case .stalePointer(let file, let shard, let generation, let applied):
            "\(file): its entry is of generation \(generation) of shard \(shard), older than generation \(applied) already applied "
                + "(a stale copy or a replay): the file held is kept"
        case .httpStatus(let url, let status): "\(url.absoluteString): the server answered HTTP \(status)"
        case .manifestUnreadable(let url, let reason): "\(url.absoluteString) is not a usable manifest: \(reason)"
        case .unsupportedFormat(let url, let format, let version):
            "\(url.absoluteString) is \(format) format version \(version.map(String.init) ?? "(none)"), which this client does not read "
                + "(it reads \(PublicationManifest.knownFormat) \(PublicationManifest.knownFormatVersions.lowerBound)..."
                + "\(PublicationManifest.knownFormatVersions.upperBound) and \(FeedPointer.knownFormat) \(FeedPointer.knownFormatVersions.upperBound)); "
                + "the local files are kept: update the client"
        case .unsupportedSchema(let file, let schemaVersion, let known):
            "\(file) has schema version \(schemaVersion); this client reads \(known.lowerBound)...\(known.upperBound): the local copy is kept"
        case .unsafeName(let name): "the manifest names \"\(name)\", which is not a plain file name: not downloaded"
        case .misnamed(let name, let expected): "the publication names \"\(name)\" where the contract names \"\(expected)\": not downloaded"
        case .sizeMismatch(let file, let expected, let received):
            "\(file): received \(received) bytes, the manifest says \(expected) (cut short or changed): not used"
        case .sha256Mismatch(let file, let expected, let received):
            "\(file): SHA-256 \(received), the manifest says \(expected): not used"
        case .contentDigestMismatch(let file, let expected, let found):
            "\(file): content digest \(found), the manifest says \(expected)"
        case .unusableDelta(let file, let reason): "delta \(file) cannot be applied: \(reason)"
        case .wrongFeed(let pointer, let feedID, let expected):
            "\(pointer) is the pointer of feed \(feedID), not of feed \(expected): refused, the local file kept"
        case .unusableEntry(let file, let reason): "\(file) cannot be used: \(reason)"
        case .database(let path, let message): "\(path): \(message)"
        case .folder(let path, let reason): "\(path): \(reason)"
        case .foreignFile(let path): "\(path) was not written by this client: left alone, not synced"
        case .unauthorized(let url): "\(url.absoluteString): the token was refused (401): check it, or ask for a new one"
        case .retryLater(let url, let status, let seconds):
            "\(url.absoluteString): the server answered HTTP \(status): try again \(seconds.map { "in \($0) s" } ?? "later") (the marks are kept)"
        case .unreadableAnswer(let url, let reason): "\(url.absoluteString): \(reason)"
        case .busy(let path): "another sync is writing into \(path); try again when it is done"
        case .stateUnreadable(let path, let reason):
            "\(path) cannot be read (\(reason)); remove it to start over (the files it lists are then downloaded again)"
        }
    }

    /// A decoding error as one line: the path to the field and what was wrong.
    static func describe(decoding error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(key.stringValue)\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(context.debugDescription)\(path(context))"
        case .dataCorrupted(let context): return "not JSON: \(context.debugDescription)\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
