-- mine
SELECT (SELECT coalesce(json_group_array(json_object('rating', t1."rating")), '[]') FROM (SELECT t1."rating", t1."rating" AS _o0 FROM "review" AS t1 WHERE t1."user_id" = ?1 ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);

-- others
SELECT (SELECT coalesce(json_group_array(json_object('rating', t1."rating")), '[]') FROM (SELECT t1."rating", t1."movie_id" AS _o0, t1."user_id" AS _o1 FROM "review" AS t1 WHERE t1."user_id" <> ?1 ORDER BY _o0 ASC NULLS LAST, _o1 ASC NULLS LAST LIMIT 100) AS t1);

-- beforeNow
SELECT (SELECT coalesce(json_group_array(json_object('title', t1."title")), '[]') FROM (SELECT t1."title", t1."id" AS _o0 FROM "movie" AS t1 WHERE t1."created_at" < ?1 ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);
