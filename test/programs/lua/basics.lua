local t = {}
for i = 1, 200 do t[i] = (i * 7919) % 1009 end
table.sort(t)
local s = 0
for _, v in ipairs(t) do s = s + v end
print(s, #t, t[1], t[#t])
print(string.format("%.6f", math.sin(1.25) * math.sqrt(2)))
print(("segtime"):rep(3, "-"), utf8.len("häßlich"), utf8.offset("häßlich", 3))
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print(fib(20), string.pack(">I4", 258):byte(1, -1))
for w in ("alpha beta gamma"):gmatch("%a+") do io.write(w:upper(), " ") end
print(select("#", table.unpack({1, 2, 3})), coroutine.wrap(function() coroutine.yield(42) end)())
