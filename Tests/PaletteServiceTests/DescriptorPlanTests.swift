@testable import MicroHTTPD
import Testing

/// What the server asks of `RLIMIT_NOFILE` for its connection limit (eviction at capacity needs a
/// descriptor to accept the newcomer with), and what it serves when the limit is lower.
@Suite struct DescriptorPlanTests {
    @Test func aSoftLimitBelowWhatTheConnectionsNeedIsRaised() {
        // systemd's and most shells' soft limit, under a generous hard one.
        let plan = DescriptorPlan.plan(connectionLimit: 1024, threads: 2, soft: 1024, hard: 524_288)
        #expect(plan.connectionLimit == 1024)
        #expect(plan.descriptors == DescriptorPlan.needed(connections: 1024, threads: 2))
        #expect(plan.descriptors > DescriptorPlan.hardLimit(for: 1024) + DescriptorPlan.lingering)
        #expect(plan.lingeringSockets == DescriptorPlan.lingering)
    }

    @Test func aSoftLimitThatIsEnoughIsLeftAlone() {
        let plan = DescriptorPlan.plan(connectionLimit: 1024, threads: 2, soft: 20_000, hard: 20_000)
        #expect(plan == DescriptorPlan(connectionLimit: 1024, lingeringSockets: DescriptorPlan.lingering, descriptors: 20_000))
    }

    @Test(arguments: [256, 512, 1024, 4096])
    func aHardLimitTooLowLowersTheConnectionLimitToWhatFits(hard: Int) {
        let plan = DescriptorPlan.plan(connectionLimit: 100_000, threads: 4, soft: hard, hard: hard)
        #expect(plan.descriptors == hard)
        #expect(plan.connectionLimit >= 1 && plan.connectionLimit < hard)
        // Everything the server may hold at once fits: the counted connections and their margin,
        // evicted ones not yet closed, lingering closes and the server's own descriptors.
        let held = DescriptorPlan.hardLimit(for: plan.connectionLimit) + DescriptorPlan.evictionSlack
            + plan.lingeringSockets + DescriptorPlan.reserve(threads: 4)
        #expect(held <= hard)
        // And it is the most that fits: one more connection would not.
        let more = DescriptorPlan.hardLimit(for: plan.connectionLimit + 1) + DescriptorPlan.evictionSlack
            + plan.lingeringSockets + DescriptorPlan.reserve(threads: 4)
        #expect(more > hard)
    }

    @Test func anUnlimitedHardLimitHoldsAnyLimit() {
        let plan = DescriptorPlan.plan(connectionLimit: 50_000, threads: 8, soft: 1024, hard: Int.max)
        #expect(plan.connectionLimit == 50_000)
        #expect(plan.descriptors == DescriptorPlan.needed(connections: 50_000, threads: 8))
    }
}
