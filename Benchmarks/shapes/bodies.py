#!/usr/bin/env python3
"""Prints the request bodies of one shape, one JSON document a line, for the tools that send a shape's requests
themselves (cpu-split.sh, instructions.sh): get-by-key takes 1,000 movie ids of the seeded database in turn, the lists
the 10 genres.

Usage: bodies.py DATABASE SHAPE CONNECTOR_NAME
"""
import json
import sqlite3
import sys

database, shape, name = sys.argv[1:]
if shape == "getMovie":
    ids = [row[0] for row in sqlite3.connect(database).execute("SELECT id FROM movie ORDER BY id LIMIT 1000")]
    variables = [{"id": i} for i in ids]
else:
    genres = "ACTION ANIMATION COMEDY CRIME DOCUMENTARY DRAMA FANTASY HORROR ROMANCE SCI_FI".split()
    variables = [{"genre": g} for g in genres]
for v in variables:
    print(json.dumps({"name": name, "operationName": shape, "variables": v}))
