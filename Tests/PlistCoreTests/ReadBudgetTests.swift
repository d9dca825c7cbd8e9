import PlistCore
import Testing

/// `ReadBudget`, the limits every reader checks its input with: the error kinds, the offsets
/// they carry, and sums that would overflow.
@Suite struct ReadBudgetTests {
    private let options = PlistReadOptions(maxDepth: 3, maxObjects: 10, maxContentBytes: 100)

    @Test func containersMayBeEnteredBelowTheDepthLimit() throws {
        let budget = ReadBudget(options)
        try budget.enter(depth: 2, at: 0)
        let error = try #require(throws: PlistError.self) { try budget.enter(depth: 3, at: 42) }
        #expect(error == PlistError(.tooDeep(limit: 3), at: 42))
    }

    @Test func countsValuesAndContentUpToTheLimits() throws {
        var budget = ReadBudget(options)
        try budget.count(objects: 10, at: 0)
        try budget.count(contentBytes: 100, at: 0)
        #expect(budget.counted == ReadBudget.Weight(objects: 10, contentBytes: 100))
        #expect(throws: PlistError(.tooManyObjects(limit: 10), at: 7)) { try budget.count(objects: 1, at: 7) }
        #expect(throws: PlistError(.tooMuchContent(limit: 100), at: 8)) { try budget.count(contentBytes: 1, at: 8) }
        budget.restart()
        #expect(budget.counted == ReadBudget.Weight())
    }

    @Test func aValueCountsOneAndItsContent() throws {
        var budget = ReadBudget(options)
        try budget.countValue(contentBytes: 100, at: 0)
        #expect(budget.counted == ReadBudget.Weight(objects: 1, contentBytes: 100))
        #expect(throws: PlistError(.tooMuchContent(limit: 100), at: 3)) {
            try budget.countValue(contentBytes: 1, at: 3)
        }
    }

    @Test func sumsThatOverflowAreRefused() throws {
        var budget = ReadBudget(PlistReadOptions(maxObjects: .max, maxContentBytes: .max))
        try budget.count(objects: .max, at: 0)
        #expect(throws: PlistError(.tooManyObjects(limit: .max), at: 1)) { try budget.count(objects: 1, at: 1) }
        var total = ReadBudget.Weight(objects: 1, contentBytes: .max)
        #expect(throws: PlistError(.tooMuchContent(limit: .max), at: 2)) {
            try budget.add(ReadBudget.Weight(objects: 1, contentBytes: 1), to: &total, at: 2)
        }
    }

    @Test func weightsAddValuesFirstAndLeaveTheTotalWhenRefused() throws {
        let budget = ReadBudget(options)
        var total = ReadBudget.Weight(objects: 1)
        try budget.add(ReadBudget.Weight(objects: 4, contentBytes: 60), to: &total, at: 0)
        try budget.add(contentBytes: 40, to: &total, at: 0)
        #expect(total == ReadBudget.Weight(objects: 5, contentBytes: 100))
        // Both limits passed: the values are reported.
        #expect(throws: PlistError(.tooManyObjects(limit: 10), at: 5)) {
            try budget.add(ReadBudget.Weight(objects: 6, contentBytes: 1), to: &total, at: 5)
        }
        #expect(throws: PlistError(.tooMuchContent(limit: 100), at: 6)) {
            try budget.add(contentBytes: 1, to: &total, at: 6)
        }
        #expect(total == ReadBudget.Weight(objects: 5, contentBytes: 100))
    }
}
