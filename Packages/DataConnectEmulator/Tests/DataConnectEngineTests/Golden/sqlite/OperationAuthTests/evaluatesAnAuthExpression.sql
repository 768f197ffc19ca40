UPDATE "People" SET "name" = ?1 WHERE rowid = (SELECT s.rowid FROM "People" AS s WHERE s."id" = ?2 LIMIT 1) RETURNING "id";
