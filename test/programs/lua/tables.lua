-- Tables: sort, move, concat, unpack, length, next, metatables, weak tables, inheritance.
local t = {}
for i = 1, 1000 do t[i] = (i * 7919) % 1009 end
table.sort(t)
for i = 2, #t do assert(t[i - 1] <= t[i]) end
print(t[1], t[500], t[1000], #t)
table.sort(t, function(a, b) return a > b end)
print(t[1], t[1000])
local names = {"delta", "alpha", "Charlie", "bravo", "echo"}
table.sort(names, function(a, b) return a:lower() < b:lower() end)
print(table.concat(names, " "))
local m = table.move({1, 2, 3, 4, 5}, 2, 4, 1)
print(table.concat(m, ","))
print(table.unpack({1, 2, 3}, 2), select("#", table.unpack({}, 1, 3)))
local r = {}
table.insert(r, "b"); table.insert(r, 1, "a"); table.insert(r, "c")
print(table.concat(r), table.remove(r), table.remove(r, 1), table.concat(r))
local packed = table.pack(1, nil, 3)
print(packed.n, packed[1], packed[2], packed[3])
-- hash part, counting keys deterministically
local h = {}
for i = 1, 5000 do h["k" .. i] = i end
for i = 1, 5000, 2 do h["k" .. i] = nil end
local n, sum = 0, 0
for k, v in pairs(h) do n = n + 1; sum = sum + v end
print(n, sum)
-- metatables: vectors
local V = {}
V.__index = V
local function vec(x, y) return setmetatable({x = x, y = y}, V) end
V.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
V.__mul = function(a, k) return vec(a.x * k, a.y * k) end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a:len2() < b:len2() end
V.__le = function(a, b) return a:len2() <= b:len2() end
V.__tostring = function(a) return "(" .. a.x .. "," .. a.y .. ")" end
V.__len = function() return 2 end
V.__call = function(self, k) return self.x * k end
V.__concat = function(a, b) return tostring(a) .. tostring(b) end
V.__unm = function(a) return vec(-a.x, -a.y) end
function V:len2() return self.x * self.x + self.y * self.y end
local a, b = vec(1, 2), vec(3, 4)
print(tostring(a + b), tostring(a * 3), a == vec(1, 2), a < b, b <= a, #a, a(10), a .. b, tostring(-a))
-- __index / __newindex chains, rawget/rawset
local log = {}
local proxy = setmetatable({}, {__index = function(_, k) return k .. "!" end,
                                 __newindex = function(t_, k, v) log[#log + 1] = k; rawset(t_, k, v * 2) end})
proxy.a = 1; proxy.b = 2
print(proxy.a, proxy.b, proxy.c, rawget(proxy, "c"), table.concat(log, ","))
-- inheritance
local Animal = {}
Animal.__index = Animal
function Animal.new(name, sound) return setmetatable({name = name, sound = sound}, Animal) end
function Animal:speak() return self.name .. " says " .. self.sound end
local Dog = setmetatable({}, {__index = Animal})
Dog.__index = Dog
function Dog.new(name) local d = Animal.new(name, "woof"); return setmetatable(d, Dog) end
function Dog:fetch() return self.name .. " fetches" end
local d = Dog.new("rex")
print(d:speak(), d:fetch(), getmetatable(d) == Dog)
-- weak tables
local weak = setmetatable({}, {__mode = "k"})
do local key = {}; weak[key] = 1 end
collectgarbage(); collectgarbage()
local left = 0
for _ in pairs(weak) do left = left + 1 end
print("weak keys left", left)
-- __close and __gc
do
  local closed = {}
  do
    local x <close> = setmetatable({}, {__close = function() closed[#closed + 1] = "x" end})
    local y <close> = setmetatable({}, {__close = function() closed[#closed + 1] = "y" end})
  end
  print("closed", table.concat(closed, ","))
end
local gcd = 0
for i = 1, 100 do setmetatable({}, {__gc = function() gcd = gcd + 1 end}) end
collectgarbage(); collectgarbage()
print("finalised", gcd)
-- table.concat with numbers and nested
local nested = {}
for i = 1, 50 do nested[i] = {i, i * i, tostring(i)} end
local acc = 0
for _, row in ipairs(nested) do acc = acc + row[2] end
print(acc, #nested, nested[50][3])
print("tables ok")
