INSERT INTO "user" ("id", "username") VALUES ($1::text, $2::text) ON CONFLICT ("id") DO UPDATE SET "username" = excluded."username" RETURNING "id";
