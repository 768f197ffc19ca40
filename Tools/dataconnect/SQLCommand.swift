import ArgumentParsing
import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSchema
import Foundation
import PostgreSQLKit

/// `dataconnect sql`: compare a PostgreSQL database with a backend's schema, migrate it, set it up, and grant
/// roles access to its tables.
///
/// Every subcommand works in the database's current schema (the first existing schema of its `search_path`),
/// the one the emulator serves from. `diff` and `migrate` use ``PostgreSQLMigrator``, as every emulator's
/// start-up does: `diff` prints its plan, `migrate` applies the plan it printed, in one transaction under the
/// migrator's advisory lock. A step the data will make fail (``PostgreSQLMigrator/Plan/blocked``: a required
/// column without a default added to a table with rows) is marked `-- will fail:` in the plan and explained;
/// `migrate` refuses such a plan and applies nothing. Statements go to standard output, summaries and errors to
/// standard error.
enum SQLCommand {
    /// Runs the command; returns the exit status.
    static func run(_ options: SQLOptions) -> Int32 {
        let url: String
        do {
            url = try connectionString(options, environment: ProcessInfo.processInfo.environment)
        } catch {
            DataConnectTool.printError("dataconnect: \(error.message)\n\n\(usage("sql"))")
            return 2
        }
        do {
            switch options.action {
            case .diff:
                return try diff(backend: options.backend, url: url)
            case .migrate(let force):
                return try migrate(backend: options.backend, url: url, force: force)
            case .setup:
                return try setup(url: url)
            case .grant(let role, let user):
                return try grant(role, to: user, url: url)
            }
        } catch {
            DataConnectTool.printError("error: \(error)")
            return 1
        }
    }

    /// The database to use: `--postgres`, else the environment's `FIREBASE_DATACONNECT_POSTGRESQL_STRING`.
    ///
    /// - Throws: ``UsageError`` when neither names one.
    static func connectionString(_ options: SQLOptions, environment: [String: String]) throws(UsageError) -> String {
        if let url = options.postgreSQL { return url }
        if let url = environment[EmulatorCommand.postgreSQLVariable], !url.isEmpty { return url }
        throw UsageError(
            message: "sql \(options.action.name) needs a database: pass --postgres URL or set "
                + EmulatorCommand.postgreSQLVariable)
    }

    // MARK: diff and migrate

    /// `sql diff`: prints the plan; exit 0 whether or not there is something to do.
    private static func diff(backend: String, url: String) throws(PGError) -> Int32 {
        guard let model = compileSchema(backend) else { return 1 }
        let database = try Database(url)
        let plan = try PostgreSQLMigrator(model: model).plan(on: database.connection)
        write(plan.script)
        if !plan.blocked.isEmpty {
            say(
                "\(database.description): \(count(plan.additive.count + plan.destructive.count, "statement")) to "
                    + "bring the database to the schema of \(backend), \(plan.blocked.count) of which will fail on the "
                    + "rows already there; `dataconnect sql migrate` refuses the plan until the schema changes:")
            sayBlocked(plan)
        } else if plan.isEmpty {
            say("\(database.description): the database matches the schema of \(backend)")
        } else {
            let command = plan.destructive.isEmpty ? "dataconnect sql migrate" : "dataconnect sql migrate --force"
            say(
                "\(database.description): \(count(plan.additive.count + plan.destructive.count, "statement")) "
                    + "to bring the database to the schema of \(backend), \(plan.destructive.count) destructive; "
                    + "`\(command)` applies them")
        }
        return 0
    }

