/// The rows of the shared-store scenario.
extension Figure {
    /// The PostgreSQL store beside the file store, and how both grow with instances and accounts.
    static func sharedStores(_ result: SharedStores.Result) -> [Figure] {
        let section =
            "Shared store: PostgreSQL beside the encrypted files (wall time; strict sandbox in this process; "
            + "instances = stores with their own managers)"
        var rows: [Figure] = []
        for setup in result.setups {
            let label = describe(setup)
            rows.append(
                Figure(
                    section: section,
                    name: "Call on a fresh token, \(label): PostgreSQL ÷ files",
                    measured: "\(Format.duration(result.median(.postgres, setup, \.perCall))) vs "
                        + "\(Format.duration(result.median(.files, setup, \.perCall))) per call (medians)",
                    ratio: result.ratio((.postgres, setup), over: (.files, setup), \.perCall),
                    goal: nil
                )
            )
            let refreshes = (result.samples[.postgres]?[setup] ?? []).map(\.refreshes)
            rows.append(
                Figure(
                    section: section,
                    name: "Refresh storm, \(label): PostgreSQL ÷ files",
                    measured: "\(Format.duration(result.median(.postgres, setup, \.storm))) vs "
                        + "\(Format.duration(result.median(.files, setup, \.storm))); PostgreSQL refreshes "
                        + refreshes.map(String.init).joined(separator: ", "),
                    ratio: result.ratio((.postgres, setup), over: (.files, setup), \.storm),
                    goal: nil
                )
            )
        }
        rows += growth(result, section: section)
        let perAccount = result.refreshesPerAccount
        rows.append(
            Figure(
                section: section,
                name: "Refresh grants per account per storm, every storm of both stores",
                measured: "\(perAccount.count) storms, from \(Format.ratio(perAccount.min() ?? 0)) to "
                    + "\(Format.ratio(perAccount.max() ?? 0))",
                ratio: perAccount.allSatisfy { $0 == 1 } ? 1 : perAccount.first { $0 != 1 },
                goal: .exactly(1)
            )
        )
        return rows
    }

    /// How each store's figures grow from 1 to 4 instances and from 1 to many accounts.
    private static func growth(_ result: SharedStores.Result, section: String) -> [Figure] {
        guard result.setups.count == 4 else { return [] }
        let (one, four, many, fourMany) = (result.setups[0], result.setups[1], result.setups[2], result.setups[3])
        let accounts = Format.count(Double(many.accounts))
        var rows: [Figure] = []
        for kind in SharedStores.Kind.allCases {
            let store = kind == .postgres ? "PostgreSQL" : "files"
            for (figure, label) in [(\SharedStores.Sample.perCall, "call"), (\SharedStores.Sample.storm, "storm")] {
                rows.append(
                    Figure(
                        section: section,
                        name: "\(store), \(label): 4 ÷ 1 instances, 1 account (\(accounts) accounts in Measured)",
                        measured: Format.ratio(result.ratio((kind, fourMany), over: (kind, many), figure))
                            + " with \(accounts) accounts",
                        ratio: result.ratio((kind, four), over: (kind, one), figure),
                        goal: nil
                    )
                )
                rows.append(
                    Figure(
                        section: section,
                        name: "\(store), \(label): \(accounts) ÷ 1 accounts, 1 instance",
                        measured: "\(Format.duration(result.median(kind, many, figure))) vs "
                            + Format.duration(result.median(kind, one, figure)),
                        ratio: result.median(kind, many, figure) / result.median(kind, one, figure),
                        goal: nil
                    )
                )
            }
        }
        return rows
    }

    private static func describe(_ setup: SharedStores.Setup) -> String {
        let instances = setup.instances == 1 ? "1 instance" : "\(setup.instances) instances"
        let accounts = setup.accounts == 1 ? "1 account" : "\(Format.count(Double(setup.accounts))) accounts"
        return "\(instances), \(accounts)"
    }
}
