import DataConnectSchema

/// The help text for a topic.
func usage(_ topic: String?) -> String {
    switch topic {
    case "init":
        return """
            usage: dataconnect init [--template blank|movies] [--name NAME] DIR

            Creates a project in DIR (which must be missing or empty) from a template, generates its Swift SDK,
            and prints the next steps. The project has:
              dataconnect/         dataconnect.yaml, schema/schema.gql, connector/ and seed_data.gql
              Generated/<Package>/ the typed Swift SDK, generated now so the app builds at once
              App/                 a command-line app that lists rows, inserts one and lists them again,
                                   and App/Tests: a full-stack test (the SDK against an in-process emulator)
              Makefile             `make run` (emulator with seed data + the app), `make test`, `make emulator`,
                                   `make postgres` / `make postgres-stop`, `make upgrade`
              README.md, firebase.json

              --template T, -t T   blank (default): one Note table with list/get/create/update/delete;
                                   movies: Movie, Actor and MovieActor with queries, mutations and seed data
              --name NAME          the service and connector id (default: DIR's last path component),
                                   reduced to lowercase letters, digits and dashes

            An installed dataconnect (`make install`, or the Debian package) pins the project to its version:
            the generated package and the app depend on PREFIX/share/dataconnect/DataConnect.git by URL and
            exact version (`dataconnect upgrade` re-pins). One run from a clone's build folder uses the clone's
            Templates/ and its SDK packages by path. DATACONNECT_PACKAGE_URL names another package repository
            (pinned to this version), DATACONNECT_SDK_PATH a local core SDK package, DATACONNECT_TEMPLATES the
            templates folder.

            Exit status: 0 when created, 1 when DIR is not empty or generation fails, 2 on a usage error.
            """
    case "validate":
        return """
            usage: dataconnect validate [--backend DIR] [--seed FILE] [--print-sdl] [--prelude] [--quiet]

            Loads DIR/dataconnect.yaml, compiles the schema, generates its GraphQL API and type-checks every
            connector operation against it, with the checks the emulator runs at start: the CEL of @auth(expr:),
            @check and *_expr values, and each operation's compilation to SQL. Problems are printed as
            `file:line:col: error: message`, the lines the emulator refuses to start with.

              --backend DIR   the folder holding dataconnect.yaml (default: the current folder)
              --seed FILE     also check this admin GraphQL file (default: DIR/seed_data.gql when it exists)
              --print-sdl     print the generated GraphQL API as SDL on standard output
              --prelude       with --print-sdl, also print the built-in prelude
              --quiet, -q     print only diagnostics, no summary

            Exit status: 0 when valid (warnings allowed), 1 when there are errors, 2 on a usage error.
            """
    case "generate":
        return """
            usage: dataconnect generate [--backend DIR] [--watch | --check]

            Validates the backend, then writes one Swift package per `generate.swiftSdk` entry of each
            connector.yaml to <outputDir>/<package>/ (paths relative to the connector's folder): Package.swift,
            README.md and Sources/<Connector>{Client,Keys,Operations}.swift. Only files whose contents change
            are rewritten. `sdk generate` is accepted as a synonym.

              --backend DIR   the folder holding dataconnect.yaml (default: the current folder)
              --watch         keep running; regenerate after each saved .gql or .yaml change, print the
                              diagnostics of a broken file and keep watching; stop with Ctrl-C
              --check         write nothing; list the files that a generation would change

            Exit status: 0 when generated (or, with --check, up to date), 1 on errors or differences,
            2 on a usage error.
            """
    case "emulator":
        return """
            usage: dataconnect emulator [--backend DIR | --no-backend] [--host 127.0.0.1] [--port 9399]
                                        [--data-dir DIR | --postgres URL] [--seed FILE] [--import DIR] [--export-on-exit DIR] [--no-watch]
                                        [--no-console] [--allow-host HOST]... [--allow-origin ORIGIN]...
                                        [--no-auth] [--auth-port N] [--project ID]
                                        [--max-selected-fields N] [--max-depth N] [--max-aliases N]
                                        [--max-filter-terms N] [--request-timeout SECONDS]
                                        [--slow-lane-after SECONDS] [--slow-lane N] [--threads N]
                                        [--embeddings vertex|hashing|URL [--embeddings-model NAME=MODEL]...
                                         [--embeddings-key-env VARIABLE]]

            Serves the backend's connectors and admin GraphQL over HTTP, executing them on SQLite, or on
            PostgreSQL with --postgres. The SQLite data lives in memory unless --data-dir is given (WAL,
            survives restarts). Prints one `ready <url>` line
            when it serves; reloads when a schema or connector file changes (keeping the last good version
            when the new one has errors); stops cleanly on SIGINT and SIGTERM.

              --backend DIR          the folder holding dataconnect.yaml (default: the current folder)
              --no-backend           start serving no service, and wait for POST /emulator/configure
                                     {"config_directory": DIR} to load one (as SDK test suites do)
              --host, --port         where to listen (default 127.0.0.1:9399; --port 0 picks a free port)
              --data-dir DIR         keep the database in DIR/dataconnect.sqlite
              --postgres URL         serve from a PostgreSQL database (postgres://user@host:port/db, or a
                                     key=value connection string); the default is the environment's
                                     FIREBASE_DATACONNECT_POSTGRESQL_STRING, when set. The schema is
                                     migrated at start; several emulators may share the database
              --seed FILE            run an admin GraphQL file (such as seed_data.gql) after start, when the
                                     database is empty (a database with rows logs why it skipped the seed)
              --import DIR           load DIR/dataconnect_export/sqlite.db at start
              --export-on-exit DIR   write DIR/dataconnect_export/sqlite.db when stopping
              --no-watch             do not reload on file changes
              --no-console           do not serve the browser console (by default it is at the emulator's
                                     URL, e.g. http://127.0.0.1:9399/: schema, data, operations, GraphQL,
                                     realtime subscriptions and requests)
              --allow-host HOST      also answer requests whose Host is HOST (repeatable; .example.test
                                     admits its subdomains too). By default only loopback names
                                     (localhost, *.localhost, 127.0.0.0/8, [::1]) and the --host address
                                     are answered (with --host 0.0.0.0, any IP address too); others get 403
              --allow-origin ORIGIN  let web pages of ORIGIN (scheme://host[:port]) call the client and the
                                     admin API (repeatable). By default loopback pages may call the client
                                     API (:executeQuery, :executeMutation, :subscribe) and only the
                                     emulator's own origin the admin API (/emulator/*, :executeGraphql*,
                                     :impersonate*); other pages get 403

            Requests without an Origin header (SDKs, curl, test suites) are never refused for their origin.

            Firebase Auth (firebase-tools' Auth emulator: the Identity Toolkit and Secure Token REST APIs under
            /identitytoolkit.googleapis.com/, /securetoken.googleapis.com/ and /emulator/v1/, on the same port):
              --no-auth              do not serve the Auth emulator
              --auth-port N          also serve the Auth API alone on port N, as firebase-tools does on 9099
                                     (0 picks a free port)
              --project ID           the project key-based Auth calls act on (default: $FIREBASE_PROJECT_ID,
                                     then $GCLOUD_PROJECT, then demo-project)
            Accounts live with the data: DIR/auth.sqlite with --data-dir, the dataconnect_auth schema with
            --postgres, else memory; --import and --export-on-exit also read and write DIR/auth_export/.

            Limits (a request over one is refused with 400 INVALID_ARGUMENT naming it, before any SQL runs):
              --max-selected-fields N  fields of an operation once fragments are merged (default 5000)
              --max-depth N            nesting of those fields (default 32)
              --max-aliases N          aliased fields (default 1000)
              --max-filter-terms N     fields and operators in one statement's where/having (default 1000)
              --request-timeout S      seconds a request may run in the database (default 30); past it the
                                       request is stopped with 504 DEADLINE_EXCEEDED
              --slow-lane-after S      seconds after which a running request moves to the slow lane
                                       (default 0.2): lower priority, off the threads cheap requests use
              --slow-lane N            slow requests that may run at once (default: readers - 1, so 2); one
                                       more is stopped with 429 RESOURCE_EXHAUSTED
              --threads N              threads that serve connections and run requests (default: one per
                                       online core; on PostgreSQL at least one per pooled connection)

            Embeddings (the vectors of <field>_embed and compare_embed; without a provider they answer
            FAILED_PRECONDITION). The flag wins over emulator.embeddings in dataconnect.yaml:
              --embeddings vertex      Vertex AI's predict for the operation's model: credentials from
                                       $GOOGLE_OAUTH_ACCESS_TOKEN or the service account key file of
                                       $GOOGLE_APPLICATION_CREDENTIALS; project from $GOOGLE_CLOUD_PROJECT
                                       (or the key file); region from $GOOGLE_CLOUD_LOCATION, else the
                                       service's location; $DATACONNECT_VERTEX_ENDPOINT replaces Google's host
              --embeddings hashing     offline, deterministic vectors computed from the text (no network)
              --embeddings URL         a server of the /v1/embeddings shape (Ollama, llama.cpp, vLLM, ...)
              --embeddings-model NAME=MODEL  send MODEL for the operation's model NAME (repeatable; URL only)
              --embeddings-key-env VARIABLE  send $VARIABLE as a bearer token (URL only)
            """
    case "execute":
        return """
            usage: dataconnect execute FILE.gql [--emulator HOST:PORT] [--vars JSON] [--operation NAME]

            Runs an admin GraphQL document (any query or mutation against the generated API, no @auth) on a
            running emulator and prints the JSON response. Exit status 1 when the response has errors.
            """
    case "sql":
        return """
            usage: dataconnect sql diff    [--backend DIR] [--postgres URL]
                   dataconnect sql migrate [--backend DIR] [--postgres URL] [--force]
                   dataconnect sql setup   [--postgres URL]
                   dataconnect sql grant   --role reader|writer|owner --user NAME [--postgres URL]

            Manages the SQL schema of a PostgreSQL database the emulator serves from (`emulator --postgres`),
            in the database's current schema (the first of its search_path, usually public).

              diff      print the SQL that would bring the database to the backend's schema: missing enum
                        types and values, tables, columns and indexes; then, marked destructive, tables and
                        columns the schema no longer has and type changes that may lose values. Says "the
                        database matches the schema" when there is nothing to do
              migrate   print that plan and apply it in one transaction, holding the lock emulators take at
                        start-up. A plan with destructive statements is refused (nothing applied, exit 1)
                        unless --force is given; with --force every statement runs. Records the schema's
                        fingerprint, so emulators starting later find the database up to date
              setup     check the connection, the server version (14 or later) and that the user can create
                        tables, and create the emulator's bookkeeping table (_dataconnect_meta)
              grant     give the existing PostgreSQL role NAME access to the schema's tables, and to tables
                        created later by the user running grant: reader SELECT; writer SELECT, INSERT,
                        UPDATE, DELETE; owner ALL and CREATE on the schema (altering a table still needs its
                        PostgreSQL owner). Create the role first (CREATE ROLE NAME LOGIN): Cloud SQL IAM users
                        and service accounts (firebase's --email) have no local equivalent

              --backend DIR   the folder holding dataconnect.yaml (default: the current folder)
              --postgres URL  the database (postgres://user@host:port/db, or a key=value connection string);
                              the default is the environment's FIREBASE_DATACONNECT_POSTGRESQL_STRING
              --force         with migrate: apply destructive statements too (they drop data)
              --role, -R      with grant: reader, writer or owner
              --user, -E      with grant: the role to grant to (--email is accepted too)

            Diff prints SQL on standard output and a summary on standard error.
            Exit status: 0 on success (diff: whether or not there are differences), 1 when the database
            cannot be reached or refuses a statement, the backend has errors, or migrate refuses a
            destructive plan; 2 on a usage error.
            """
    case "postgres":
        return """
            usage: dataconnect postgres start DIR [--port N]
                   dataconnect postgres stop DIR

            start creates a PostgreSQL cluster in DIR when it has none (initdb), starts its server on
            127.0.0.1:N (5432 by default; the socket is in DIR) and prints its URL, ready for
            `dataconnect emulator --postgres URL`; the server keeps running. A running server only prints its URL.
            stop stops it; the data stays in DIR until DIR is removed. Local logins as `postgres` are trusted.
            As root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).
            Needs PostgreSQL's server programs (Debian: the postgresql package).
            Exit status: 0 on success, 1 on failure, 2 on a usage error.
            """
    case "upgrade":
        return """
            usage: dataconnect upgrade [DIR]

            Re-pins the project in DIR (default: the current folder) to this toolkit's version:
            every connector.yaml's coreSdkVersion and the `dataconnectVersion` constant of every Package.swift
            under DIR become \(ToolkitVersion.current), then the SDK is generated again. SwiftPM resolves
            the new version at the next build. Exit status: 0 on success, 1 on failure, 2 on a usage error.
            """
    default:
        return """
            usage: dataconnect <command> [options]

            Commands:
              init        create a project (backend, generated SDK, app, Makefile) from a template
              validate    check a backend's schema and connector operations
              generate    write the typed Swift package of each connector
              emulator    serve a backend locally over HTTP on SQLite or PostgreSQL
              execute     run an admin GraphQL file on a running emulator
              sql         compare and migrate a PostgreSQL database's schema; set it up, grant access
              postgres    start or stop a development PostgreSQL server kept in a directory
              upgrade     re-pin a project to this toolkit's version and regenerate its SDK
              help        show help for a command

            Run `dataconnect help <command>` for a command's options.
            """
    }
}
