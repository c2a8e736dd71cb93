// Shared by the `config` and `layer` fuzz targets (scripts/fuzz.sh compiles it with each).

/// Lines as YAML counts them (YAML 1.1 §5.4, as libyaml does): LF, CR, CRLF (one break), NEL, LS
/// and PS all end a line. Splitting on "\n" alone undercounts a text with lone CRs, and an error
/// on a CR-separated line then looked past the end of the text.
func yamlLineCount(_ text: String) -> Int {
    var breaks = 0
    var previous: Unicode.Scalar = "\0"
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": if previous != "\r" { breaks += 1 }
        case "\r", "\u{85}", "\u{2028}", "\u{2029}": breaks += 1
        default: break
        }
        previous = scalar
    }
    return breaks + 1
}
