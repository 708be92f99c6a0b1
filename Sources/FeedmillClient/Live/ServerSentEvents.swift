/// One Server-Sent Event as the HTML standard's parser gives it: its type (`message` when the
/// stream named none), its data lines joined by "\n", and the last `id:` seen.
public struct ServerSentEvent: Sendable, Equatable {
    public var type: String
    public var data: String
    public var id: String?

    public init(type: String, data: String, id: String?) {
        self.type = type
        self.data = data
        self.id = id
    }
}

/// Bytes in, events out (WHATWG HTML §9.2.6, "Interpreting an event stream"): lines end with
/// CRLF, LF or CR, a line starting with ":" is a comment, a blank line dispatches the event.
/// Held to `maximumEventBytes`: a server that never ends a line cannot fill the device's memory.
struct ServerSentEventParser {
    enum Problem: Error, Equatable { case eventTooLarge(Int) }

    static let maximumEventBytes = 8 << 20

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var type = ""
    /// The last event id: kept across events, as the standard says.
    private(set) var lastID: String?
    /// The server's `retry:` in milliseconds, when it gave one.
    private(set) var retry: Int?
    private var afterCR = false
    private var bytesInEvent = 0

    /// Feeds a chunk; returns the events it completed.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(Problem) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 10 { continue }
            }
            switch byte {
            case 13:
                afterCR = true
                if let event = endLine() { events.append(event) }
            case 10:
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
                bytesInEvent += 1
                if bytesInEvent > Self.maximumEventBytes { throw .eventTooLarge(Self.maximumEventBytes) }
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let field: [UInt8]
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = Array(line[..<colon])
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event": type = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(10) }
            data.append(contentsOf: value)
            hasData = true
        case "id" where !value.contains(0): lastID = String(decoding: value, as: UTF8.self)
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), value.count < 10 {
                retry = Int(String(decoding: value, as: UTF8.self))
            }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type = ""
            bytesInEvent = 0
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self), id: lastID)
    }
}
