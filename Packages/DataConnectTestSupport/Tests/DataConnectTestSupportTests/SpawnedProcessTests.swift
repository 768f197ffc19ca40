import ProcessSpawning
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `posix_spawn` runner: exit statuses, signals, both output streams, environment and working directory.
@Suite struct SpawnedProcessTests {
    static func shell(_ script: String) -> [String] { ["-c", script] }

    @Test func aProgramRunsToItsEndWithBothStreamsAndItsStatus() throws {
        // when
        let (termination, output, errors) = try SpawnedProcess.run(
            "/bin/sh", Self.shell("echo out; echo err >&2; exit 3"))

        // then
        #expect(termination == .exit(3))
        #expect(String(decoding: output, as: UTF8.self) == "out\n")
        #expect(String(decoding: errors, as: UTF8.self) == "err\n")
    }

    @Test func mergedStreamsKeepTheOrderTheyWereWrittenIn() throws {
        // when
        let (termination, output, errors) = try SpawnedProcess.run(
            "/bin/sh", Self.shell("echo 1; echo 2 >&2; echo 3"), mergingErrors: true)

        // then
        #expect(termination == .exit(0))
        #expect(String(decoding: output, as: UTF8.self) == "1\n2\n3\n")
        #expect(errors.isEmpty)
    }

    @Test func aChattyChildNeverBlocksOnAFullPipe() throws {
        // given: far more than a pipe holds, on both streams
        let script =
            "i=0; while [ $i -lt 2000 ]; do echo 0123456789012345678901234567890123456789; "
            + "echo abcdefghijabcdefghijabcdefghijabcdefghij >&2; i=$((i+1)); done"

        // when
        let (termination, output, errors) = try SpawnedProcess.run("/bin/sh", Self.shell(script))

        // then
        #expect(termination == .exit(0))
        #expect(output.count == 2000 * 41 && errors.count == 2000 * 41)
    }

    @Test func theEnvironmentAndWorkingDirectoryAreTheChildsOwn() throws {
        // when
        let (_, output, _) = try SpawnedProcess.run(
            "/bin/sh", Self.shell("echo \"$GREETING\"; pwd; echo \"${HOME:-unset}\""), environment: ["GREETING": "hi"],
            workingDirectory: "/tmp")

        // then
        #expect(String(decoding: output, as: UTF8.self) == "hi\n/tmp\nunset\n")
    }

    @Test func aSignalEndsAChildAndIsReported() throws {
        // given
        let child = try SpawnedProcess(executable: "/bin/sleep", arguments: ["600"], output: .null, errors: .null)

        // when
        child.send(SIGTERM)

        // then
        #expect(child.waitForExit() == .signal(SIGTERM))
        #expect(child.waitForExit().shellStatus == 128 + SIGTERM)
        child.send(SIGKILL)  // after the reaping: nothing happens
        #expect(child.termination == .signal(SIGTERM))
    }

    @Test func theChildStartsWithDefaultSignalHandlingAndNoInheritedDescriptors() throws {
        // given: this process ignores SIGINT, and holds a descriptor above 2 that is not closed on exec
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        let extra = open("/dev/null", O_RDONLY)
        defer { close(extra) }

        // when
        let (_, output, _) = try SpawnedProcess.run(
            "/bin/sh", Self.shell("grep '^SigIgn' /proc/self/status; [ -e /proc/self/fd/\(extra) ] && echo leaked"))

        // then: SIGINT's bit (2) is clear in the child's ignored set; glibc's own real-time signals may stay
        let text = String(decoding: output, as: UTF8.self)
        let ignored = text.split(separator: "\t").last.flatMap { UInt64($0.dropLast(), radix: 16) }
        #expect(ignored.map { $0 & (1 << (UInt64(SIGINT) - 1)) == 0 } == true, "\(text)")
        #expect(!text.contains("leaked"))
    }

    @Test func standardInputAndFilesAreWired() throws {
        // given
        let path = "/tmp/spawned-process-test-\(getpid())"
        defer { unlink(path) }
        let child = try SpawnedProcess(
            executable: "/bin/sh", arguments: Self.shell("cat; echo done >&2"), input: .pipe, output: .file(path),
            errors: .standardOutput)

        // when
        let input = try #require(child.standardInput)
        _ = Array("piped\n".utf8).withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        close(input)

        // then
        #expect(child.waitForExit() == .exit(0))
        let (_, written, _) = try SpawnedProcess.run("/bin/cat", [path])
        #expect(String(decoding: written, as: UTF8.self) == "piped\ndone\n")
    }

    @Test func aMissingProgramIsALaunchError() {
        #expect(throws: SpawnedProcess.LaunchError.self) {
            try SpawnedProcess.run("/nonexistent/program")
        }
    }
}
