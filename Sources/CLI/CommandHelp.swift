/// Help text for one subcommand, rendered in swift-argument-parser's layout
/// (`OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:`) so it reads like other Swift tools and can
/// also generate the man page.
package struct CommandHelp: Sendable {
    package struct Entry: Sendable {
        package var names: String
        package var help: String
        package init(_ names: String, _ help: String) {
            self.names = names
            self.help = help
        }
    }

    package var name: String
    package var abstract: String
    package var usage: String
    package var discussion: String?
    package var arguments: [Entry]
    package var options: [Entry]

    package init(
        name: String, abstract: String, usage: String, discussion: String? = nil, arguments: [Entry] = [],
        options: [Entry] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }

    package func render() -> String {
        var out = "OVERVIEW: \(abstract)\n"
        if let discussion { out += "\n" + discussion + "\n" }
        out += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty { out += "\nARGUMENTS:\n" + Self.table(arguments) }
        out += "\nOPTIONS:\n" + Self.table(options + [Entry("-h, --help", "Show help information.")])
        return out
    }

    static func table(_ entries: [Entry]) -> String {
        let width = max(entries.map(\.names.count).max() ?? 0, 20)
        var out = ""
        for entry in entries {
            let pad = String(repeating: " ", count: width - entry.names.count + 2)
            let lines = entry.help.split(separator: "\n", omittingEmptySubsequences: false)
            out += "  \(entry.names)\(pad)\(lines.first ?? "")\n"
            for line in lines.dropFirst() {
                out += String(repeating: " ", count: width + 4) + line + "\n"
            }
        }
        return out
    }
}
