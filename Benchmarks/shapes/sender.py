#!/usr/bin/env python3
"""Sends COUNT requests one at a time on one kept-alive HTTP/1.1 connection: the bodies of BODIES (one a line) in
turn, POSTed to PATH on 127.0.0.1:PORT; exits non-zero at the first answer that is not 200.

Usage: sender.py PORT PATH BODIES COUNT
"""
import http.client
import sys

port, path, bodies_file, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
bodies = [line.strip().encode() for line in open(bodies_file) if line.strip()]
connection = http.client.HTTPConnection("127.0.0.1", port)
for index in range(count):
    connection.request("POST", path, body=bodies[index % len(bodies)], headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    if response.status != 200:
        sys.exit(f"sender.py: status {response.status}: {data[:300]!r}")
