UPDATE "People" SET "name" = $1::text WHERE ctid = (SELECT s.ctid FROM "People" AS s WHERE s."id" = $2::uuid LIMIT 1) RETURNING encode(uuid_send("id"), 'hex') AS "id";
