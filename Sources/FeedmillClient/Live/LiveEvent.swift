import Foundation

/// An `rss-serve` event (docs/client-contract.md, "Live updates"; `schemas/event.schema.json`),
/// decoded: the feed's entry it leads to, and for a `patch` the operations from `from_version`.
struct LiveEvent: Sendable {
    enum Kind: String, Sendable {
        case entry, patch, resync
    }

    var kind: Kind
    /// The root's generation (the event's `id`).
    var generation: Int
    /// Nil for a connection-wide `resync` (the reader fell behind).
    var feedID: Int64?
    var toVersion: Int?
    var file: String?
    var sha256: String?
    var size: Int?
    var schemaVersion: Int?
    var shard: String?
    var contentDigest: String?
    var fromVersion: Int?
    var operations: [PatchOperation] = []
    var reason: String?

    enum Problem: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        var description: String {
            switch self {
            case .unreadable(let reason): reason
            }
        }
    }

    /// Nil for an event type this client does not know (a later server's: ignored, as the
    /// standard's `EventSource` ignores it).
    static func decode(_ event: ServerSentEvent) throws(Problem) -> LiveEvent? {
        guard let kind = Kind(rawValue: event.type) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any] else {
            throw .unreadable("the \(event.type) event's data is not a JSON object")
        }
        func integer(_ key: String) -> Int64? {
            guard let number = object[key] as? NSNumber, !number.isJSONBoolean else { return nil }
            let value = number.int64Value
            return NSNumber(value: value) == number ? value : nil
        }
        guard let generation = integer("generation"), generation >= 0, generation < Int64(Int32.max) * 1024 else {
            throw .unreadable("the \(event.type) event has no generation")
        }
        var live = LiveEvent(kind: kind, generation: Int(generation))
        live.reason = object["reason"] as? String
        guard let feedID = integer("feedid") else {
            guard kind == .resync else { throw .unreadable("the \(event.type) event has no feedid") }
            return live
        }
        guard feedID > 0 else { throw .unreadable("feedid \(feedID) is not a feed") }
        live.feedID = feedID
        live.toVersion = integer("to_version").map(Int.init)
        live.file = object["file"] as? String
        live.sha256 = object["sha256"] as? String
        live.size = integer("size").map(Int.init)
        live.schemaVersion = integer("schema_version").map(Int.init)
        live.shard = object["shard"] as? String
        live.contentDigest = object["content_digest"] as? String
        guard live.toVersion != nil, live.file != nil, live.sha256 != nil, live.size != nil, live.schemaVersion != nil else {
            throw .unreadable("the \(event.type) event for feed \(feedID) lacks to_version, file, sha256, size or schema_version")
        }
        if kind == .patch {
            guard let from = integer("from_version"), let operations = object["patch"] as? [Any] else {
                throw .unreadable("the patch for feed \(feedID) has no from_version or patch")
            }
            live.fromVersion = Int(from)
            live.operations = try operations.map { (operation) throws(Problem) in try PatchOperation(operation) }
        }
        return live
    }
}

/// One RFC 6902 operation of a feed's patch, as the contract allows them: `remove` or `add` of
/// a whole item at `/items/<id>`. Anything else is refused (the client falls back to the file).
enum PatchOperation: Sendable, Equatable {
    case remove(id: String)
    case add(id: String, row: [String: PatchValue])

    init(_ json: Any) throws(LiveEvent.Problem) {
        guard let object = json as? [String: Any], let op = object["op"] as? String, let path = object["path"] as? String else {
            throw .unreadable("a patch operation is not an object with op and path")
        }
        guard path.hasPrefix("/items/"), let id = Self.unescape(String(path.dropFirst("/items/".count))) else {
            throw .unreadable("the patch path \(path) is not /items/<id>")
        }
        switch op {
        case "remove":
            self = .remove(id: id)
        case "add":
            guard let value = object["value"] as? [String: Any] else { throw .unreadable("the add of item \(id) has no object value") }
            var row: [String: PatchValue] = [:]
            for (column, cell) in value {
                guard column != "id" else { throw .unreadable("the add of item \(id) sets its id column") }
                row[column] = try PatchValue(cell, item: id)
            }
            self = .add(id: id, row: row)
        default:
            throw .unreadable("the patch operation \(op) is not one the contract gives (add, remove)")
        }
    }

    /// An RFC 6901 reference token back to the id (`~1` is `/`, `~0` is `~`); nil when it is
    /// not a single token (a `/` left, a `~` not followed by 0 or 1).
    static func unescape(_ token: String) -> String? {
        guard !token.contains("/") else { return nil }
        var result = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: return nil
            }
        }
        return result
    }
}

/// A cell of a patched row: what a published column holds.
enum PatchValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(_ json: Any, item: String) throws(LiveEvent.Problem) {
        switch json {
        case is NSNull: self = .null
        case let text as String: self = .text(text)
        case let number as NSNumber where !number.isJSONBoolean:
            if NSNumber(value: number.int64Value) == number { self = .integer(number.int64Value) } else { self = .real(number.doubleValue) }
        default: throw .unreadable("item \(item) has a value that is not text, a number or null")
        }
    }

    var sqlite: SQLiteValue {
        switch self {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(Array(text.utf8))
        }
    }
}

extension NSNumber {
    /// `true`/`false` as JSONSerialization gives them (objCType `c` on every platform), which
    /// an integer field must not take for 1 and 0.
    var isJSONBoolean: Bool { String(cString: objCType) == "c" }
}
