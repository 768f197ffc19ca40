import DataConnectProtobuf
import DataConnectWire
import Testing

@Suite struct ProtobufWriterTests {
    @Test func writesVarintsOfEverySize() {
        // given / when
        var writer = ProtobufWriter()
        writer.writeVarint(0)
        writer.writeVarint(1)
        writer.writeVarint(300)
        writer.writeVarint(.max)
        // then
        #expect(writer.bytes == [0x00, 0x01, 0xAC, 0x02] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(ProtobufWriter.varintSize(0) == 1)
        #expect(ProtobufWriter.varintSize(127) == 1)
        #expect(ProtobufWriter.varintSize(128) == 2)
        #expect(ProtobufWriter.varintSize(.max) == 10)
    }

    @Test func writesNegativeInt32AsTenBytes() {
        var writer = ProtobufWriter()
        writer.writeInt32(1, -1)
        #expect(writer.bytes == [0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
    }

    @Test func writesFixedWidthValuesLittleEndian() {
        var writer = ProtobufWriter()
        writer.writeDouble(2, 1.0)
        writer.writeFixed32(0x0403_0201)
        #expect(writer.bytes == [0x11, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0x01, 0x02, 0x03, 0x04])
    }

    @Test func prefixesNestedMessagesWithTheirLengths() {
        // given: a message holding a 200-byte string (two-byte length) inside two levels of nesting
        let text = String(repeating: "x", count: 200)
        var writer = ProtobufWriter()
        writer.writeString(1, "a")
        writer.beginMessage(2)
        writer.beginMessage(3)
        writer.writeString(4, text)
        writer.endMessage()
        writer.beginMessage(5)
        writer.endMessage()
        writer.endMessage()
        writer.writeBool(6, true)
        // then: lengths include the inner prefixes
        let inner: [UInt8] = [0x22, 0xC8, 0x01] + Array(text.utf8)  // 203 bytes
        let middle: [UInt8] = [0x1A, 0xCB, 0x01] + inner + [0x2A, 0x00]  // 208 bytes
        let expected: [UInt8] = [0x0A, 0x01, 0x61, 0x12, 0xD0, 0x01] + middle + [0x30, 0x01]
        #expect(writer.bytes == expected)
        #expect(writer.count == expected.count)
    }

    @Test func nestsDeeplyInLinearTime() {
        // 10,000 levels: each closing adds only its own prefix, nothing is copied.
        var writer = ProtobufWriter()
        for _ in 0..<10_000 { writer.beginMessage(1) }
        writer.writeString(2, "leaf")
        for _ in 0..<10_000 { writer.endMessage() }
        let bytes = writer.bytes
        #expect(bytes.count == writer.count)
        #expect(bytes.suffix(6) == [0x12, 0x04] + Array("leaf".utf8))
    }
}

@Suite struct ProtobufReaderTests {
    /// Reads every field as (number, wire type), skipping values.
    func fields(_ bytes: [UInt8]) throws(ProtobufError) -> [Int] {
        var reader = ProtobufReader(bytes)
        var numbers: [Int] = []
        while let (field, wireType) = try reader.nextField() {
            numbers.append(field)
            try reader.skipField(wireType)
        }
        return numbers
    }

    func failure(_ bytes: [UInt8]) -> ProtobufError? {
        do {
            _ = try fields(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func skipsUnknownFieldsOfEveryWireType() throws {
        let bytes: [UInt8] =
            [0x08, 0x96, 0x01]  // 1: varint 150
            + [0x11] + [UInt8](repeating: 7, count: 8)  // 2: fixed64
            + [0x1A, 0x02, 0x68, 0x69]  // 3: "hi"
            + [0x23, 0x08, 0x01, 0x2B, 0x2C, 0x24]  // 4: group holding field 1 and an empty nested group 5
            + [0x35, 1, 2, 3, 4]  // 6: fixed32
            + [0x38, 0x01]  // 7: varint
        #expect(try fields(bytes) == [1, 2, 3, 4, 6, 7])
    }

    @Test func readsNegativeInt32FromTenBytes() throws {
        var reader = ProtobufReader([UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(try reader.readInt32() == -1)
    }

    @Test func readsPackedAndUnpackedVarints() throws {
        var packed = ProtobufReader([0x03, 0x01, 0xAC, 0x02])
        #expect(try packed.readRepeatedVarints(.lengthDelimited) == [1, 300])
        var single = ProtobufReader([0x05])
        #expect(try single.readRepeatedVarints(.varint) == [5])
    }

    @Test func refusesTruncatedVarint() {
        #expect(failure([0x08, 0x96])?.kind == .truncated)
        #expect(failure([0x88])?.kind == .truncated)
    }

    @Test func refusesOverlongVarint() {
        #expect(failure([0x08] + [UInt8](repeating: 0x80, count: 10) + [0x01])?.kind == .malformedVarint)
    }

    @Test func refusesLengthPastTheEnd() {
        let error = failure([0x0A, 0x05, 0x61])
        #expect(error?.kind == .lengthOutOfBounds)
        #expect(error?.reason == "length 5 runs past the end of the message (1 bytes left)")
    }

    @Test func refusesHugeLength() {
        #expect(failure([0x0A] + [UInt8](repeating: 0xFF, count: 9) + [0x01])?.kind == .lengthOutOfBounds)
    }

    @Test func refusesTruncatedFixedWidthValues() {
        #expect(failure([0x09, 1, 2, 3])?.kind == .truncated)
        #expect(failure([0x0D, 1, 2])?.kind == .truncated)
    }

    @Test func refusesFieldZeroAndBadWireTypes() {
        #expect(failure([0x00, 0x01])?.kind == .invalidFieldNumber)
        #expect(failure([0x0E])?.kind == .invalidWireType)
        #expect(failure([0x0F])?.kind == .invalidWireType)
        #expect(failure([0x0C])?.kind == .invalidWireType)  // end-group out of nowhere
    }

    @Test func refusesGroupWithoutEnd() {
        let error = failure([0x0B, 0x10, 0x01])
        #expect(error?.kind == .unterminatedGroup)
        #expect(error?.reason == "group of field 1 has no end-group")
    }

    @Test func refusesGroupEndedByAnotherField() {
        #expect(failure([0x0B, 0x14])?.kind == .unterminatedGroup)
    }

    @Test func refusesGroupBomb() {
        // 1,000 nested start-groups and their ends: deeper than the limit.
        let bytes = [UInt8](repeating: 0x0B, count: 1000) + [UInt8](repeating: 0x0C, count: 1000)
        #expect(failure(bytes)?.kind == .nestingTooDeep)
    }

    @Test func refusesMessageNestingBomb() {
        // given: a Value holding a list holding a Value … 200 levels deep
        var bytes: [UInt8] = [0x08, 0x00]
        for level in 0..<200 {
            let field: UInt8 = level.isMultiple(of: 2) ? 0x0A : 0x32  // ListValue.values / Value.list_value
            var prefix = [field]
            var length = bytes.count
            while length >= 0x80 {
                prefix.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            prefix.append(UInt8(length))
            bytes = prefix + bytes
        }
        // when / then
        do {
            _ = try JSONValue(protobufValue: bytes)
            Issue.record("a 200-level nesting bomb was accepted")
        } catch {
            #expect(error.kind == .nestingTooDeep)
            #expect(error.fieldPath.hasPrefix("list_value.values[0].list_value"))
        }
    }

    @Test func refusesInvalidUTF8() {
        var reader = ProtobufReader([0x02, 0xC3, 0x28])
        #expect(throws: ProtobufError(.invalidUTF8, "string field is not valid UTF-8")) { try reader.readString() }
    }
}
