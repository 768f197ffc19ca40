-- mine
SELECT (SELECT coalesce(json_agg(json_build_object('rating', t1."rating") ORDER BY _o0 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."rating", t1."rating" AS _o0 FROM "review" AS t1 WHERE t1."user_id" = $1::text ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);

-- others
SELECT (SELECT coalesce(json_agg(json_build_object('rating', t1."rating") ORDER BY _o0 ASC NULLS LAST, _o1 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."rating", t1."movie_id" AS _o0, t1."user_id" AS _o1 FROM "review" AS t1 WHERE t1."user_id" <> $1::text ORDER BY _o0 ASC NULLS LAST, _o1 ASC NULLS LAST LIMIT 100) AS t1);

-- beforeNow
SELECT (SELECT coalesce(json_agg(json_build_object('title', t1."title") ORDER BY _o0 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."title", t1."id" AS _o0 FROM "movie" AS t1 WHERE t1."created_at" < $1::timestamptz ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);
