import Testing

@testable import BeaconConfig

@Suite struct YAMLDocumentParserTests {
    private func tree(_ yaml: String) throws(ConfigError) -> YAMLNode? {
        try YAMLDocumentParser(file: "t.yaml").parse(Array(yaml.utf8))
    }

    private func syntaxError(_ yaml: String) -> ConfigError? {
        do {
            _ = try tree(yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test func emptyAndCommentOnlyStreamsHaveNoDocument() throws {
        #expect(try tree("") == nil)
        #expect(try tree("# nothing here\n\n") == nil)
    }

    @Test func nodesCarryOneBasedLinesAndColumns() throws {
        let root = try #require(try tree("a:\n  b: 1\n  c:\n    - x\n    - 'y'\n"))
        guard case .mapping(let top) = root.kind else {
            Issue.record("root is not a mapping")
            return
        }
        #expect(top.map(\.key) == ["a"])
        #expect((top[0].keyNode.line, top[0].keyNode.column) == (1, 1))
        guard case .mapping(let inner) = top[0].value.kind else {
            Issue.record("a is not a mapping")
            return
        }
        #expect(inner.map(\.key) == ["b", "c"])
        // "  b: 1": the value 1 starts in column 6 of line 2.
        #expect((inner[0].value.line, inner[0].value.column) == (2, 6))
        guard case .sequence(let items) = inner[1].value.kind else {
            Issue.record("c is not a list")
            return
        }
        #expect(items.count == 2)
        // "    - 'y'": the quoted scalar starts at its quote, column 7 of line 5.
        #expect((items[1].line, items[1].column) == (5, 7))
    }

    @Test func scalarsKeepTheirStyle() throws {
        let root = try #require(try tree("a: 5\nb: \"5\"\nc: '5'\nd: !!str 5\ne: |\n  x\n"))
        guard case .mapping(let pairs) = root.kind else {
            Issue.record("root is not a mapping")
            return
        }
        var styles: [YAMLNode.ScalarStyle] = []
        for pair in pairs {
            if case .scalar(_, let style) = pair.value.kind { styles.append(style) }
        }
        #expect(styles == [.plain, .doubleQuoted, .singleQuoted, .doubleQuoted, .literal])
    }

    @Test func nullIsOnlyAnUnquotedEmptyTildeOrNull() throws {
        let root = try #require(try tree("a:\nb: ~\nc: null\nd: ''\ne: \"null\"\n"))
        guard case .mapping(let pairs) = root.kind else {
            Issue.record("root is not a mapping")
            return
        }
        #expect(pairs.map(\.value.isNull) == [true, true, true, false, false])
    }

    @Test func duplicateKeysAreRejectedWithBothPositions() {
        let error = syntaxError("mqtt:\n  port: 1\n  host: x\n  port: 2\n")
        #expect(error?.description == "t.yaml:4:3: mqtt.port: duplicate key (first at line 2, column 3)")
    }

    @Test func duplicateKeysInsideListItemsNameTheItem() {
        let error = syntaxError("regions:\n  - name: a\n  - name: b\n    name: c\n")
        #expect(error?.description == "t.yaml:4:5: regions[1].name: duplicate key (first at line 3, column 5)")
    }

    @Test func syntaxErrorsCarryLibyamlsProblemAndMark() {
        // A tab cannot indent YAML (YAML 1.2 §6.1); libyaml stops where the tab is.
        let tab = syntaxError("mqtt:\n\tport: 1\n")
        #expect(tab?.line == 2)
        #expect(tab?.column == 1)
        #expect(tab?.key == "")
        #expect(tab?.message.hasPrefix("found character that cannot start any token") == true)

        // An unterminated flow sequence: libyaml reports at the end of the input.
        let flow = syntaxError("regions: [a, b\n")
        #expect(flow?.line == 2)
        #expect(flow?.message.contains("while parsing a flow sequence at line 1, column 10") == true)

        // "key: value: more" — a mapping value where none may start.
        let value = syntaxError("a: b: c\n")
        #expect(value?.description == "t.yaml:1:5: mapping values are not allowed in this context")
    }

    @Test func invalidUTF8IsASyntaxErrorAtItsByte() {
        do {
            _ = try YAMLDocumentParser(file: "t.yaml").parse(Array("a: 1\nb: ".utf8) + [0xFF, 0x0A])
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 4)
            #expect(error.message.contains("0xff"))
        }
    }

    @Test func anchorsAliasesTagsAndSecondDocumentsAreRejected() {
        #expect(
            syntaxError("a: &x 1\n")?.description == "t.yaml:1:4: anchors (&x) are not supported; write the value out")
        #expect(syntaxError("a: 1\nb: *x\n")?.line == 2)
        #expect(syntaxError("a: !!int 1\n")?.message == "YAML tags (tag:yaml.org,2002:int) are not supported")
        #expect(
            syntaxError("a: 1\n---\nb: 2\n")?.description
                == "t.yaml:2:1: only one YAML document is allowed; remove the second '---'")
    }

    @Test func complexKeysAreRejected() {
        #expect(syntaxError("? [a, b]\n: 1\n")?.message == "mapping keys must be plain words, found a list")
    }

    @Test func byteOffsetsBecomeScalarColumns() {
        // "é" is two bytes but one column.
        let bytes = Array("ab\né: x".utf8)
        #expect(YAMLDocumentParser.position(ofByte: 7, in: bytes) == (2, 4))  // the "x"
        #expect(YAMLDocumentParser.position(ofByte: 0, in: bytes) == (1, 1))
    }
}
