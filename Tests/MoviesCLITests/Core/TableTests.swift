import MoviesCLICore
import MoviesModels
import Testing

@Suite struct DisplayWidthTests {
    @Test func countsColumnsNotCharactersOrBytes() {
        #expect(DisplayWidth.of("Alien") == 5)
        #expect(DisplayWidth.of("Amélie") == 6, "precomposed é")
        #expect(DisplayWidth.of("Ame\u{301}lie") == 6, "e + combining acute")
        #expect(DisplayWidth.of("千と千尋の神隠し") == 16)
        #expect(DisplayWidth.of("기생충") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4, "fullwidth letters")
        #expect(DisplayWidth.of("🎬") == 2)
        #expect(DisplayWidth.of("👩‍🚀") == 2, "a ZWJ sequence is one glyph")
        #expect(DisplayWidth.of("WALL·E") == 6)
    }

    @Test func sanitizesControlCharacters() {
        #expect(DisplayWidth.sanitized("a\tb\nc\u{1B}[31m") == "a b c [31m")
        #expect(DisplayWidth.sanitized("Amélie") == "Amélie")
    }

    @Test func padsByDisplayWidth() {
        #expect(DisplayWidth.pad("千", to: 4) == "千  ")
        #expect(DisplayWidth.pad("7", to: 3, alignRight: true) == "  7")
        #expect(DisplayWidth.pad("toolong", to: 3) == "toolong")
    }
}

@Suite struct TableTests {
    @Test func alignsColumnsWithWideCharacters() {
        // given
        let table = Table(
            columns: [Table.Column("TITLE"), Table.Column("YEAR", alignRight: true), Table.Column("GENRE")],
            rows: [["Amélie", "2001", "Comedy"], ["千と千尋の神隠し", "2001", "Animation"], ["Up", "2009", ""]])

        // when
        let text = table.render(style: .plain)

        // then
        #expect(
            text == """
                TITLE             YEAR  GENRE
                Amélie            2001  Comedy
                千と千尋の神隠し  2001  Animation
                Up                2009

                """)
    }

    @Test func combiningMarksTakeNoColumn() {
        // given
        let columns = [Table.Column("TITLE"), Table.Column("YEAR")]

        // when
        let precomposed = Table(columns: columns, rows: [["Am\u{E9}lie", "2001"]]).render(style: .plain)
        let combining = Table(columns: columns, rows: [["Ame\u{301}lie", "2001"]]).render(style: .plain)

        // then
        #expect(precomposed.unicodeScalars.count + 1 == combining.unicodeScalars.count)
        #expect(precomposed.split(separator: "\n").last == "Amélie  2001")
        #expect(combining.split(separator: "\n").last == "Ame\u{301}lie  2001")
    }

    @Test func colorsHeadersAndDimColumnsOutsideThePadding() {
        // given
        let table = Table(columns: [Table.Column("ID", emphasis: .dim), Table.Column("T")], rows: [["1", "x"]])

        // when
        let text = table.render(style: .colored)

        // then
        #expect(text == "\u{1B}[1mID\u{1B}[0m  \u{1B}[1mT\u{1B}[0m\n\u{1B}[2m1\u{1B}[0m   x\n")
    }

    @Test func styleFollowsTheTerminalAndNoColor() {
        #expect(TerminalStyle.detect(isTerminal: true, environment: [:]) == .colored)
        #expect(TerminalStyle.detect(isTerminal: true, environment: ["NO_COLOR": ""]) == .plain)
        #expect(TerminalStyle.detect(isTerminal: false, environment: [:]) == .plain)
        #expect(TerminalStyle.plain.bold("x") == "x")
    }
}
