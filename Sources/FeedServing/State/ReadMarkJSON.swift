import Foundation

/// The JSON of `/v1/state` (client contract, "Reading state"): a POST carries
/// `{"marks": [{"feedid", "id", "read"?, "starred"?, "at"}]}`; a GET answers the marks in the
/// same shape, each field with the time it was set, and a cursor.
enum ReadMarkJSON {
    /// Why a body was refused, said to the client (400).
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private struct Body: Decodable {
        var marks: [Mark]
    }

    private struct Mark: Decodable {
        var feedid: Int64
        var id: String
        var read: Bool?
        var starred: Bool?
        var at: Int64
    }

    /// The marks of a POST body; at most `limit`. A time ahead of `now` is taken as `now`: a
    /// device whose clock runs ahead cannot set a mark no later change may undo.
    static func marks(from body: [UInt8], limit: Int, now: Int64) throws(Invalid) -> [ReadMark] {
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Body.self, from: Data(body))
        } catch let error as DecodingError {
            throw Invalid(description: describe(error, body: body))
        } catch {
            throw Invalid(description: "the body is not JSON")
        }
        guard decoded.marks.count <= limit else { throw Invalid(description: "more than \(limit) marks in one request") }
        return try decoded.marks.enumerated().map { (index, mark) throws(Invalid) -> ReadMark in
            guard mark.feedid > 0 else { throw Invalid(description: "marks[\(index)].feedid: a positive integer") }
            guard !mark.id.isEmpty, mark.id.utf8.count <= ReadMark.itemIDLimit else {
                throw Invalid(description: "marks[\(index)].id: an item id (1 to \(ReadMark.itemIDLimit) bytes)")
            }
            guard mark.at >= 0 else { throw Invalid(description: "marks[\(index)].at: unix seconds") }
            guard mark.read != nil || mark.starred != nil else { throw Invalid(description: "marks[\(index)]: neither read nor starred") }
            return ReadMark(feedID: mark.feedid, itemID: mark.id, read: mark.read, starred: mark.starred, at: min(mark.at, now))
        }
    }

    /// A decoding error as a client can act on it: where, and what was expected.
    static func describe(_ error: DecodingError, body: [UInt8]) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let parts = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return parts.hasPrefix(".") ? String(parts.dropFirst()) : parts.isEmpty ? "the body" : parts
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context)): expected \(type == Bool.self ? "true or false" : type == Int64.self ? "a whole number" : "\(type)")"
        case .valueNotFound(_, let context): return "\(path(context)): missing"
        case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue): missing"
        case .dataCorrupted(let context):
            if !context.codingPath.isEmpty { return "\(path(context)): not valid" }
            // Foundation says "not valid JSON" of JSON with a fraction where a whole number is decoded.
            return (try? JSONSerialization.jsonObject(with: Data(body))) != nil
                ? "feedid and at are whole numbers (a number with a fraction or out of range was given)" : "the body is not JSON"
        @unknown default: return "the body is not valid"
        }
    }

    /// A GET's answer: the marks, the cursor to ask from next time, and whether more wait.
    static func answer(_ page: ReadingStateStore.Page) -> [UInt8] {
        let marks: [[String: Any]] = page.marks.map { mark in
            var fields: [String: Any] = ["feedid": mark.feedID, "id": mark.itemID, "at": max(mark.read?.at ?? 0, mark.starred?.at ?? 0)]
            if let read = mark.read {
                fields["read"] = read.value
                fields["read_at"] = read.at
            }
            if let starred = mark.starred {
                fields["starred"] = starred.value
                fields["starred_at"] = starred.at
            }
            return fields
        }
        let object: [String: Any] = ["marks": marks, "cursor": String(page.cursor), "more": page.more]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)) + [0x0A]
    }
}
