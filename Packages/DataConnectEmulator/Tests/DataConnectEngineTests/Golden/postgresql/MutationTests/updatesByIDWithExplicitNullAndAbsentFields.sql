UPDATE "movie" SET "rating" = $1::float8 WHERE ctid = (SELECT s.ctid FROM "movie" AS s WHERE s."id" = $2::uuid LIMIT 1) RETURNING encode(uuid_send("id"), 'hex') AS "id";
