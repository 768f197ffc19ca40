import ArgumentParsing
import Testing

@Suite struct ArgumentReaderTests {
    static let listOptions: [Option] = [
        .value("--genre"), .value("--limit", expecting: "a number"), .flag("--desc"), .flag("--quiet", aliases: "-q"),
        .value("--backend", aliases: "--config-dir"),
    ]

    private func parse(_ arguments: String..., command: String? = "list") throws(ArgumentError) -> ParsedArguments {
        var reader = ArgumentReader(arguments)
        return try reader.parse(Self.listOptions, command: command)
    }

    private func error(_ arguments: String...) -> ArgumentError? {
        var reader = ArgumentReader(arguments)
        do {
            _ = try reader.parse(Self.listOptions, command: "list")
            return nil
        } catch {
            return error
        }
    }

    // MARK: Reading single arguments

    @Test(arguments: [
        ("--genre", Argument.option("--genre")),
        ("--genre=Sci-Fi", .option("--genre", value: "Sci-Fi")),
        ("--text=a=b", .option("--text", value: "a=b")),
        ("--text=", .option("--text", value: "")),
        ("-q", .option("-q")),
        ("-", .positional("-")),
        ("-1", .positional("-1")),
        ("list", .positional("list")),
    ])
    func readsOneArgument(text: String, expected: Argument) {
        #expect(Argument(parsing: text) == expected)
    }

    // MARK: Options and positionals

    @Test func readsFlagsValuesAndPositionalsInOrder() throws {
        // when
        let parsed = try parse("a", "--genre", "Drama", "--desc", "b", "--limit=5", "-q")

        // then
        #expect(parsed.positionals == ["a", "b"])
        #expect(parsed.value("--genre") == "Drama")
        #expect(parsed.value("--limit") == "5")
        #expect(parsed.contains("--desc"))
        #expect(parsed.contains("--quiet"))
        #expect(!parsed.helpRequested)
        #expect(parsed.occurrences.map(\.option) == ["--genre", "--desc", "--limit", "--quiet"])
    }

    @Test func reportsAliasesUnderTheCanonicalNameAndKeepsTheSpelling() throws {
        // when
        let parsed = try parse("--config-dir", "d")

        // then
        #expect(parsed.value("--backend") == "d")
        #expect(parsed.occurrences == [.init(option: "--backend", spelling: "--config-dir", value: "d")])
    }

    @Test func keepsEveryValueOfARepeatedOptionAndReadsTheLast() throws {
        // when
        let parsed = try parse("--genre", "a", "--genre=b")

        // then
        #expect(parsed.values("--genre") == ["a", "b"])
        #expect(parsed.value("--genre") == "b")
        #expect(parsed.value("--limit") == nil)
        #expect(parsed.values("--limit").isEmpty)
    }

    @Test func takesNegativeNumbersAndShortOptionsAsValuesButNotLongOptions() throws {
        #expect(try parse("--genre", "-1").value("--genre") == "-1")
        #expect(try parse("--genre", "-q").value("--genre") == "-q")
        #expect(try parse("--genre=--desc").value("--genre") == "--desc")
        #expect(
            error("--genre", "--desc")
                == ArgumentError(.missingValue(option: "--genre", expected: "a value"), command: "list"))
    }

    @Test func theSeparatorEndsTheOptions() throws {
        // when
        let parsed = try parse("--desc", "--", "--genre", "-x", "--")

        // then
        #expect(parsed.positionals == ["--genre", "-x", "--"])
        #expect(parsed.contains("--desc"))
    }

    // MARK: Help

    @Test(arguments: ["-h", "--help"])
    func aHelpFlagStopsTheReading(flag: String) throws {
        // when: an unknown option follows the help flag
        let parsed = try parse("--desc", flag, "--bogus")

        // then
        #expect(parsed.helpRequested)
        #expect(parsed.contains("--desc"))
    }

    @Test func readsTheHelpTopic() throws {
        var overview = ArgumentReader([])
        #expect(try overview.helpTopic(among: ["list", "add"]) == nil)
        var list = ArgumentReader(["list"])
        #expect(try list.helpTopic(among: ["list", "add"]) == "list")
        var unknown = ArgumentReader(["bogus"])
        #expect(throws: ArgumentError(.unknownHelpTopic("bogus", known: ["list", "add"]))) {
            try unknown.helpTopic(among: ["list", "add"])
        }
        var extra = ArgumentReader(["list", "add"])
        #expect(throws: ArgumentError(.extraHelpTopic("add"))) { try extra.helpTopic(among: ["list", "add"]) }
    }

    // MARK: Subcommands

    @Test func readsTheOptionsBeforeASubcommandThenTheSubcommands() throws {
        // given
        var reader = ArgumentReader(["--json", "list", "--genre", "Drama", "--json"])

        // when
        let globals = try reader.parse([.flag("--json")], stoppingAtPositional: true)
        let list = try reader.parse(Self.listOptions + [.flag("--json")], command: "list")

        // then
        #expect(globals.positionals == ["list"])
        #expect(globals.contains("--json"))
        #expect(list.value("--genre") == "Drama")
        #expect(list.contains("--json"))
        #expect(reader.isAtEnd)
    }

    @Test func leavesTheArgumentsAfterTheSubcommandUnread() throws {
        // given
        var reader = ArgumentReader(["sdk", "generate", "--check"])

        // when
        let parsed = try reader.parse([], stoppingAtPositional: true)

        // then
        #expect(parsed.positionals == ["sdk"])
        #expect(Array(reader.remaining) == ["generate", "--check"])
    }

    // MARK: Errors

    @Test func errorsNameTheOptionAndTheCommand() {
        #expect(error("--bogus")?.message == "unknown option \"--bogus\" for list")
        #expect(error("--limit")?.message == "--limit needs a number")
        #expect(error("--genre")?.message == "--genre needs a value")
        #expect(error("--desc=yes")?.message == "--desc takes no value")
        #expect(error("--config-dir")?.message == "--config-dir needs a value")
        var topLevel = ArgumentReader(["--verbose", "list"])
        #expect(throws: ArgumentError(.unknownOption("--verbose"))) { try topLevel.parse([]) }
    }

    @Test func messagesOfTheCommandAndHelpErrors() {
        #expect(ArgumentError(.unknownOption("--verbose")).message == "unknown option \"--verbose\"")
        #expect(ArgumentError(.unknownCommand("x", known: [])).message == "unknown command \"x\"")
        #expect(
            ArgumentError(.unknownCommand("x", known: ["list", "add"])).message
                == "unknown command \"x\"; commands: list, add")
        #expect(
            ArgumentError(.unknownHelpTopic("x", known: ["list", "add"])).message
                == "no help for \"x\"; commands: list, add")
        #expect(ArgumentError(.extraHelpTopic("add")).description == "help takes one command, got \"add\" too")
    }
}
