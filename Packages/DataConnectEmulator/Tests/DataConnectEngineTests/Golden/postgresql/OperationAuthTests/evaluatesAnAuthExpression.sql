UPDATE "People" SET "name" = $1::text WHERE ctid = (SELECT s.ctid FROM "People" AS s WHERE s."id" = $2::uuid LIMIT 1) RETURNING replace(CAST("id" AS text), '-', '') AS "id";
