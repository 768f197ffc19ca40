-- rated
UPDATE "movie" SET "rating" = ?1 WHERE "movie"."genre" = ?2;

-- classified
UPDATE "movie" SET "is_classic" = ?1 WHERE 1;

-- deleted
DELETE FROM "movie" WHERE "movie"."release_year" IS NULL;
