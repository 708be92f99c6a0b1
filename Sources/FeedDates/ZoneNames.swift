import FeedBasics

/// Zone abbreviations seen in feed dates, with their offsets east of UTC.
///
/// Ambiguous abbreviations (IST, BST as anything but British Summer Time) are left out
/// on purpose: a wrong offset is worse than a refused date.
enum ZoneNames {
    static func offsetSeconds(_ name: [UInt8]) -> Int? {
        let key = String(decoding: name.map(\.asciiLowercased), as: UTF8.self)
        guard let hours = table[key] else { return nil }
        return Int(hours * 3600)
    }

    private static let table: [String: Double] = {
        var table: [String: Double] = [
            "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0,
            "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
            "et": -5, "ct": -6, "mt": -7, "pt": -8,
            "ast": -4, "adt": -3, "akst": -9, "akdt": -8, "hst": -10, "nst": -3.5, "ndt": -2.5,
            "bst": 1, "west": 1, "cet": 1, "cest": 2, "met": 1, "mest": 2, "eet": 2, "eest": 3, "msk": 3,
            "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "awst": 8, "acst": 9.5, "aest": 10, "aedt": 11,
            "nzst": 12, "nzdt": 13,
        ]
        // RFC 822 military zones: A–I are −1…−9, K–M −10…−12, N–Y +1…+12 (J is unused).
        for (index, letter) in "abcdefghiklm".enumerated() { table[String(letter)] = -Double(index + 1) }
        for (index, letter) in "nopqrstuvwxy".enumerated() { table[String(letter)] = Double(index + 1) }
        return table
    }()
}