    /// `sql migrate [--force]`: prints the plan, refuses a destructive one without `force`, else applies it.
    private static func migrate(backend: String, url: String, force: Bool) throws(PGError) -> Int32 {
        guard let model = compileSchema(backend) else { return 1 }
        let database = try Database(url)
        let migrator = PostgreSQLMigrator(model: model)
        let plan = try migrator.plan(on: database.connection)
        write(plan.script)
        if !plan.blocked.isEmpty {
            say(
                "error: \(database.description): \(count(plan.blocked.count, "statement")) of the plan would fail on "
                    + "the rows already there; nothing applied:")
            sayBlocked(plan)
            return 1
        }
        if !plan.destructive.isEmpty && !force {
            say(
                "error: \(database.description): the plan has \(count(plan.destructive.count, "destructive statement")), "
                    + "which may lose data; nothing applied:")
            for statement in plan.destructive { say("  \(statement);") }
            say("rerun with --force to apply the whole plan, or change the schema")
            return 1
        }
        let report: MigrationReport
        do {
            switch try migrator.apply(plan, on: database.connection) {
            case .applied(let applied):
                report = applied
            case .superseded:
                say(
                    "error: \(database.description): the database changed while the plan was made (another "
                        + "migration or emulator start-up); nothing applied; run the command again")
                return 1
            }
        } catch {
            say("error: \(database.description): \(error); nothing applied (rolled back)")
            return 1
        }
        if report.statements.isEmpty {
            say("\(database.description): the database matches the schema of \(backend); nothing to apply")
        } else {
            say(
                "\(database.description): applied \(count(report.statements.count, "statement")) "
                    + "(\(plan.destructive.count) destructive) in one transaction")
        }
        if report.issues.isEmpty {
            say("recorded schema fingerprint \(report.fingerprint.prefix(12)): emulators start without migrating")
        } else {
            for issue in report.issues { say("note: \(issue)") }
            say("schema fingerprint not recorded while notes remain: emulators compare the catalog at start")
        }
        return 0
    }

    /// Names each blocked step of a plan and what to do about it, on standard error.
    private static func sayBlocked(_ plan: PostgreSQLMigrator.Plan) {
        for step in plan.blocked {
            say("  \(step.statement);")
            say("    \(step.issue)")
        }
    }

