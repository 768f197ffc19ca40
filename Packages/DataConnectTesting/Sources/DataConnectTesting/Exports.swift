// `TestEmulator` lives with the emulator, whose own tests use it; apps get it from here with the transport.
@_exported import EmulatorTesting
