INSERT INTO "movie" ("title", "id", "created_at") VALUES ($1::text, $2::uuid, $3::timestamptz) RETURNING replace(CAST("id" AS text), '-', '') AS "id";
