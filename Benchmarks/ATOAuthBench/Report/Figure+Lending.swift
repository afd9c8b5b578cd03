extension Figure {
    /// What a scoped named token and the audit log cost the gateway.
    static func gatewayLending(_ result: GatewayLending.Result) -> [Figure] {
        let section = "atoauth gateway lending less: named tokens and the audit log (lean keep-alive caller)"
        return [
            Figure(
                section: section,
                name: "Requests per second with a scoped named token ÷ with the start-up token, "
                    + "\(result.callers) callers",
                measured: "\(Format.count(result.named))/s vs \(Format.count(result.startup))/s",
                ratio: result.startup > 0 ? result.named / result.startup : nil,
                goal: .atLeast(0.95)
            ),
            Figure(
                section: section,
                name: "Requests per second with --audit-log ÷ without, \(result.callers) callers",
                measured: "\(Format.count(result.audited))/s vs \(Format.count(result.startup))/s",
                ratio: result.startup > 0 ? result.audited / result.startup : nil,
                goal: .atLeast(0.9)
            ),
        ]
    }
}
