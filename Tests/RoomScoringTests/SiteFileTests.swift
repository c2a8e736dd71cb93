import RoomScoring
import Testing

@Suite struct SiteFileTests {
    @Test func aRelativeFileLiesBesideTheDescription() {
        #expect(
            SiteFile.path("test.csv", besideSite: "bench/realdata/flat/site.json") == "bench/realdata/flat/test.csv")
        #expect(SiteFile.path("runs/a.csv", besideSite: "/srv/site/site.json") == "/srv/site/runs/a.csv")
        #expect(SiteFile.path("a.csv", besideSite: "/site.json") == "/a.csv")
    }

    /// `--site site.json` from the recording's own directory: the files are in the working directory,
    /// not at the root.
    @Test func aDescriptionWithoutDirectoryReadsFromTheWorkingDirectory() {
        #expect(SiteFile.path("test.csv", besideSite: "site.json") == "test.csv")
        #expect(SiteFile.path("plan.yaml", besideSite: "site.json") == "plan.yaml")
    }

    @Test func anAbsoluteFileIsTakenAsWritten() {
        #expect(SiteFile.path("/data/rec/test.csv", besideSite: "bench/site.json") == "/data/rec/test.csv")
        #expect(SiteFile.path("/data/rec/test.csv", besideSite: "site.json") == "/data/rec/test.csv")
    }
}
