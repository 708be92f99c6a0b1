import Foundation

/// A feed's change as RFC 6902 JSON Patch operations against the feed's JSON view, from the
/// delta the publisher already wrote (client contract, "Deltas"): the view is
/// `{"items": {"<id>": {"<column>": value, …}}}` with every published column of `items` but
/// `id`, so a patch path is `/items/<id>` (the id escaped as a JSON Pointer, RFC 6901). A
/// removed row is `remove`, an inserted or changed row `add` with the whole row (`add` on a
/// member that exists replaces it). Applied to a SQLite copy it is the delta's `DELETE` and
/// `INSERT OR REPLACE`, so the client checks the result against the same content digest.
enum ItemPatch {
    enum Problem: Error, Equatable { case unreadable(String) }

    /// The operations, and the delta's header the event repeats.
    struct Made {
        var operations: [[String: Any]]
        var fromVersion: Int
        var toVersion: Int
        var toContentDigest: String?
    }

    static func make(fromDelta data: [UInt8], feedID: Int64) throws(Problem) -> Made {
        guard let document = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any] else {
            throw .unreadable("not a JSON object")
        }
        guard document["format"] as? String == "feedmill-delta", document["format_version"] as? Int == 1 else {
            throw .unreadable("not a feedmill-delta of format version 1")
        }
        guard (document["feedid"] as? NSNumber)?.int64Value == feedID else { throw .unreadable("the delta is of another feed") }
        guard let columns = document["columns"] as? [String], columns.first == "id",
            let upserts = document["upserts"] as? [[Any]], let deletes = document["deletes"] as? [String],
            let from = document["from_version"] as? Int, let to = document["to_version"] as? Int
        else { throw .unreadable("columns, upserts, deletes or versions missing") }
        var operations: [[String: Any]] = deletes.map { ["op": "remove", "path": "/items/" + pointerToken($0)] }
        for row in upserts {
            guard row.count == columns.count, let id = row.first as? String else { throw .unreadable("a row does not match the columns") }
            var value: [String: Any] = [:]
            for (column, cell) in zip(columns.dropFirst(), row.dropFirst()) { value[column] = cell }
            operations.append(["op": "add", "path": "/items/" + pointerToken(id), "value": value])
        }
        return Made(operations: operations, fromVersion: from, toVersion: to, toContentDigest: document["to_content_digest"] as? String)
    }

    /// A JSON Pointer reference token (RFC 6901 §4): `~` as `~0`, `/` as `~1`.
    static func pointerToken(_ id: String) -> String {
        id.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
