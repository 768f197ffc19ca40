#!/usr/bin/env python3
"""Writes the search benchmark's backend and data: 10,000 movies with a searchable title and description and a
64-dimensional embedding, as one seed mutation, plus the request bodies of the measured queries: an indexed list,
a search for two common words (about 15% of the films match both), a search for one rare word (about 7 films), and
a similarity scan.
Usage: gen_data.py OUT_DIR   (deterministic: the same files on every run)"""
import json
import os
import random
import sys

out = sys.argv[1]
rng = random.Random(16)
words = ("love war space machine dream city night river ghost king queen robot heart storm island winter "
         "summer secret shadow fire ocean star garden letter train road house family stranger mountain").split()
os.makedirs(f"{out}/backend/schema", exist_ok=True)
os.makedirs(f"{out}/backend/catalog", exist_ok=True)
with open(f"{out}/backend/dataconnect.yaml", "w") as f:
    f.write('specVersion: "v1"\nserviceId: "bench"\nlocation: "us-central1"\nschema:\n  source: "./schema"\n'
            '  datasource:\n    postgresql:\n      database: "bench"\nconnectorDirs: ["./catalog"]\n')
with open(f"{out}/backend/schema/schema.gql", "w") as f:
    f.write("type Movie @table {\n  title: String! @searchable\n  description: String @searchable\n"
            "  year: Int! @index\n  embedding: Vector @col(size: 64)\n}\n")
with open(f"{out}/backend/catalog/connector.yaml", "w") as f:
    f.write('connectorId: "catalog"\n')
with open(f"{out}/backend/catalog/operations.gql", "w") as f:
    f.write("""query byYear($year: Int!) @auth(level: PUBLIC) {
  movies(where: {year: {eq: $year}}, limit: 20) { id title year }
}
query search($query: String!) @auth(level: PUBLIC) {
  movies_search(query: $query, limit: 20) { id title _metadata { relevance } }
}
query similar($compare: Vector!) @auth(level: PUBLIC) {
  movies_embedding_similarity(compare: $compare, method: COSINE, limit: 20) { id title _metadata { distance } }
}
""")

def vector():
    return [round(rng.uniform(-1, 1), 4) for _ in range(64)]

# A long tail beside the common words: each description also holds two of 3,000 rarer words (about 7 films each),
# as names and places do in real descriptions.
rare = [f"word{n:04d}x" for n in range(3_000)]
rows = []
for i in range(10_000):
    title = " ".join(rng.choice(words) for _ in range(3)).title()
    description = " ".join([rng.choice(words) for _ in range(12)] + [rng.choice(rare), rng.choice(rare)])
    rows.append("    {title: %s, description: %s, year: %d, embedding: %s}" % (
        json.dumps(title), json.dumps(description), 1950 + i % 75, json.dumps(vector())))
with open(f"{out}/seed.gql", "w") as f:
    f.write("mutation @transaction {\n  movie_insertMany(data: [\n" + ",\n".join(rows) + "\n  ])\n}\n")

def bodies(name, operation, variables):
    with open(f"{out}/{name}.jsonl", "w") as f:
        for v in variables:
            f.write(json.dumps({"name": "projects/p/locations/l/services/bench/connectors/catalog",
                                "operationName": operation, "variables": v}) + "\n")

bodies("list", "byYear", [{"year": 1950 + i} for i in range(75)])
bodies("search", "search", [{"query": f"{rng.choice(words)} {rng.choice(words)}"} for _ in range(100)])
bodies("search-rare", "search", [{"query": rng.choice(rare)} for _ in range(100)])
bodies("similar", "similar", [{"compare": vector()} for _ in range(100)])
