-- Strings, patterns, formatting, string.pack and utf8: results printed and asserted.
local s = "The quick brown fox jumps over the lazy dog"
assert(#s == 43 and s:upper():sub(1, 9) == "THE QUICK")
local words = {}
for w in s:gmatch("%a+") do words[#words + 1] = w end
assert(#words == 9)
print(table.concat(words, ","))
print(s:gsub("o", "0"))
print(s:find("fox"), s:find("f.x"), s:find("f.x", 1, true), s:match("(%a+) dog$"))
print(("%5.2f|%-6s|%06d|%x|%X|%o|%e|%g|%q"):format(math.pi, "ab", 42, 255, 255, 8, 12345.678, 1e20, "a\nb\0c"))
print(string.format("%10.3s|%-10s|%+d|% d|%%", "abcdef", "x", 5, 7))
print(("abc"):rep(4, "-"), ("hello"):reverse(), ("x"):byte(), string.char(72, 105))
print(("  trim me  "):match("^%s*(.-)%s*$") .. "|")
print(("key1=val1, key2=val2"):gsub("(%w+)=(%w+)", "%2=%1"))
print(("hello world from lua"):gsub("%w+", function(w) return w:sub(1, 1):upper() .. w:sub(2) end))
print(("abc"):gsub("", "-"))
print(("THE (quick) fox"):find("%((%a+)%)"))
print(("[[x]] [[y]]"):gsub("%[%[(.-)%]%]", "<%1>"))
print(("f(a(b)c)d"):match("%b()"), ("--x--"):match("%f[%w]%w+"))
local t = {}
for k, v in ("a=1;b=2;c=3"):gmatch("(%w+)=(%w+)") do t[#t + 1] = k .. v end
print(table.concat(t, " "))
-- string.pack / unpack
local p = string.pack("<i4 >i2 z s1 d", -2, 513, "zero", "len", 2.5)
print(#p, string.unpack("<i4 >i2 z s1 d", p))
print(string.packsize("i4i8"), string.pack(">I3", 0x010203):byte(1, -1))
-- utf8
local u = "añb€c😀"
print(utf8.len(u), #u, utf8.char(72, 228, 8364, 128512))
for p_, c in utf8.codes("añ€") do io.write(p_, ":", c, " ") end
print()
print(utf8.codepoint(u, 1, -1))
print(utf8.offset(u, 3), utf8.offset(u, -1), utf8.len("\xff"))
-- tostring / tonumber
print(tostring(1e15), tostring(1e16), tostring(-0.0), tostring(1/0), tostring(-1/0), 2^53, 2^63)
print(tonumber("0x1p4"), tonumber("  12  "), tonumber("z", 36), tonumber("7fffffff", 16), tonumber("1e"), tonumber("10", 2))
print(math.tointeger(3.0), math.tointeger(3.5), 7 // 2, -7 // 2, 7 % -3, -7 % 3, 7.5 // 2, 2^-1)
print(string.format("%.14g", 0.1 + 0.2), 0.1 + 0.2 == 0.3, 1e300 * 1e10, -(0/0) ~= -(0/0))
-- long string building
local parts = {}
for i = 1, 10000 do parts[i] = string.format("%04d", i % 9973) end
local big = table.concat(parts)
print(#big, big:sub(1, 20), big:sub(-12))
local cnt = select(2, big:gsub("99", ""))
print("count 99:", cnt)
assert(select(2, ("aaa"):gsub("a", "b")) == 3)
print("strings ok")
