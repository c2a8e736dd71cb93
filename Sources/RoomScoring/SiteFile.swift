/// Where a file named in a site description (`site.json`: a run's `file`, `site_plan`) lies.
package enum SiteFile {
    /// `file` as written when it is absolute; otherwise beside the description at `site`: in its
    /// directory, or in the working directory when `site` names none (`--site site.json`).
    package static func path(_ file: String, besideSite site: String) -> String {
        if file.hasPrefix("/") { return file }
        guard let slash = site.lastIndex(of: "/") else { return file }
        // "/site.json": the root's own slash stays.
        let directory = slash == site.startIndex ? "/" : String(site[..<slash])
        return directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }
}
