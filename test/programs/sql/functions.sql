-- Built-in functions: strings, numbers, dates, JSON, blobs, printf, collation, type affinity.
SELECT upper('abc'), lower('ÀBC'), length('häßlich'), length(CAST('häßlich' AS BLOB)), substr('segtime', 2, 3),
       substr('segtime', -4), replace('a-b-c', '-', '+'), trim('  x  '), ltrim('xxay', 'x'), rtrim('ayy', 'y'),
       instr('hello', 'll'), hex('AZ'), unhex('415A') IS NULL, quote('it''s'), char(72, 105), unicode('é');
SELECT printf('%5d|%-5d|%05.1f|%x|%o|%e|%g|%s|%q|%w|%c', 42, 42, 3.14159, 255, 8, 12345.678, 0.0001, 'str', 'a''b', 'id"x', 'Z');
SELECT printf('%.3f', 2.0 / 3), 7 / 2, 7 / 2.0, 7 % 3, -7 % 3, 1 << 10, 1024 >> 3, 6 & 3, 6 | 3, ~0, abs(-5), sign(-3.2);
SELECT round(2.5), round(-2.5), round(1.2345, 2), ceil(1.2), floor(-1.2), sqrt(16), pow(2, 10), exp(0), ln(1), log10(1000),
       log(2, 8), pi() > 3.14, mod(10, 4), trunc(-2.7), degrees(pi()), radians(180) = pi();
SELECT max(1, 'a', 2.5), min(3, 1, 2), typeof(1), typeof(1.0), typeof('1'), typeof(x'01'), typeof(NULL),
       CAST('12abc' AS INTEGER), CAST(3.99 AS INTEGER), CAST(10 AS TEXT) || 'x', '10' + 5, '3.5e2' * 1;
SELECT 9223372036854775807 + 0, -9223372036854775808, 9223372036854775807 + 1, 1e308 * 10, -1e308 * 10, 0.1 + 0.2;
SELECT date('2024-02-28', '+1 day'), date('2023-02-28', '+1 day'), datetime('2020-01-01 12:00:00', '+90 minutes'),
       julianday('2000-01-01') - julianday('1999-01-01'), strftime('%w %j %W', '2024-12-31'),
       date('2024-01-31', '+1 month'), date('2024-03-15', 'start of month', '-1 day'), time('13:45:10', '+30 seconds'),
       unixepoch('1970-01-02'), datetime(86400 * 365, 'unixepoch');
SELECT json('{"a":1, "b":[1,2,3]}'), json_extract('{"a":{"b":[10,20]}}', '$.a.b[1]'), json_array_length('[1,2,3,4]'),
       json_object('k', 1, 'l', json('[true,false,null]')), json_set('{"a":1}', '$.b', 2), json_remove('[1,2,3]', '$[1]'),
       json_type('{"a":1.5}', '$.a'), json_valid('{bad'), json_insert('{"a":1}', '$.a', 9, '$.c', 'x'),
       json_replace('{"a":1}', '$.a', 'z'), json_patch('{"a":1,"b":2}', '{"b":null,"c":3}'), json_quote('q"');
SELECT key, value, type FROM json_each('{"x":1,"y":[2,3],"z":{"w":null}}') ORDER BY key;
SELECT fullkey, value FROM json_tree('{"a":[1,{"b":2}]}') WHERE atom IS NOT NULL ORDER BY fullkey;
SELECT json_group_array(v), json_group_object(k, v) FROM (SELECT 'k' || value AS k, value * value AS v FROM generate_series(1, 5));
SELECT hex(zeroblob(4)), length(randomblob(16)), hex(x'00ff10'), x'41' = 'A', CAST(x'414243' AS TEXT);
SELECT 'abc' = 'ABC', 'abc' = 'ABC' COLLATE NOCASE, 'a ' = 'a' COLLATE RTRIM, 'b' > 'a', 'B' < 'a', 10 < '9', 10 < 9;
SELECT 'x' LIKE 'X', 'x' GLOB 'X', 'abc' LIKE 'a%', 'abc' GLOB 'a?c', 'a_c' LIKE 'a\_c' ESCAPE '\', 'abc' GLOB '[a-b]*';
SELECT group_concat(value, '') FROM (SELECT value FROM generate_series(1, 20) ORDER BY value DESC);
SELECT sum(value), total(value * 0.5), avg(value), count(*) FROM generate_series(1, 100000);
SELECT format('%s has %d items costing %.2f', 'cart', 3, 9.5), concat('a', NULL, 'b', 1), concat_ws('-', 'a', 'b', NULL, 'c');
SELECT soundex('Robert'), likelihood(1, 0.5), sqlite_version() IS NOT NULL, changes(), total_changes() >= 0;
SELECT substr(hex(CAST(1.0 AS BLOB)), 1, 6), length(printf('%.*c', 100, 'x')), octet_length('é'), 'é' < 'z';
