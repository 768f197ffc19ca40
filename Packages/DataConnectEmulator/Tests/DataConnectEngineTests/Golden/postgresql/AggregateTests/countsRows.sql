SELECT (SELECT CASE WHEN coalesce(100, 1) <> 0 THEN json_build_array(json_build_object('_count', COUNT(*))) ELSE '[]'::json END FROM "movie" AS t1);
