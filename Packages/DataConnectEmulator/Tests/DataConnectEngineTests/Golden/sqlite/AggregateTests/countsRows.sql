SELECT dataconnect_embed((SELECT CASE WHEN coalesce(100, 1) <> 0 THEN json_array(json_object('_count', COUNT(*))) ELSE json_array() END FROM "movie" AS t1));
