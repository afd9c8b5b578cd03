/// Rows of cells laid out in aligned columns for a terminal: each cell padded to its column's widest, measured in
/// terminal columns (``TerminalLayout/displayWidth(_:)``), so a wide character does not push the next column.
struct TextTable {
    var rows: [[String]]
    /// What goes between two columns.
    var separator = "  "

    /// One line per row; the last cell of a row is not padded, so no line ends in spaces.
    var lines: [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in
            rows.map { column < $0.count ? TerminalLayout.displayWidth($0[column]) : 0 }.max() ?? 0
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - TerminalLayout.displayWidth(cell))
            }
            .joined(separator: separator)
        }
    }
}
