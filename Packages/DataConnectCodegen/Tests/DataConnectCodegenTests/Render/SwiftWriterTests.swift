import Testing

@testable import DataConnectCodegen

/// The line writer indents blocks, keeps empty lines bare and leaves switch cases at the switch's level.
@Suite struct SwiftWriterTests {
    @Test func indentsBlocksAndSwitches() {
        // given
        var writer = SwiftWriter()
        // when
        writer.block("struct A") { writer in
            writer.doc(["Summary.", "", "Discussion."])
            writer.line("var x: Int")
            writer.line()
            writer.switchBlock("x") { $0.line("default: break") }
        }
        // then
        #expect(
            writer.text == """
                struct A {
                    /// Summary.
                    ///
                    /// Discussion.
                    var x: Int

                    switch x {
                    default: break
                    }
                }

                """)
    }

    @Test func escapesStringLiteralsAndKeywords() {
        #expect(GeneratedHeader.literal("a\"b\\c\n") == #""a\"b\\c\n""#)
        #expect(SwiftNaming.identifier("default") == "`default`")
        #expect(SwiftNaming.identifier("title") == "title")
    }
}
