INSERT INTO "event" ("id", "day", "created_at", "owner") VALUES ($1::uuid, $2::date, $3::timestamptz, $4::text) RETURNING encode(uuid_send("id"), 'hex') AS "id";
