INSERT INTO "user" ("id", "username") VALUES (?1, ?2) ON CONFLICT ("id") DO UPDATE SET "username" = excluded."username" RETURNING "id";
