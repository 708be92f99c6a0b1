@testable import FeedBasics
import Foundation
import Testing

@Suite("named character references: the WHATWG table")
struct NamedEntitiesTests {
    func match(_ text: String) -> NamedEntities.Match? {
        Array(text.utf8).withUnsafeBufferPointer { NamedEntities.longestMatch(in: $0) }
    }

    func scalar(_ name: String) -> UInt32? {
        Array(name.utf8).withUnsafeBufferPointer { NamedEntities.scalar(for: $0) }
    }

    @Test func theTableHasEveryNameOfTheStandard() {
        let names = NamedEntities.allNames
        #expect(names.count == 2_125, "2,231 names counting the legacy forms")
        #expect(names.filter(\.isLegacy).count == 106)
        #expect(names.count + names.filter(\.isLegacy).count == 2_231)
        #expect(names.filter { $0.second != nil }.count == 93)
    }

    @Test func theCommittedTableIsWhatTheGeneratorWrites() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent("Scripts/generate-entities").path, "--check"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func everyNameIsFoundAndNoPrefixOfAnUnknownOneIs() {
        for entry in NamedEntities.allNames {
            #expect(match(entry.name + ";") == .init(length: entry.name.utf8.count + 1, hasSemicolon: true, first: entry.first, second: entry.second))
            if entry.isLegacy {
                #expect(match(entry.name + " ")?.hasSemicolon == false, "\(entry.name)")
            }
        }
        #expect(match("check") == nil)
        #expect(match("zzzz;") == nil)
        #expect(match("") == nil)
        #expect(match(";") == nil)
        #expect(match(String(repeating: "a", count: 200)) == nil)
    }

    @Test("the longest legacy name a run begins with", arguments: [
        ("copyright;", 4, 0xA9), ("notin", 3, 0xAC), ("notin;", 6, 0x2209), ("ampx", 3, 0x26), ("frac12x", 6, 0xBD), ("lt3", 2, 0x3C),
    ])
    func legacy(text: String, length: Int, value: UInt32) {
        #expect(match(text)?.length == length)
        #expect(match(text)?.first == value)
    }

    @Test func xmlRepairFindsSingleScalarNamesOnly() {
        #expect(scalar("amp") == 38)
        #expect(scalar("apos") == 39)
        #expect(scalar("hellip") == 0x2026)
        #expect(scalar("check") == 0x2713)
        #expect(scalar("NotEqualTilde") == nil)
        #expect(scalar("Amp") == nil)
        #expect(scalar("") == nil)
    }
}
