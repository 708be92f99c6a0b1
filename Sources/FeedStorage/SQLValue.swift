import GRDB

/// One SQLite value, without GRDB: what a published row holds, and what a delta carries in
/// JSON (`null`, an integer, a real, or a string).
public enum SQLValue: Codable, Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let real): self = .real(real)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .text(data.base64EncodedString())
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let real = try? container.decode(Double.self) {
            self = .real(real)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let integer): try container.encode(integer)
        case .real(let real): try container.encode(real)
        case .text(let text): try container.encode(text)
        }
    }
}
