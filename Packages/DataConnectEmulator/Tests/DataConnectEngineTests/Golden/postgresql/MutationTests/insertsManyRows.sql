INSERT INTO "actor" ("name", "id") VALUES ($1::text, $2::uuid) RETURNING replace(CAST("id" AS text), '-', '') AS "id";
INSERT INTO "actor" ("name", "id") VALUES ($1::text, $2::uuid) RETURNING replace(CAST("id" AS text), '-', '') AS "id";
