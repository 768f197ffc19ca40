INSERT INTO "movie" ("title", "id", "created_at") VALUES ($1::text, $2::uuid, $3::timestamptz) RETURNING encode(uuid_send("id"), 'hex') AS "id";
