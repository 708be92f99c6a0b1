import Foundation

/// What a `Range` header asks of a file of `size` bytes (RFC 9110 §14): one range of bytes,
/// the whole file (no header, a header this server does not serve partially: several ranges,
/// another unit, bad syntax, which RFC 9110 says to ignore), or nothing it can give (416).
enum RangeRequest: Equatable {
    case whole
    /// First and last byte offsets, inclusive.
    case partial(first: Int, last: Int)
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .whole
            return
        }
        let digits = { (text: Substring) in !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        if parts[0].isEmpty {
            // The last N bytes.
            guard digits(parts[1]), let suffix = Int(parts[1]) else {
                self = .whole
                return
            }
            guard suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(first: max(0, size - suffix), last: size - 1)
            return
        }
        guard digits(parts[0]), let first = Int(parts[0]) else {
            self = .whole
            return
        }
        var last = size - 1
        if !parts[1].isEmpty {
            guard digits(parts[1]), let end = Int(parts[1]), end >= first else {
                self = .whole
                return
            }
            last = min(end, size - 1)
        }
        self = first < size ? .partial(first: first, last: last) : .unsatisfiable
    }
}
