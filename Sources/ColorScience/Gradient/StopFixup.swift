/// The used positions of a gradient's color stops and transition hints: CSS Images 3 §3.4.3
/// ("Color Stop Fixup").
///
/// 1. A first stop without a position is at 0 %, a last one at 100 %.
/// 2. A stop or hint before the largest position of any stop or hint ahead of it in the list is
///    moved up to that position.
/// 3. Each run of stops still without a position is spread evenly between the positioned stops
///    around it.
///
/// A length (`20px`) is a position only the box can turn into a fraction of the line. Here it is
/// laid out as if it were absent, and everything placed from it is marked as not known.
enum StopFixup {
    /// A position as written.
    enum Written: Equatable {
        case fraction(Double)
        case length
    }

    /// One item of a color stop list, in order.
    struct Entry: Equatable {
        var isHint: Bool
        var written: Written?
    }

    /// Where an entry ends up.
    struct Placed: Equatable {
        /// The fraction of the gradient line it is drawn at.
        var position: Double
        /// Whether that is its position in every box (false when a length decided it).
        var isKnown: Bool
    }

    /// The placed entries, in the order given. Hints keep no position of their own when they
    /// were lengths (`isKnown` false); every stop gets one.
    static func resolve(_ entries: [Entry]) -> [Placed] {
        var positions: [Double?] = entries.map { if case .fraction(let f) = $0.written { f } else { nil } }
        var known = entries.map { $0.written != .length }
        let stopIndices = entries.indices.filter { !entries[$0].isHint }
        guard let first = stopIndices.first, let last = stopIndices.last else { return [] }

        // Step 1.
        if positions[first] == nil { positions[first] = 0 }
        if positions[last] == nil { positions[last] = 1 }

        // Step 2: never behind the largest position so far.
        var largest = -Double.infinity
        for i in entries.indices {
            guard let p = positions[i] else { continue }
            if p < largest { positions[i] = largest }
            largest = max(largest, p)
        }

        // Step 3: runs of unplaced stops, evenly between their neighbors (hints are not stops).
        var runStart: Int?  // index into stopIndices of the stop before the run
        for (n, i) in stopIndices.enumerated() {
            if positions[i] == nil {
                if runStart == nil { runStart = n - 1 }
                continue
            }
            guard let before = runStart else { continue }
            let from = stopIndices[before]
            let low = positions[from] ?? 0, high = positions[i] ?? low
            let count = n - before
            let anchorsKnown = known[from] && known[i]
            for step in 1..<count {
                let j = stopIndices[before + step]
                positions[j] = low + (high - low) * Double(step) / Double(count)
                known[j] = known[j] && anchorsKnown
            }
            runStart = nil
        }

        return entries.indices.map { i in
            Placed(position: positions[i] ?? 0, isKnown: known[i])
        }
    }
}
