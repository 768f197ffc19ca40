-- rated
UPDATE "movie" SET "rating" = $1::float8 WHERE "movie"."genre" = $2::"Genre";

-- classified
UPDATE "movie" SET "is_classic" = ($1::int4 <> 0) WHERE TRUE;

-- deleted
DELETE FROM "movie" WHERE "movie"."release_year" IS NULL;
