import FeedBasics
import Testing

@Suite struct ShardTests {
    @Test func parsesKOfN() throws {
        let shard = try Shard(parsing: "3/4")
        #expect(shard.index == 3 && shard.count == 4)
        #expect(shard.label == "3/4" && shard.fileLabel == "3of4")
        #expect(Shard.all.label == "1/1" && Shard.all.isAll)
    }

    @Test(arguments: ["", "3", "3/", "/4", "0/4", "5/4", "-1/4", "1/0", "1/1025", "a/b", "1/4/2", "+1/4", "１/4"])
    func refusesWhatIsNotAShard(_ text: String) {
        #expect(throws: ShardError.self) { try Shard(parsing: text) }
    }

    @Test func errorsSayHowToWriteIt() {
        #expect("\(ShardError.malformed("x"))".contains("K/N"))
        #expect("\(ShardError.badIndex(5, count: 4))".contains("1 to 4"))
    }

    /// The assignment must be the same on every machine and in every release: these values
    /// were computed outside Swift (FNV-1a 64 in Python), so a change of hash fails here.
    @Test func assignmentIsFNV1aOfTheHost() {
        #expect(ShardAssignment.shardIndex(ofHost: "example.com", count: 4) == 3)
        #expect(ShardAssignment.shardIndex(ofHost: "example.com", count: 7) == 2)
        #expect(ShardAssignment.shardIndex(ofHost: "feeds.bbci.co.uk", count: 7) == 6)
        #expect(ShardAssignment.shardIndex(ofHost: "a", count: 4) == 1)
        #expect(ShardAssignment.shardIndex(ofHost: "a", count: 7) == 6)
    }

    @Test func hostCaseAndTrailingDotDoNotMoveAFeed() {
        for count in [2, 3, 7, 64] {
            let index = ShardAssignment.shardIndex(ofHost: "example.com", count: count)
            #expect(ShardAssignment.shardIndex(ofHost: "EXAMPLE.com.", count: count) == index)
        }
        #expect(ShardAssignment.shardIndex(ofHost: nil, count: 5) == 1)
        #expect(ShardAssignment.shardIndex(ofHost: "", count: 5) == 1)
    }

    @Test func everyShardOwnsSomeOfManyHosts() throws {
        let hosts = (0..<400).map { "host\($0).example" }
        for count in [2, 4, 8] {
            let owners = Set(hosts.map { ShardAssignment.shardIndex(ofHost: $0, count: count) })
            #expect(owners == Set(1...count))
            let shard = try Shard(index: 2, count: count)
            #expect(hosts.filter { shard.owns(host: $0) }.count == hosts.filter { ShardAssignment.shardIndex(ofHost: $0, count: count) == 2 }.count)
        }
    }
}
