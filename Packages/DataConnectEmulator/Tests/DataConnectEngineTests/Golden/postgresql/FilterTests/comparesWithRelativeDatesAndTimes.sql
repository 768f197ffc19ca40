-- old
SELECT (SELECT coalesce(json_agg(json_build_object('title', t1."title") ORDER BY _o0 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."title", t1."title" AS _o0 FROM "movie" AS t1 WHERE t1."release_date" < $1::date ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);

-- lateIn2019
SELECT (SELECT coalesce(json_agg(json_build_object('title', t1."title") ORDER BY _o0 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."title", t1."title" AS _o0 FROM "movie" AS t1 WHERE t1."release_date" > $1::date ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);

-- early
SELECT (SELECT coalesce(json_agg(json_build_object('title', t1."title") ORDER BY _o0 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."title", t1."title" AS _o0 FROM "movie" AS t1 WHERE t1."created_at" < $1::timestamptz ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);