    /// Compiles the backend's schema, printing diagnostics; `nil` when the schema has errors.
    ///
    /// Connector errors do not change the SQL schema: they are printed, and the command goes on.
    private static func compileSchema(_ backend: String) -> SchemaModel? {
        let (service, diagnostics) = ServiceCompiler.compile(backendDirectory: backend)
        for diagnostic in diagnostics { say(diagnostic.description) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        guard let service else {
            say("\(backend): \(count(errors, "error")) in the schema; the database was not touched")
            return nil
        }
        if errors > 0 {
            say("\(backend): connector errors do not change the SQL schema; going on")
        }
        return service.api.model
    }

    // MARK: setup

    /// `sql setup`: checks the server and the user's rights, and creates the bookkeeping table.
    private static func setup(url: String) throws(PGError) -> Int32 {
        let database = try Database(url, checkingVersion: false)
        let connection = database.connection
        write("connected to \(database.location) as \(database.user)\n")
        let version = try connection.serverVersionString
        guard connection.serverVersion >= PostgreSQLStore.minimumServerVersion else {
            say("error: PostgreSQL \(version) at \(database.location) is too old: the emulator needs 14 or later")
            return 1
        }
        write("server: PostgreSQL \(version) (14 or later needed): ok\n")
        write("schema: \"\(database.schema)\", the first existing schema of the search_path\n")
        let canCreate = try connection.query("SELECT has_schema_privilege(current_schema(), 'CREATE')")
            .bool(row: 0, column: 0)
        guard canCreate == true else {
            say(
                "error: user \"\(database.user)\" cannot create tables in schema \"\(database.schema)\"; as its owner "
                    + "or a superuser run GRANT CREATE ON SCHEMA \(PGConnection.quoteIdentifier(database.schema)) "
                    + "TO \(PGConnection.quoteIdentifier(database.user)), or `dataconnect sql grant --role owner "
                    + "--user \(database.user)`")
            return 1
        }
        write("user \"\(database.user)\" can create tables in \"\(database.schema)\": ok\n")
        let table = PostgreSQLMigrator.metadataTable
        if try PostgreSQLMigrator.createMetadataTable(on: connection) {
            write("created \(table), where migrations record the schema fingerprint\n")
        } else {
            write("\(table) exists already\n")
        }
        write(
            "ready: `dataconnect sql migrate --postgres URL` creates the schema's tables, or the emulator does at "
                + "start (`dataconnect emulator --postgres URL`)\n")
        return 0
    }

    // MARK: grant

    /// `sql grant`: grants a role access to the schema's tables, now and for tables created later.
    private static func grant(_ role: SQLRole, to user: String, url: String) throws(PGError) -> Int32 {
        let database = try Database(url, checkingVersion: false)
        let connection = database.connection
        let exists = try connection.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [.text(user)]).rowCount > 0
        guard exists else {
            say(
                "error: role \"\(user)\" does not exist on \(database.location); create it first (CREATE ROLE "
                    + "\(PGConnection.quoteIdentifier(user)) LOGIN). Cloud SQL IAM users have no local equivalent")
            return 1
        }
        let statements = grantStatements(role, to: user, schema: database.schema)
        try connection.execute("BEGIN")
        do {
            for statement in statements { try connection.execute(statement) }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        write(statements.map { $0 + ";\n" }.joined())
        let tables = try connection.query(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
                + "AND table_type = 'BASE TABLE'"
        ).int64(row: 0, column: 0)
        say(
            "\(database.location): granted \(role.rawValue) access on schema \"\(database.schema)\" to \"\(user)\": "
                + "\(count(Int(tables ?? 0), "table")) now, and the tables \"\(database.user)\" creates later")
        return 0
    }

    /// The statements `sql grant` runs, in order.
    static func grantStatements(_ role: SQLRole, to user: String, schema: String) -> [String] {
        let schema = PGConnection.quoteIdentifier(schema)
        let grantee = PGConnection.quoteIdentifier(user)
        let (schemaPrivileges, tablePrivileges, sequencePrivileges) =
            switch role {
            case .reader: ("USAGE", "SELECT", "SELECT")
            case .writer: ("USAGE", "SELECT, INSERT, UPDATE, DELETE", "USAGE, SELECT")
            case .owner: ("USAGE, CREATE", "ALL", "ALL")
            }
        return [
            "GRANT \(schemaPrivileges) ON SCHEMA \(schema) TO \(grantee)",
            "GRANT \(tablePrivileges) ON ALL TABLES IN SCHEMA \(schema) TO \(grantee)",
            "GRANT \(sequencePrivileges) ON ALL SEQUENCES IN SCHEMA \(schema) TO \(grantee)",
            "ALTER DEFAULT PRIVILEGES IN SCHEMA \(schema) GRANT \(tablePrivileges) ON TABLES TO \(grantee)",
            "ALTER DEFAULT PRIVILEGES IN SCHEMA \(schema) GRANT \(sequencePrivileges) ON SEQUENCES TO \(grantee)",
        ]
    }

    // MARK: Output

    /// Writes to standard output at once, so that it interleaves with standard error in the order written.
    private static func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a line to standard error.
    private static func say(_ line: String) {
        DataConnectTool.printError(line)
    }

    /// `1 statement`, `3 statements`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

extension SQLOptions.Action {
    /// The subcommand's name, for messages.
    var name: String {
        switch self {
        case .diff: "diff"
        case .migrate: "migrate"
        case .setup: "setup"
        case .grant: "grant"
        }
    }
}

/// A connection to the database a `dataconnect sql` command works on, with what its messages name.
private struct Database: CustomStringConvertible {
    let connection: PGConnection
    /// `host:port/database`.
    let location: String
    /// The current schema, where the tables are.
    let schema: String
    /// The user connected as.
    let user: String

    /// Connects, reads the current schema and user, and, unless told otherwise, checks the server's version.
    ///
    /// - Throws: ``PGError``: one line naming host and port when the server cannot be reached; a server too old;
    ///   a `search_path` naming no existing schema.
    init(_ url: String, checkingVersion: Bool = true) throws(PGError) {
        connection = try PGConnection(url)
        location = "\(connection.host):\(connection.port)/\(connection.databaseName)"
        if checkingVersion && connection.serverVersion < PostgreSQLStore.minimumServerVersion {
            let version = try connection.serverVersionString
            throw PGError(
                kind: .server,
                message: "PostgreSQL \(version) at \(location) is too old: the emulator needs PostgreSQL 14 or later")
        }
        let names = try connection.query("SELECT current_schema(), current_user")
        guard let schema = names.string(row: 0, column: 0) else {
            throw PGError(
                kind: .server,
                message: "\(location): the search_path (SHOW search_path) names no existing schema to keep tables in")
        }
        self.schema = schema
        user = names.string(row: 0, column: 1) ?? connection.userName
    }

    /// `127.0.0.1:5432/movies, schema "public"`.
    var description: String { "\(location), schema \"\(schema)\"" }
}

// MARK: - Options

/// Options of `dataconnect sql`: the subcommand, and where the schema and the database are.
struct SQLOptions: Equatable {
    /// What `dataconnect sql` does.
    enum Action: Equatable {
        /// `sql diff`: print the statements that would bring the database to the schema.
        case diff
        /// `sql migrate [--force]`: apply them; destructive ones only with `force`.
        case migrate(force: Bool)
        /// `sql setup`: check the server and create the emulator's bookkeeping table.
        case setup
        /// `sql grant --role ROLE --user NAME`: give an existing PostgreSQL role access to the schema's tables.
        case grant(SQLRole, user: String)
    }

    var action: Action
    /// The folder holding `dataconnect.yaml` (`diff` and `migrate` only).
    var backend = "."
    /// `--postgres URL`; `nil` to read `FIREBASE_DATACONNECT_POSTGRESQL_STRING` when the command runs.
    var postgreSQL: String?
}

/// The access `dataconnect sql grant --role` gives, named as firebase-tools names its SQL roles.
enum SQLRole: String, CaseIterable, Equatable {
    /// Read the tables: `SELECT`.
    case reader
    /// Read and change rows: `SELECT, INSERT, UPDATE, DELETE`.
    case writer
    /// Everything on the tables, and creating tables in the schema.
    case owner
}

extension SQLOptions {
    /// The subcommands of `dataconnect sql`.
    static let subcommands = ["diff", "migrate", "setup", "grant"]

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        guard let first = reader.remaining.first else {
            throw UsageError(message: "sql needs a subcommand: \(subcommands.joined(separator: ", "))")
        }
        if first == "-h" || first == "--help" { return .help(topic: "sql") }
        guard subcommands.contains(first) else {
            throw UsageError(message: ArgumentError(.unknownCommand(first, known: subcommands)).message)
        }
        _ = reader.next()
        let command = "sql \(first)"
        let postgres = Option.value("--postgres", expecting: "a connection URL")
        let options: [Option] =
            switch first {
            case "diff": [backendOption, postgres]
            case "migrate": [backendOption, postgres, .flag("--force")]
            case "setup": [postgres]
            default:
                [
                    postgres, .value("--role", aliases: "-R", expecting: "reader, writer or owner"),
                    .value("--user", aliases: "--email", "-E", expecting: "a role name"),
                ]
            }
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(options, command: command)
        }
        if parsed.helpRequested { return .help(topic: "sql") }
        if let extra = parsed.positionals.first { throw .unexpected(extra, for: command) }
        var result = SQLOptions(action: .diff)
        result.backend = parsed.value("--backend") ?? result.backend
        if let url = parsed.value("--postgres") {
            guard !url.isEmpty else {
                throw UsageError(message: "--postgres needs a connection URL such as postgres://127.0.0.1:5432/db")
            }
            result.postgreSQL = url
        }
        switch first {
        case "diff": result.action = .diff
        case "migrate": result.action = .migrate(force: parsed.contains("--force"))
        case "setup": result.action = .setup
        default:
            guard let roleName = parsed.value("--role") else {
                throw UsageError(message: "sql grant needs --role reader, writer or owner")
            }
            guard let role = SQLRole(rawValue: roleName) else {
                throw UsageError(message: "--role needs reader, writer or owner, got \"\(roleName)\"")
            }
            guard let user = parsed.value("--user"), !user.isEmpty else {
                throw UsageError(message: "sql grant needs --user NAME, an existing PostgreSQL role")
            }
            result.action = .grant(role, user: user)
        }
        return .sql(result)
    }
}
