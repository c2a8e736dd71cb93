/// "Did you mean …?" for misspelt keys and values.
enum Suggestion {
    /// The candidate closest to `word` by optimal-string-alignment distance (a swap of two
    /// neighbours counts as one edit), if it is close enough to be a plausible typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        if best.distance <= 1 { return best.candidate }
        // A prefix of a longer key or value (`warn` for `warning`) is a plausible shorthand.
        if typed.count >= 3, let longer = candidates.first(where: { $0.hasPrefix(String(typed)) }) { return longer }
        let limit = max(2, min(typed.count, best.candidate.count) / 3)
        return best.distance <= limit && best.distance < max(typed.count, best.candidate.count) ? best.candidate : nil
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transposition).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
