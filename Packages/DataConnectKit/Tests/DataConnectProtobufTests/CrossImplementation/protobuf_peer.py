"""The other implementation for DataConnectProtobuf's cross-implementation tests: Google's Python protobuf.

Usage: protobuf_peer.py PROTOS_DIR WORK_DIR < cases.jsonl > results.jsonl

Compiles every .proto under PROTOS_DIR with grpc_tools.protoc into a descriptor set in WORK_DIR and builds the
message classes from it in a private descriptor pool. (Generated _pb2 modules would collide with the
google/rpc/code.proto and grpc/reflection modules the virtual environment already ships: the same file names in
the default pool.) Then answers one JSON line per case, in order:

  {"op": "decode", "type": T, "hex": H}          -> {"json": MessageToDict(T parsed from H)} or {"error": ...}
  {"op": "encode", "type": T, "json": J}         -> {"hex": ParseDict(J, T) serialized}
  {"op": "encode_unknown", "type": T, "json": J} -> the same, with unknown fields of every wire type (a group
                                                    holding a nested group included) added to the message and to
                                                    every message inside it
"""

import json
import os
import sys

import grpc_tools
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from grpc_tools import protoc


def varint(value):
    out = bytearray()
    value &= (1 << 64) - 1
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def tag(field, wire_type):
    return varint(field << 3 | wire_type)


# Field numbers no message here uses, one per wire type, and a group with a nested group and a fixed32 inside.
UNKNOWN_FIELDS = (
    tag(1001, 0) + varint(-5)
    + tag(1002, 1) + (0x0102030405060708).to_bytes(8, "little")
    + tag(1003, 2) + varint(3) + b"abc"
    + tag(1004, 3) + tag(1, 0) + varint(7) + tag(2, 3) + tag(3, 2) + varint(1) + b"x" + tag(2, 4) + tag(1004, 4)
    + tag(1005, 5) + (0xDEADBEEF).to_bytes(4, "little")
)


def load_pool(protos, work):
    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    files = sorted(
        os.path.relpath(os.path.join(folder, name), protos)
        for folder, _, names in os.walk(protos)
        for name in names
        if name.endswith(".proto")
    )
    out = os.path.join(work, "descriptors.pb")
    status = protoc.main(
        ["protoc", "-I", protos, "-I", include, "--include_imports", "--descriptor_set_out=" + out] + files
    )
    if status != 0:
        sys.exit("protoc failed with status %d" % status)
    descriptor_set = descriptor_pb2.FileDescriptorSet()
    with open(out, "rb") as handle:
        descriptor_set.ParseFromString(handle.read())
    pool = descriptor_pool.DescriptorPool()
    for file in descriptor_set.file:
        pool.Add(file)
    return pool


def add_unknown_fields(message):
    """Adds UNKNOWN_FIELDS to `message` and to every message inside it (map values and list elements too)."""
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            value_field = field.message_type.fields_by_name["value"]
            if value_field.message_type is not None:
                for key in value:
                    add_unknown_fields(value[key])
        elif field.is_repeated:
            for element in value:
                add_unknown_fields(element)
        else:
            add_unknown_fields(value)
    message.MergeFromString(UNKNOWN_FIELDS)


def main():
    pool = load_pool(sys.argv[1], sys.argv[2])
    classes = {}

    def message_class(name):
        if name not in classes:
            classes[name] = message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
        return classes[name]

    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            cls = message_class(case["type"])
            if case["op"] == "decode":
                message = cls()
                message.ParseFromString(bytes.fromhex(case["hex"]))
                result = {"json": json_format.MessageToDict(message, preserving_proto_field_name=True)}
            else:
                message = json_format.ParseDict(case["json"], cls())
                if case["op"] == "encode_unknown":
                    add_unknown_fields(message)
                result = {"hex": message.SerializeToString().hex()}
        except Exception as error:  # reported to the Swift side, which decides whether it was expected
            result = {"error": "%s: %s" % (type(error).__name__, error)}
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
