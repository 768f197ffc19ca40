INSERT INTO "actor" ("name", "id") VALUES ($1::text, $2::uuid) RETURNING encode(uuid_send("id"), 'hex') AS "id";
INSERT INTO "actor" ("name", "id") VALUES ($1::text, $2::uuid) RETURNING encode(uuid_send("id"), 'hex') AS "id";
